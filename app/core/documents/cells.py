"""set_cells: set cells of an existing workbook, keeping everything else.

openpyxl loads the whole workbook (macros kept for .xlsm, rich text kept), the cells are
set, the workbook is saved in memory, and keep.check_kept compares the result with the file
on disk: if openpyxl would drop anything (shapes, form controls, conditional formats it does
not read...), nothing is written and the sentence says what and suggests a new file.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

from app.core.documents.base import DocumentError
from app.core.documents.keep import CELL_CONTENT, check_kept, sheet_parts
from app.core.documents.render import guarded
from app.core.documents.sheet_write import cell_value

MAX_CELLS = 2000
_ADDRESS = re.compile(r"^(?:(?:'((?:[^']|'')+)'|([^!]+))!)?\$?([A-Za-z]{1,3})\$?([0-9]{1,7})$")


def split_address(address: str) -> tuple[str | None, str]:
    """("Prices", "B2") from "Prices!B2" or "'My prices'!$B$2"; (None, "B2") from "B2"."""
    match = _ADDRESS.match(address.strip())
    if not match:
        raise DocumentError(f"'{address[:40]}' is not a cell address; write addresses such as "
                            "'B2' or 'Prices!B2'.")
    sheet = match.group(1).replace("''", "'") if match.group(1) else match.group(2)
    column, row = match.group(3).upper(), int(match.group(4))
    if row < 1 or row > 1_048_576 or _column_number(column) > 16_384:
        raise DocumentError(f"'{address[:40]}' is outside a sheet (A1 to XFD1048576).")
    return (sheet.strip() if sheet else None), f"{column}{row}"


def _column_number(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def _value(raw):
    if raw is None or isinstance(raw, bool) or isinstance(raw, (int, float)):
        return raw
    if isinstance(raw, str):
        return cell_value(raw)
    raise DocumentError("Each cell's value must be text, a number, true/false or null.")


def set_cells(path: Path, cells: dict, sheet: str | None) -> tuple[bytes, int]:
    if path.suffix.lower() not in (".xlsx", ".xlsm"):
        raise DocumentError(f"set_cells works on .xlsx and .xlsm workbooks, not on "
                            f"'{path.name}'.")
    if not cells:
        raise DocumentError("cells is empty; give addresses and values, such as "
                            "{\"B2\": 4.5}.")
    if len(cells) > MAX_CELLS:
        raise DocumentError(f"set_cells takes at most {MAX_CELLS:,} cells per call; got "
                            f"{len(cells):,}.")
    wanted = [(split_address(str(a)), _value(v)) for a, v in cells.items()]

    def action(_zf):
        from openpyxl import load_workbook
        from openpyxl.cell.cell import MergedCell

        book = load_workbook(str(path), keep_vba=path.suffix.lower() == ".xlsm",
                             rich_text=True, keep_links=True)
        names = book.sheetnames
        default = sheet if sheet is not None else names[0]
        touched: set[str] = set()
        for (sheet_name, address), value in wanted:
            name = sheet_name or default
            match = next((n for n in names if n == name), None) or next(
                (n for n in names if n.casefold() == name.casefold()), None)
            if match is None:
                raise DocumentError(f"'{path.name}' has no sheet '{name}'; its sheets are "
                                    + ", ".join(f"'{n}'" for n in names) + ".")
            target = book[match]
            if not hasattr(target, "cell"):
                raise DocumentError(f"'{match}' in '{path.name}' is a chart sheet; it has no "
                                    "cells.")
            cell = target[address]
            if isinstance(cell, MergedCell):
                raise DocumentError(f"{match}!{address} is inside merged cells; set the first "
                                    "cell of the merged range instead.")
            cell.value = value
            touched.add(match)
        out = io.BytesIO()
        book.save(out)
        return out.getvalue(), touched

    data, touched = guarded(path, action)
    with zipfile.ZipFile(path) as zf:
        names = sheet_parts({n: zf.read(n) for n in ("xl/workbook.xml",
                                                      "xl/_rels/workbook.xml.rels")})
    # Only the cells set may lose their old contents (a formula set to a number...).
    spare = {names[s]: CELL_CONTENT for s in touched if s in names}
    spare["xl/sharedStrings.xml"] = CELL_CONTENT | {"si", "sst"}
    check_kept(path, data, spare=spare, action="Setting these cells")
    return data, len(wanted)
