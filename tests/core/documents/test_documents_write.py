"""write_file, edit_file and set_cells on documents, checked by reopening the files with the
libraries, and undo giving every document back byte for byte."""

from __future__ import annotations

import zipfile

import docx
import openpyxl
import pytest

from app.core.documents import render_document
from app.core.tools.toolbox import ToolBox
from app.core.undo.undo import BlobStore, RoundChanges, undo_manifest
from tests.document_files import brief_docx, prices_xlsx

MARKDOWN = """# Spring brief

Our **fresh** bread and *cakes*, see [our site](https://bakery.example).

## Prices

- Rye loaf
  - seeded
- Scone

1. Bake
2. Sell

| Item | Price |
|------|-------|
| Rye  | 4.20  |
"""


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "TASKS.md").write_text("# Work\n\n- [ ] Update the brief\n")
    return root


def _box(ws, round_no=1):
    changes = RoundChanges(ws, BlobStore(ws / ".harness"),
                           ws / f".harness/runs/r/undo/{round_no}.json", round_no)
    return ToolBox(ws, ws / "TASKS.md", "Update the brief", changes), changes


def _undo(ws, round_no=1):
    undo_manifest(ws, ws / ".harness", ws / f".harness/runs/r/undo/{round_no}.json")


def test_write_file_makes_a_real_word_document_from_markdown(ws):
    box, _ = _box(ws)
    out = box.call("write_file", {"path": "brief.docx", "content": MARKDOWN})
    assert not out.is_error, out.content
    doc = docx.Document(ws / "brief.docx")
    styled = [(p.style.name, p.text) for p in doc.paragraphs if p.text]
    assert styled == [
        ("Heading 1", "Spring brief"),
        ("Normal", "Our fresh bread and cakes, see our site."),
        ("Heading 2", "Prices"),
        ("List Bullet", "Rye loaf"), ("List Bullet 2", "seeded"), ("List Bullet", "Scone"),
        ("List Number", "Bake"), ("List Number", "Sell"),
    ]
    runs = {r.text: (r.bold, r.italic) for r in doc.paragraphs[1].runs}
    assert runs["fresh"] == (True, None) and runs["cakes"] == (None, True)
    assert [h.url for h in doc.paragraphs[1].hyperlinks] == ["https://bakery.example"]
    table = doc.tables[0]
    assert [[c.text for c in row.cells] for row in table.rows] == [["Item", "Price"],
                                                                   ["Rye", "4.20"]]
    assert table.rows[0].cells[0].paragraphs[0].runs[0].bold
    assert "*" not in "".join(p.text for p in doc.paragraphs)  # no Markdown marks as text
    # And it reads back as the Markdown it came from.
    text = render_document(ws / "brief.docx")
    assert "Our **fresh** bread and *cakes*, see [our site](https://bakery.example)." in text
    assert "- Rye loaf\n  - seeded\n- Scone" in text


def test_write_file_makes_a_workbook_from_one_table_per_sheet(ws):
    box, _ = _box(ws)
    content = ("## Prices\n\n| Item | Price | Tax |\n|---|---|---|\n| Bread | 3.50 | =B2*0.1 |\n"
               "| Cake | 12 | 15% |\n\n## Notes\n\n| Note |\n|---|\n| Opens at 7 |\n")
    out = box.call("write_file", {"path": "prices.xlsx", "content": content})
    assert not out.is_error, out.content
    book = openpyxl.load_workbook(ws / "prices.xlsx")
    assert book.sheetnames == ["Prices", "Notes"]
    sheet = book["Prices"]
    assert [c.value for c in sheet[2]] == ["Bread", 3.5, "=B2*0.1"]
    assert sheet["B3"].value == 12 and isinstance(sheet["B3"].value, int)
    assert sheet["C3"].value == 0.15 and sheet["C3"].number_format == "0%"
    assert sheet["A1"].font.bold and book["Notes"]["A2"].value == "Opens at 7"


