"""A change to a workbook as the person would see it in Excel: for each sheet that changed, a
grid of the rows and columns around the changed cells, column letters above and row numbers
on the left, values as the sheet displays them, merged cells merged, and only the changed
cells marked (the old value struck through above the new one; before, after and the formula
on hover). A line under the grid lists each changed cell with its formula.

Cells are compared by their place, so a new column is a column of new cells, never every row
removed and added. Builds a small HTML subset for a text browser; everything is escaped.
"""

from __future__ import annotations

from html import escape

from app.core.documents.sheet_cells import SheetCells, Shown
from app.core.documents.sheets import column_letter

CONTEXT = 2          # unchanged rows and columns shown around the changed cells
MAX_GRID_ROWS = 120  # rows shown per sheet, at most
MAX_GRID_COLS = 16   # columns shown per sheet, at most
MAX_LISTED = 40      # changed cells listed under a grid, at most
MAX_CELL_CHARS = 80  # a long text is cut in the grid (the hover shows it whole)


def changed_cells(before: SheetCells | None, after: SheetCells | None) -> list[tuple[int, int]]:
    """The places whose shown value or formula differ, in reading order (a formula left as
    it was whose value is to be calculated when the workbook is opened is not one)."""
    old = before.cells if before is not None else {}
    new = after.cells if after is not None else {}
    return sorted(k for k in old.keys() | new.keys()
                  if old.get(k) != new.get(k) and not _recalculated(old.get(k), new.get(k)))


def _recalculated(old: Shown | None, new: Shown | None) -> bool:
    """The same formula, its saved value dropped: programs compute it when they open it."""
    return (old is not None and new is not None and bool(old.formula)
            and old.formula == new.formula and not new.text and bool(old.text))


def recalculated_cells(before: SheetCells | None, after: SheetCells | None
                       ) -> list[tuple[int, int]]:
    if before is None or after is None:
        return []
    return sorted(k for k in before.cells.keys() & after.cells.keys()
                  if _recalculated(before.cells[k], after.cells[k]))


def sheets_html(before: dict[str, SheetCells], after: dict[str, SheetCells],
                words: dict[str, str], colours: dict[str, str]) -> tuple[str, int]:
    """The grids of the sheets that changed, and how many cells changed in all."""
    parts: list[str] = []
    total = 0
    for name in list(after) + [n for n in before if n not in after]:
        old, new = before.get(name), after.get(name)
        if old is not None and new is not None and old.same and new.same:
            continue  # the same part in both versions
        changed = changed_cells(old, new)
        if (new is not None and new.chart) or (old is not None and old.chart):
            if old is None or new is None:
                key = "sheet_added" if old is None else "sheet_removed"
                parts.append(_heading(words[key], name, colours))
            continue
        if not changed and old is not None and new is not None:
            continue
        total += len(changed)
        key = "sheet_added" if old is None else "sheet_removed" if new is None else "sheet"
        parts.append(_heading(words[key], name, colours))
        if not changed:
            parts.append(f'<p style="color:{colours["muted"]};">{escape(words["sheet_empty"])}'
                         "</p>")
            continue
        shown = new if new is not None else old or SheetCells()  # old: new is None
        parts.append(_grid(old or SheetCells(), new or SheetCells(), shown, changed, words,
                           colours))
        parts.append(_listed(old or SheetCells(), new or SheetCells(), changed, words, colours))
        again = recalculated_cells(old, new)
        if again:
            places = ", ".join(f"{column_letter(c)}{r}" for r, c in again[:MAX_LISTED])
            more = len(again) - MAX_LISTED
            if more > 0:
                places += " " + words["more_cells"].replace("%1", f"{more:,}")
            parts.append(f'<p style="color:{colours["muted"]};">'
                         f'{escape(words["recalc_cells"].replace("%1", places))}</p>')
    return "".join(parts), total


