"""set_cells: set cells of an existing workbook, changing nothing else.

The package is edited in its own XML (xlsx_edit): the sheets whose cells change are
rewritten, every other part of the file keeps its bytes. No library rebuilds the workbook,
so nothing Excel wrote (styles, charts, pivot caches, macros...) can be lost.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

from app.core.documents.base import DocumentError
from app.core.documents.guard import guarded

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


def formula_note(updated: list[str], limit: int = 12) -> str:
    """The sentence saying which formula cells show new values when the file is opened."""
    if not updated:
        return ""
    shown = ", ".join(updated[:limit]) + (f" and {len(updated) - limit:,} more"
                                          if len(updated) > limit else "")
    return (f" {'This formula cell is' if len(updated) == 1 else 'These formula cells are'} "
            f"calculated afresh when the workbook is next opened, in Excel, LibreOffice or "
            f"another spreadsheet program: {shown}.")


def set_cells(path: Path, cells: dict[str, Any], sheet: str | None,
              formats: dict[str, Any] | None = None) -> tuple[bytes, int, str]:
    """The workbook's new bytes, the number of cells set, and the formula sentence."""
    if path.suffix.lower() not in (".xlsx", ".xlsm"):
        raise DocumentError(f"set_cells works on .xlsx and .xlsm workbooks, not on "
                            f"'{path.name}'.")
    if not cells:
        raise DocumentError("cells is empty; give addresses and values, such as "
                            "{\"B2\": 4.5}.")
    if len(cells) > MAX_CELLS:
        raise DocumentError(f"set_cells takes at most {MAX_CELLS:,} cells per call; got "
                            f"{len(cells):,}.")
    wanted = [(split_address(str(a)), v) for a, v in cells.items()]
    codes = {}
    for a, code in (formats or {}).items():
        if not isinstance(code, str) or not code.strip() or len(code) > 255:
            raise DocumentError(f"The number format for '{str(a)[:40]}' must be a format code "
                                "such as '£#,##0.00', '0%' or 'yyyy-mm-dd'.")
        codes[split_address(str(a))] = code.strip()

    def action(_zf: zipfile.ZipFile) -> tuple[bytes, list[str]]:
        from app.core.documents.xlsx_edit import WorkbookEdit
        from app.core.documents.xlsx_package import Package

        edit = WorkbookEdit(Package(path))
        default = sheet if sheet is not None else edit.package.sheets[0].name
        for (sheet_name, addr), raw in wanted:
            target = edit.find_sheet(sheet_name or default)
            code = codes.get((sheet_name, addr))
            row, col = int(addr.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")), _column_number(
                addr.rstrip("0123456789"))
            edit.set(target, row, col, raw, code)
        updated = edit.finish()
        return edit.package.to_bytes(), updated

    data, updated = guarded(path, action)
    return data, len(wanted), formula_note(updated)
