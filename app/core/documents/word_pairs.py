"""Which old block of a Word document a block of write_file's new text is the changed text of
(word_fill): one of the same kind (a table for a table; a heading, a list item, a quote or
body text for one of its kind, body text and list items for each other), the most alike of
the next few, so that a paragraph added, removed or changed among others pairs each changed
one with its own old text and not merely with the next.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.core.documents.word_fill import Unit

_LOOK_AHEAD = 20   # old blocks a changed one is looked for among
_PARAGRAPHS = ("h1", "h2", "h3", "h4", "h5", "h6", "list", "quote", "body")


def pairs(old: Unit, new: Unit) -> bool:
    """Whether `new` can be `old` changed (of a kind to be made from it)."""
    if old.kind == "table" or new.kind == "table":
        return old.kind == new.kind
    if old.kind not in _PARAGRAPHS or new.kind not in _PARAGRAPHS:
        return False
    return old.kind == new.kind or {old.kind, new.kind} <= {"body", "list"}


def changed_one(olds: list[Unit | None], at: int, unit: Unit, left: int) -> int | None:
    """Which of the old blocks `olds[at:]` (None: one taken already or not to be changed)
    the new `unit` is the changed text of: of the next few of its kind, the one most alike
    (more than half its text the same); else the next, when as many old blocks are left as
    new ones (`left`); else None (it is added)."""
    import difflib  # noqa: PLC0415 - only a write over a Word document compares

    free = [k for k in range(at, min(len(olds), at + _LOOK_AHEAD)) if olds[k] is not None]
    best, best_k = 0.5, None
    for k in free:
        old = olds[k]
        if old is not None and pairs(old, unit):
            match = difflib.SequenceMatcher(None, old.text, unit.text, autojunk=False)
            if match.quick_ratio() > best and match.ratio() > best:
                best, best_k = match.ratio(), k
    if best_k is not None:
        return best_k
    rest = sum(1 for old in olds[at:] if old is not None)
    first = olds[at] if at < len(olds) else None
    if first is not None and rest == left and pairs(first, unit):
        return at
    return None
