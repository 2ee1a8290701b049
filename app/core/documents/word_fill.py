"""The body of a Word document filled again after a write_file (word_merge decides what
changed): kept blocks as they were, changed ones in their own look (word_pairs finds which
old block a new one is; word_table changes a table), added ones in the look of their kind's
nearest block (a list item in its list: word_items), empty paragraphs and the section's
properties where they stood; in a document that tracks changes, as tracked changes
(word_tracked).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.core.documents.word_added import added
from app.core.documents.word_anchors import carry, held
from app.core.documents.word_build import Relate, fresh, inline_token, paragraph
from app.core.documents.word_items import HEADING, ITEM, at_level, item_model, level_of
from app.core.documents.word_pairs import changed_one
from app.core.documents.word_parts import w
from app.core.documents.word_table import changed_table
from app.core.documents.word_units import Edit, Unit

if TYPE_CHECKING:
    from lxml.etree import _Element

    from app.core.documents.word_anchors import Label
    from app.core.documents.word_styles import HeadingStyles
    from app.core.documents.word_tracked import Tracker

_AHEAD = 5   # tracked: new blocks looked at to tell which old ones go before one is added
# read_file's marks of tracked changes: inserted text is the text's, deleted text is not.
_REVIEW = re.compile(r"\[(inserted|deleted): (.*?)\]")


@dataclass
class Plan:
    out: list[_Element] = field(default_factory=list)
    changed: int = 0    # paragraphs
    tables: int = 0     # tables changed
    moved: int = 0      # blocks kept whole in another place
    added: int = 0
    removed: int = 0


class Filler:
    def __init__(self, old: list[Unit], silent: dict[int, list[_Element]],
                 lines: dict[int, str], relate: Relate, same: set[int], styles: HeadingStyles,
                 edit: Edit, label: Label, tracker: Tracker | None):
        self.old, self.silent, self.lines, self.relate = old, silent, lines, relate
        self.edit, self.label, self.tracker = edit, label, tracker
        self.styles = styles
        self.plan = Plan()
        self.emitted: set[int] = set()
        whole: dict[int, bool] = {}
        for i, unit in enumerate(old):
            if unit.el is not None:
                whole[id(unit.el)] = whole.get(id(unit.el), True) and i in same
        self.whole = whole
        self.silent_done = -1
        self.after_item = False   # whether the last block of the new text was a list item
        # A block not found in place whose text stands elsewhere in the new text: moved.
        self.movable: dict[str, list[int]] = {}
        for i, unit in enumerate(old):
            if i not in same and unit.el is not None and unit.kind not in ("box", "other"):
                self.movable.setdefault(unit.text, []).append(i)
        # Tracked: a moved block's copy is made of it as it was, before it is marked deleted.
        self.as_was: dict[int, _Element] = {}
        for el in (old[i].el for found in self.movable.values() for i in found):
            if el is not None and tracker is not None:
                self.as_was[id(el)] = copy.deepcopy(el)
        self.deleted: set[int] = set()   # tracked: blocks marked deleted
        self.moved: set[int] = set()   # tracked: blocks moved (a copy inserted elsewhere)

    # -- what the comparison found ------------------------------------------------------
    def equal(self, i1: int, i2: int, new: list[Unit]) -> None:
        for i, unit in zip(range(i1, i2), new):
            el = self.old[i].el
            if el is not None and id(el) not in self.emitted:
                if self.whole[id(el)]:
                    self._emit(i, el)
                else:
                    self._add(unit, i)
            self._went(unit)

    def replace(self, i1: int, i2: int, new: list[Unit]) -> None:
        olds = [i for i in range(i1, i2) if self.old[i].el is not None]
        at = 0
        for n, unit in enumerate(new):
            while at < len(olds) and not self._free(olds[at]):
                self._deleted(olds[at])
                at += 1
            partner = changed_one(lambda k: self.old[olds[k]] if self._free(olds[k]) else None,
                                  len(olds), at, unit, len(new) - n)
            if self._mover(unit) is not None:
                self._add(unit, olds[at] if at < len(olds) else i2)
            elif partner is not None:
                for skipped in olds[at:partner]:   # not in the new text
                    self._deleted(skipped)
                at = partner
                i = olds[at]
                self._emit(i, self._changed(i, unit))
                self.emitted.add(id(self.old[i].el))
                if self.old[i].kind == "table":
                    self.plan.tables += 1
                else:
                    self.plan.changed += 1
                at += 1
            else:
                if self.tracker is not None:   # what goes, before what comes, as Word shows it
                    self._deleted_before(olds, at, new[n + 1:])
                self._add(unit, olds[at] if at < len(olds) else i2)
            self._went(unit)
        for i in olds[at:]:
            self._deleted(i)

    def _deleted_before(self, olds: list[int], at: int, later: list[Unit]) -> None:
        """Tracked: the old blocks from `olds[at]` on that none of the next few new ones
        (`later`) is the changed text of, marked deleted now (else after what is added)."""
        def free(k: int) -> Unit | None:
            return self.old[olds[k]] if self._free(olds[k]) else None

        for j, unit in enumerate(later[:_AHEAD]):
            partner = changed_one(free, len(olds), at, unit, len(later) - j)
            if partner is not None:
                for i in olds[at:partner]:
                    self._deleted(i)
                return
        if len(later) <= _AHEAD:   # none of those left is: they all go
            for i in olds[at:]:
                self._deleted(i)

    def _free(self, i: int) -> bool:
        el = self.old[i].el
        return self.old[i].kind not in ("box", "other") and id(el) not in self.emitted and \
            id(el) not in self.moved

    def _deleted(self, i: int) -> None:
        """Tracked: old unit `i`'s block, not in the new text, stays marked deleted."""
        el = self.old[i].el
        if self.tracker is None or el is None or id(el) in self.emitted:
            return
        self._silent_upto(i)
        self.plan.out.append(self.tracker.deleted(el))
        self.emitted.add(id(el))
        self.deleted.add(id(el))
        if id(el) not in self.moved:
            self.plan.removed += 1

    def _went(self, unit: Unit) -> None:
        if unit.kind != "outside":
            self.after_item = unit.kind == "list"

    def finish(self) -> Plan:
        self._silent_upto(max(self.silent, default=0) + 1)
        shown = {id(u.el) for u in self.old if u.el is not None}
        self.plan.removed += len(shown - self.emitted)
        return self.plan

    # -- the body -----------------------------------------------------------------------
    def _silent_upto(self, index: int) -> None:
        """The elements that show nothing, up to (not including) old unit `index`'s."""
        for key in sorted(k for k in self.silent if self.silent_done < k <= index):
            self.plan.out.extend(self.silent[key])
        self.silent_done = max(self.silent_done, index)

    def _emit(self, i: int, el: _Element) -> None:
        self._silent_upto(i)
        self.plan.out.append(el)
        old = self.old[i].el
        if old is not None:
            self.emitted.add(id(old))

    def _add(self, unit: Unit, at: int) -> None:
        self._silent_upto(at - 1)
        mover = self._mover(unit)
        if mover is not None and self.tracker is not None:   # deleted there, inserted here
            self.plan.out.append(self.tracker.moved(mover, self.as_was[id(mover)]))
            self.moved.add(id(mover))
            self.plan.moved += 1
            self.plan.removed -= id(mover) in self.deleted   # counted when it was deleted
            return
        if mover is not None:   # the block itself, as it was
            self.plan.out.append(mover)
            self.emitted.add(id(mover))
            self.plan.moved += 1
            return
        made = added(unit, at, self.old, self.styles, self.relate, self.after_item)
        if self.tracker is not None:
            made = [self.tracker.inserted(el) for el in made]
        self.plan.out.extend(made)
        self.plan.added += 1

    def _mover(self, unit: Unit) -> _Element | None:
        for i in self.movable.get(unit.text, []):
            el = self.old[i].el
            if el is not None and id(el) not in self.moved and \
                    (id(el) not in self.emitted or id(el) in self.deleted):
                return el
        return None

    # -- blocks made ----------------------------------------------------------------------
    def _changed(self, i: int, new: Unit) -> _Element:
        old = self.old[i]
        assert old.el is not None
        if old.kind == "table":
            table = changed_table(old.el, old.text, new.text, self.lines, self.relate,
                                  self.edit, self.remake, self.tracker)
            if self.tracker is not None and table is not old.el:   # built again
                self._silent_upto(i)
                self.plan.out.append(self.tracker.deleted(old.el))
                return self.tracker.inserted(table)
            return table
        if self.edit(old.el, old.text, new.text):
            return old.el
        text = new.text
        if old.kind.startswith("h") or old.kind == "quote":
            text = HEADING.sub("", text, count=1) if old.kind.startswith("h") else text[2:]
        elif old.kind == "list":
            mark = ITEM.match(text)
            text = text[len(old.lead):] if old.lead and text.startswith(old.lead) else \
                text[mark.end():] if mark else text.lstrip()
        model = item_model(self.old, i, level_of(text), self.after_item) \
            if new.kind == "list" and old.kind != "list" else None
        if model is not None:   # a paragraph made an item of the list beside it
            mark = ITEM.match(text)
            return self.remake(old.el, text[mark.end():] if mark else text, model)
        moved = old.kind == "list" and old.lead and level_of(new.text) != level_of(old.lead)
        if moved and text == old.text[len(old.lead):]:   # only its level changed
            if self.tracker is not None:
                return self.tracker.relevel(old.el, level_of(new.text))
            at_level(old.el, level_of(new.text))
            return old.el
        return self.remake(old.el, text, level=level_of(new.text) if moved else None)

    def remake(self, old: _Element, text: str, model: _Element | None = None,
               level: int | None = None) -> _Element:
        """The paragraph `old` made again with the inline Markdown `text`, in its look (or
        `model`'s; a list item at `level`), its bookmarks, comments and notes where they
        stood (word_anchors); tracked, `old` with its text deleted and the new inserted."""
        text = _REVIEW.sub(lambda m: m.group(2) if m.group(1) == "inserted" else "", text)
        text, runs = held(text, old, self.label)
        made = paragraph(old if model is None else model, inline_token(text), self.relate)
        section = old.find(f"{w('pPr')}/{w('sectPr')}")
        if model is not None and section is not None:   # its section ends with it still
            made_ppr = fresh(made).find(w("pPr"))
            if made_ppr is not None:
                made_ppr.append(copy.deepcopy(section))
        elif model is not None:
            fresh(made)
        if level is not None:
            at_level(made, level)   # moved in or out a level
        carried = carry(old, made, runs)
        if self.tracker is not None:
            return self.tracker.rebuilt(old, made, carried)
        for key, value in old.attrib.items():
            made.set(key, value)
        return made
