"""read_file shows a workbook's values as the sheet displays them (£4.62, 74%, 9.8%), with the
stored value after a display that hides its precision, and writing that rendering back
changes nothing: on a workbook Excel saved (Apache POI's test data) and on one made here."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import openpyxl
import pytest

from app.core.documents import render_document
from app.core.documents.xlsx_display import displayed
from app.core.documents.xlsx_values import parse
from tests.core.documents.test_excel_saved import DATA, _box, ws  # noqa: F401 - the fixture


@pytest.mark.parametrize("number, code, shown", [
    (4.62, '"£"#,##0.00', "£4.62"),
    (0.74, "0%", "74%"),
    (0.09756097560975618, "0.0%", "9.8% (0.09756097561)"),
    (0.09756097560975618, "General", "0.09756097561"),
    (1234.5, "#,##0.00", "1,234.50"),
    (-1234.5, "#,##0.00;(#,##0.00)", "(1,234.50)"),
    (4.62, '#,##0.00\\ "€"', "4.62 €"),
    (-3, "[$€-407]#,##0.00", "-€3.00"),
    (5, '_("$"* #,##0_)', "$5"),
    (2.5, "0.0#", "2.5"),
    (12345.678, "0.00E+00", "1.23E+04 (12345.678)"),
    (1_500_000, '#,##0,,"M"', "1500000"),     # shown as 2M, which would not read back
])
def test_a_number_is_shown_through_its_format_and_reads_back_as_itself(number, code, shown):
    assert displayed(number, code) == shown
    back = parse(shown)
    assert back.kind == "number" and abs(back.data - number) <= 1e-9 * max(1, abs(number))


def test_a_formulas_result_is_shown_as_displayed_only():
    assert displayed(0.09756097560975618, "0.0%", formula=True) == "9.8%"


def test_text_that_ends_in_a_number_in_brackets_stays_text():
    assert parse("Q1 (2024)").kind == "text"


def test_an_excel_saved_budget_shows_its_dollars_and_percentages():
    shown = render_document(DATA / "simple-monthly-budget.xlsx")
    assert "\n5||Income 1|$2,500.00\n" in shown
    assert "=TotalMonthlyExpenses/TotalMonthlyIncome → 62%" in shown
    assert "=TotalMonthlyIncome-TotalMonthlyExpenses → $1,414" in shown


def _made(path: Path) -> None:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Prices"
    rows = [("Item", "Price", "Share", "Since", "Count"),
            ("Bread", 4.62, 0.09756097560975618, dt.datetime(2024, 5, 1), 12345.5)]
    for row in rows:
        sheet.append(row)
    sheet["B2"].number_format = '"£"#,##0.00'
    sheet["C2"].number_format = "0.0%"
    sheet["D2"].number_format = "d-mmm-yy"
    sheet["E2"].number_format = "#,##0"
    sheet["B3"] = "=B2*2"
    sheet["B3"].number_format = '"£"#,##0.00'
    book.save(path)


def test_a_made_workbook_shows_what_the_sheet_displays_and_writes_back_unchanged(ws):  # noqa: F811
    _made(ws / "p.xlsx")
    before = (ws / "p.xlsx").read_bytes()
    shown = render_document(ws / "p.xlsx")
    assert "\n2|Bread|£4.62|9.8% (0.09756097561)|2024-05-01|12,346 (12345.5)\n" \
        in shown
    assert "0.09756097560975618" not in shown
    box, _ = _box(ws)
    out = box.call("write_file", {"path": "p.xlsx", "content": shown})
    assert out.content == "'p.xlsx' already has exactly this content; nothing changed."
    assert (ws / "p.xlsx").read_bytes() == before
    # A displayed price typed back in a new form changes the number, not the format.
    out = box.call("write_file", {"path": "p.xlsx",
                                  "content": shown.replace("£4.62", "£5.10")})
    assert not out.is_error, out.content
    cell = openpyxl.load_workbook(ws / "p.xlsx")["Prices"]["B2"]
    assert cell.value == 5.1 and cell.number_format == '"£"#,##0.00'


def test_a_copy_of_an_excel_saved_workbook_writes_back_unchanged(ws):  # noqa: F811
    shutil.copyfile(DATA / "simple-monthly-budget.xlsx", ws / "b.xlsx")
    box, _ = _box(ws)
    out = box.call("write_file", {"path": "b.xlsx", "content": render_document(ws / "b.xlsx")})
    assert out.content == "'b.xlsx' already has exactly this content; nothing changed."
