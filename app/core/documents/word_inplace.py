"""A changed paragraph's text changed in place, as edit_file changes it (word_edit), when only
its text changed (no mark of bold, italic, a link or a list in what differs): every run,
content control, comment anchor and picture of it stays, each with its own look. Used by
word_merge; where it cannot be done so, the paragraph is made again in its look (word_build).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from app.core.documents.base import DocumentError
from app.core.documents.word_items import ITEM

if TYPE_CHECKING:
    from lxml.etree import _Element

    from app.core.documents.word import ShownParagraph
    from app.core.documents.word_units import Edit, Unit
    from app.core.documents.word_track import Revisions

_MARKS = re.compile(r"[*_\[\]()`<>\\&|~!#]")   # what may be Markdown, not text


def editor(shown: list[ShownParagraph], revisions: Revisions | None = None,
           items: dict[int, str] | None = None) -> Edit:
    """edit(p, old shown line, new line): True when the paragraph `p` was changed in place
    (with `revisions`, as a tracked change, as edit_file makes one). `items`: the list
    mark read_file shows before each list item (by the paragraph's id), which Word numbers:
    a new number is not a change, another indent is (the item is made again at its level)."""
    from app.core.documents.word_edit import (  # noqa: PLC0415 - only for a changed paragraph
        _as_shown, _no_longer_placeholders, _replace, shared_ends)
    from app.core.documents.word_track import tracked_replace  # noqa: PLC0415 - only for a changed paragraph

    by_p = {id(para.p): (para, line) for _part, para, line, _twin in shown}

    def edit(p: _Element, old: str, new: str) -> bool:
        found = by_p.get(id(p))
        if found is None or not found[1].text.startswith(old):
            return False
        para, line = found
        lead = (items or {}).get(id(p))
        if lead and old.startswith(lead):   # a list item
            mark = ITEM.match(new)
            if mark is None or mark.group(1) != lead[:len(lead) - len(lead.lstrip(" "))]:
                return False   # no longer one, or at another level: made again (word_fill)
            new = lead + new[mark.end():]   # renumbered: Word numbers it
        head, tail = shared_ends(old, new)
        if _MARKS.search(old[head:len(old) - tail] + new[head:len(new) - tail]):
            return False
        try:
            at, length, replacement, after = _as_shown(line, 0, old, new, para.plain())
            segments = para.segments()
            _no_longer_placeholders(
                _replace(segments, at, length, replacement, after) if revisions is None else
                tracked_replace(segments, at, length, replacement, revisions, after))
        except DocumentError:
            return False
        return True

    return edit


def edited_inside(old: list[Unit], new: list[Unit], edit: Edit,
            by_text: dict[str, list[_Element]]) -> bool:
    """Lines of a content control, or a paragraph's text boxes, changed one for one: each
    changed in place in its own paragraph (then counted unchanged). False where one cannot
    be (another line count, a line that is not one paragraph's)."""
    if len(old) != len(new) or any(u.kind not in ("other", "box") for u in old):
        return False
    for before, after in zip(old, new):
        holders = [p for p in by_text.get(before.text, []) if _within(p, before.el)]
        if len(holders) != 1 or not edit(holders[0], before.text, after.text):
            return False
    return True


def _within(p: _Element, el: _Element | None) -> bool:
    node: _Element | None = p
    while node is not None:
        if node is el:
            return True
        node = node.getparent()
    return False
