"""Word documents that Word saved (Apache POI's and python-docx's own test files, under
tests/data/word with their licences): read_file shows all of their text, edit_file changes
text wherever read_file shows it and nothing else in the package, undo gives them back byte
for byte."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import docx
import pytest

from app.core.documents import render_document
from app.core.documents.word_edit import inline_plain, plain
from app.core.undo.undo import undo_manifest
from tests.core.documents.tool_folder import toolbox

TASK = "Update the document"  # the board's one task

DATA = Path(__file__).resolve().parents[2] / "data" / "word"
SDT_NOTES = "poi/Bug54849.docx"          # content controls, table, header, footer, notes
TEXT_BOX = "poi/bib-chernigovka.netdo.ru_download_docs_17459.docx"
RESUME = "poi/60316.docx"                # content controls, text boxes, first-page header
TRACKED = "poi/delins.docx"
COMMENTS = "python-docx/comments-rich-para.docx"
HEADERS = "python-docx/hdr-header-footer.docx"
LISTS = "poi/ComplexNumberedLists.docx"


def _box(ws):
    return toolbox(ws, TASK)


def _copy(ws, name: str) -> Path:
    target = ws / Path(name).name
    shutil.copyfile(DATA / name, target)
    return target


def _members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {info.filename: zf.read(info) for info in zf.infolist()}


def _accepted(text: str) -> str:
    """read_file's text as it reads with every tracked change accepted."""
    return inline_plain(text).replace("[inserted: ", "")


def _differing(before: bytes, after: bytes) -> list[str]:
    old, new = _members(before), _members(after)
    assert list(old) == list(new)  # the same members, in the same order
    return [name for name in old if old[name] != new[name]]


# -- read_file ------------------------------------------------------------------------------

@pytest.mark.parametrize("name, shown", [
    (SDT_NOTES, ["[Header] This is a header header_rich_text", "Plain_text_no_newlines",
                 "Blahdeblah[^1]1", "Blahdeblah[^i]6", "| Rich_text_cell1 |",
                 "[^1]: Footnote_sdt", "[^i]: Endnote Endnote_sdt",
                 "[Footer] Footer_rich_text"]),
    (RESUME, ["[First-page header] This is a first page header", "# Objective",
              "[Text box] Allison, Timothy B.",
              "- Click here to enter text.\n- Click here to enter text\n"
              "- Click here to enter text\n\n# Education",
              "[First-page footer] This is a first page footer"]),
    (TEXT_BOX, ["[Text box] **Календарь знаменательных и памятных дат на 2017 год.**",
                "| **1** | 90 лет со дня рождения русского детского писателя, поэта "
                "**Льва Ивановича Давыдычева (1927-1988)** |"]),
    (TRACKED, ["[inserted: Apache Tika 0.3 has been released. Please see the download page "
               "for more details.]",
               "- [deleted: Tika Waylan, a major character in the DragonLance series of "
               "fantasy novels]",
               "- A place on Saturn's satellite [Rhea](http://en.wikipedia.org/wiki/Rhea), "
               "named after the last place"]),
    (COMMENTS, ["Some text worthy of note.[comment 1]",
                "[comment 1] Steve Canny: Text with hyperlink [https://google.com]"
                "(https://google.com) embedded.", "[comment 3] Text with character style."]),
    (HEADERS, ["[Header] Header for section-1", "[Footer] Footer for section 1"]),
    ("poi/checkboxes.docx", ["- unchecked: [ ]", "***Or checked:*** [x]", "| [ ] | [x] |",
                             "[x][ ][x]"]),
    (LISTS, ["1. Entry #1\n2. Entry #2, with children\n  a. 2-a\n  b. 2-b\n  c. 2-c\n"
             "3. Entry #3", "1. Restarted to 1 from 5", "10. Jump to new list at 10\n"
             "11. Now 11", "12. Carrying on @ 12"]),
])
def test_read_file_shows_every_kind_of_text_word_saved(name, shown):
    text = render_document(DATA / name)
    for piece in shown:
        assert piece in text, piece
        assert text.count(piece) == 1, piece  # a text box once, not also its older copy


