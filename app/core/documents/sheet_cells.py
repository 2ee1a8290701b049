"""A workbook's cells as a person sees them in Excel, for comparing two versions of it: each
cell's displayed value (through its number format: $1,234.50, 74%), its formula if it has
one, whether it is a number (Excel aligns those right), and the sheet's merged areas.

Read like the rendering (sheets.py): openpyxl in its streaming mode, once for formulas and
once for the saved values, within the same row and column bounds. Runs in the worker.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, cast

from app.core.documents.sheets import MAX_COLS, MAX_ROWS, value_text
from app.core.documents.xlsx_dates import date_text
from app.core.documents.xlsx_display import displayed, general
from app.core.documents.xlsx_sheet import area

if TYPE_CHECKING:
    from openpyxl.workbook.workbook import Workbook
    from openpyxl.worksheet._read_only import ReadOnlyWorksheet

    from app.core.documents.guard import Out

# Is this sheet part (its path in the package) the same in both versions? (unchanged_sheets)
Skip = Callable[[str | None], bool]

_MERGE = re.compile(rb'<(?:\w+:)?mergeCell\b[^>]*?\bref="([A-Z]{1,3}\d+(?::[A-Z]{1,3}\d+)?)"')


@dataclass(frozen=True)
class Shown:
    """One cell as the sheet shows it."""

    text: str
    formula: str | None = None
    number: bool = False
    stored: str = ""   # the stored number where the format hides it: 0.09756097561 for 9.8%

    def full(self) -> str:
        return f"{self.text} ({self.stored})" if self.stored else self.text


@dataclass
class SheetCells:
    cells: dict[tuple[int, int], Shown] = field(default_factory=dict)
    merges: list[tuple[int, int, int, int]] = field(default_factory=list)  # r1, c1, r2, c2
    chart: bool = False      # a chart sheet: no cells
    cut: bool = False        # rows or columns past the bounds were not read
    same: bool = False       # not read: its part is the same in both versions


def read_cells(path: Path, out: Out | None = None,
               skip: Skip | None = None) -> dict[str, SheetCells]:
    """Every sheet's shown cells, by sheet name, in the workbook's order; a sheet whose part
    `skip(part)` says is unchanged comes as SheetCells(same=True), unread. The saved values
    are read (a second pass) only for sheets with formulas, and only their values."""
    from openpyxl import load_workbook  # noqa: PLC0415 - document library

    formulas = load_workbook(str(path), read_only=True, data_only=False, keep_links=False)
    opened: list[Workbook] = []

    def saved_sheet(name: str) -> ReadOnlyWorksheet:
        if not opened:
            opened.append(load_workbook(str(path), read_only=True, data_only=True,
                                        keep_links=False))
        # A workbook opened read-only has read-only sheets; the stub cannot say so.
        return cast("ReadOnlyWorksheet", opened[0][name])

    sheets: dict[str, SheetCells] = {}
    try:
        for name in formulas.sheetnames:
            sheet = formulas[name]
            if not hasattr(sheet, "iter_rows"):
                sheets[name] = SheetCells(chart=True)
                continue
            if skip is not None and skip(getattr(sheet, "_worksheet_path", None)):
                sheets[name] = SheetCells(same=True)
                continue
            sheets[name] = _sheet(sheet, functools.partial(saved_sheet, name), out)
            sheets[name].merges = _merges(formulas, sheet)
    finally:
        formulas.close()
        for book in opened:
            book.close()
    return sheets


def _sheet(sheet: ReadOnlyWorksheet, saved_sheet: Callable[[], ReadOnlyWorksheet],
           out: Out | None) -> SheetCells:
    found = SheetCells(cut=(sheet.max_column or 0) > MAX_COLS)
    width = min(sheet.max_column or MAX_COLS, MAX_COLS)
    formulas: dict[tuple[int, int], tuple[str, str]] = {}  # place -> (formula, format)
    # The stub borrows Worksheet.iter_rows for the read-only sheet (`iter_rows =
    # Worksheet.iter_rows`, as openpyxl does), with a Worksheet as its self.
    for n, row in enumerate(sheet.iter_rows(max_col=width), 1):  # type: ignore[misc]
        if n > MAX_ROWS:
            found.cut = True
            break
        if out is not None and n % 256 == 0:
            out.tick()
        for c in row:
            value = c.value
            if value is None or value == "":
                continue   # an empty cell (the streaming reader's EmptyCell has no column)
            column = c.column
            if column is None:
                continue
            code = getattr(c, "number_format", "General")
            text = value_text(value)
            if text.startswith("="):
                formulas[(n, column)] = (text, code)
                continue
            found.cells[(n, column)] = shown_cell(value, value, code)
    if formulas:
        last = max(r for r, _ in formulas)
        rows = saved_sheet().iter_rows(  # type: ignore[misc]  # the stub's self, as above
            max_col=width, max_row=last, values_only=True)
        for n, saved_row in enumerate(rows, 1):
            if out is not None and n % 256 == 0:
                out.tick()
            for column, saved in enumerate(saved_row, 1):
                if (n, column) in formulas:
                    formula, code = formulas.pop((n, column))
                    found.cells[(n, column)] = shown_cell(formula, saved, code)
        for (n, column), (formula, code) in formulas.items():  # no saved value read
            found.cells[(n, column)] = shown_cell(formula, None, code)
    return found


def shown_cell(value: object, saved: object, code: str | None) -> Shown:
    """The cell whose formula (or value) is `value` and saved value `saved`, as shown; an
    empty cell (None or "") is never asked about."""
    numeric = isinstance(saved, (int, float)) and not isinstance(saved, bool)
    text = value_text(value)
    if text.startswith("="):
        shown = _dated(saved, code) or value_text(saved, code if numeric else None,
                                                  formula=True)
        stored = _stored(saved, code, shown) if numeric and isinstance(saved, (int, float)) \
            else ""
        return Shown(shown, text, numeric, stored)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        shown = value_text(value, code or "General", formula=True)
        return Shown(shown, None, True, _stored(value, code, shown))
    dated = _dated(value, code)
    return Shown(dated, None, True) if dated else Shown(text, None, False)


def _stored(number: float, code: str | None, shown: str) -> str:
    """The number as stored, when its format hides it (9.8% for 0.09756097561): what
    read_file adds in brackets (xlsx_display.displayed)."""
    return general(number) if displayed(number, code or "General") != shown else ""


def _dated(value: object, code: str | None) -> str | None:
    """A date or time as its format shows it (01-02-03, 4:05 PM), or None."""
    if not isinstance(value, (dt.datetime, dt.date, dt.time)) or not code:
        return None

    return date_text(value, code)


def _merges(workbook: Workbook, sheet: object) -> list[tuple[int, int, int, int]]:
    """The merged areas of a sheet, read from its part (the streaming reader skips them)."""
    part = getattr(sheet, "_worksheet_path", None)
    archive = getattr(workbook, "_archive", None)
    if not part or archive is None:
        return []
    try:
        data = archive.read(part)
    except (KeyError, OSError, ValueError):
        return []
    merges: list[tuple[int, int, int, int]] = []
    for ref in _MERGE.findall(data)[:5000]:
        text = ref.decode("ascii")
        merges.append(area(text if ":" in text else f"{text}:{text}"))
    return merges


def unchanged_sheets(before: Path, after: Path) -> Skip | None:
    """A test `skip(part)` for read_cells: is the sheet part byte for byte the same in both
    versions, with the cell styles the same and the shared strings the same or only added
    to (so every cell of it shows the same)? None when anything else could change them."""
    try:
        with zipfile.ZipFile(before) as za, zipfile.ZipFile(after) as zb:
            crc_a = {i.filename: i.CRC for i in za.infolist()}
            crc_b = {i.filename: i.CRC for i in zb.infolist()}
            strings = "xl/sharedStrings.xml"
            if crc_a.get("xl/styles.xml") != crc_b.get("xl/styles.xml"):
                return None
            if crc_a.get(strings) != crc_b.get(strings) and (
                    strings not in crc_a or strings not in crc_b or
                    not _body(zb.read(strings)).startswith(_body(za.read(strings)))):
                return None
    except (zipfile.BadZipFile, OSError, ValueError, KeyError):
        return None
    return lambda part: bool(part) and part in crc_a and crc_a.get(part) == crc_b.get(part)


def _body(sst: bytes) -> bytes:
    """The shared strings' list, without the counts in its opening tag or its closing tag."""
    start = sst.find(b">", sst.find(b"<sst")) + 1 if b"<sst" in sst else 0
    end = sst.rfind(b"</")
    return sst[start:end if end > start else len(sst)]