def _heading(template: str, name: str, colours: dict[str, str]) -> str:
    return f"<h3>{escape(template.replace('%1', name))}</h3>"


def _spans(places: list[int], context: int, most: int, low: int = 1) -> list[int]:
    """The rows (or columns) to show: each changed one with `context` around it, at most
    `most` of them."""
    chosen: set[int] = set()
    for p in places:
        chosen.update(range(max(low, p - context), p + context + 1))
        if len(chosen) >= most:
            break
    return sorted(chosen)[:most]


def _grid(old: SheetCells, new: SheetCells, shown: SheetCells, changed: list[tuple[int, int]],
          words: dict[str, str], colours: dict[str, str]) -> str:
    cells = {**old.cells, **new.cells}
    rows = sorted({r for r, _ in changed})
    cols = sorted({c for _, c in changed})
    row_list = _spans(rows, CONTEXT, MAX_GRID_ROWS)
    first_row = min((r for r, _ in cells), default=1)
    if row_list and first_row < row_list[0]:
        row_list.insert(0, first_row)  # the sheet's first row: its column titles, mostly
    row_list = _filled(row_list)
    col_list = _spans(cols, CONTEXT, MAX_GRID_COLS)
    if col_list and col_list[-1] <= MAX_GRID_COLS:
        col_list = list(range(1, col_list[-1] + 1))  # narrow enough: from column A, as Excel
    used_right = max((c for _, c in cells), default=1)
    col_list = [c for c in col_list if c <= max(used_right, max(cols))]
    merged = _merge_map(shown.merges, row_list, col_list)
    changed_set = set(changed)
    border = colours["muted"]
    head = "".join(f'<th style="color:{colours["muted"]};">{column_letter(c)}</th>'
                   for c in col_list)
    out = [f'<table border="1" cellspacing="0" cellpadding="3" style="border-color:{border};'
           f'border-collapse:collapse;"><tr><th></th>{head}</tr>']
    previous = None
    for r in row_list:
        if previous is not None and r != previous + 1:
            out.append(f'<tr><td style="color:{colours["muted"]};">⋯</td>'
                       f'<td colspan="{len(col_list)}"></td></tr>')
        previous = r
        tds = [f'<td align="right" style="color:{colours["muted"]};">{r}</td>']
        for c in col_list:
            span = merged.get((r, c))
            if span == "covered":
                continue
            tds.append(_cell(old.cells.get((r, c)), new.cells.get((r, c)), (r, c) in changed_set,
                             span, words, colours))
        out.append("<tr>" + "".join(tds) + "</tr>")
    out.append("</table>")
    return "".join(out)


def _filled(rows: list[int], gap: int = 2) -> list[int]:
    """The rows with the small gaps between them shown too: folding away one or two rows
    hides more than it saves."""
    out: list[int] = []
    for r in rows:
        if out and 1 < r - out[-1] <= gap + 1:
            out.extend(range(out[-1] + 1, r))
        out.append(r)
    return out


def _merge_map(merges: list[tuple[int, int, int, int]], row_list: list[int], col_list: list[int]
               ) -> dict[tuple[int, int], str | tuple[int, int]]:
    """(row, col) -> (rowspan, colspan) for the first shown cell of each merged area, or
    "covered" for its other shown cells; clipped to runs of consecutive shown rows and
    columns (a merged area cut by a fold is shown merged on each side of it)."""
    result: dict[tuple[int, int], str | tuple[int, int]] = {}
    for r1, c1, r2, c2 in merges:
        if r1 == r2 and c1 == c2:
            continue
        for rows in _runs([r for r in row_list if r1 <= r <= r2]):
            for cols in _runs([c for c in col_list if c1 <= c <= c2]):
                if len(rows) * len(cols) < 2:
                    continue
                for r in rows:
                    for c in cols:
                        result[(r, c)] = "covered"
                result[(rows[0], cols[0])] = (len(rows), len(cols))
    return result


