"""Cells of a workbook set in the package's own XML, everything else kept byte for byte.

Only the sheets whose cells change are rewritten (and styles.xml when a value needs a
number format no style has yet). Formulas that depend on a changed cell lose their saved
result, and the workbook asks to be recalculated when opened (calcPr fullCalcOnLoad), so
Excel, LibreOffice and the others show the new values; the calculation chain loses only the
entries of cells that no longer hold a formula (Excel reports a damaged file otherwise).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from app.core.documents.base import DocumentError
from app.core.documents.xlsx_calc import calculate_on_open, drop_from_chain
from app.core.documents.xlsx_package import Package, Sheet, ns_of
from app.core.documents.xlsx_refs import Book, Formula, dependents, references, shifted
from app.core.documents.xlsx_sheet import SheetXml, address, area
from app.core.documents.xlsx_styles import Styles
from app.core.documents.xlsx_values import Value, parse
from app.core.documents.xml_tags import tag_of

if TYPE_CHECKING:
    from lxml.etree import _Element

    from app.core.documents.xlsx_refs import Ref

MAX_DEPENDENCY_SECONDS = 8.0
SHOWN_FORMULAS = 12


def sheet_label(name: str, addr: str) -> str:
    quoted = name if name.replace("_", "").isalnum() else "'" + name.replace("'", "''") + "'"
    return f"{quoted}!{addr}"


class WorkbookEdit:
    def __init__(self, package: Package):
        self.package = package
        self.styles = Styles(package)
        self.sheets: dict[str, SheetXml] = {}
        self.changed: set[tuple[str, int, int]] = set()
        self.new_formulas: list[tuple[str, int, int]] = []
        self.lost: set[tuple[str, str]] = set()     # (sheetId, address): formulas gone
        self._strings: list[str] | None = None
        self.date1904 = package.date1904()

    def find_sheet(self, name: str) -> Sheet:
        sheets = self.package.sheets
        match = next((s for s in sheets if s.name == name), None) or next(
            (s for s in sheets if s.name.casefold() == name.casefold()), None)
        book = self.package.path.name
        if match is None:
            raise DocumentError(f"'{book}' has no sheet '{name}'; its sheets are "
                                + ", ".join(f"'{s.name}'" for s in sheets) + ".")
        if match.kind == "chartsheet":
            raise DocumentError(f"'{match.name}' in '{book}' is a chart sheet; it has no cells.")
        if match.kind != "worksheet" or match.part not in self.package.parts:
            raise DocumentError(f"'{match.name}' in '{book}' is not a sheet of cells, so its "
                                "cells cannot be set.")
        return match

    def sheet_xml(self, sheet: Sheet) -> SheetXml:
        if sheet.name not in self.sheets:
            self.sheets[sheet.name] = SheetXml(self.package, sheet)
        return self.sheets[sheet.name]

    # -- one cell ---------------------------------------------------------------------------
    def set(self, sheet: Sheet, row: int, col: int, raw: object, code: str | None = None) -> bool:
        """Set one cell; False when it already holds that value (nothing changes)."""
        xml = self.sheet_xml(sheet)
        where = sheet_label(sheet.name, address(row, col))
        merged = xml.merged_with(row, col)
        if merged:
            raise DocumentError(f"{where} is inside merged cells; set the first cell of the "
                                f"merged range ({address(merged[0], merged[1])}) instead.")
        spill = xml.array_over(row, col)
        if spill and (spill[1][0], spill[1][1]) != (row, col):
            box = spill[1]
            raise DocumentError(f"{where} is part of one formula that fills "
                                f"{address(box[0], box[1])}:{address(box[2], box[3])}; set "
                                f"{address(box[0], box[1])} to change it.")
        c = xml.cell(row, col)
        value = parse(raw, self.date1904)
        base = int(c.get("s", "0") or 0) if c is not None else xml.style_for_new(row, col, value)
        if isinstance(raw, str) and value.kind in ("number", "bool") and \
                self.styles.kind(base) == "text":
            value = parse(raw, self.date1904, as_text=True)   # a cell formatted as Text
        style = xml.final_style(base, value, self.styles, code)
        if self._holds(xml, c, value, raw) and style == base:
            return False
        if value.kind == "empty" and c is None:
            return False
        c = c if c is not None else xml.cell(row, col, create=True)
        f = c.find(xml.q("f"))
        if f is not None:
            if f.get("t") == "shared" and f.get("ref"):
                xml.unshare(c)
            if f.get("t") in ("array", "dataTable") and spill:
                self._empty_spill(xml, spill[1], (row, col))
                xml.forget_arrays()
            if value.kind != "formula":
                self.lost.add((sheet.sheet_id, address(row, col)))
        xml.write(c, value, style if style != int(c.get("s", "0") or 0) else None)
        row_el = c.getparent()
        if value.kind == "empty" and not c.get("s") and len(c) == 0 and row_el is not None:
            row_el.remove(c)
        self.changed.add((sheet.name, row, col))
        if value.kind == "formula":
            self.new_formulas.append((sheet.name, row, col))
        xml.touch()
        return True

    def _empty_spill(self, xml: SheetXml, box: tuple[int, int, int, int],
                     anchor: tuple[int, int]) -> None:
        for r in range(box[0], box[2] + 1):
            for c in range(box[1], box[3] + 1):
                cell = xml.cell(r, c)
                if (r, c) != anchor and cell is not None:
                    xml.drop_cached(cell)
                    self.changed.add((xml.sheet.name, r, c))

    def _holds(self, xml: SheetXml, c: _Element | None, value: Value,
               raw: object = None) -> bool:
        """Whether the cell already holds this value (text as read_file shows it: its
        spaces and line breaks folded; a number to within a rounding)."""
        if c is None:
            return value.kind == "empty"
        f = c.find(xml.q("f"))
        v = c.find(xml.q("v"))
        t = c.get("t", "n")
        if isinstance(raw, str) and f is None and t == "e":
            return v is not None and v.text == raw.strip()     # an error value, #N/A
        if isinstance(raw, str) and f is None and t in ("s", "inlineStr", "str"):
            text = self._text(xml, c, t, v)
            if text is not None and " ".join(text.split()) == " ".join(raw.split()):
                return True
        if value.kind == "formula":
            return f is not None and xml.formula_text(c, f) == value.data
        if f is not None:
            return False
        if value.kind == "empty":
            return v is None and c.find(xml.q("is")) is None
        if value.kind == "number":
            try:
                if t != "n" or v is None or not isinstance(value.data, (int, float)):
                    return False
                old, new = float(v.text or ""), float(value.data)
                return abs(old - new) <= 1e-9 * max(1, abs(old))
            except (TypeError, ValueError):
                return False
        if value.kind == "bool":
            return t == "b" and v is not None and v.text == ("1" if value.data else "0")
        text = self._text(xml, c, t, v)
        return text is not None and " ".join(text.split()) == " ".join(str(value.data).split())

    def _text(self, xml: SheetXml, c: _Element, t: str, v: _Element | None) -> str | None:
        if t == "inlineStr":
            is_ = c.find(xml.q("is"))
            return None if is_ is None else _joined(is_, xml.ns)
        if t == "str":
            return v.text if v is not None else None
        if t == "s" and v is not None:
            strings = self.strings()
            try:
                return strings[int(v.text or "")]
            except (ValueError, IndexError, TypeError):
                return None
        return None

    def strings(self) -> list[str]:
        if self._strings is None:
            self._strings = []
            target = next((t for _i, kind, t in self.package.rels("xl/workbook.xml")
                           if kind.endswith("/sharedStrings")), None)
            if target is not None and target in self.package.parts:
                root = self.package.tree(target)
                ns = ns_of(root)
                self._strings = [_joined(si, ns) for si in root]
        return self._strings

    # -- after the cells ----------------------------------------------------------------------
    def finish(self) -> list[str]:
        """Stale results dropped, recalculation asked for; the formula cells that will show
        new values when the workbook is opened, as 'Sheet!A1'."""
        for xml in self.sheets.values():
            xml.grow_dimension()
        if not self.changed:
            return []
        stale = dependents(self._formulas(), self.changed, MAX_DEPENDENCY_SECONDS)
        for f in stale:
            sheet = next(s for s in self.package.sheets if s.name == f.sheet)
            xml = self.sheet_xml(sheet)
            if f.spill is None and f.cell is not None:
                cells: list[_Element | None] = [f.cell]
            else:
                box = f.spill or (f.row, f.col, f.row, f.col)
                cells = [xml.cell(r, c) for r in range(box[0], box[2] + 1)
                         for c in range(box[1], box[3] + 1)]
            for cell in cells:
                if cell is not None and cell.find(xml.q("v")) is not None:
                    xml.drop_cached(cell)
                    xml.touch()
        updated = {(f.sheet, f.row, f.col) for f in stale} | set(self.new_formulas)
        if updated:
            calculate_on_open(self.package)
        if self.lost:
            drop_from_chain(self.package, self.lost)
        order = {s.name: s.index for s in self.package.sheets}
        return [sheet_label(s, address(r, c))
                for s, r, c in sorted(updated, key=lambda x: (order[x[0]], x[1], x[2]))]

    def _formulas(self) -> list[Formula]:
        book = self._book()
        found: list[Formula] = []
        deadline = time.process_time() + MAX_DEPENDENCY_SECONDS
        for sheet in self.package.sheets:
            if sheet.kind != "worksheet" or sheet.part not in self.package.parts:
                continue
            if sheet.name not in self.sheets and b"<f" not in self.package.parts[sheet.part] \
                    and b":f" not in self.package.parts[sheet.part]:
                continue
            xml = self.sheet_xml(sheet)
            masters: dict[str | None, tuple[int, int, list[Ref] | None]] = {}
            followers: list[tuple[str | None, int, int, _Element]] = []
            for f, c, row, col, spill in _formula_cells(xml):
                if f.get("t") == "dataTable":
                    found.append(Formula(sheet.name, row, col, None, spill, c))
                elif f.get("t") == "shared" and not (f.text or "").strip():
                    followers.append((f.get("si"), row, col, c))
                else:
                    refs = references(f.text or "", sheet.name, (row, col), book)
                    found.append(Formula(sheet.name, row, col, refs, spill, c))
                    if f.get("t") == "shared":
                        masters[f.get("si")] = (row, col, refs)
                if time.process_time() > deadline:
                    return self._every_formula()   # too many to follow in time: all go
            for si, row, col, c in followers:
                master = masters.get(si)
                refs = None if master is None or master[2] is None else \
                    shifted(master[2], row - master[0], col - master[1])
                found.append(Formula(sheet.name, row, col, refs, None, c))
        return found

    def _every_formula(self) -> list[Formula]:
        """Every formula of the workbook, each counted as depending on everything."""
        found: list[Formula] = []
        for sheet in self.package.sheets:
            if sheet.kind != "worksheet" or sheet.part not in self.package.parts:
                continue
            xml = self.sheet_xml(sheet)
            for _f, c, row, col, spill in _formula_cells(xml):
                found.append(Formula(sheet.name, row, col, None, spill, c))
        return found

    def _book(self) -> Book:
        names = [s.name for s in self.package.sheets]
        book = Book(names)
        workbook = self.package.tree("xl/workbook.xml")
        for el in workbook.iter("{*}definedName"):
            local = el.get("localSheetId")
            key = (el.get("name", "").casefold(), int(local) if local and local.isdigit() else None)
            book.names[key] = el.text or ""
        for sheet in self.package.sheets:
            for _rid, kind, target in self.package.rels(sheet.part):
                if kind.endswith("/table") and target in self.package.parts:
                    table = self.package.tree(target)
                    try:
                        box = area(table.get("ref", ""))
                    except ValueError:
                        continue
                    for table_name in (table.get("name"), table.get("displayName")):
                        if table_name:
                            book.tables[table_name.casefold()] = (sheet.name,) + box
        return book

def _formula_cells(xml: SheetXml) -> Iterator[
        tuple[_Element, _Element, int, int, tuple[int, int, int, int] | None]]:
    """Each formula of a sheet with its cell, the cell's row and column, and the area an
    array or data table formula spills over (None for any other); a formula whose cell has
    no readable address is left out."""
    for f in xml.root.iter(xml.q("f")):
        c = f.getparent()
        if c is None:
            continue
        try:
            row, col = area(c.get("r", ""))[:2]
        except ValueError:
            continue
        spill = area(f.get("ref")) if f.get("t") in ("array", "dataTable") and \
            f.get("ref") else None
        yield f, c, row, col, spill


def _joined(el: _Element, ns: str) -> str:
    """The text of a string item in namespace `ns` (runs joined, phonetic guides left out)."""
    phonetic = f"{{{ns}}}rPh"
    return "".join(t.text or "" for t in el.iter(f"{{{ns}}}t")
                   if (run := t.getparent()) is None or tag_of(run) != phonetic)
