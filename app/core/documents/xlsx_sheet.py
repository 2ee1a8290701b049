"""One worksheet's XML (xl/worksheets/sheetN.xml), changed cell by cell and nowhere else.

Rows and cells stay in Excel's order; a new cell takes the style of the cell above it in
the same column that holds the same kind of value (a price under prices keeps "£0.00"),
else the row's or the column's style. Merged cells, array formulas and shared formulas are
respected: a shared formula whose first cell is replaced is written out in full in the cells
that shared it, so they keep computing what they computed.
"""

from __future__ import annotations

import bisect
import functools
import re
from typing import TYPE_CHECKING, Literal, overload

from app.core.documents.base import DocumentError
from app.core.documents.sheets import column_letter
from app.core.documents.xlsx_package import Package, Sheet, ns_of
from app.core.documents.xlsx_styles import KIND_FORMAT, Styles
from app.core.documents.xlsx_values import Value
from app.core.documents.xml_tags import tag_of

if TYPE_CHECKING:
    from lxml.etree import _Element

_REF = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d+)$")
_AREA = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d+)(?::\$?([A-Za-z]{1,3})\$?(\d+))?$")
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
LOOK_UP = 1000   # rows above a new cell searched for the style to take


@functools.lru_cache(maxsize=4096)
def column_number(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n


def cell_rc(ref: str | None) -> tuple[int, int]:
    match = _REF.match(ref or "")
    if not match:
        raise ValueError(ref)
    return int(match.group(2)), column_number(match.group(1))


def area(ref: str | None) -> tuple[int, int, int, int]:
    match = _AREA.match(ref or "")
    if not match:
        raise ValueError(ref)
    c1, r1, c2, r2 = match.groups()
    r1, c1 = int(r1), column_number(c1)
    r2, c2 = (int(r2), column_number(c2)) if r2 else (r1, c1)
    return min(r1, r2), min(c1, c2), max(r1, r2), max(c1, c2)


def _parent_ref(f: _Element) -> str | None:
    """The address of the cell a formula element `f` sits in."""
    cell = f.getparent()
    return cell.get("r") if cell is not None else None


def address(row: int, col: int) -> str:
    return f"{column_letter(col)}{row}"


class SheetXml:
    def __init__(self, package: Package, sheet: Sheet):
        self.package, self.sheet = package, sheet
        self.root = package.tree(sheet.part)
        self.ns = ns_of(self.root)
        data = self.root.find(self.q("sheetData"))
        if data is None:
            raise DocumentError(f"The sheet '{sheet.name}' has no cells to set.")
        self.data: _Element = data
        self.rows: dict[int, _Element] = {}
        self._number_rows()
        self.row_numbers = sorted(self.rows)
        self.merges = [area(m.get("ref", "")) for m in self.root.iter(self.q("mergeCell"))
                       if m.get("ref")]
        self.new_cells: list[tuple[int, int]] = []
        self.lost_formulas: list[tuple[int, int]] = []
        # (the array formula's cell, the area it fills), found on first use
        self._arrays: list[tuple[_Element, tuple[int, int, int, int]]] | None = None

    def q(self, local: str) -> str:
        return f"{{{self.ns}}}{local}" if self.ns else local

    def touch(self) -> None:
        self.package.touch(self.sheet.part)

    def _number_rows(self) -> None:
        """Rows and cells by number; the few files without r attributes get them."""
        last = 0
        numbered = not self.data.xpath("./*[local-name()='row']/*[local-name()='c'][not(@r)]")
        for row in self.data.iter(self.q("row")):
            r = row.get("r")
            last = int(r) if r and r.isdigit() else last + 1
            if not r:
                row.set("r", str(last))
            self.rows[last] = row
            if numbered:
                continue
            col = 0
            for c in row.iter(self.q("c")):
                ref = c.get("r")
                if ref:
                    col = cell_rc(ref)[1]
                else:
                    col += 1
                    c.set("r", address(last, col))

    # -- finding cells ----------------------------------------------------------------------
    @overload
    def cell(self, row: int, col: int, create: Literal[True]) -> _Element: ...

    @overload
    def cell(self, row: int, col: int, create: bool = False) -> _Element | None: ...

    def cell(self, row: int, col: int, create: bool = False) -> _Element | None:
        row_el = self.rows.get(row)
        if row_el is None:
            if not create:
                return None
            row_el = self._new_row(row)
        before = None
        for c in row_el.iter(self.q("c")):
            at = cell_rc(c.get("r"))[1]
            if at == col:
                return c
            if at > col:
                before = c
                break
        if not create:
            return None
        from lxml import etree  # noqa: PLC0415 - document library
        el = etree.Element(self.q("c"), r=address(row, col))
        if before is not None:
            before.addprevious(el)
        else:
            row_el.append(el)
        self._widen_spans(row_el, col)
        self.new_cells.append((row, col))
        return el

    def _new_row(self, row: int) -> _Element:
        from lxml import etree  # noqa: PLC0415 - document library
        el = etree.Element(self.q("row"), r=str(row))
        at = bisect.bisect(self.row_numbers, row)
        if at < len(self.row_numbers):
            self.rows[self.row_numbers[at]].addprevious(el)
        else:
            self.data.append(el)
        self.rows[row] = el
        self.row_numbers.insert(at, row)
        return el

    def _widen_spans(self, row_el: _Element, col: int) -> None:
        spans = row_el.get("spans", "")
        low, _, high = spans.partition(":")
        if low.isdigit() and high.isdigit() and not int(low) <= col <= int(high):
            row_el.set("spans", f"{min(int(low), col)}:{max(int(high), col)}")

    def merged_with(self, row: int, col: int) -> tuple[int, int, int, int] | None:
        return next((m for m in self.merges if m[0] <= row <= m[2] and m[1] <= col <= m[3]
                     and (row, col) != (m[0], m[1])), None)

    def array_over(self, row: int, col: int) -> tuple[_Element, tuple[int, int, int, int]] | None:
        """The array formula (anchor cell, area) whose area holds (row, col), if any."""
        if self._arrays is None:
            self._arrays = [(c, area(f.get("ref"))) for f in self.root.iter(self.q("f"))
                            if f.get("t") in ("array", "dataTable") and f.get("ref")
                            and (c := f.getparent()) is not None]
        return next(((c, box) for c, box in self._arrays
                     if box[0] <= row <= box[2] and box[1] <= col <= box[3]), None)

    def forget_arrays(self) -> None:
        self._arrays = None

    # -- styles -----------------------------------------------------------------------------
    def style_for_new(self, row: int, col: int, value: Value) -> int:
        numeric = value.kind in ("number", "bool", "formula")
        at = bisect.bisect_left(self.row_numbers, row)
        for above in reversed(self.row_numbers[max(0, at - LOOK_UP):at]):
            c = self.cell(above, col)
            if c is None or not any(tag_of(ch) in (self.q("v"), self.q("f"), self.q("is"))
                                    for ch in c):
                continue
            has_formula = c.find(self.q("f")) is not None
            if numeric == (has_formula or c.get("t", "n") in ("n", "b", "d")):
                return int(c.get("s", "0") or 0)
        row_el = self.rows.get(row)
        row_style = row_el.get("s") if row_el is not None else None
        if row_el is not None and row_el.get("customFormat") in ("1", "true") and row_style:
            return int(row_style)
        for col_el in self.root.iter(self.q("col")):
            try:
                if int(col_el.get("min") or "") <= col <= int(col_el.get("max") or ""):
                    return int(col_el.get("style", "0") or 0)
            except (TypeError, ValueError):
                continue
        return 0

    def final_style(self, base: int, value: Value, styles: Styles, code: str | None) -> int:
        try:
            if code:
                return styles.with_format(base, code)
            shown = value.shown
            kind = styles.kind(base)
            if not shown or value.kind == "empty":
                return base
            if (shown in ("date", "datetime") and kind == "date") or (shown == "time" and \
                    kind in ("time", "date")) or (shown.startswith("percent") and \
                    kind == "percent") or (shown == "currency" and kind == "currency"):
                return base
            return styles.with_format(base, value.format_code() or KIND_FORMAT[shown])
        except LookupError:
            return base

    # -- changing cells ---------------------------------------------------------------------
    def write(self, c: _Element, value: Value, style: int | None) -> None:
        """Put `value` into the cell element `c` (its old content goes, its style stays
        unless `style` is given)."""
        from lxml import etree  # noqa: PLC0415 - document library

        for child in list(c):
            if tag_of(child) in (self.q("f"), self.q("v"), self.q("is")):
                c.remove(child)
        for attr in ("t", "cm", "vm"):
            c.attrib.pop(attr, None)
        if style is not None:
            c.set("s", str(style))
        first = c[0] if len(c) else None  # an extLst stays last

        def add(tag: str) -> _Element:
            el = etree.Element(self.q(tag))
            if first is not None:
                first.addprevious(el)
            else:
                c.append(el)
            return el

        if value.kind == "formula":
            add("f").text = str(value.data)
        elif value.kind == "number":
            data = value.data   # an int, or a float written as Python spells it exactly
            add("v").text = repr(data) if isinstance(data, float) else str(data)
        elif value.kind == "bool":
            c.set("t", "b")
            add("v").text = "1" if value.data else "0"
        elif value.kind == "text":
            c.set("t", "inlineStr")
            text = str(value.data)
            t = etree.SubElement(add("is"), self.q("t"))
            t.text = text
            if text != text.strip() or "\n" in text:
                t.set(_XML_SPACE, "preserve")

    def unshare(self, master: _Element) -> None:
        """Write out a shared formula in every cell that shares it, so its first cell can
        change on its own."""
        from openpyxl.formula.translate import Translator  # noqa: PLC0415 - document library

        f = master.find(self.q("f"))
        if f is None:   # no formula: nothing shared
            return
        si, origin, text = f.get("si"), master.get("r"), f.text or ""
        for other in self.root.iter(self.q("f")):
            if other is f or other.get("t") != "shared" or other.get("si") != si:
                continue
            translated: str = Translator("=" + text, origin=origin).translate_formula(
                _parent_ref(other))
            other.text = translated[1:]
            for attr in ("t", "si", "ref"):
                other.attrib.pop(attr, None)
        for attr in ("t", "si", "ref"):
            f.attrib.pop(attr, None)

    def formula_text(self, c: _Element, f: _Element) -> str:
        """The formula of a cell as a person would see it (a shared one written out)."""
        if f.get("t") != "shared" or (f.text or "").strip():
            return f.text or ""
        master = next((m for m in self.root.iter(self.q("f")) if m.get("t") == "shared" and
                       m.get("si") == f.get("si") and (m.text or "").strip()), None)
        if master is None:
            return ""
        from openpyxl.formula.translate import Translator  # noqa: PLC0415 - document library
        translated: str = Translator("=" + (master.text or ""), origin=_parent_ref(master)
                                     ).translate_formula(c.get("r"))
        return translated[1:]

    def drop_cached(self, c: _Element) -> None:
        """A formula's last saved result goes (it is stale); it is computed again on open."""
        for child in c.findall(self.q("v")):
            c.remove(child)
        if c.get("t") in ("str", "b", "e", "n", "d"):
            c.attrib.pop("t")

    def grow_dimension(self) -> None:
        dim = self.root.find(self.q("dimension"))
        if dim is None or not self.new_cells:
            return
        try:
            r1, c1, r2, c2 = area(dim.get("ref", ""))
        except ValueError:
            return
        for row, col in self.new_cells:
            r1, c1, r2, c2 = min(r1, row), min(c1, col), max(r2, row), max(c2, col)
        ref = address(r1, c1) if (r1, c1) == (r2, c2) else f"{address(r1, c1)}:{address(r2, c2)}"
        if dim.get("ref") != ref:
            dim.set("ref", ref)
            self.touch()
