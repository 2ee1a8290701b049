"""Which formulas of a workbook depend on the cells a change sets, directly or through other
formulas: their saved results are stale and are removed, so every program computes them
afresh when it opens the file (and none shows an old total meanwhile).

The references in a formula are read from its text: cells and ranges, whole columns and
rows, other sheets, defined names and table names. Anything that cannot be followed with
certainty (INDIRECT, OFFSET, an unknown name, a range built by a function, a 3-D reference)
counts as depending on every cell, which only ever clears more results than needed.
"""

from __future__ import annotations

import bisect
import re
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lxml.etree import _Element

MAX_ROW, MAX_COL = 1_048_576, 16_384
EVERYTHING: None = None
_SHEET = r"(?:'(?:[^']|'')+'|[A-Za-z0-9_.\u00a1-\uffff]+(?::[A-Za-z0-9_.\u00a1-\uffff]+)?)"
_CELL = r"\$?[A-Za-z]{1,3}\$?[0-9]{1,7}"
_AREA = (rf"{_CELL}(?::{_CELL})?(?![\w.(\[!])|\$?[A-Za-z]{{1,3}}:\$?[A-Za-z]{{1,3}}(?![\w.(\[!])"
         rf"|\$?[0-9]{{1,7}}:\$?[0-9]{{1,7}}(?![\w.(\[!])")
_NAME = r"[A-Za-z_\\\u00a1-\uffff][\w.\\?\u00a1-\uffff]*"
_SCAN = re.compile(rf"""
  (?P<str>"(?:[^"]|"")*")
| (?P<err>\#[A-Za-z0-9/]+[!?]?)
| (?P<ext>\[[0-9]+\](?:{_SHEET})?!(?:{_AREA}|{_NAME}))
| (?:(?P<sheet>{_SHEET})!)(?:(?P<qarea>{_AREA})|(?P<qname>{_NAME}))
| (?P<area>{_AREA})
| (?P<num>[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)
| (?P<name>{_NAME})(?P<call>\s*\()?
| (?P<bracket>\[)
| (?P<colon>:)
""", re.X)
_CELL_PARTS = re.compile(r"^(\$?)([A-Za-z]{1,3})(\$?)([0-9]{1,7})$")
_UNFOLLOWABLE = {"INDIRECT", "OFFSET", "_XLFN.LET", "LAMBDA", "_XLFN.LAMBDA"}
# (sheet, r1, c1, r2, c2, $r1, $c1, $r2, $c2): sheet None is the formula's own sheet
Ref = tuple[str | None, int, int, int, int, bool, bool, bool, bool]
Area = tuple[int, int, int, int, bool, bool, bool, bool]  # a Ref without its sheet
Table = tuple[str, int, int, int, int]  # (sheet, r1, c1, r2, c2)


def _letters(n: str) -> int:
    col = 0
    for ch in n.upper():
        col = col * 26 + ord(ch) - 64
    return col


def _area(text: str) -> Area:
    first, _, last = text.partition(":")
    if first.replace("$", "").isdigit():       # whole rows, 3:5
        r1, r2 = int(first.strip("$")), int(last.strip("$"))
        return (min(r1, r2), 1, max(r1, r2), MAX_COL, "$" in first, True, "$" in last, True)
    if first.replace("$", "").isalpha():       # whole columns, A:C
        c1, c2 = _letters(first.strip("$")), _letters(last.strip("$"))
        return (1, min(c1, c2), MAX_ROW, max(c1, c2), True, "$" in first, True, "$" in last)
    a = _CELL_PARTS.match(first)
    b = _CELL_PARTS.match(last) if last else a
    assert a is not None and b is not None  # _AREA matched: each end is a cell
    r1, c1, r2, c2 = int(a.group(4)), _letters(a.group(2)), int(b.group(4)), _letters(b.group(2))
    return (r1, c1, r2, c2, bool(a.group(3)), bool(a.group(1)), bool(b.group(3)), bool(b.group(1)))


@dataclass
class Book:
    """What references resolve against: sheets, defined names, tables."""
    sheets: list[str]
    # (name folded, sheet index or None) -> text
    names: dict[tuple[str, int | None], str] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)    # name folded -> its area

    def sheet(self, token: str) -> str | None:
        name = token[1:-1].replace("''", "'") if token.startswith("'") else token
        folded = name.casefold()
        return next((s for s in self.sheets if s.casefold() == folded), None)


def references(text: str, own: str | None, at: tuple[int, int], book: Book,
               depth: int = 0) -> list[Ref] | None:
    """The ranges a formula reads, or EVERYTHING when they cannot be known."""
    refs: list[Ref] = []
    pos, end = 0, len(text)
    last_kind: str | None = ""
    while pos < end:
        m = _SCAN.match(text, pos)
        if not m:
            pos += 1
            last_kind = "other"
            continue
        pos = m.end()
        kind = m.lastgroup
        if kind == "call":
            kind = "name"
        if kind in ("str", "err", "num", "ext"):
            pass
        elif kind == "colon":
            if last_kind in ("area", "name"):
                return EVERYTHING                 # a range built from a function's result
        elif kind in ("qarea", "qname"):
            sheet_token = m.group("sheet")
            if sheet_token.startswith("'[") or ":" in sheet_token.strip("'"):
                if sheet_token.startswith("'["):
                    kind = "area"
                    last_kind = kind
                    continue                      # another workbook's cells
                return EVERYTHING                 # a 3-D reference over several sheets
            sheet = book.sheet(sheet_token)
            if sheet is None:
                return EVERYTHING
            if kind == "qarea":
                refs.append((sheet,) + _area(m.group("qarea")))
            else:
                found = _name(m.group("qname"), sheet, book, depth)
                if found is EVERYTHING:
                    return EVERYTHING
                refs.extend(found)
            kind = "area"
        elif kind == "area":
            refs.append((own,) + _area(m.group("area")))
        elif kind == "name":
            word = m.group("name")
            if m.group("call"):
                if word.upper() in _UNFOLLOWABLE:
                    return EVERYTHING
                kind = "call"
            elif text.startswith("[", pos):
                close = _close_bracket(text, pos)
                table = book.tables.get(word.casefold())
                if table is None:
                    return EVERYTHING
                refs.append(_fixed(table))
                pos = close
                kind = "area"
            elif word.upper() in ("TRUE", "FALSE"):
                kind = "other"
            else:
                found = _name(word, own, book, depth)
                if found is EVERYTHING:
                    return EVERYTHING
                refs.extend(found)
        elif kind == "bracket":                   # [@Price]: the table the formula is in
            pos = _close_bracket(text, pos - 1)
            table = next((t for t in book.tables.values() if t[0] == own and
                          t[1] <= at[0] <= t[3] and t[2] <= at[1] <= t[4]), None)
            if table is None:
                return EVERYTHING
            refs.append(_fixed(table))
            kind = "area"
        if kind == "area" and last_kind == "colon":
            return EVERYTHING
        last_kind = kind
    return refs


