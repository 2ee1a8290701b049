"""LibreOffice, a program no one on this project made, reads a Word-saved document after one of
its words was changed, by edit_file and by write_file of read_file's rendering with that word
changed: the only paragraph whose text differs is the one changed, list marks, indents, blanks
and empty paragraphs and all (write_file merges the new text into the document's own XML:
word_merge). Runs where LibreOffice is installed (CI installs it: .ci/run); skipped
elsewhere."""

from __future__ import annotations

import difflib
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from app.core.documents import render_document
from tests.core.documents.tool_folder import one_task_folder, toolbox

TASK = "Notes"
WORD_DATA = Path(__file__).resolve().parents[2] / "data" / "word"
WORD_SAVED = sorted(p for p in WORD_DATA.glob("*/*.docx") if "password" not in p.name)
_WORD = re.compile(r"[^\W\d_]{5,}")   # a word of five letters or more, in any script


def _soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def _unique_word(shown: str) -> str | None:
    """A word that stands once in the rendering, in the body's text (not in a header,
    a text box or a note, which LibreOffice's plain text leaves out)."""
    for line in shown.splitlines():
        if line.startswith(("[", "(")):   # a mark, or "(… holds no text.)"
            continue
        for word in _WORD.findall(line):
            if shown.count(word) == 1:
                return word
    return None


def _as_text(soffice: str, files: list[Path], out: Path, profile: Path) -> None:
    subprocess.run([soffice, f"-env:UserInstallation={profile.as_uri()}", "--headless",
                    "--convert-to", "txt:Text (encoded):UTF8", "--outdir", str(out),
                    *map(str, files)], check=True, capture_output=True, timeout=300)


def _changed_lines(before: Path, after: Path) -> tuple[list[str], list[str]]:
    """The lines only `before` has, and those only `after` has (empty ones too)."""
    a, b = (p.read_text(encoding="utf-8-sig").splitlines() for p in (before, after))
    diff = list(difflib.unified_diff(a, b, lineterm="", n=0))[2:]
    return ([d[1:] for d in diff if d.startswith("-")], [d[1:] for d in diff if d.startswith("+")])


@pytest.mark.skipif(_soffice() is None, reason="LibreOffice is not installed")
def test_libreoffice_sees_only_the_changed_paragraph_changed(tmp_path):
    soffice = _soffice()
    assert soffice is not None
    for side in ("e", "w", "originals"):
        (tmp_path / side).mkdir()
    originals, edited, written = (tmp_path / "originals", one_task_folder(tmp_path / "e", TASK),
                                  one_task_folder(tmp_path / "w", TASK))
    edit_box, write_box = toolbox(edited, TASK), toolbox(written, TASK)
    words: dict[str, str] = {}
    rewritten: list[str] = []
    for path in WORD_SAVED:
        for folder in (originals, edited, written):
            shutil.copy(path, folder / path.name)
        shown = render_document(originals / path.name)
        word = _unique_word(shown)
        if word is None:   # a document with no text (doc-coreprops.docx)
            continue
        words[path.name] = word
        out = edit_box.call("edit_file", {"path": path.name, "old_text": word,
                                          "new_text": f"Zebra{word}"})
        assert not out.is_error, (path.name, out.content)
        out = write_box.call("write_file", {"path": path.name,
                                            "content": shown.replace(word, f"Zebra{word}")})
        assert not out.is_error, (path.name, out.content)
        rewritten.append(path.name)
    assert len(words) >= 12 and rewritten == list(words), (words, rewritten)
    for folder, names in ((originals, list(words)), (edited, list(words)), (written, rewritten)):
        _as_text(soffice, [folder / n for n in names], tmp_path / f"txt_{folder.parent.name}"
                 f"_{folder.name}", tmp_path / "profile")
    texts = {folder: tmp_path / f"txt_{folder.parent.name}_{folder.name}"
             for folder in (originals, edited, written)}
    for folder, names in ((edited, list(words)), (written, rewritten)):
        for name in names:
            txt = Path(name).with_suffix(".txt").name
            gone, came = _changed_lines(texts[originals] / txt, texts[folder] / txt)
            word = words[name]
            assert len(gone) == 1 and came == [gone[0].replace(word, f"Zebra{word}")], \
                (folder.parent.name, name, gone[:5], came[:5])