def _runs(numbers: list[int]) -> list[list[int]]:
    """[3, 4, 5, 9, 10] -> [[3, 4, 5], [9, 10]]."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs


def _short(text: str) -> str:
    return text if len(text) <= MAX_CELL_CHARS else text[:MAX_CELL_CHARS - 1] + "…"


def _cell(old: Shown | None, new: Shown | None, changed: bool,
          span: str | tuple[int, int] | None, words: dict[str, str],
          colours: dict[str, str]) -> str:
    attrs = ""
    if isinstance(span, tuple):
        rows, cols = span
        attrs += f' rowspan="{rows}"' if rows > 1 else ""
        attrs += f' colspan="{cols}"' if cols > 1 else ""
    value = new if new is not None else old if not changed else None
    first = value or old
    if first is not None and first.number:
        attrs += ' align="right"'
    tip = []
    if not changed:
        if value is not None and value.formula:
            tip.append(words["formula"].replace("%1", value.formula))
        if _recalculated(old, new) and old is not None:  # recalculated: old is there
            tip.append(words["recalc"])
            title = f' title="{escape(chr(10).join(tip))}"'
            return (f'<td{attrs}{title}><i style="color:{colours["muted"]};">↻ '
                    f"{escape(_short(old.text))}</i></td>")
        title = f' title="{escape(chr(10).join(tip))}"' if tip else ""
        return f"<td{attrs}{title}>{escape(_short(value.text)) if value else ''}</td>"
    empty = words["empty"]
    before = old.text if old is not None else ""
    after = new.text if new is not None else ""
    if before and before == after and old is not None and new is not None:
        before, after = old.full(), new.full()  # the same shown value: the stored one changed
    tip.append(words["before"].replace("%1", before or empty))
    if old is not None and old.formula:
        tip.append(words["formula"].replace("%1", old.formula))
    tip.append(words["after"].replace("%1", after or empty))
    if new is not None and new.formula:
        tip.append(words["formula"].replace("%1", new.formula))
    body = []
    if before:
        body.append(f'<span style="color:{colours["removed"]};text-decoration:line-through;">'
                    f"{escape(_short(before))}</span>")
    if after:
        body.append(f'<span style="color:{colours["added"]};font-weight:bold;">'
                    f"{escape(_short(after))}</span>")
    elif before:
        body.append(f'<span style="color:{colours["muted"]};">{escape(empty)}</span>')
    if before and after and before == after:  # the same shown value, another formula
        body = [f'<span style="color:{colours["added"]};font-weight:bold;">'
                f"{escape(_short(after))}</span>"]
    return (f'<td{attrs} bgcolor="{colours["changed_bg"]}" title="{escape(chr(10).join(tip))}">'
            + "<br>".join(body) + "</td>")


def _listed(old: SheetCells, new: SheetCells, changed: list[tuple[int, int]],
            words: dict[str, str], colours: dict[str, str]) -> str:
    """Each changed cell in words: "B5: $1,000.00 → $1,234.50 (formula =SUM(B2:B4))"."""
    items = []
    for r, c in changed[:MAX_LISTED]:
        a, b = old.cells.get((r, c)), new.cells.get((r, c))
        text = (f"{column_letter(c)}{r}: {_value_words(a, words)} → {_value_words(b, words)}")
        items.append(escape(text))
    more = len(changed) - MAX_LISTED
    if more > 0:
        items.append(escape(words["more_cells"].replace("%1", f"{more:,}")))
    return (f'<p style="color:{colours["muted"]};">{escape(words["changed_cells"])}<br>'
            + "<br>".join(items) + "</p>")


def _value_words(cell: Shown | None, words: dict[str, str]) -> str:
    if cell is None:
        return words["empty"]
    if cell.formula:
        return f"{cell.full() or words['empty']} " \
            f"({words['formula'].replace('%1', cell.formula)})"
    return cell.full()
