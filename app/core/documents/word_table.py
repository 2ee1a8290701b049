"""A table of a Word document changed by write_file (word_fill): the cells whose text changed
changed in place, each in its look, every other cell as it was; built again in the old
table's look where its rows or columns are not the same (or a changed cell holds more than
paragraphs): its table properties, and each cell's properties and first paragraph's look
from the old cell at the same place (or the nearest one).
"""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, Callable

from app.core.documents.word_build import element, fresh, inline_token, paragraph
from app.core.documents.word_parts import w
from app.core.documents.word_sinks import cell_lines
from app.core.documents.xml_tags import tag_of

if TYPE_CHECKING:
    from lxml.etree import _Element

    from app.core.documents.word_build import Relate
    from app.core.documents.word_tracked import Tracker

# What a new table's cell does not take over from the old one's: its span, its width and
# another reviewer's marks.
_NOT_TAKEN = tuple(w(t) for t in ("gridSpan", "vMerge", "hMerge", "tcW", "tcPrChange",
                                  "cellIns", "cellDel", "cellMerge"))
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


def cell_grid(tbl: _Element) -> list[list[_Element | None]]:
    """The table's cells as read_file shows them, row by row: a merged cell once, then None
    for each column it spans."""
    from app.core.documents.word import _through  # noqa: PLC0415 - document library

    grid: list[list[_Element | None]] = []
    for tr in _through(tbl, w("tr")):
        row: list[_Element | None] = []
        for tc in _through(tr, w("tc")):
            row.append(tc)
            span = tc.find(f"{w('tcPr')}/{w('gridSpan')}")
            value = span.get(w("val")) if span is not None else None
            row.extend([None] * min(int(value) - 1 if value and value.isdigit() else 0, 60))
        grid.append(row)
    return grid


def simple_cell(tc: _Element) -> bool:
    """A cell of paragraphs only (no table, content control or tracked change at its top)."""
    return all(tag_of(el) in (w("tcPr"), w("p")) for el in tc)


def new_table(model: _Element | None, rows: list[list[str]], relate: Relate) -> _Element:
    """A table of `rows` (each cell's lines joined with <br>), in the look of `model`'s:
    its table properties, and each cell's properties and first paragraph's look from the
    model's cell at the same place (or the nearest one)."""
    width = max((len(r) for r in rows), default=1)
    tbl = element("tbl")
    old_grid = cell_grid(model) if model is not None else []
    tblpr = model.find(w("tblPr")) if model is not None else None
    if tblpr is not None:
        tblpr = copy.deepcopy(tblpr)
        for el in tblpr.findall(w("tblPrChange")):   # another reviewer's
            tblpr.remove(el)
        tbl.append(tblpr)
    else:
        props = element("tblPr")
        props.append(element("tblW", w="0", type="auto"))
        borders = element("tblBorders")
        for side in ("top", "left", "bottom", "right", "insideH", "insideV"):
            borders.append(element(side, val="single", sz="4", space="0", color="auto"))
        props.append(borders)
        tbl.append(props)
    grid = element("tblGrid")
    for _ in range(width):
        grid.append(element("gridCol", w=str(9000 // width)))
    tbl.append(grid)
    for r, row in enumerate(rows):
        tr = element("tr")
        for c in range(width):
            model_tc = _nearest(old_grid, r, c)
            tc = element("tc")
            tcpr = model_tc.find(w("tcPr")) if model_tc is not None else None
            if tcpr is not None:
                tcpr = copy.deepcopy(tcpr)
                for el in list(tcpr):
                    if tag_of(el) in _NOT_TAKEN:
                        tcpr.remove(el)
                tc.append(tcpr)
            model_p = model_tc.find(w("p")) if model_tc is not None else None
            fill_cell(tc, [], cell_lines(row[c] if c < len(row) else "", []), model_p, relate)
            tr.append(tc)
        tbl.append(tr)
    return tbl


def _nearest(grid: list[list[_Element | None]], r: int, c: int) -> _Element | None:
    if not grid:
        return None
    row = grid[min(r, len(grid) - 1)]
    cells = [tc for tc in row[:c + 1] if tc is not None] or [tc for tc in row if tc is not None]
    return cells[-1] if cells else None


def fill_cell(tc: _Element, old_lines: list[tuple[str, _Element]], new_lines: list[str],
              model: _Element | None, relate: Relate,
              edit: Callable[[_Element, str, str], bool] | None = None,
              remake: Callable[[_Element, str], _Element] | None = None,
              tracker: Tracker | None = None) -> None:
    """The cell's shown paragraphs (`old_lines`: each one's shown text and w:p) made
    `new_lines`, line by line as the two compare (difflib): one whose text stays is kept as
    it is, a changed one keeps its look, a new one takes the look of the one before it, one
    the new lines have not goes; a cell always ends with a paragraph. `edit`: changes a
    paragraph's text in place where it can, `remake` makes one again in its look, `tracker`
    marks a line added or removed as a tracked change (word_merge)."""
    import difflib  # noqa: PLC0415 - only a cell changed compares

    new_lines = [line if line.strip() else "" for line in new_lines]
    anchor: _Element | None = None
    matcher = difflib.SequenceMatcher(None, [text for text, _p in old_lines], new_lines,
                                      autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            anchor = old_lines[i2 - 1][1]
            continue
        paired = min(i2 - i1, j2 - j1)
        for (text, old), line in zip(old_lines[i1:i1 + paired], new_lines[j1:j1 + paired]):
            if not (edit is not None and edit(old, text, line)):
                made = remake(old, line) if remake is not None else \
                    paragraph(old, inline_token(line), relate)
                if made is not old:
                    tc.replace(old, made)
                old = made
            anchor = old
        for line in new_lines[j1 + paired:j2]:
            made = fresh(paragraph(anchor if anchor is not None else model,
                                   inline_token(line), relate))
            if tracker is not None:
                tracker.inserted(made)
            if anchor is not None:
                anchor.addnext(made)
            else:   # the cell's first: after its properties
                props = tc.find(w("tcPr"))
                tc.insert(tc.index(props) + 1 if props is not None else 0, made)
            anchor = made
        for _text, old in old_lines[i1 + paired:i2]:
            if tracker is not None:
                anchor = tracker.deleted(old)
            else:
                tc.remove(old)
    if tc.find(w("p")) is None:
        tc.append(paragraph(model, inline_token(""), relate) if model is not None else element("p"))
