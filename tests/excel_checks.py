"""set_cells checked on a workbook someone else saved: the cells to set are chosen from what
the sheet holds (a number, a text, a new row under the numbers, a new formula), the tool is
called as the model calls it, and then:

- the package is compared member by member with the original: only the sheet, and where
  needed the workbook's calculation settings, chain and styles, differ; order and
  compression of the members are the same;
- openpyxl reads the new values back (a new number under a formatted column has its format);
- undo gives the original bytes back.

Run on a folder of workbooks: `python -m tests.excel_checks FOLDER` prints the count.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

ALLOWED = {"xl/workbook.xml", "xl/calcChain.xml", "xl/styles.xml", "[Content_Types].xml",
           "xl/_rels/workbook.xml.rels"}


def _members(path: Path):
    with zipfile.ZipFile(path) as zf:
        infos = zf.infolist()
        return [(i.filename, i.compress_type) for i in infos], {i.filename: zf.read(i)
                                                                for i in infos}


def choose_cells(path: Path) -> tuple[str, dict, dict]:
    """(sheet name, {address: value}, {address: (expected value, expected format or None)})."""
    import openpyxl
    from openpyxl.utils import get_column_letter

    book = openpyxl.load_workbook(path, rich_text=False)
    for ws in book.worksheets:
        if ws.sheet_state != "visible" or ws.max_row < 1:
            continue
        from openpyxl.worksheet.cell_range import CellRange
        merged = list(ws.merged_cells.ranges) + [CellRange(r) for r in ws.array_formulae.values()]
        number = text = None
        last_row = ws.max_row
        for row in ws.iter_rows():
            for cell in row:
                if cell.value is None:
                    continue
                is_number = number is None and cell.data_type == "n" and isinstance(
                    cell.value, (int, float)) and not isinstance(cell.value, bool)
                is_text = text is None and cell.data_type == "s" and isinstance(
                    cell.value, str) and not cell.value.startswith("=")
                if not (is_number or is_text) or any(cell.coordinate in r for r in merged):
                    continue
                if is_number:
                    number = cell
                else:
                    text = cell
            if number is not None and text is not None:
                break
        cells, expect = {}, {}
        new_row = max(last_row, ws.max_row) + 2
        if number is not None:
            cells[number.coordinate] = number.value + 1
            expect[number.coordinate] = (number.value + 1, number.number_format)
            below = f"{number.column_letter}{new_row}"
            cells[below] = 12.5
            # the format of the nearest number above it in its column
            above = [c for c in ws[number.column_letter] if c.value is not None and
                     c.data_type in ("n", "d", "b", "f") and c.row < new_row]
            expect[below] = (12.5, above[-1].number_format)
            formula_at = f"{get_column_letter(number.column + 1)}{new_row}"
            cells[formula_at] = f"={below}*2"
            expect[formula_at] = (f"={below}*2", None)
        if number is None:
            cells[f"B{new_row}"] = 12.5
            expect[f"B{new_row}"] = (12.5, None)
            cells[f"C{new_row}"] = f"=B{new_row}*2"
            expect[f"C{new_row}"] = (f"=B{new_row}*2", None)
        if text is not None:
            cells[text.coordinate] = "Changed by the test"
            expect[text.coordinate] = ("Changed by the test", None)
        cells[f"A{new_row + 1}"] = "2024-05-01"
        expect[f"A{new_row + 1}"] = ("date", None)
        return ws.title, cells, expect
    raise LookupError("no sheet with values")


def check(path: Path, work: Path) -> str:
    """'' when every check passes, else what failed."""
    from app.core.tools.toolbox import ToolBox
    from app.core.undo.undo import BlobStore, RoundChanges, undo_manifest
    import datetime as dt
    import openpyxl

    work.mkdir(parents=True, exist_ok=True)
    (work / "TASKS.md").write_text("# Work\n\n- [ ] Update the prices\n")
    target = work / path.name
    shutil.copyfile(path, target)
    original = target.read_bytes()
    try:
        sheet, cells, expect = choose_cells(target)
    except Exception as exc:  # noqa: BLE001 - openpyxl cannot read it: not a case for us
        return f"skipped: openpyxl cannot choose cells ({type(exc).__name__})"
    changes = RoundChanges(work, BlobStore(work / ".harness"), work / ".harness/undo.json", 1)
    box = ToolBox(work, work / "TASKS.md", "Update the prices", changes)
    out = box.call("set_cells", {"path": path.name, "cells": cells, "sheet": sheet})
    if out.is_error:
        return f"refused: {out.content}"
    order_before, before = _members(path)
    order_after, after = _members(target)
    if order_before != order_after and [o for o in order_before if o[0] in after] != order_after:
        return "the members' order or compression changed"
    sheet_parts = {n for n in before if n.startswith("xl/worksheets/")}
    other = sorted(n for n in before if before[n] != after.get(n) and n not in ALLOWED
                   and n not in sheet_parts)
    if other:
        return f"other parts changed: {other}"
    book = openpyxl.load_workbook(target)
    ws = book[sheet]
    for addr, (value, fmt) in expect.items():
        got = ws[addr].value
        if value == "date":
            if got == "2024-05-01" and ws[addr].number_format == "@":
                continue   # a column formatted as Text keeps what is typed as text
            if not isinstance(got, dt.datetime) or got.date() != dt.date(2024, 5, 1):
                return f"{addr}: {got!r}, not the date 2024-05-01"
            continue
        if isinstance(got, (dt.datetime, dt.date, dt.time)) and isinstance(value, float):
            from openpyxl.utils.datetime import to_excel
            got = to_excel(got, epoch=book.epoch)   # a number in a date column shows a date
        if got != value:
            return f"{addr}: {got!r}, not {value!r}"
        if fmt is not None and ws[addr].number_format != fmt:
            return f"{addr}: format {ws[addr].number_format!r}, not {fmt!r}"
    changes.finish()
    undo_manifest(work, work / ".harness", work / ".harness/undo.json")
    if target.read_bytes() != original:
        return "undo did not give the original bytes back"
    return ""


def main(folder: str) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    files = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in (".xlsx", ".xlsm"))
    results: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n, path in enumerate(files):
            results[path.name] = check(path, Path(tmp) / str(n))
            print(f"{path.name}: {results[path.name] or 'ok'}", flush=True)
    tried = [r for r in results.values() if not r.startswith("skipped")]
    good = sum(1 for r in tried if not r)
    print(f"{good} of {len(tried)} accepted with nothing else changed "
          f"({len(results) - len(tried)} skipped)")


if __name__ == "__main__":
    main(sys.argv[1])