@pytest.mark.skipif(_soffice() is None, reason="LibreOffice is not installed")
def test_libreoffice_numbers_added_list_items_as_the_text_has_them(tmp_path):
    """POI's ComplexNumberedLists.docx: an item added at the second level, one at the third,
    and a first item before the list that restarts at 1 (after a new paragraph), the items
    after it renumbered: LibreOffice numbers each as read_file showed it (the restarted
    list's items one on), and every other line is as it was."""
    soffice = _soffice()
    assert soffice is not None
    (tmp_path / "w").mkdir()
    folder = one_task_folder(tmp_path / "w", TASK)
    original = tmp_path / "original"
    original.mkdir()
    name = "ComplexNumberedLists.docx"
    for target in (folder, original):
        shutil.copy(WORD_DATA / "poi" / name, target / name)
    shown = render_document(original / name)
    new = (shown.replace("3. Entry #3\n", "3. Entry #3\n  a. Child of three\n")
           .replace("  c. 2-c\n", "  c. 2-c\n    i. Deep child\n")
           .replace("4. Entry #4\n1. Restarted to 1 from 5\n2. Restarted @ 2\n3. Restarted @ 3\n",
                    "4. Entry #4\n\nA note.\n\n1. New first\n2. Restarted to 1 from 5\n"
                    "3. Restarted @ 2\n4. Restarted @ 3\n"))
    out = toolbox(folder, TASK).call("write_file", {"path": name, "content": new})
    assert not out.is_error, out.content
    assert render_document(folder / name) == new
    for side in (original, folder):
        _as_text(soffice, [side / name], tmp_path / f"txt_{side.name}", tmp_path / "profile")
    gone, came = _changed_lines(tmp_path / f"txt_{original.name}" / "ComplexNumberedLists.txt",
                                tmp_path / f"txt_{folder.name}" / "ComplexNumberedLists.txt")
    restarted = ["Restarted to 1 from 5", "Restarted @ 2", "Restarted @ 3"]
    assert [line.strip() for line in gone] == [f"{n}. {t}" for n, t in enumerate(restarted, 1)]
    assert sorted(line.strip() for line in came) == sorted(
        ["a. Child of three", "i. Deep child", "A note.", "1. New first"] +
        [f"{n}. {t}" for n, t in enumerate(restarted, 2)]), came


def _changes(odt: Path) -> list[tuple[str, str]]:
    """(kind, author) of each tracked change LibreOffice read, from its OpenDocument."""
    with zipfile.ZipFile(odt) as zf:
        content = zf.read("content.xml").decode("utf-8")
    return [(kind, author) for region in re.findall(
        r"<text:changed-region.*?</text:changed-region>", content, re.S)
        for kind, author in re.findall(r"<text:(insertion|deletion|format-change)>.*?"
                                       r"<dc:creator>([^<]*)</dc:creator>", region, re.S)]


