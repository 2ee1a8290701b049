"""The workbook's calculation settings and chain, after cells changed.

calcPr fullCalcOnLoad="1" makes Excel, LibreOffice and the others compute every formula
when they open the file. The calculation chain (xl/calcChain.xml) lists formula cells in
the order Excel last computed them; an entry for a cell that no longer holds a formula
makes Excel report the file as damaged, so those entries go (the chain is rebuilt by Excel
for new formulas on its own). An empty chain is not allowed: then the part goes.
"""

from __future__ import annotations

from app.core.documents.xlsx_package import Package
from app.core.documents.xml_tags import tag_of

CALC_CHAIN = "xl/calcChain.xml"
_BEFORE_CALC = ("fileVersion", "fileSharing", "workbookPr", "workbookProtection", "bookViews",
                "sheets", "functionGroups", "externalReferences", "definedNames")


def calculate_on_open(package: Package) -> None:
    """Ask every program that opens the workbook to compute all its formulas afresh."""
    from lxml import etree  # noqa: PLC0415 - document library

    root = package.tree("xl/workbook.xml")
    ns = tag_of(root)[1:].split("}", 1)[0]
    calc = root.find(f"{{{ns}}}calcPr")
    if calc is None:
        calc = etree.Element(f"{{{ns}}}calcPr")
        before = [el for el in root if tag_of(el).rsplit("}", 1)[-1] in _BEFORE_CALC]
        if before:
            before[-1].addnext(calc)
        else:
            root.insert(0, calc)
    if calc.get("fullCalcOnLoad") not in ("1", "true"):
        calc.set("fullCalcOnLoad", "1")
        package.touch("xl/workbook.xml")


def drop_from_chain(package: Package, lost: set[tuple[str, str]]) -> None:
    """The chain's entries for cells (sheetId, address) that no longer hold a formula go."""
    if CALC_CHAIN not in package.parts:
        return
    root = package.tree(CALC_CHAIN)
    current = None
    for el in list(root):
        current = el.get("i") or current
        if (current, el.get("r")) not in lost:
            continue
        following = el.getnext()
        if following is not None:
            for attr in ("i", "l"):
                value = el.get(attr)
                if value and not following.get(attr):
                    following.set(attr, value)
        root.remove(el)
    if len(root):
        package.touch(CALC_CHAIN)
    else:
        _remove_chain(package)


def _remove_chain(package: Package) -> None:
    """An empty calculation chain is not allowed: the part goes, with its mentions."""
    package.remove(CALC_CHAIN)
    rels = "xl/_rels/workbook.xml.rels"
    root = package.tree(rels)
    for rel in list(root):
        if rel.get("Target", "").lstrip("/").endswith("calcChain.xml"):
            root.remove(rel)
    package.touch(rels)
    types = package.tree("[Content_Types].xml")
    for el in list(types):
        if el.get("PartName", "").lower() == "/" + CALC_CHAIN.lower():
            types.remove(el)
    package.touch("[Content_Types].xml")
