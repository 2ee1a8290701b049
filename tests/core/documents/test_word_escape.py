"""A Word paragraph holding Markdown's own characters (`\\\\server`, `*note*`, `1. ` typed by
hand, `&amp;`) is shown with backslashes where Markdown would read a mark, so write_file of
read_file's rendering gives back the same text; writing the rendering back unchanged leaves
the document untouched; edit_file, search_files and the change view read through the
backslashes."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest

from app.core.documents import render_document
from app.core.documents.word_change import document_html
from tests.core.documents.tool_folder import toolbox

TASK = "Notes"  # the board's one task (conftest.py makes `ws` and `box` for it)

# Each would come back changed (or gone) if shown as it is.
TEXTS = [r"Share \\server\docs\_old", r"a\*b and C:\Users\x", "`z` code", "*w* stars",
         "_lead and tail_", "1. First typed by hand", "- dash typed", "# of items",
         "> quoted", "---", "Tom &amp; Jerry &copy;", "[link](http://x.y) text",
         "<b>bold</b> tag", "<http://a.b>", "2024. A year", "+ plus", "__init__ file",
         "**not bold**", "~~~ not code", "x<y and y>z", "![img](a.png)", "[1]: http://x"]
# Each is shown exactly as it is: no backslash where Markdown reads no mark.
PLAIN = ["snake_case_name", "5 * 3 * 4 = 60", "Name: ______", r"C:\Users\x", "[1] and [a][b]",
         "price $5", "~~strike~~", "a | b", "R&D", "3 < 4"]
WORD_DATA = Path(__file__).resolve().parents[2] / "data" / "word"
WORD_SAVED = sorted(p for p in WORD_DATA.glob("*/*.docx") if "password" not in p.name)


def _doc(path: Path, texts: list[str], cells: list[str] = ()) -> None:
    doc = docx.Document()
    for text in texts:
        doc.add_paragraph(text)
    if cells:
        table = doc.add_table(rows=1, cols=len(cells))
        for i, text in enumerate(cells):
            table.cell(0, i).text = text
    doc.save(path)


def test_markdowns_own_characters_come_back_as_they_were(ws, box):
    _doc(ws / "notes.docx", TEXTS + PLAIN, cells=[r"C:\bake\|x", "-", r"\\srv\_a | b"])
    shown = render_document(ws / "notes.docx")
    for text in PLAIN:
        assert f"\n{text}\n" in shown   # shown as it is
    assert "| C:\\bake\\\\\\|x | - | \\\\\\srv\\\\\\_a \\| b |" in shown
    out = box.call("write_file", {"path": "copy.docx", "content": shown})
    assert not out.is_error, out.content
    copy = docx.Document(ws / "copy.docx")
    assert [p.text for p in copy.paragraphs] == TEXTS + PLAIN
    assert [c.text for c in copy.tables[0].rows[0].cells] == [r"C:\bake\|x", "-", r"\\srv\_a | b"]


def test_a_headings_closing_hashes_are_kept(ws, box):
    doc = docx.Document()
    doc.add_heading("Notes #", level=2)
    doc.add_heading("Learn C#", level=2)
    doc.save(ws / "h.docx")
    shown = render_document(ws / "h.docx")
    assert "## Notes \\#\n" in shown and "## Learn C#\n" in shown
    out = box.call("write_file", {"path": "copy.docx", "content": shown})
    assert not out.is_error, out.content
    assert [p.text for p in docx.Document(ws / "copy.docx").paragraphs] == ["Notes #", "Learn C#"]


def test_writing_read_files_rendering_back_leaves_the_document_untouched(ws, box):
    _doc(ws / "notes.docx", TEXTS)
    before = (ws / "notes.docx").read_bytes()
    shown = box.call("read_file", {"path": "notes.docx"}).content
    out = box.call("write_file", {"path": "notes.docx", "content": render_document(
        ws / "notes.docx")})
    assert out.content == "'notes.docx' already has exactly this content; nothing changed."
    assert (ws / "notes.docx").read_bytes() == before and "\\*w\\* stars" in shown
    out = box.call("write_file", {"path": "notes.docx", "content": render_document(
        ws / "notes.docx").replace("\\*w\\* stars", "\\*w\\* moons")})
    assert out.content.startswith("Replaced 'notes.docx'")
    texts = [p.text for p in docx.Document(ws / "notes.docx").paragraphs]
    assert texts == [t if t != "*w* stars" else "*w* moons" for t in TEXTS]


@pytest.mark.parametrize("path", WORD_SAVED, ids=lambda p: p.name)
def test_a_word_saved_document_written_back_as_shown_is_not_rebuilt(tmp_path, path):
    root = tmp_path / "ws"
    root.mkdir()
    target = root / path.name
    target.write_bytes(path.read_bytes())
    box = toolbox(root, TASK)
    out = box.call("write_file", {"path": path.name, "content": render_document(target)})
    assert out.content.endswith("already has exactly this content; nothing changed.")
    assert target.read_bytes() == path.read_bytes()


def test_edit_file_reads_through_the_backslashes(ws, box):
    _doc(ws / "notes.docx", ["Keep __init__ file and a\\*b here"])
    assert "Keep \\_\\_init\\_\\_ file and a\\\\\\*b here" in render_document(ws / "notes.docx")
    out = box.call("edit_file", {"path": "notes.docx", "old_text": "\\_\\_init\\_\\_ file",
                                 "new_text": "\\_\\_main\\_\\_ file"})
    assert not out.is_error, out.content
    out = box.call("edit_file", {"path": "notes.docx", "old_text": "a\\*b",   # as Word has it
                                 "new_text": "a\\*c"})
    assert not out.is_error, out.content
    assert docx.Document(ws / "notes.docx").paragraphs[0].text == \
        "Keep __main__ file and a\\*c here"


def test_search_files_finds_the_text_without_its_backslashes(ws, box):
    _doc(ws / "notes.docx", ["Run __init__ first", "then *this*"])
    out = box.call("search_files", {"query": "__init__"})
    assert "notes.docx:" in out.content and "\\_\\_init\\_\\_" in out.content
    assert "notes.docx:" in box.call("search_files", {"query": "\\_\\_init"}).content
    assert "notes.docx:" in box.call("search_files", {"query": "*this*"}).content


def test_the_change_view_shows_the_characters_without_backslashes():
    before = "\\*w\\* stars and \\_\\_init\\_\\_\n\n\\# of items\n\n| a \\| b | c |\n|---|---|\n"
    after = "\\*w\\* moons and \\_\\_init\\_\\_\n\n\\# of items\n\n| a \\| b | d |\n|---|---|\n"
    html, changed = document_html(before, after, {"formatting_changed": "(formatting)"},
                                  {"added": "#080", "removed": "#800", "changed_bg": "#eee",
                                   "muted": "#777"})
    assert changed == 2
    assert "*w*" in html and "__init__" in html and "# of items" in html and "a | b" in html
    assert "\\" not in html and "<i>" not in html and "<h1>" not in html