def test_a_table_cell_shows_its_text_without_heading_marks_and_with_its_notes():
    text = render_document(DATA / "poi/form_footnotes.docx")
    # the cell's first paragraph is empty: an empty line, as Word shows it (qa's find)
    assert "| [^1] | <br>REPÚBLICA  FEDERATIVA DO BRASIL<br>MINISTÉRIO DAS RELAÇÕES EXTERIORES" \
        in text
    assert "|| Attach photo here ||\n" in text and "| #" not in text  # empty cells as ||
    assert "\n#### VISA APPLICATION FORM\n" in text  # outside the tables, a heading still


def test_the_text_is_in_reading_order_header_body_notes_footer():
    text = render_document(DATA / SDT_NOTES)
    order = ["[Header] This is a header", "Rich_text_pre_table", "Dirt", "[^1]: Footnote_sdt",
             "[^i]: Endnote", "[Footer] Footer_rich_text"]
    assert [text.index(x) for x in order] == sorted(text.index(x) for x in order)


# -- edit_file --------------------------------------------------------------------------------

@pytest.mark.parametrize("name, old, new, part", [
    (SDT_NOTES, "Plain_text_no_newlines", "Plain text, edited", "word/document.xml"),
    (SDT_NOTES, "Rich_text_in_cell", "Rich text in the cell", "word/document.xml"),
    (SDT_NOTES, "Footnote_sdt", "The footnote, edited", "word/footnotes.xml"),
    (SDT_NOTES, "Endnote_sdt", "The endnote, edited", "word/endnotes.xml"),
    (SDT_NOTES, "[Footer] Footer_rich_text", "[Footer] The footer, edited", "word/footer1.xml"),
    (SDT_NOTES, "[Header] This is a header header_rich_text", "[Header] A new header",
     "word/header1.xml"),
    (SDT_NOTES, "Blahdeblah[^1]1", "Blahdeblah[^1]one", "word/document.xml"),
    (RESUME, "[Text box] Allison, Timothy B.", "[Text box] Allison, Tim", "word/document.xml"),
    (TRACKED, "[inserted: Apache Tika 0.3 has been released.", "[inserted: Apache Tika 0.4 "
     "has been released.", "word/document.xml"),
    (COMMENTS, "[comment 3] Text with character style.", "[comment 3] Text with a style.",
     "word/comments.xml"),
    (HEADERS, "Header for section-1", "Header for part one", "word/header2.xml"),
    (LISTS, "2. Entry #2, with children", "2. Entry #2, with three children",
     "word/document.xml"),
])
def test_edit_file_changes_text_wherever_read_file_shows_it_and_nothing_else(
        ws, name, old, new, part):
    path = _copy(ws, name)
    before = path.read_bytes()
    box = _box(ws)
    out = box.call("edit_file", {"path": path.name, "old_text": old, "new_text": new})
    assert not out.is_error, out.content
    assert _differing(before, path.read_bytes()) == [part]
    tracked = name == TRACKED  # a document that tracks changes gets a tracked change
    assert (b"Harness Desk" in _members(path.read_bytes())[part]) == tracked
    shown = _accepted(render_document(path))  # as it reads with the changes accepted
    assert _accepted(plain(new)) in shown and _accepted(plain(old)) not in shown
    undo_manifest(ws, ws / ".harness", ws / ".harness/runs/r/undo/1.json")
    assert path.read_bytes() == before


def test_a_text_box_is_changed_in_both_of_its_copies_and_counted_once(ws):
    path = _copy(ws, TEXT_BOX)
    old, new = "Календарь знаменательных и памятных дат", "Календарь памятных дат"
    xml = _members(path.read_bytes())["word/document.xml"].decode()
    assert xml.count(old) == 2  # the drawing and its older copy for other programs
    out = _box(ws).call("edit_file", {"path": path.name, "old_text": old, "new_text": new})
    assert not out.is_error, out.content
    xml = _members(path.read_bytes())["word/document.xml"].decode()
    assert xml.count(old) == 0 and xml.count(new) == 2
    assert render_document(path).count(f"[Text box] **{new} на 2017 год.**") == 1


