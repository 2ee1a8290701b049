"""write_file over an existing workbook: its sheets' cells become the tables given, in the
package's own XML, so everything a table cannot hold (styles, charts, pictures, comments,
macros...) stays as it was. Cells that already hold what the table says are not touched.

Refused in a sentence when the tables would not describe the whole workbook: a sheet left
out or unknown, or a sheet bigger than read_file shows (the model never saw all of it, and
rows it never saw would be emptied).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.documents.base import DocumentError
from app.core.documents.guard import Full, Out, guarded
from app.core.documents.sheet_write import _placed, tables_by_sheet
from app.core.documents.sheets import MAX_COLS, MAX_ROWS
from app.core.documents.sheets import render as render_sheets
from app.core.documents.xlsx_edit import WorkbookEdit
from app.core.documents.xlsx_package import Package
from app.core.documents.xlsx_sheet import cell_rc
from app.core.documents.xml_tags import tag_of

if TYPE_CHECKING:
    import zipfile

    from lxml.etree import _Element

    from app.core.documents.xlsx_package import Sheet

_CUT_NOTES = ("[Only the first", "[Only columns", "[The rendering stops here")


# read_file's own lines that are not cells: written back as they were shown, they say nothing.
_SHOWN_NOTES = re.compile(r"^(\(this sheet is empty\)|\(a chart on a sheet of its own.*\)|"
                          r"\[Only (the first|columns) .*\])\s*$", re.M)
_CHART_SHEET = re.compile(r"^#{1,6}\s+Chart sheet:.*$", re.M)
_HEADING = re.compile(r"^#{1,6}\s+(?:Sheet:\s*)?(.+?)\s*#*\s*$", re.M)


def sheets_given(markdown: str) -> list[tuple[str, list[list[str]]]]:
    """The tables by sheet, read_file's notes left out; a sheet heading with no table under
    it (an empty sheet as read_file shows it) counts as an empty sheet."""
    clean = _CHART_SHEET.sub("", _SHOWN_NOTES.sub("", markdown))
    headings = [h for h in _HEADING.findall(clean)]
    try:
        tables = tables_by_sheet(clean)
    except DocumentError:
        if not headings or "|" in clean:
            raise
        tables = []
    named = {name.casefold() for name, _rows in tables}
    return tables + [(h, []) for h in headings if h.casefold() not in named]


def rewrite(path: Path, markdown: str) -> bytes:
    tables = sheets_given(markdown)

    def action(_zf: zipfile.ZipFile) -> bytes:
        edit = WorkbookEdit(Package(path))
        worksheets = [s for s in edit.package.sheets if s.kind == "worksheet"]
        if len(tables) == 1 and len(worksheets) == 1 and tables[0][0] == "Sheet1":
            tables[0] = (worksheets[0].name, tables[0][1])   # one table, no heading
        given: list[tuple[Sheet, list[list[str]]]] = []
        for name, rows in tables:
            known = next((s for s in worksheets if s.name.casefold() == name.casefold()), None)
            if known is None:
                raise DocumentError(
                    f"'{path.name}' has no sheet '{name}'; write_file over a workbook changes "
                    f"the cells of its own sheets ({_names(worksheets)}). To add a sheet, write "
                    "a new workbook; to change some cells, use set_cells.")
            given.append((known, rows))
        left_out = [s for s in worksheets if s not in [g[0] for g in given]]
        if left_out:
            raise DocumentError(
                f"write_file over '{path.name}' must give every sheet it has, and "
                f"{_names(left_out)} {'is' if len(left_out) == 1 else 'are'} missing, so "
                "nothing was changed; to change only some cells, use set_cells.")
        _check_all_shown(path)
        for sheet, rows in given:
            wanted: dict[tuple[int, int], str | None] = {}
            for row, col, text in _placed(rows):
                if text.startswith("**") and text.endswith("**") and len(text) > 4:
                    text = text[2:-2]
                wanted[(row, col)] = text
            xml = edit.sheet_xml(sheet)
            held = [(row, int(_col(c)), c) for row, row_el in xml.rows.items()
                    for c in row_el.iter(xml.q("c"))]
            for row, col, c in held:
                if (row, col) not in wanted and any(
                        tag_of(ch) in (xml.q("v"), xml.q("f"), xml.q("is")) for ch in c):
                    wanted[(row, col)] = None
            for (row, col), new_text in sorted(wanted.items()):
                spill = xml.array_over(row, col)
                if xml.merged_with(row, col) or (spill and spill[1][:2] != (row, col)):
                    continue   # shown, but owned by merged cells or by one array formula
                edit.set(sheet, row, col, new_text)
        edit.finish()
        return edit.package.to_bytes()

    return guarded(path, action)


def _col(c: _Element) -> int:
    return cell_rc(c.get("r"))[1]


def _names(sheets: list[Sheet]) -> str:
    names = [f"'{s.name}'" for s in sheets]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _check_all_shown(path: Path) -> None:
    out = Out()
    try:
        render_sheets(path, out)
        text = out.text()
    except Full:
        text = _CUT_NOTES[2]
    if any(note in text for note in _CUT_NOTES):
        raise DocumentError(
            f"'{path.name}' has more than read_file shows (at most {MAX_ROWS:,} rows and "
            f"{MAX_COLS} columns a sheet), so write_file would empty the cells never shown; "
            "nothing was changed. Use set_cells to change cells.")