@pytest.mark.skipif(_soffice() is None, reason="LibreOffice is not installed")
def test_libreoffice_reads_write_files_tracked_changes(tmp_path):
    """POI's delins.docx tracks changes: write_file's changes (a word changed, a paragraph
    made again with a bold word, one added, one removed) are tracked changes by Harness
    Desk to LibreOffice too, and pavel's own are still there."""
    soffice = _soffice()
    assert soffice is not None
    (tmp_path / "w").mkdir()
    folder = one_task_folder(tmp_path / "w", TASK)
    original = tmp_path / "original"
    original.mkdir()
    for target in (folder, original):
        shutil.copy(WORD_DATA / "poi" / "delins.docx", target / "delins.docx")
    shown = render_document(original / "delins.docx")
    new = (shown.replace("A Nepalese name for", "A Nepali name for")
           .replace("A place in [Abkhazia]", "A **place** in [Abkhazia]")
           .replace("- A title in certain Indian monarchies for a [Crown Prince]"
                    "(http://en.wikipedia.org/wiki/Crown_Prince)\n", "")
           .replace("**Tika** can be:\n", "**Tika** can be:\n\nA new *paragraph* here.\n"))
    out = toolbox(folder, TASK).call("write_file", {"path": "delins.docx", "content": new})
    assert not out.is_error, out.content
    for side in (original, folder):
        subprocess.run([soffice, f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}",
                        "--headless", "--convert-to", "odt", "--outdir",
                        str(tmp_path / f"odt_{side.name}"), str(side / "delins.docx")],
                       check=True, capture_output=True, timeout=300)
    before = _changes(tmp_path / f"odt_{original.name}" / "delins.odt")
    after = _changes(tmp_path / f"odt_{folder.name}" / "delins.odt")
    ours = [kind for kind, author in after if author == "Harness Desk"]
    assert before and not any(author == "Harness Desk" for _kind, author in before)
    assert {"insertion", "deletion"} <= set(ours) and len(ours) >= 4, after
    assert sorted(c for c in before if c[1] == "pavel") == \
        sorted(c for c in after if c[1] == "pavel")


def _comments(odt: Path) -> list[tuple[str, str]]:
    """(a comment's text, the text it is anchored on) for each comment LibreOffice read."""
    with zipfile.ZipFile(odt) as zf:
        content = zf.read("content.xml").decode("utf-8")
    return [(re.sub(r"<[^>]+>", "", note), re.sub(r"<[^>]+>", "", anchored))
            for _name, note, anchored in re.findall(
                r'<office:annotation office:name="([^"]+)"[^>]*>(.*?)</office:annotation>'
                r'(.*?)<office:annotation-end office:name="\1"/>', content, re.S)]


@pytest.mark.skipif(_soffice() is None, reason="LibreOffice is not installed")
def test_libreoffice_sees_a_rebuilt_paragraphs_comments_on_the_same_text(tmp_path):
    """python-docx's comments-rich-para.docx (saved by Word): a word made bold in two
    commented paragraphs, one comment's mark moved. LibreOffice reads every comment on the
    same text as before (the moved one up to its mark), and Word's _GoBack bookmark still
    there."""
    soffice = _soffice()
    assert soffice is not None
    (tmp_path / "w").mkdir()
    folder = one_task_folder(tmp_path / "w", TASK)
    original = tmp_path / "original"
    original.mkdir()
    name = "comments-rich-para.docx"
    for target in (folder, original):
        shutil.copy(WORD_DATA / "python-docx" / name, target / name)
    shown = render_document(original / name)
    new = (shown.replace("Other text worthy of note.[comment 2]",
                         "Other **text** worthy of note.[comment 2]")
           .replace("Some text worthy of note.[comment 1]",
                    "Some *text* worthy[comment 1] of note."))
    out = toolbox(folder, TASK).call("write_file", {"path": name, "content": new})
    assert not out.is_error, out.content
    for side in (original, folder):
        subprocess.run([soffice, f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}",
                        "--headless", "--convert-to", "odt", "--outdir",
                        str(tmp_path / f"odt_{side.name}"), str(side / name)],
                       check=True, capture_output=True, timeout=300)
    before = _comments(tmp_path / f"odt_{original.name}" / "comments-rich-para.odt")
    after = _comments(tmp_path / f"odt_{folder.name}" / "comments-rich-para.odt")
    assert len(before) == 4 and before[0][1] == "Some text worthy of note."
    assert after == [(before[0][0], "Some text worthy")] + before[1:]   # ends at its mark
    with zipfile.ZipFile(tmp_path / f"odt_{folder.name}" / "comments-rich-para.odt") as zf:
        assert 'text:bookmark-start text:name="_GoBack"' in zf.read("content.xml").decode()