def test_one_table_alone_makes_one_sheet_and_a_read_sheet_writes_back_in_place(ws):
    box, _ = _box(ws)
    box.call("write_file", {"path": "a.xlsx", "content": "| x | y |\n|---|---|\n| 1 | 2 |\n"})
    assert openpyxl.load_workbook(ws / "a.xlsx").sheetnames == ["Sheet1"]
    # read_file's own layout (column letters, row numbers, "→ saved value") lands in place.
    shown = ("## Sheet: Prices\n\n|   | A | B | C |\n|---|---|---|---|\n| 1 | Item | Price | |\n"
             "| 4 | Cake | 12 | =B4*1.1 → 13.2 |\n")
    box.call("write_file", {"path": "b.xlsx", "content": shown})
    sheet = openpyxl.load_workbook(ws / "b.xlsx")["Prices"]
    assert sheet["A4"].value == "Cake" and sheet["C4"].value == "=B4*1.1"
    assert sheet["A2"].value is None and sheet["A1"].value == "Item"


def test_write_file_to_a_workbook_refuses_text_outside_tables(ws):
    box, _ = _box(ws)
    out = box.call("write_file", {"path": "p.xlsx", "content": "Prices\n\n| a |\n|---|\n| 1 |\n"})
    assert out.refused and "takes only Markdown tables" in out.content
    assert not (ws / "p.xlsx").exists()


@pytest.mark.parametrize("name", ["report.pdf", "deck.pptx", "notes.odt", "sheet.ods",
                                  "talk.odp", "macros.xlsm"])
def test_write_file_refuses_formats_it_cannot_write_in_one_sentence(ws, name):
    box, _ = _box(ws)
    out = box.call("write_file", {"path": name, "content": "# Hi\n"})
    assert out.refused and out.content.startswith("write_file cannot write ")
    assert out.content.count(".") >= 1 and not (ws / name).exists()


def test_edit_file_replaces_text_split_over_runs_keeping_formatting(ws):
    brief_docx(ws / "brief.docx")
    box, _ = _box(ws)
    out = box.call("edit_file", {"path": "brief.docx", "old_text": "opening hours start in",
                                 "new_text": "hours begin in early"})
    assert not out.is_error, out.content
    doc = docx.Document(ws / "brief.docx")
    quote = next(p for p in doc.paragraphs if p.style.name == "Quote")
    assert quote.text == "The new hours begin in early May."
    # Bold text elsewhere in the document is untouched, and so is the table.
    sell = next(p for p in doc.paragraphs if p.text.startswith("We sell"))
    assert [(r.text, r.bold) for r in sell.runs][:2] == [("We sell ", None), ("fresh", True)]
    assert doc.tables[0].cell(1, 0).text == "Rye loaf"


def test_edit_file_keeps_the_run_formatting_where_the_old_text_began(ws):
    brief_docx(ws / "brief.docx")
    box, _ = _box(ws)
    # The model copies from the rendering, marks and all.
    out = box.call("edit_file", {"path": "brief.docx", "old_text": "**fresh** bread",
                                 "new_text": "**warm** bread"})
    assert not out.is_error, out.content
    sell = next(p for p in docx.Document(ws / "brief.docx").paragraphs
                if p.text.startswith("We sell"))
    assert sell.text == "We sell warm bread and cakes."
    assert [(r.text, r.bold) for r in sell.runs][1] == ("warm", True)


def test_edit_file_that_only_adds_text_joins_the_text_before_it(ws):
    brief_docx(ws / "brief.docx")
    box, _ = _box(ws)
    assert not box.call("edit_file", {"path": "brief.docx", "old_text": "We sell fresh bread",
                                      "new_text": "We sell freshest bread"}).is_error
    sell = next(p for p in docx.Document(ws / "brief.docx").paragraphs
                if p.text.startswith("We sell"))
    assert [(r.text, r.bold) for r in sell.runs][:2] == [("We sell ", None), ("freshest", True)]
    assert not box.call("edit_file", {"path": "brief.docx", "old_text": "We sell",
                                      "new_text": "Today we sell"}).is_error
    first = next(p for p in docx.Document(ws / "brief.docx").paragraphs
                 if p.text.startswith("Today"))
    assert first.text == "Today we sell freshest bread and cakes."


