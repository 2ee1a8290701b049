"""write_file over an existing Word document keeps what did not change: the package's other
parts byte for byte, every unchanged block's XML, and a changed paragraph's look (its
paragraph and first run properties), on documents saved by Word, LibreOffice and POI."""

from __future__ import annotations

import io
import re
import shutil
import zipfile
from pathlib import Path

import docx
import pytest
from lxml import etree

from app.core.documents import DocumentError
from app.core.documents.render import render, write
from tests.core.documents.tool_folder import one_task_folder, toolbox

DATA = Path(__file__).resolve().parents[2] / "data" / "word"
SAVED = sorted(str(p.relative_to(DATA)) for p in DATA.glob("*/*.docx")
               if "password" not in p.name and p.name != "doc-coreprops.docx")  # no text
LOOKS = ["python-docx/fnt-color.docx", "python-docx/par-alignment.docx",
         "python-docx/txt-font-highlight-color.docx", "python-docx/txt-font-props.docx",
         "python-docx/sty-known-styles.docx", "poi/IllustrativeCases.docx"]
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_WORD = re.compile(r"[^\W\d_]{5,}")


def _copy(tmp_path: Path, name: str) -> Path:
    target = tmp_path / Path(name).name
    shutil.copy(DATA / name, target)
    return target


def _unique_word(shown: str) -> str:
    for line in shown.splitlines():
        if line.startswith(("[", "(")):
            continue
        for word in _WORD.findall(line):
            if shown.count(word) == 1:
                return word
    raise AssertionError("no word to change")


