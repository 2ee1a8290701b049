"""Markdown tables to a workbook: one sheet per `## NAME` heading, numbers as numbers, a cell
beginning with `=` as a formula. A table in read_file's own layout (column letters above,
row numbers on the left) lands at those very addresses, so a sheet read can be written back;
its ditto marks (`"`, formulas filled down, sheet_fill) become the formulas they stand for.
"""

from __future__ import annotations

import io
import re

from app.core.documents.base import DocumentError
from app.core.documents.sheet_fill import LEGEND, fill_down, is_mark
from app.core.documents.sheets import column_letter
from app.core.documents.word_write import parse
from app.core.documents.xlsx_values import ARROW

_NUMBER = re.compile(r"^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
_PERCENT = re.compile(r"^-?(\d+\.?\d*|\.\d+)%$")
_BAD_NAME = re.compile(r"[\[\]:*?/\\]")
MAX_SHEET_NAME = 31
_NOT_TABLES = {"paragraph_open", "bullet_list_open", "ordered_list_open", "fence", "code_block",
               "blockquote_open", "html_block"}


def cell_value(text: str) -> str | int | float | bool | None:
    """What a cell's text means: None, a number, TRUE/FALSE, a formula, or text."""
    text = text.strip()
    if not text:
        return None
    if text.startswith("="):
        return text.split(ARROW, 1)[0].strip()  # read_file shows "=B2*1.1 → 3.85"
    if text.startswith("'") and is_mark(text[1:]):
        return text[1:]   # text that begins with the mark, shown as Excel writes such text
    if _NUMBER.match(text):
        number = float(text)
        return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() \
            else number
    if text.upper() in ("TRUE", "FALSE"):
        return text.upper() == "TRUE"
    return text


def _percent(text: str) -> float | None:
    text = text.strip()
    return float(text[:-1]) / 100 if _PERCENT.match(text) else None


def tables_by_sheet(markdown: str) -> list[tuple[str, list[list[str]]]]:
    """[(sheet name, rows of raw cell texts)] in order; DocumentError for anything else."""
    sheets: list[tuple[str, list[list[str]]]] = []
    name: str | None = None
    fresh = True  # a heading came since the last table
    tokens = parse(markdown.replace(LEGEND, ""))   # read_file's line above a sheet
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "heading_open":
            name = tokens[i + 1].content.strip()
            if name.lower().startswith("sheet:"):
                name = name[6:].strip()  # read_file's own heading, "## Sheet: Prices"
            fresh = True
            i += 3
            continue
        if tok.type == "table_open":
            rows: list[list[str]] = []
            while tokens[i].type != "table_close":
                if tokens[i].type == "tr_open":
                    rows.append([])
                elif tokens[i].type == "inline":
                    # the parser has already read each `\|` as a `|` in the cell
                    rows[-1].append(tokens[i].content)
                i += 1
            if fresh or not sheets:
                sheets.append((name or f"Sheet{len(sheets) + 1}", rows))
            else:
                sheets[-1][1].extend([[]] + rows)  # a second table under one heading
            fresh = False
        elif tok.type in _NOT_TABLES:
            raise DocumentError(
                "write_file to a .xlsx takes only Markdown tables, each under a '## SHEET NAME' "
                "heading; put other text in a cell, or in a separate .md file.")
        i += 1
    if not sheets:
        raise DocumentError("write_file to a .xlsx needs at least one Markdown table "
                            "(| a | b | rows), each under a '## SHEET NAME' heading.")
    return sheets


def _check_name(name: str, seen: set[str]) -> None:
    if not name or len(name) > MAX_SHEET_NAME or _BAD_NAME.search(name) or name.startswith("'"):
        raise DocumentError(f"'{name[:40]}' cannot name a sheet: a sheet name has 1 to 31 "
                            "characters and none of : \\ / ? * [ ].")
    if name.casefold() in seen:
        raise DocumentError(f"Two sheets are named '{name}'; each sheet needs its own name.")
    seen.add(name.casefold())


def _addressed(rows: list[list[str]]) -> bool:
    """Rows in read_file's layout: '', 'A', 'B', ... above, row numbers in the first column."""
    if not rows or len(rows[0]) < 2 or rows[0][0].strip() not in ("", "#"):
        return False
    letters = [c.strip() for c in rows[0][1:]]
    return (letters == [column_letter(n) for n in range(1, len(letters) + 1)]
            and all(r[0].strip().isdigit() for r in rows[1:] if r))


def markdown_to_xlsx(markdown: str) -> bytes:
    from openpyxl import Workbook  # noqa: PLC0415 - document library
    from openpyxl.styles import Font  # noqa: PLC0415 - document library

    book = Workbook()
    first = book.active   # a new workbook's empty sheet
    if first is not None:
        book.remove(first)
    seen: set[str] = set()
    for name, rows in tables_by_sheet(markdown):
        _check_name(name, seen)
        sheet = book.create_sheet(name)
        widths: dict[int, int] = {}
        placed = _placed(rows)
        for row_no, col_no, text in placed:
            bold = text.startswith("**") and text.endswith("**") and len(text) > 4
            text = text[2:-2] if bold else text
            percent = _percent(text)
            cell = sheet.cell(row=row_no, column=col_no,
                              value=percent if percent is not None else cell_value(text))
            if percent is not None:
                cell.number_format = "0%"
            if bold or (row_no == 1 and not _addressed(rows)):
                cell.font = Font(bold=True)
            widths[col_no] = max(widths.get(col_no, 0), min(len(text) + 2, 50))
        for col_no, width in widths.items():
            sheet.column_dimensions[column_letter(col_no)].width = max(width, 8)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _placed(rows: list[list[str]]) -> list[tuple[int, int, str]]:
    if _addressed(rows):
        placed = [(int(r[0]), c, text.strip()) for r in rows[1:] if r
                  for c, text in enumerate(r[1:], 1) if text.strip()]
    else:
        placed = [(n, c, text.strip()) for n, r in enumerate(rows, 1)
                  for c, text in enumerate(r, 1) if text.strip()]
    return _filled(placed) if any(is_mark(t) for _r, _c, t in placed) else placed


def _filled(placed: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Ditto-marked cells as the formulas they stand for: the cell above's, one row further
    down."""
    at = {(row, col): text for row, col, text in placed}
    for row, col in sorted(at):
        if not is_mark(at[(row, col)]):
            continue
        above = at.get((row - 1, col), "")
        if not above.startswith("="):
            mark = at[(row, col)].split(" ", 1)[0]
            raise DocumentError(
                f"Cell {column_letter(col)}{row} shows {mark}, the mark of a formula filled "
                f"down from the cell above, but {column_letter(col)}{row - 1} holds no "
                "formula; write the formula itself in that cell.")
        at[(row, col)] = fill_down(above.split(ARROW, 1)[0].strip())
    return [(row, col, at[(row, col)]) for row, col, _text in placed]
