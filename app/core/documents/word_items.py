"""A list item write_file adds or makes again stays in its list, at the level its indent
shows (read_file indents a level by two spaces: "  b. …"), so Word numbers it on: "a." stays
lettered, a third level stays a third level, and an item added at the start of a list that
restarts joins that list rather than the one before it.

The list is its neighbour's: the item just before it, else the one just after (the one after
first for an item that begins a list in the new text), else the nearest. The look is that
of an item of the same list at the same level, else the neighbour's with its level changed
(w:numPr/w:ilvl).
"""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING

from app.core.documents.word_parts import paragraph_props, w
from app.core.documents.xml_tags import tag_of

if TYPE_CHECKING:
    from lxml.etree import _Element

    from app.core.documents.word_units import Unit

HEADING = re.compile(r"^(#{1,6}) ")
# A list item's mark as read_file shows it (and what may be one in new text).
ITEM = re.compile(r"^( *)(?:[-*+•◦▪]|\(?[0-9A-Za-z]{1,6}(?:\.[0-9]{1,3})*[.):]) ")
# What stands before w:numPr in a paragraph's properties (CT_PPrBase's order).
_BEFORE_NUMBERING = frozenset(w(t) for t in ("pStyle", "keepNext", "keepLines",
                                             "pageBreakBefore", "framePr", "widowControl"))


def level_of(mark: str) -> int:
    """The level a list line's leading blanks show ("    i. …": 2)."""
    return (len(mark) - len(mark.lstrip(" "))) // 2


def _list_id(p: _Element) -> str | None:
    num = p.find(f"{w('pPr')}/{w('numPr')}/{w('numId')}")
    style = p.find(f"{w('pPr')}/{w('pStyle')}")
    return num.get(w("val")) if num is not None else \
        "style:" + (style.get(w("val")) or "") if style is not None else None


def item_model(old: list[Unit], at: int, level: int, after_item: bool) -> _Element | None:
    """The paragraph whose look a list item at `level`, put before old unit `at`, takes;
    `after_item`: whether it follows a list item in the new text (else it begins a list,
    and joins the list after it before the one before it)."""
    if not old:
        return None
    at = max(0, min(at, len(old)))
    near = [i for i in ((at - 1, at) if after_item else (at, at - 1))
            if 0 <= i < len(old) and old[i].kind == "list"]
    order = near + [i for i in list(range(at - 1, -1, -1)) + list(range(at, len(old)))
                    if old[i].kind == "list" and i not in near]
    items = [i for i in order if old[i].el is not None]
    if not items:
        return None
    first = old[items[0]]
    assert first.el is not None
    if level_of(first.lead) == level:
        return first.el
    same = _list_id(first.el)
    for i in items:
        unit = old[i]
        if unit.el is not None and level_of(unit.lead) == level and \
                _list_id(unit.el) == same:
            return unit.el
    model = copy.deepcopy(first.el)
    at_level(model, level)
    return model


def at_level(p: _Element, level: int) -> None:
    """The list paragraph `p` put at `level` (its w:numPr/w:ilvl)."""
    ppr = paragraph_props(p)
    num = ppr.find(w("numPr"))
    if num is None:
        num = ppr.makeelement(w("numPr"), {})
        spot = 0
        for n, child in enumerate(ppr):
            if tag_of(child) in _BEFORE_NUMBERING:
                spot = n + 1
        ppr.insert(spot, num)
    ilvl = num.find(w("ilvl"))
    if ilvl is None:
        ilvl = num.makeelement(w("ilvl"), {})
        num.insert(0, ilvl)
    ilvl.set(w("val"), str(max(0, min(level, 8))))