def _body(data: bytes) -> list[bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        body = etree.fromstring(zf.read("word/document.xml")).find(f"{W}body")
    assert body is not None
    return [etree.tostring(el) for el in body]


def _parts(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


@pytest.mark.parametrize("name", SAVED)
def test_one_word_changed_changes_only_its_block(tmp_path, name):
    path = _copy(tmp_path, name)
    before = path.read_bytes()
    shown = render(path)
    word = _unique_word(shown)
    data = write(path, shown.replace(word, f"Zebra{word}"), True)
    old_parts, new_parts = _parts(before), _parts(data)
    # The thumbnail, a picture of the text before, goes (word_keep); the rest stays as it was.
    thumbnails = {n for n in old_parts if "thumbnail" in n}
    assert set(old_parts) - set(new_parts) == thumbnails and set(new_parts) <= set(old_parts)
    differ = {n for n in new_parts if old_parts[n] != new_parts[n]}
    assert "word/document.xml" in differ and differ - {"word/document.xml"} == (
        {"_rels/.rels"} | ({"[Content_Types].xml"} & differ) if thumbnails else set())
    old_body, new_body = _body(before), _body(data)
    assert len(old_body) == len(new_body)
    changed = [n for n, (a, b) in enumerate(zip(old_body, new_body)) if a != b]
    assert len(changed) == 1, changed
    assert f"Zebra{word}" in "".join(etree.fromstring(new_body[changed[0]]).itertext())
    path.write_bytes(data)
    tracked = b"trackRevisions" in old_parts.get("word/settings.xml", b"")   # delins.docx
    assert render(path) == shown.replace(word, f"[inserted: Zebra]{word}" if tracked
                                         else f"Zebra{word}")
    kind = "table" if new_body[changed[0]].startswith(b"<w:tbl") else "paragraph"
    assert getattr(data, "summary", "") == \
        f"changed 1 {kind}; the rest of the document is unchanged" + (
            "; the document tracks changes, so each is a tracked change by Harness Desk, to "
            "accept or reject in Word" if tracked else "")


def _look(p: docx.text.paragraph.Paragraph) -> tuple[object, ...]:
    run = p.runs[0] if p.runs else None
    font = run.font if run is not None else None
    return (p.style.name if p.style is not None else None, p.alignment,
            p.paragraph_format.space_before, p.paragraph_format.left_indent,
            font and font.name, font and font.size, font and font.color.rgb,
            font and font.color.theme_color, font and font.highlight_color,
            font and font.underline, font and font.superscript, font and font.subscript)


@pytest.mark.parametrize("name", LOOKS)
def test_every_paragraph_changed_keeps_its_look(tmp_path, name):
    """Each paragraph in turn gets a word more: python-docx reads the same style,
    alignment, spacing, font, size, colour and highlight on it as before."""
    path = _copy(tmp_path, name)
    shown = render(path)
    doc = docx.Document(str(path))
    looks = [_look(p) for p in doc.paragraphs]
    texts = [p.text for p in doc.paragraphs]
    lines = shown.split("\n")
    changed = 0
    for n, line in enumerate(lines):
        words = _WORD.findall(line)
        if not words or line.startswith(("|", "[")) or shown.count(line) != 1:
            continue
        data = write(path, "\n".join(lines[:n] + [line.replace(words[0], "Pádraig", 1)]
                                     + lines[n + 1:]), True)
        after = docx.Document(io.BytesIO(data))
        assert [_look(p) for p in after.paragraphs] == looks, (name, line)
        now = [p.text for p in after.paragraphs]
        assert sum(a != b for a, b in zip(texts, now)) == 1 and len(now) == len(texts)
        changed += 1
    assert changed >= 1


def test_the_repro_keeps_alignment_fonts_and_sizes(tmp_path):
    path = _copy(tmp_path, "python-docx/txt-font-props.docx")
    doc = docx.Document(str(path))
    sizes = [[r.font.size for r in p.runs] for p in doc.paragraphs]
    fonts = [[r.font.name for r in p.runs] for p in doc.paragraphs]
    shown = render(path)
    data = write(path, shown.replace("paragraph in", "paragraph for Pádraig in"), True)
    after = docx.Document(io.BytesIO(data))
    assert after.paragraphs[0].text == "A paragraph for Pádraig in ‘Having Typeface’ style."
    assert [[r.font.size for r in p.runs][:1] for p in after.paragraphs] == \
        [s[:1] for s in sizes]
    assert [[r.font.name for r in p.runs][:1] for p in after.paragraphs] == \
        [f[:1] for f in fonts]
    assert [p.style.name for p in after.paragraphs] == [p.style.name for p in doc.paragraphs]


def test_added_blocks_take_the_look_of_their_kind_and_removed_ones_go(tmp_path):
    path = _copy(tmp_path, "poi/ComplexNumberedLists.docx")
    before = path.read_bytes()
    shown = render(path)
    new = (shown.replace("3. Entry #3\n", "3. Entry #3\n4. A new entry\n")
           .replace("Normal text here", "Normal text here\n\nA **new** paragraph after it")
           .replace("\nAll done!\n", "\n"))
    data = write(path, new, True)
    doc, old = docx.Document(io.BytesIO(data)), docx.Document(io.BytesIO(before))
    by_text = {p.text: p for p in doc.paragraphs}
    item, model = by_text["A new entry"], by_text["Entry #3"]
    assert item._p.pPr.xml == model._p.pPr.xml   # same style and numbering: the list goes on
    para = by_text["A new paragraph after it"]
    assert para.style.name == by_text["Normal text here"].style.name
    assert [r.bold for r in para.runs] == [None, True, None]
    assert "All done!" not in by_text and len(doc.paragraphs) == len(old.paragraphs) + 1
    assert getattr(data, "summary", "") == \
        "added 2, removed 1; the rest of the document is unchanged"
    path.write_bytes(data)
    shown_after = render(path)
    assert "4. A new entry\n5. Entry #4" in shown_after   # numbered on by Word's own list


def test_a_paragraph_moved_is_the_same_paragraph_elsewhere(tmp_path):
    path = _copy(tmp_path, "python-docx/par-alignment.docx")
    before = _body(path.read_bytes())
    shown = render(path)
    data = write(path, shown.replace("Center aligned.\n\n", "").replace(
        "Fully justified.", "Fully justified.\n\nCenter aligned."), True)
    after = _body(data)
    assert sorted(after) == sorted(before) and after != before
    assert getattr(data, "summary", "") == "moved 1; the rest of the document is unchanged"
    assert docx.Document(io.BytesIO(data)).paragraphs[-1].alignment == 1   # still centred


def test_empty_paragraphs_stay_where_they_were(tmp_path):
    path = _copy(tmp_path, "poi/Bug66988.docx")
    before = _body(path.read_bytes())
    shown = render(path)
    data = write(path, shown.replace("Hello", "Hullo"), True)
    after = _body(data)
    empty = [n for n, el in enumerate(before) if b"<w:t" not in el and el.startswith(b"<w:p")]
    assert empty and [after[n] for n in empty] == [before[n] for n in empty]


def test_a_changed_cell_keeps_the_tables_other_cells(tmp_path):
    path = _copy(tmp_path, "poi/TestTableCellAlign.docx")
    shown = render(path)
    table = next(line for line in shown.splitlines() if line.startswith("| "))
    cell = next(c.strip() for c in table.split("|") if c.strip())
    data = write(path, shown.replace(cell, cell + " changed", 1), True)
    new_body = _body(data)
    tbl = next(el for el in new_body if el.startswith(b"<w:tbl"))
    old_tbl = next(el for el in _body(path.read_bytes()) if el.startswith(b"<w:tbl"))
    old_tcs = [etree.tostring(tc) for tc in etree.fromstring(old_tbl).iter(f"{W}tc")]
    new_tcs = [etree.tostring(tc) for tc in etree.fromstring(tbl).iter(f"{W}tc")]
    assert len(old_tcs) == len(new_tcs)
    differ = [n for n, (a, b) in enumerate(zip(old_tcs, new_tcs)) if a != b]
    assert len(differ) == 1
    assert getattr(data, "summary", "") == \
        "changed 1 table; the rest of the document is unchanged"
    old_tc, new_tc = (etree.fromstring(x[differ[0]]) for x in (old_tcs, new_tcs))
    for look in (f"{W}tcPr", f"{W}p/{W}pPr", f"{W}p/{W}r/{W}rPr"):
        kept = [etree.tostring(tc.find(look)) if tc.find(look) is not None else None
                for tc in (old_tc, new_tc)]
        assert kept[0] == kept[1], look
    assert new_tc.find(f"{W}tcPr") is not None


def test_a_new_link_is_a_real_hyperlink(tmp_path):
    path = _copy(tmp_path, "python-docx/par-alignment.docx")
    shown = render(path)
    data = write(path, shown.replace("Center aligned.",
                                     "Center [aligned](https://example.org/a)."), True)
    path.write_bytes(data)
    assert "Center [aligned](https://example.org/a)." in render(path)
    doc = docx.Document(str(path))
    assert doc.paragraphs[2].alignment == 1   # still centred


def test_a_paragraph_with_a_picture_kept_unchanged_keeps_it(tmp_path):
    """60316.docx's text boxes, pictures and content controls sit in paragraphs that do not
    change: changing another paragraph keeps them all."""
    path = _copy(tmp_path, "poi/60316.docx")
    before = path.read_bytes()
    shown = render(path)
    data = write(path, shown.replace("Getting the perfect job", "Getting the right job"), True)
    for tag in (b"<w:drawing", b"<w:sdt>", b"txbxContent"):
        assert b"".join(_body(data)).count(tag) == b"".join(_body(before)).count(tag)
    assert getattr(data, "summary", "").startswith("changed 1 paragraph")


def test_removing_a_paragraph_that_holds_a_picture_is_refused(tmp_path):
    """What Markdown cannot carry goes only with a block removed or made again: refused in
    one sentence, the file left as it was."""
    path = _copy(tmp_path, "poi/60316.docx")
    before = path.read_bytes()
    shown = render(path)
    with pytest.raises(DocumentError, match=r"^Replacing it with write_file would drop its "
                                           r"pictures or shapes"):
        write(path, shown.replace("# Objective\n", ""), True)
    assert path.read_bytes() == before


def test_changing_a_header_line_is_refused_plainly(tmp_path):
    path = _copy(tmp_path, "python-docx/hdr-header-footer.docx")
    shown = render(path)
    line = next(x for x in shown.splitlines() if x.startswith("[") and "eader]" in x)
    with pytest.raises(DocumentError, match="headers, footers, notes and comments stay"):
        write(path, shown.replace(line, line + " more"), True)


def test_the_tool_says_what_changed(tmp_path):
    ws = one_task_folder(tmp_path, "Notes")
    shutil.copy(DATA / "python-docx/par-alignment.docx", ws / "a.docx")
    box = toolbox(ws, "Notes")
    shown = render(ws / "a.docx")
    out = box.call("write_file", {"path": "a.docx",
                                  "content": shown.replace("Right aligned.", "Right aligned!")})
    assert not out.is_error, out.content
    assert re.fullmatch(r"Replaced 'a\.docx' \([0-9,]+ bytes\): changed 1 paragraph; the rest "
                        r"of the document is unchanged\.", out.content), out.content


def test_search_files_finds_a_phrase_across_a_line_break(tmp_path):
    ws = one_task_folder(tmp_path, "Notes")
    shutil.copy(DATA / "poi/IllustrativeCases.docx", ws / "cases.docx")
    out = toolbox(ws, "Notes").call("search_files", {"query": "17,542 32,000"})
    assert not out.is_error and "cases.docx" in out.content, out.content
