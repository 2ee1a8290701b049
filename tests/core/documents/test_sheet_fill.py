"""Formulas filled down a column read as the ditto mark `"` and their value, and are written
back exactly."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from app.core.documents import render_document
from app.core.documents.sheet_fill import LEGEND, fill_down, is_filled
from tests.document_files import prices_xlsx

TASK = "Prices"  # the board's one task (conftest.py makes `ws` and `box` for it)

DATA = Path(__file__).resolve().parent.parent.parent / "data" / "excel"


def test_fill_down_moves_relative_rows_only():
    assert fill_down("=B2*1.1") == "=B3*1.1"
    assert fill_down("=SUM($B$2:B9)+B$1") == "=SUM($B$2:B10)+B$1"
    assert fill_down('="A1"&A1') == '="A1"&A2'                      # not inside text
    assert fill_down("='Q1 2024'!A1+Q1!B2") == "='Q1 2024'!A2+Q1!B3"  # not a sheet's name
    assert fill_down("=LOG10(A1)*1E5+TotalIncome") == "=LOG10(A2)*1E5+TotalIncome"
    assert is_filled("=B2*1.1", "=B3*1.1") and is_filled("=$A$1", "=$A$1")
    assert not is_filled("=B2*1.1", "=B3*1.2") and not is_filled(3, "=B3") \
        and not is_filled("B2", "B3")


def test_a_long_formula_column_reads_as_its_first_formula_then_ditto_marks(tmp_path):
    text = render_document(prices_xlsx(tmp_path / "big.xlsx", rows=100))
    assert LEGEND in text
    assert '\n#|A|B|C\n-|-|-|-\n1|Item|Price|With tax\n2|Bread|3.5|=B2*1.1\n3|Cake|4.5|"\n' in text
    assert '\n101|Item 100|102.5|"\n' in text
    assert "=B3*1.1" not in text and "↓" not in text


def test_a_few_formulas_stay_whole_with_no_legend(tmp_path):
    text = render_document(prices_xlsx(tmp_path / "p.xlsx"))
    assert "\n3|Cake|4.5|=B3*1.1\n" in text and LEGEND not in text and '|"' not in text


def test_an_excel_saved_column_shows_each_rows_saved_value(ws):
    text = render_document(DATA / "DateFormatTests.xlsx")
    assert "\n2|=TEXT(C2, B2) → 11-10-52|d-m-y|" in text
    assert '\n4|" Sat-Oct-1952|ddd-mmm-yyy|' in text


def test_write_file_of_the_rendering_keeps_every_formula_and_follows_a_changed_first(ws, box):
    prices_xlsx(ws / "p.xlsx", rows=100)
    shown = render_document(ws / "p.xlsx")
    same = box.call("write_file", {"path": "p.xlsx", "content": shown})
    assert same.content == "'p.xlsx' already has exactly this content; nothing changed."
    out = box.call("write_file", {"path": "p.xlsx", "content": shown.replace(
        "\n2|Bread|3.5|=B2*1.1\n", "\n2|Bread|3.5|=B2*1.2\n")})
    assert not out.is_error, out.content
    sheet = openpyxl.load_workbook(ws / "p.xlsx")["Prices"]
    assert [sheet[f"C{r}"].value for r in (2, 3, 50, 101)] == \
        ["=B2*1.2", "=B3*1.2", "=B50*1.2", "=B101*1.2"]


def test_an_arrow_under_a_cell_with_no_formula_is_refused_in_a_sentence(ws, box):
    prices_xlsx(ws / "p.xlsx", rows=100)
    before = (ws / "p.xlsx").read_bytes()
    shown = render_document(ws / "p.xlsx")
    out = box.call("write_file", {"path": "p.xlsx", "content": shown.replace(
        "\n2|Bread|3.5|=B2*1.1\n", "\n2|Bread|3.5|7\n")})
    assert out.is_error and out.content == (
        'Cell C3 shows ", the mark of a formula filled down from the cell above, but C2 holds '
        "no formula; write the formula itself in that cell.")
    assert (ws / "p.xlsx").read_bytes() == before


def test_a_new_workbook_written_from_a_rendering_gets_the_formulas(ws, box):
    prices_xlsx(ws / "p.xlsx", rows=100)
    out = box.call("write_file", {"path": "copy.xlsx",
                                  "content": render_document(ws / "p.xlsx")})
    assert not out.is_error, out.content
    sheet = openpyxl.load_workbook(ws / "copy.xlsx")["Prices"]
    assert sheet["C3"].value == "=B3*1.1" and sheet["C101"].value == "=B101*1.1"


@pytest.mark.parametrize("text, shown", [
    ('" see below', "'\" see below"), ('"', "'\""), ("↓ see below", "'↓ see below"),
    ('"Best" bread', '"Best" bread')])
def test_text_that_reads_as_the_mark_is_shown_as_excel_writes_it_and_stays_text(ws, box, text,
                                                                              shown):
    shutil.copyfile(DATA / "WithTwoCharts.xlsx", ws / "c.xlsx")
    box.call("set_cells", {"path": "c.xlsx", "cells": {"F1": text}})
    rendered = render_document(ws / "c.xlsx")
    assert "\n1|" in rendered and f"|{shown}" in rendered.split("\n1|", 1)[1].split("\n")[0]
    before = (ws / "c.xlsx").read_bytes()
    out = box.call("write_file", {"path": "c.xlsx", "content": rendered})
    assert out.content == "'c.xlsx' already has exactly this content; nothing changed."
    assert (ws / "c.xlsx").read_bytes() == before


def test_a_rendering_with_the_earlier_arrow_mark_is_still_written_back_as_formulas(ws, box):
    prices_xlsx(ws / "p.xlsx", rows=100)
    older = render_document(ws / "p.xlsx").replace('|"\n', "|↓\n")
    assert older.count("|↓\n") == 99
    out = box.call("write_file", {"path": "copy.xlsx", "content": older})
    assert not out.is_error, out.content
    sheet = openpyxl.load_workbook(ws / "copy.xlsx")["Prices"]
    assert [sheet[f"C{r}"].value for r in (2, 3, 101)] == ["=B2*1.1", "=B3*1.1", "=B101*1.1"]