def test_an_edit_across_runs_and_a_link_changes_only_what_differs_as_a_tracked_change(ws):
    path = _copy(ws, TRACKED)  # Word saved it with Track Changes on
    out = _box(ws).call("edit_file", {
        "path": path.name,
        "old_text": "Saturn's satellite [Rhea](http://en.wikipedia.org/wiki/Rhea), named",
        "new_text": "Saturn's moon [Rhea](http://en.wikipedia.org/wiki/Rhea), named"})
    assert not out.is_error, out.content
    assert ("- A place on Saturn's [deleted: satellite][inserted: moon] [Rhea]"
            "(http://en.wikipedia.org/wiki/Rhea), named after the last place"
            ) in render_document(path)
    para = next(p for p in docx.Document(path).paragraphs if "Saturn" in p.text)
    assert [(h.text, h.url) for h in para.hyperlinks] == [("Rhea",
                                                           "http://en.wikipedia.org/wiki/Rhea")]
    xml = _members(path.read_bytes())["word/document.xml"].decode()
    assert xml.count('w:author="Harness Desk"') == 2  # one deletion, one insertion
    assert '<w:delText xml:space="preserve">satellite</w:delText>' in xml


def test_an_insertion_in_a_tracked_document_takes_the_formatting_after_it(ws):
    path = _copy(ws, TRACKED)
    out = _box(ws).call("edit_file", {"path": path.name, "old_text": "**Tika** can",
                                      "new_text": "**Apache Tika** can"})
    assert not out.is_error, out.content
    assert render_document(path).startswith("[inserted: **Apache** ]**Tika** can be:\n")


def test_an_edit_keeps_the_bold_of_the_text_after_it(ws):
    path = _copy(ws, TEXT_BOX)
    out = _box(ws).call("edit_file", {
        "path": path.name, "old_text": "писателя, поэта **Льва Ивановича",
        "new_text": "писателя и поэта **Льва Ивановича"})
    assert not out.is_error, out.content
    cell = docx.Document(path).tables[0].cell(1, 1).paragraphs[0]
    assert cell.text.startswith("90 лет со дня рождения русского детского писателя и поэта "
                                "Льва Ивановича")
    assert any(r.bold and "Льва" in r.text for r in cell.runs)
    assert not any(r.bold and "поэта" in r.text for r in cell.runs)


def test_text_that_stands_in_several_places_needs_more(ws):
    path = _copy(ws, RESUME)
    before = path.read_bytes()
    out = _box(ws).call("edit_file", {"path": path.name, "old_text": "Click here to enter text",
                                      "new_text": "Type here"})
    assert out.refused and "old_text was found 5 times in '60316.docx'" in out.content
    assert "Include more of the paragraph" in out.content
    assert path.read_bytes() == before


# -- LibreOffice reads the edit back --------------------------------------------------------

def test_libreoffice_reads_the_edited_document(ws, tmp_path):
    import subprocess

    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if not soffice:
        pytest.skip("LibreOffice (soffice) is not installed")
    path = _copy(ws, SDT_NOTES)
    box = _box(ws)
    for old, new in (("Plain_text_no_newlines", "Plain text edited by the AI"),
                     ("Rich_text_in_cell", "Cell text edited by the AI")):
        out = box.call("edit_file", {"path": path.name, "old_text": old, "new_text": new})
        assert not out.is_error, out.content
    outdir = tmp_path / "txt"
    subprocess.run([soffice, f"-env:UserInstallation=file://{tmp_path / 'profile'}",
                    "--headless", "--convert-to", "txt:Text", "--outdir", str(outdir),
                    str(path)], check=True, capture_output=True, timeout=180)
    text = (outdir / "Bug54849.txt").read_text(encoding="utf-8-sig")
    assert "Plain text edited by the AI" in text and "Cell text edited by the AI" in text
    assert "Plain_text_no_newlines" not in text and "Rich_text_pre_table" in text