def test_edit_file_on_a_document_needs_one_occurrence_in_one_paragraph(ws):
    brief_docx(ws / "brief.docx")
    before = (ws / "brief.docx").read_bytes()
    box, _ = _box(ws)
    missing = box.call("edit_file", {"path": "brief.docx", "old_text": "croissant",
                                     "new_text": "x"})
    assert missing.refused and "found 0 times" in missing.content
    twice = box.call("edit_file", {"path": "brief.docx", "old_text": "e", "new_text": "x"})
    assert twice.refused and "times in 'brief.docx'" in twice.content
    across = box.call("edit_file", {"path": "brief.docx", "old_text": "Goals\nWe sell",
                                    "new_text": "x"})
    assert across.refused and "within one paragraph" in across.content
    assert (ws / "brief.docx").read_bytes() == before


def test_set_cells_sets_values_and_formulas_keeping_the_rest(ws):
    prices_xlsx(ws / "prices.xlsx")
    box, _ = _box(ws)
    out = box.call("set_cells", {"path": "prices.xlsx",
                                 "cells": {"B2": 3.8, "C2": "=B2*1.2", "A5": "Bun",
                                           "Notes!B3": "Closed on Monday", "B5": "2.5"}})
    assert not out.is_error, out.content
    assert out.content == ("Set 5 cells in 'prices.xlsx'; the rest of the workbook is as it "
                           "was. This formula cell is calculated afresh when the workbook is "
                           "next opened, in Excel, LibreOffice or another spreadsheet program: "
                           "Prices!C2.")
    assert out.changed == ["prices.xlsx"]
    book = openpyxl.load_workbook(ws / "prices.xlsx")
    sheet = book["Prices"]
    assert sheet["B2"].value == 3.8 and sheet["C2"].value == "=B2*1.2"
    assert sheet["A5"].value == "Bun" and sheet["B5"].value == 2.5
    assert sheet["C3"].value == "=B3*1.1" and sheet["A3"].value == "Cake"
    assert book["Notes"]["B3"].value == "Closed on Monday"
    assert book["Notes"]["B2"].value == "Prices include tax from May."


def test_set_cells_sheet_argument_and_bad_addresses(ws):
    prices_xlsx(ws / "prices.xlsx")
    box, _ = _box(ws)
    ok = box.call("set_cells", {"path": "prices.xlsx", "cells": {"A1": "Memo"}, "sheet": "notes"})
    assert not ok.is_error and openpyxl.load_workbook(ws / "prices.xlsx")["Notes"]["A1"].value \
        == "Memo"
    bad = box.call("set_cells", {"path": "prices.xlsx", "cells": {"B": 1}})
    assert bad.refused and "'B' is not a cell address" in bad.content
    nosheet = box.call("set_cells", {"path": "prices.xlsx", "cells": {"Costs!A1": 1}})
    assert nosheet.refused and "has no sheet 'Costs'; its sheets are 'Prices', 'Notes'." \
        in nosheet.content
    notbook = box.call("set_cells", {"path": "TASKS.md", "cells": {"A1": 1}})
    assert notbook.refused


def test_set_cells_keeps_parts_openpyxl_would_drop_byte_for_byte(ws):
    path = prices_xlsx(ws / "prices.xlsx")
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    # customXml: one of the things openpyxl leaves out when it saves (set_cells once
    # refused here; it edits the package's own XML now).
    parts["customXml/item1.xml"] = b"<?xml version='1.0'?><data><order>42</order></data>"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    box, changes = _box(ws)
    out = box.call("set_cells", {"path": "prices.xlsx", "cells": {"A2": "Rye"}})
    assert not out.is_error, out.content
    with zipfile.ZipFile(path) as zf:
        after = {n: zf.read(n) for n in zf.namelist()}
    assert list(after) == list(parts)
    assert [n for n in parts if parts[n] != after[n]] == ["xl/worksheets/sheet1.xml"]
    assert openpyxl.load_workbook(path)["Prices"]["A2"].value == "Rye"


