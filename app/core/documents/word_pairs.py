"""Which old block of a Word document a block of write_file's new text is (word_merge compares
them as `compared` gives them, list items without their numbers) or is the changed text of
(word_fill): one of the same kind (a table for a table; a heading, a list item, a quote or
body text for one of its kind, body text and list items for each other), the most alike of
the next few, so that a paragraph added, removed or changed among others pairs each changed
one with its own old text and not merely with the next.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from app.core.documents.word_units import Unit

# A list item's mark as Word numbers it: a bullet, "3.", "1.2.", "(a)", "b)", "iv.", "XII)".
_NUMBER = re.compile(r"^( *)(?:[-*+•◦▪]|\(?(?:[0-9]{1,6}(?:\.[0-9]{1,3})*|[A-Za-z]|[ivxlcdm]{1,6}|"
                     r"[IVXLCDM]{1,6})[.)]) ")
_LOOK_AHEAD = 20   # old blocks a changed one is looked for among
_COMPARED = 4000   # characters of two blocks compared in full, not only by their letters
_PARAGRAPHS = ("h1", "h2", "h3", "h4", "h5", "h6", "list", "quote", "body")


def pairs(old: Unit, new: Unit) -> bool:
    """Whether `new` can be `old` changed (of a kind to be made from it)."""
    if old.kind == "table" or new.kind == "table":
        return old.kind == new.kind
    if old.kind not in _PARAGRAPHS or new.kind not in _PARAGRAPHS:
        return False
    return old.kind == new.kind or {old.kind, new.kind} <= {"body", "list"}


def changed_one(olds: Callable[[int], Unit | None], count: int, at: int, unit: Unit,
                left: int) -> int | None:
    """Which of the old blocks `olds(at)`, `olds(at + 1)`, … (of `count`; None: one taken
    already or not to be changed) the new `unit` is the changed text of: of the next few of
    its kind, the one most alike (more than half its text the same); else the next, when as
    many old blocks are left as new ones (`left`); else None (it is added)."""
    import difflib  # noqa: PLC0415 - only a write over a Word document compares

    best, best_k = 0.5, None
    for k in range(at, min(count, at + _LOOK_AHEAD)):
        old = olds(k)
        if old is None or not pairs(old, unit):
            continue
        if unit.kind == "table":   # the next table: a table changes cell by cell
            return k
        match = difflib.SequenceMatcher(None, old.text, unit.text, autojunk=False)
        alike = match.quick_ratio()   # long texts: by their letters (the full compare is slow)
        if alike > best and len(old.text) + len(unit.text) <= _COMPARED:
            alike = match.ratio()
        if alike > best:
            best, best_k = alike, k
    if best_k is not None:
        return best_k
    first = olds(at) if at < count else None
    if first is None or not pairs(first, unit):
        return None
    rest = 0
    for k in range(at, count):   # as many left as new ones (counted no further than that)
        rest += olds(k) is not None
        if rest > left:
            return None
    return at if rest == left else None


def compared(unit: Unit, items: set[str] | None = None) -> str:
    """What is compared of a block: a list item without its number or bullet, which Word
    gives it (an item added above renumbers those after it; they stay as they are). Only a
    mark as Word numbers ("3.", "b)", "iv.", "-") is left out; only of the old document's
    list items and of new lines standing for one (`items`: their keys), so that a paragraph
    that begins "A. Smith" is never one with "B. Smith"."""
    mark = _NUMBER.match(unit.text) if unit.kind not in ("table", "code") else None
    if mark is None:
        return unit.text
    key = f"{mark.group(1)}\0{unit.text[mark.end():]}"
    return key if items is None or key in items else unit.text