@pytest.mark.parametrize("old, new", [
    ("[deleted: Tika Waylan, a major character", "[deleted: Tika Waylan, the major character"),
    ("[deleted: Tika Waylan, a major", "[deleted: Tika Waylan, a very major"),
    ("[inserted: March 2009: Apache Tika Release]", "March 2009: Apache Tika Release"),
])
def test_an_edit_inside_deleted_text_or_a_mark_is_refused(ws, old, new):
    path = _copy(ws, TRACKED)
    before = path.read_bytes()
    out = _box(ws).call("edit_file", {"path": path.name, "old_text": old, "new_text": new})
    assert out.refused and out.content.startswith("That change is in text shown as deleted")
    assert path.read_bytes() == before


def test_text_typed_over_a_placeholder_is_no_longer_a_placeholder(ws):
    path = _copy(ws, RESUME)
    flags = _members(path.read_bytes())["word/document.xml"].count(b"showingPlcHdr")
    out = _box(ws).call("edit_file", {"path": path.name, "old_text": "[Telephone]",
                                      "new_text": "+44 20 7946 0000"})
    assert not out.is_error, out.content
    xml = _members(path.read_bytes())["word/document.xml"].decode()
    assert xml.count("+44 20 7946 0000") == 2 and "[Telephone]" not in xml  # both copies
    for start in [i for i in range(len(xml)) if xml.startswith("+44 20 7946 0000", i)]:
        control = xml[xml.rfind("<w:sdt>", 0, start):start]
        assert "showingPlcHdr" not in control and "PlaceholderText" not in control
    assert xml.count("showingPlcHdr") == flags - 2  # the other placeholders stay as they were
    assert "[Text box] +44 20 7946 0000" in render_document(path)


def test_libreoffice_sees_the_tracked_change_by_harness_desk(ws, tmp_path):
    import subprocess

    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if not soffice:
        pytest.skip("LibreOffice (soffice) is not installed")
    path = _copy(ws, TRACKED)
    out = _box(ws).call("edit_file", {"path": path.name, "old_text": "A nickname for Petrika",
                                      "new_text": "A short name for Petrika"})
    assert not out.is_error, out.content
    subprocess.run([soffice, f"-env:UserInstallation=file://{tmp_path / 'profile'}",
                    "--headless", "--convert-to", "odt", "--outdir", str(tmp_path / "odt"),
                    str(path)], check=True, capture_output=True, timeout=180)
    with zipfile.ZipFile(tmp_path / "odt" / "delins.odt") as odt:
        content = odt.read("content.xml").decode()
    ours = [region for region in content.split("<text:changed-region")[1:]
            if "<dc:creator>Harness Desk</dc:creator>" in region]
    assert len(ours) == 2
    assert "<text:deletion>" in ours[0] and ">nick<" in ours[0]
    assert "<text:insertion>" in ours[1]


@pytest.mark.parametrize("name, old, sentence", [
    (TRACKED, "- [deleted: Tika Waylan, a major character in the DragonLance series of fantasy "
     "novels]", "All of that paragraph's text is marked as deleted (a tracked change)"),
    ("poi/checkboxes.docx", "[x][ ][x]", "That paragraph holds no text of its own (only marks "
     "such as check boxes)"),
])
def test_adding_to_a_paragraph_without_live_text_gets_a_sentence(ws, name, old, sentence):
    path = _copy(ws, name)
    before = path.read_bytes()
    out = _box(ws).call("edit_file", {"path": path.name, "old_text": old,
                                      "new_text": old + " more"})
    assert out.refused and out.content.startswith(sentence), out.content
    assert path.read_bytes() == before