def _fixed(table: Table) -> Ref:
    return table + (True, True, True, True)


def _close_bracket(text: str, start: int) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "[":
            depth += 1
        elif text[i] == "]":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


def _name(word: str, sheet: str | None, book: Book, depth: int) -> list[Ref] | None:
    folded = word.casefold()
    index = book.sheets.index(sheet) if sheet in book.sheets else None
    text = book.names.get((folded, index), book.names.get((folded, None)))
    if text is None:
        table = book.tables.get(folded)
        return [_fixed(table)] if table else EVERYTHING
    if depth > 8:
        return EVERYTHING
    found = references(text, None, (0, 0), book, depth + 1)
    if found is EVERYTHING or any(r[0] is None for r in found):
        return EVERYTHING
    return [r[:5] + (True, True, True, True) for r in found]


def shifted(refs: list[Ref], dr: int, dc: int) -> list[Ref]:
    """A shared formula's references as seen from a cell dr rows and dc columns away."""
    out: list[Ref] = []
    for s, r1, c1, r2, c2, ar1, ac1, ar2, ac2 in refs:
        out.append((s, r1 if ar1 else r1 + dr, c1 if ac1 else c1 + dc,
                    r2 if ar2 else r2 + dr, c2 if ac2 else c2 + dc, True, True, True, True))
    return out


@dataclass
class Formula:
    sheet: str
    row: int
    col: int
    refs: list[Ref] | None     # resolved: (sheet, r1, c1, r2, c2, ...) or EVERYTHING
    spill: tuple[int, int, int, int] | None = None  # an array formula's area
    cell: _Element | None = None  # its <c> element, where known


def dependents(formulas: list[Formula], changed: set[tuple[str, int, int]],
               seconds: float = 5.0) -> list[Formula]:
    """The formulas whose results change when the cells `changed` do (transitively).

    Small ranges are indexed cell by cell, ranges a few columns wide (B2:B900, B:B) column
    by column as row intervals, wider ones are checked one by one."""
    small: dict[tuple[str, int, int], list[int]] = defaultdict(list)
    columns: dict[tuple[str, int], list[tuple[int, int, int]]] = defaultdict(list)
    wide: dict[str, list[tuple[int, int, int, int, int]]] = defaultdict(list)
    always: list[int] = []
    for i, f in enumerate(formulas):
        if f.refs is EVERYTHING:
            always.append(i)
            continue
        for ref in f.refs:
            sheet = ref[0] or f.sheet
            r1, c1, r2, c2 = ref[1:5]
            if (r2 - r1 + 1) * (c2 - c1 + 1) <= 64:
                for r in range(r1, r2 + 1):
                    for c in range(c1, c2 + 1):
                        small[(sheet, r, c)].append(i)
            elif c2 - c1 < 16:
                for c in range(c1, c2 + 1):
                    columns[(sheet, c)].append((r1, r2, i))
            else:
                wide[sheet].append((r1, c1, r2, c2, i))
    starts: dict[tuple[str, int], list[int]] = {}
    for key, spans in columns.items():
        spans.sort()
        starts[key] = [span[0] for span in spans]
    hit: set[int] = set(always) if changed else set()
    queue = deque(changed)
    for i in always:
        queue.extend(_cells_of(formulas[i]))
    deadline = time.process_time() + seconds
    steps = 0
    while queue:
        sheet, r, c = queue.popleft()
        found = list(small.get((sheet, r, c), ()))
        in_column = columns.get((sheet, c))
        if in_column:
            upto = bisect.bisect_right(starts[(sheet, c)], r)
            found.extend(i for r1, r2, i in in_column[:upto] if r <= r2 and i not in hit)
        found.extend(b[4] for b in wide.get(sheet, ())
                     if b[0] <= r <= b[2] and b[1] <= c <= b[3] and b[4] not in hit)
        for i in found:
            if i not in hit:
                hit.add(i)
                queue.extend(_cells_of(formulas[i]))
        steps += 1
        if steps % 64 == 0 and time.process_time() > deadline:
            return list(formulas)    # too tangled to follow in time: every result goes
    return [formulas[i] for i in sorted(hit)]


def _cells_of(f: Formula) -> list[tuple[str, int, int]]:
    if f.spill is None:
        return [(f.sheet, f.row, f.col)]
    r1, c1, r2, c2 = f.spill
    if (r2 - r1 + 1) * (c2 - c1 + 1) > 10_000:
        return [(f.sheet, f.row, f.col)]
    return [(f.sheet, r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]
