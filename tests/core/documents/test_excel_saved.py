"""set_cells and write_file on workbooks Microsoft Excel saved (Apache POI's test data, see
tests/data/excel/NOTICE): accepted, only the cells asked for change, every other part of
the package byte for byte, the values read back by openpyxl and by LibreOffice, undo exact."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
import zipfile
from pathlib import Path

import openpyxl
import pytest

from app.core.tools.toolbox import ToolBox
from app.core.undo.undo import BlobStore, RoundChanges, undo_manifest
from tests.excel_checks import check

DATA = Path(__file__).resolve().parents[2] / "data" / "excel"
BOOKS = sorted(p.name for p in DATA.iterdir() if p.suffix in (".xlsx", ".xlsm"))


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "TASKS.md").write_text("# Work\n\n- [ ] Update the budget\n")
    return root


def _box(ws):
    changes = RoundChanges(ws, BlobStore(ws / ".harness"), ws / ".harness/undo/1.json", 1)
    return ToolBox(ws, ws / "TASKS.md", "Update the budget", changes), changes


def _parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def _changed(before: dict, path: Path) -> list[str]:
    after = _parts(path)
    assert list(after) == list(before)
    return sorted(n for n in before if before[n] != after[n])


def test_these_are_workbooks_excel_saved():
    for name in BOOKS:
        app = _parts(DATA / name)["docProps/app.xml"].decode()
        assert "<Application>Microsoft Excel</Application>" in app or \
            "<Application>Microsoft Macintosh Excel</Application>" in app, name


@pytest.mark.parametrize("name", BOOKS)
def test_set_cells_on_a_workbook_excel_saved_changes_only_its_cells(tmp_path, name):
    # A number, a new number under it, a new formula, a text and a date, chosen from what
    # the sheet holds; then parts compared, values read back by openpyxl, undo checked.
    assert check(DATA / name, tmp_path / "work") == ""


def test_a_price_column_keeps_its_format_and_totals_update_on_open(ws):
    shutil.copyfile(DATA / "simple-monthly-budget.xlsx", ws / "budget.xlsx")
    before = _parts(ws / "budget.xlsx")
    box, _ = _box(ws)
    out = box.call("set_cells", {"path": "budget.xlsx", "cells": {"C6": 1500, "C24": "175"}})
    assert not out.is_error, out.content
    # C6 feeds the income table, TotalMonthlyIncome (a defined name over a table column),
    # and from there the summary and the percentage.
    assert out.content.startswith("Set 2 cells in 'budget.xlsx'; the rest of the workbook is "
                                  "as it was. These formula cells are calculated afresh when "
                                  "the workbook is next opened, in Excel, LibreOffice or "
                                  "another spreadsheet program: ")
    for cell in ("E9", "G9", "H4"):
        assert f"'Simple Monthly Budget'!{cell}" in out.content
    assert _changed(before, ws / "budget.xlsx") == ["xl/workbook.xml",
                                                    "xl/worksheets/sheet1.xml"]
    book = openpyxl.load_workbook(ws / "budget.xlsx")
    sheet = book.active
    assert sheet["C6"].value == 1500 and sheet["C24"].value == 175
    assert sheet["C24"].number_format == sheet["C23"].number_format == '"$"#,##0.00'
    assert book.calculation.fullCalcOnLoad
    saved = openpyxl.load_workbook(ws / "budget.xlsx", data_only=True).active
    assert saved["E9"].value is None          # the stale total is gone, not shown
    assert saved["C12"].value == 120          # an unrelated value keeps its saved result


def test_a_date_goes_in_as_a_date_and_a_percentage_as_a_percentage(ws):
    shutil.copyfile(DATA / "WithTwoCharts.xlsx", ws / "charts.xlsx")
    box, _ = _box(ws)
    out = box.call("set_cells", {"path": "charts.xlsx",
                                 "cells": {"C1": "2024-05-01", "C2": "15%", "C3": "'0042",
                                           "C4": "£4.50", "C5": "TRUE"},
                                 "formats": {"C6": "0.000"}})
    assert not out.is_error, out.content
    sheet = openpyxl.load_workbook(ws / "charts.xlsx")["Sheet1"]
    assert sheet["C1"].value.date().isoformat() == "2024-05-01"
    assert sheet["C2"].value == 0.15 and sheet["C2"].number_format == "0%"
    assert sheet["C3"].value == "0042"
    assert sheet["C4"].value == 4.5 and "£" in sheet["C4"].number_format
    assert sheet["C5"].value is True


def test_a_named_format_is_used(ws):
    shutil.copyfile(DATA / "WithTwoCharts.xlsx", ws / "charts.xlsx")
    box, _ = _box(ws)
    out = box.call("set_cells", {"path": "charts.xlsx", "cells": {"C6": 2.5},
                                 "formats": {"C6": "0.000"}})
    assert not out.is_error, out.content
    assert openpyxl.load_workbook(ws / "charts.xlsx")["Sheet1"]["C6"].number_format == "0.000"


def test_a_formula_replaced_by_a_value_leaves_the_calculation_chain(ws):
    shutil.copyfile(DATA / "WithTwoCharts.xlsx", ws / "charts.xlsx")
    before = _parts(ws / "charts.xlsx")
    assert b'r="E2"' in before["xl/calcChain.xml"]
    box, _ = _box(ws)
    assert not box.call("set_cells", {"path": "charts.xlsx", "cells": {"E2": 7}}).is_error
    after = _parts(ws / "charts.xlsx")
    assert b'r="E2"' not in after["xl/calcChain.xml"] and b'r="E3"' in after["xl/calcChain.xml"]
    # The first entry named the sheet; the next one names it now.
    chain = after["xl/calcChain.xml"].decode()
    assert chain.count('i="1"') >= 1
    sheet = openpyxl.load_workbook(ws / "charts.xlsx")["Sheet1"]
    assert sheet["E2"].value == 7 and sheet["E3"].value == "=D3*D3"


def test_replacing_the_first_cell_of_a_shared_formula_keeps_the_others_computing(ws):
    shutil.copyfile(DATA / "testSharedFormulasRangeSetBlankBug.xlsx", ws / "shared.xlsx")
    master = _shared_master(ws / "shared.xlsx")
    box, _ = _box(ws)
    assert not box.call("set_cells", {"path": "shared.xlsx", "cells": {master: "x"}}).is_error
    sheet = openpyxl.load_workbook(ws / "shared.xlsx").active
    assert sheet[master].value == "x"
    col, row = master[0], int(master[1:])
    assert sheet[f"{col}{row + 1}"].value == \
        openpyxl.load_workbook(DATA / "testSharedFormulasRangeSetBlankBug.xlsx").active[
            f"{col}{row + 1}"].value


def _shared_master(path: Path) -> str:
    import re
    sheet = _parts(path)["xl/worksheets/sheet1.xml"].decode()
    return re.search(r'<c r="([A-Z]+\d+)"[^>]*><f t="shared" ref="[A-Z]+\d+:[A-Z]+\d+"', sheet
                     ).group(1)


def test_cells_inside_merged_cells_or_an_array_formula_are_refused_in_a_sentence(ws):
    shutil.copyfile(DATA / "MatrixFormulaEvalTestData.xlsx", ws / "m.xlsx")
    before = (ws / "m.xlsx").read_bytes()
    box, _ = _box(ws)
    sheet = openpyxl.load_workbook(ws / "m.xlsx").worksheets[0]
    anchor, ref = next(iter(sheet.array_formulae.items()))
    inner = ref.split(":")[1]
    out = box.call("set_cells", {"path": "m.xlsx", "cells": {inner: 1},
                                 "sheet": sheet.title})
    assert out.refused and f"is part of one formula that fills {ref}; set {anchor} to " \
        "change it." in out.content
    assert (ws / "m.xlsx").read_bytes() == before


def test_write_file_in_read_files_layout_changes_only_the_cells_that_differ(ws):
    from app.core.documents import render_document

    shutil.copyfile(DATA / "WithTwoCharts.xlsx", ws / "charts.xlsx")
    before = _parts(ws / "charts.xlsx")
    shown = render_document(ws / "charts.xlsx")
    assert "\n2|2|12|" in shown
    box, _ = _box(ws)
    out = box.call("write_file", {"path": "charts.xlsx",
                                  "content": shown.replace("\n2|2|12|", "\n2|2|13|")})
    assert not out.is_error, out.content
    assert _changed(before, ws / "charts.xlsx") == ["xl/worksheets/sheet1.xml"]
    assert openpyxl.load_workbook(ws / "charts.xlsx")["Sheet1"]["B2"].value == 13


def test_write_file_over_a_workbook_refuses_in_plain_words(ws, monkeypatch):
    shutil.copyfile(DATA / "WithTwoCharts.xlsx", ws / "charts.xlsx")
    before = (ws / "charts.xlsx").read_bytes()
    box, _ = _box(ws)
    one = box.call("write_file", {"path": "charts.xlsx",
                                  "content": "## Sheet1\n\n| a |\n|---|\n| 1 |\n"})
    assert one.refused and one.content == (
        "write_file over 'charts.xlsx' must give every sheet it has, and 'Sheet2' and 'Sheet3' "
        "are missing, so nothing was changed; to change only some cells, use set_cells.")
    import app.core.documents.sheets as sheets
    monkeypatch.setattr(sheets, "MAX_ROWS", 3)   # a sheet longer than read_file shows
    shown = ("## Sheet: Sheet1\n\n|   | A |\n|---|---|\n| 1 | 1 |\n\n## Sheet: Sheet2\n\n"
             "(this sheet is empty)\n\n## Sheet: Sheet3\n\n(this sheet is empty)\n")
    cut = box.call("write_file", {"path": "charts.xlsx", "content": shown})
    assert cut.refused and "has more than read_file shows" in cut.content
    assert "would empty the cells never shown" in cut.content
    assert (ws / "charts.xlsx").read_bytes() == before
    for text in (one.content, cut.content):
        assert "xl/" not in text and ".xml" not in text


def _soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


@pytest.mark.skipif(_soffice() is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_opens_the_changed_workbook_with_the_new_values(ws, tmp_path):
    shutil.copyfile(DATA / "WithTwoCharts.xlsx", ws / "charts.xlsx")
    box, _ = _box(ws)
    out = box.call("set_cells", {"path": "charts.xlsx",
                                 "cells": {"D2": 11, "A8": "Total", "B8": "=SUM(B1:B6)"}})
    assert not out.is_error, out.content
    assert "Sheet1!E2" in out.content
    outdir = tmp_path / "csv"
    subprocess.run([_soffice(), "--headless", f"-env:UserInstallation=file://{tmp_path}/lo",
                    "--convert-to", "csv", "--outdir", str(outdir), str(ws / "charts.xlsx")],
                   check=True, capture_output=True, timeout=180)
    rows = list(csv.reader(io.StringIO((outdir / "charts.csv").read_text())))
    assert rows[1][3:5] == ["11", "121"]        # E2 = D2*D2, computed by LibreOffice
    assert rows[7][:2] == ["Total", "77"]       # 10+12+14+9+15+17


def test_undo_gives_an_excel_workbook_back_byte_for_byte(ws):
    shutil.copyfile(DATA / "61495-test.xlsm", ws / "macros.xlsm")
    original = (ws / "macros.xlsm").read_bytes()
    box, _ = _box(ws)
    assert not box.call("set_cells", {"path": "macros.xlsm", "cells": {"A1": 70}}).is_error
    assert _parts(ws / "macros.xlsm")["xl/vbaProject.bin"] == _parts(
        DATA / "61495-test.xlsm")["xl/vbaProject.bin"]
    undo_manifest(ws, ws / ".harness", ws / ".harness/undo/1.json")
    assert (ws / "macros.xlsm").read_bytes() == original


def test_a_refusal_names_what_a_person_recognises_never_a_part_or_an_element():
    from app.core.documents.keep import lost_in

    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    old = {"xl/styles.xml": f"<styleSheet xmlns='{main}'><dxfs count='1'><dxf/></dxfs>"
                            "</styleSheet>".encode(),
           "xl/workbook.xml": f"<workbook xmlns='{main}'><fileVersion/></workbook>".encode(),
           "xl/slicerCaches/x.bin": b"x", "xl/unknown/thing.bin": b"x",
           "customXml/item1.xml": b"<a/>"}
    new = {"xl/styles.xml": f"<styleSheet xmlns='{main}'/>".encode(),
           "xl/workbook.xml": f"<workbook xmlns='{main}'/>".encode()}
    assert lost_in(old, new, {}) == ["cell formatting", "custom data stored in the file",
                                     "other content of the workbook", "slicers",
                                     "workbook settings"]


def test_a_sheet_losing_its_drawing_and_its_extension_validations_is_told_in_words():
    # A worksheet's <drawing> (its pictures and shapes) and the data validations Excel keeps
    # in its extension list (x14:dataValidations) share their local names with the Word and
    # main-sheet elements: each is said once, in the same words.
    from app.core.documents.keep import lost_in

    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    x14 = "http://schemas.microsoft.com/office/spreadsheetml/2009/9/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    old = {"xl/worksheets/sheet1.xml": (
        f"<worksheet xmlns='{main}' xmlns:r='{rel}' xmlns:x14='{x14}'><sheetData/>"
        "<drawing r:id='rId1'/><extLst><ext uri='x'><x14:dataValidations count='1'>"
        "<x14:dataValidation type='list'/></x14:dataValidations></ext></extLst>"
        "</worksheet>").encode()}
    new = {"xl/worksheets/sheet1.xml": f"<worksheet xmlns='{main}'><sheetData/></worksheet>"
                                       .encode()}
    assert lost_in(old, new, {}) == ["data validation", "pictures or shapes"]


def test_setting_what_a_cell_already_holds_changes_nothing(ws):
    from app.core.documents import render_document

    shutil.copyfile(DATA / "WithTwoCharts.xlsx", ws / "charts.xlsx")
    before = (ws / "charts.xlsx").read_bytes()
    box, changes = _box(ws)
    same = box.call("set_cells", {"path": "charts.xlsx", "cells": {"B2": 12, "E2": "=D2*D2"}})
    assert same.content == "The cells already hold these values in 'charts.xlsx'; nothing changed."
    # read_file's rendering written back as it was shown changes nothing either.
    again = box.call("write_file", {"path": "charts.xlsx",
                                    "content": render_document(ws / "charts.xlsx")})
    assert again.content == "'charts.xlsx' already has exactly this content; nothing changed."
    assert (ws / "charts.xlsx").read_bytes() == before and changes.touched == []


@pytest.mark.parametrize("name", [b for b in BOOKS if b.endswith(".xlsx")])  # not .xlsm
def test_write_file_of_read_files_own_rendering_leaves_the_workbook_as_it_was(ws, name):
    from app.core.documents import render_document

    shutil.copyfile(DATA / name, ws / name)
    box, _ = _box(ws)
    out = box.call("write_file", {"path": name, "content": render_document(ws / name)})
    assert out.content == f"'{name}' already has exactly this content; nothing changed."
    assert (ws / name).read_bytes() == (DATA / name).read_bytes()


def test_when_no_formula_is_left_the_calculation_chain_goes_with_its_mentions(ws):
    shutil.copyfile(DATA / "WithTwoCharts.xlsx", ws / "charts.xlsx")
    before = _parts(ws / "charts.xlsx")
    box, _ = _box(ws)
    out = box.call("set_cells", {"path": "charts.xlsx", "cells": {f"E{r}": r for r in range(1, 7)}})
    assert not out.is_error, out.content
    after = _parts(ws / "charts.xlsx")
    assert [n for n in before if n not in after] == ["xl/calcChain.xml"]
    assert sorted(n for n in after if after[n] != before[n]) == [
        "[Content_Types].xml", "xl/_rels/workbook.xml.rels", "xl/worksheets/sheet1.xml"]
    assert b"calcChain" not in after["[Content_Types].xml"]
    assert b"calcChain" not in after["xl/_rels/workbook.xml.rels"]
    assert [c.value for c in openpyxl.load_workbook(ws / "charts.xlsx")["Sheet1"]["E"]] == \
        [1, 2, 3, 4, 5, 6]


def test_write_file_that_leaves_out_a_row_empties_it_and_keeps_the_charts(ws):
    from app.core.documents import render_document

    shutil.copyfile(DATA / "WithTwoCharts.xlsx", ws / "charts.xlsx")
    before = _parts(ws / "charts.xlsx")
    shown = render_document(ws / "charts.xlsx")
    row6 = next(line for line in shown.splitlines() if line.startswith("6|"))
    box, _ = _box(ws)
    out = box.call("write_file", {"path": "charts.xlsx", "content": shown.replace(row6 + "\n", "")})
    assert not out.is_error, out.content
    after = _parts(ws / "charts.xlsx")
    assert all(after[n] == before[n] for n in before if "chart" in n or "drawing" in n)
    sheet = openpyxl.load_workbook(ws / "charts.xlsx")["Sheet1"]
    assert [sheet[f"{c}6"].value for c in "ABDE"] == [None] * 4
    assert sheet["E5"].value == "=D5*D5"


def test_newer_functions_are_stored_the_way_excel_stores_them(ws):
    shutil.copyfile(DATA / "WithTwoCharts.xlsx", ws / "charts.xlsx")
    box, _ = _box(ws)
    out = box.call("set_cells", {"path": "charts.xlsx", "cells": {
        "F1": '=XLOOKUP(5,D1:D6,E1:E6)&TEXTJOIN(",",TRUE,"IFS(")', "F2": "=SUM(FILTER(B1:B6,B1:B6>10))"}})
    assert not out.is_error, out.content
    sheet = _parts(ws / "charts.xlsx")["xl/worksheets/sheet1.xml"].decode()
    assert '<f>_xlfn.XLOOKUP(5,D1:D6,E1:E6)&amp;_xlfn.TEXTJOIN(",",TRUE,"IFS(")</f>' in sheet
    assert "<f>SUM(_xlfn._xlws.FILTER(B1:B6,B1:B6&gt;10))</f>" in sheet


def test_an_array_formula_replaced_by_a_value_frees_the_cells_it_filled(ws):
    shutil.copyfile(DATA / "MatrixFormulaEvalTestData.xlsx", ws / "m.xlsx")
    sheet = openpyxl.load_workbook(ws / "m.xlsx").worksheets[0]
    anchor, ref = next(iter(sheet.array_formulae.items()))
    inner = ref.split(":")[1]
    box, _ = _box(ws)
    out = box.call("set_cells", {"path": "m.xlsx", "cells": {anchor: 1, inner: 2},
                                 "sheet": sheet.title})
    assert not out.is_error, out.content
    after = openpyxl.load_workbook(ws / "m.xlsx").worksheets[0]
    assert after[anchor].value == 1 and after[inner].value == 2
    assert anchor not in after.array_formulae


def test_a_number_in_an_empty_cell_the_template_formatted_takes_that_format(ws):
    shutil.copyfile(DATA / "61495-test.xlsm", ws / "macros.xlsm")
    sheet = _parts(ws / "macros.xlsm")["xl/worksheets/sheet1.xml"].decode()
    assert '<c r="B4" s="3"/>' in sheet                    # styled, with nothing in it
    box, _ = _box(ws)
    out = box.call("set_cells", {"path": "macros.xlsm", "cells": {"B4": 4.25}})
    assert not out.is_error, out.content
    after = _parts(ws / "macros.xlsm")["xl/worksheets/sheet1.xml"].decode()
    assert '<c r="B4" s="3"><v>4.25</v></c>' in after