def test_set_cells_keeps_elements_openpyxl_does_not_read(ws):
    path = prices_xlsx(ws / "prices.xlsx")
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    # A sparkline group, as Excel stores it in the sheet's extension list.
    ext = ('<extLst><ext uri="{05C60535-1F16-4fd2-B633-F4F36F0B64E0}" xmlns:x14="http://schemas'
           '.microsoft.com/office/spreadsheetml/2009/9/main"><x14:sparklineGroups><x14:sparkline'
           'Group><x14:sparklines><x14:sparkline><xm:f xmlns:xm="http://schemas.microsoft.com/'
           'office/excel/2006/main">Prices!B2:B4</xm:f><xm:sqref xmlns:xm="http://schemas.micro'
           'soft.com/office/excel/2006/main">D2</xm:sqref></x14:sparkline></x14:sparklines></x14:'
           'sparklineGroup></x14:sparklineGroups></ext></extLst>')
    parts["xl/worksheets/sheet1.xml"] = sheet.replace("</worksheet>", ext + "</worksheet>").encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    box, _ = _box(ws)
    out = box.call("set_cells", {"path": "prices.xlsx", "cells": {"B2": 1}})
    assert not out.is_error, out.content
    with zipfile.ZipFile(path) as zf:
        assert "<x14:sparklineGroups><x14:sparklineGroup>" in zf.read(
            "xl/worksheets/sheet1.xml").decode()


def test_write_file_over_a_document_with_pictures_is_refused(ws):
    from PIL import Image

    Image.new("RGB", (4, 4), "red").save(ws / "dot.png")
    doc = docx.Document()
    logo = doc.add_paragraph("Logo: ")   # the picture in a paragraph the new text drops
    logo.add_run().add_picture(str(ws / "dot.png"))
    doc.save(ws / "flyer.docx")
    before = (ws / "flyer.docx").read_bytes()
    box, _ = _box(ws)
    out = box.call("write_file", {"path": "flyer.docx", "content": "# New flyer\n"})
    assert out.refused and "Replacing it with write_file would drop " in out.content
    assert "pictures" in out.content and "'flyer (new).docx'" in out.content
    assert (ws / "flyer.docx").read_bytes() == before


def test_write_file_may_replace_a_plain_document_it_could_have_written(ws):
    box, _ = _box(ws)
    box.call("write_file", {"path": "brief.docx", "content": MARKDOWN})
    out = box.call("write_file", {"path": "brief.docx", "content": "# Shorter brief\n\nText.\n"})
    assert not out.is_error, out.content
    assert render_document(ws / "brief.docx") == "# Shorter brief\n\nText.\n"


def test_undo_restores_every_document_byte_for_byte(ws):
    brief_docx(ws / "brief.docx")
    prices_xlsx(ws / "prices.xlsx")
    originals = {n: (ws / n).read_bytes() for n in ("brief.docx", "prices.xlsx")}
    box, _ = _box(ws)
    assert not box.call("edit_file", {"path": "brief.docx", "old_text": "Goals",
                                      "new_text": "Aims"}).is_error
    assert not box.call("set_cells", {"path": "prices.xlsx", "cells": {"B2": 9}}).is_error
    assert not box.call("write_file", {"path": "new.docx", "content": "# New\n"}).is_error
    assert all((ws / n).read_bytes() != data for n, data in originals.items())
    _undo(ws)
    assert {n: (ws / n).read_bytes() for n in originals} == originals
    assert not (ws / "new.docx").exists()


def test_set_cells_is_declared_a_file_changing_tool_like_write_and_edit():
    from app.core.tools.specs import FILE_CHANGES, TOOL_SPECS

    assert set(FILE_CHANGES) == {"write_file", "edit_file", "delete_file", "set_cells"}
    specs = {s.name: s for s in TOOL_SPECS}
    assert all(c.path_argument in specs[name].parameters["required"]
               for name, c in FILE_CHANGES.items())


def test_a_refused_set_cells_keeps_no_pre_image_and_a_done_one_does(ws):
    prices_xlsx(ws / "prices.xlsx")
    box, changes = _box(ws)
    assert box.call("set_cells", {"path": "prices.xlsx", "cells": {"Z": 1}}).refused
    assert changes.touched == []
    assert not box.call("set_cells", {"path": "prices.xlsx", "cells": {"A1": "x"}}).is_error
    assert changes.touched == ["prices.xlsx"]
