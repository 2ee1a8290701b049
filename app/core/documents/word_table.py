"""A table of a Word document changed by write_file (word_fill): the cells whose text changed
changed in place, each in its look, every other cell as it was; built again in the old
table's look where its rows or columns are not the same (or a changed cell holds more than
paragraphs).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from app.core.documents.word_build import cell_grid, fill_cell, new_table, simple_cell
from app.core.documents.word_parts import w
from app.core.documents.word_sinks import cell_lines

if TYPE_CHECKING:
    from lxml.etree import _Element

    from app.core.documents.word_build import Relate
    from app.core.documents.word_tracked import Tracker

_ROW_RULE = re.compile(r"^\|(\s*:?-{3,}:?\s*\|)+\s*$")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")


def rows_of(text: str) -> list[list[str]]:
    """A Markdown table's cells, row by row (its rule left out)."""
    rows = []
    for line in text.splitlines():
        body = line.strip()
        if not body or _ROW_RULE.match(body):
            continue
        body = body[1:] if body.startswith("|") else body
        body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
        rows.append([c.strip() for c in _CELL_SPLIT.split(body)])
    return rows


def changed_table(tbl: _Element, old_text: str, new_text: str, lines: dict[int, str],
                  relate: Relate, edit: Callable[[_Element, str, str], bool],
                  remake: Callable[[_Element, str], _Element], tracker: Tracker | None
                  ) -> _Element:
    """The table `tbl` with the cells that changed changed (`lines`: each shown paragraph's
    line, by id); a new table in its look where the rows or columns are not the same."""
    old_rows, new_rows = rows_of(old_text), rows_of(new_text)
    grid = cell_grid(tbl)
    if [len(r) for r in old_rows] != [len(r) for r in new_rows] or \
            [len(r) for r in grid] != [len(r) for r in old_rows]:
        return new_table(tbl, new_rows, relate)
    for r, (before, after) in enumerate(zip(old_rows, new_rows)):
        for c, (a, b) in enumerate(zip(before, after)):
            tc = grid[r][c]
            if a == b:
                continue
            if tc is None or not simple_cell(tc):
                return new_table(tbl, new_rows, relate)
            old_lines = [(lines[id(p)], p) for p in tc.findall(w("p")) if id(p) in lines]
            new_lines = cell_lines(b, [text for text, _p in old_lines])
            ps = tc.findall(w("p"))
            fill_cell(tc, old_lines, new_lines, ps[0] if ps else None, relate, edit, remake,
                      tracker)
    return tbl
