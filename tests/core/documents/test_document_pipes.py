"""A `|` inside a table cell is shown as `\\|` (a bare one would end the cell) and reads back
as `|` when the model writes the table again in read_file's layout."""

from __future__ import annotations

import docx
import openpyxl

from app.core.documents import render_document

TASK = "Prices"  # the board's one task (conftest.py makes `ws` and `box` for it)


def _book(path):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Prices"
    sheet.append(["Bread | white", "C:\\bake\\|x", 3.5])
    sheet["A2"] = '="1|2"&A1'
    book.save(path)


def test_a_pipe_in_a_sheet_cell_is_escaped_and_read_back(ws, box):
    _book(ws / "p.xlsx")
    shown = render_document(ws / "p.xlsx")
    assert "\n1|Bread \\| white|C:\\bake\\\\|x|3.5\n2|=\"1\\|2\"&A1" in shown
    before = (ws / "p.xlsx").read_bytes()
    same = box.call("write_file", {"path": "p.xlsx", "content": shown})
    assert same.content == "'p.xlsx' already has exactly this content; nothing changed."
    assert (ws / "p.xlsx").read_bytes() == before
    out = box.call("write_file", {"path": "p.xlsx", "content": shown.replace("|3.5\n", "|4\n")})
    assert not out.is_error, out.content
    sheet = openpyxl.load_workbook(ws / "p.xlsx")["Prices"]
    assert [sheet["A1"].value, sheet["B1"].value, sheet["C1"].value, sheet["A2"].value] == \
        ["Bread | white", "C:\\bake\\|x", 4, '="1|2"&A1']
    copy = box.call("write_file", {"path": "copy.xlsx", "content": shown})
    assert not copy.is_error, copy.content
    sheet = openpyxl.load_workbook(ws / "copy.xlsx")["Prices"]
    assert [sheet["A1"].value, sheet["B1"].value, sheet["A2"].value] == \
        ["Bread | white", "C:\\bake\\|x", '="1|2"&A1']


def test_a_pipe_in_a_word_table_cell_is_escaped_read_back_and_found(ws, box):
    doc = docx.Document()
    table = doc.add_table(rows=2, cols=2)
    for (r, c), text in {(0, 0): "Item", (0, 1): "Kind", (1, 0): "Bread",
                         (1, 1): "white | brown"}.items():
        table.cell(r, c).text = text
    doc.save(ws / "t.docx")
    shown = render_document(ws / "t.docx")
    assert "| Bread | white \\| brown |" in shown
    out = box.call("write_file", {"path": "copy.docx", "content": shown})
    assert not out.is_error, out.content
    cells = [c.text for c in docx.Document(ws / "copy.docx").tables[0].rows[1].cells]
    assert cells == ["Bread", "white | brown"]
    edit = box.call("edit_file", {"path": "t.docx", "old_text": "white \\| brown",
                                  "new_text": "white \\| rye"})
    assert not edit.is_error, edit.content
    cells = [c.text for c in docx.Document(ws / "t.docx").tables[0].rows[1].cells]
    assert cells == ["Bread", "white | rye"]
