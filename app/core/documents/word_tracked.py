"""write_file's changes as tracked changes, in a document that tracks changes (word_track:
Review > Track Changes in Word), so the person accepts or rejects each as any reviewer's, by
the same name and stamp as edit_file's:

- a paragraph whose text only changed: its changed characters, as edit_file marks them;
- a paragraph made again (its bold, italic or links changed): its old text marked deleted
  and the new inserted after it, in the same paragraph (its look, if that changed too, a
  tracked change of its properties); its bookmarks and comments go with the new text;
- an added paragraph or table: its text and paragraph marks (and a table's rows) inserted;
- a removed one: stays where it was, its text, paragraph marks and rows marked deleted.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from app.core.documents.word_parts import paragraph_props, w
from app.core.documents.xml_tags import detach, tag_of

if TYPE_CHECKING:
    from lxml.etree import _Element

    from app.core.documents.word_track import Revisions

_INTO = frozenset(w(t) for t in ("hyperlink", "smartTag", "customXml", "fldSimple", "sdt",
                                 "sdtContent", "ins", "moveTo", "dir", "bdo"))
_TEXT = {w("t"): w("delText"), w("instrText"): w("delInstrText")}
_REFERENCES = frozenset(w(t) for t in ("commentReference", "footnoteReference",
                                       "endnoteReference"))
_ANCHORS = frozenset(w(t) for t in ("bookmarkStart", "bookmarkEnd", "commentRangeStart",
                                    "commentRangeEnd", "permStart", "permEnd"))
_REVISION_MARKS = frozenset(w(t) for t in (
    "ins", "del", "moveFrom", "moveTo", "rPrChange", "pPrChange", "sectPrChange",
    "tblPrChange", "tblPrExChange", "trPrChange", "tcPrChange", "tblGridChange", "cellIns",
    "cellDel", "cellMerge", "numberingChange"))
_NOT_IN_OLD_PPR = frozenset(w(t) for t in ("rPr", "sectPr", "pPrChange"))
_AFTER_MARK = frozenset(w(t) for t in ("rPrChange",))   # what follows ins/del in a mark's rPr


class Tracker:
    def __init__(self, revisions: Revisions):
        self.revisions = revisions

    def inserted(self, el: _Element) -> _Element:
        """A new paragraph or table, marked inserted whole."""
        self._whole(el, "ins")
        return el

    def deleted(self, el: _Element) -> _Element:
        """A paragraph or table the new text has not, marked deleted whole."""
        self._whole(el, "del")
        return el

    def moved(self, el: _Element, as_was: _Element) -> _Element:
        """`as_was` (a copy of the block `el` before any change; `el` stays, marked deleted)
        inserted where it moved to: its bookmarks, comments and notes go with it (accepted,
        the copy is what stays)."""
        made = copy.deepcopy(as_was)
        made.tail = None
        for anchor in [a for a in el.iter() if tag_of(a) in _ANCHORS or (
                tag_of(a) == w("r") and any(tag_of(c) in _REFERENCES for c in a))]:
            detach(anchor)
        for mark in made.iter():
            if tag_of(mark) in _REVISION_MARKS:   # its own ids: they are unique in the part
                mark.set(w("id"), str(self.revisions.next_id))
                self.revisions.next_id += 1
        self._whole(made, "ins")
        return made

    def rebuilt(self, old: _Element, made: _Element, carried: list[_Element]) -> _Element:
        """`old` with its text marked deleted and `made`'s inserted after it; `carried`:
        old's bookmarks and comment marks, which `made` holds now (word_anchors)."""
        for el in carried:
            detach(el)
        self._runs(list(old), "del")
        new = [el for el in made if tag_of(el) != w("pPr")]
        for el in new:
            old.append(el)
        self._runs(new, "ins")
        self._properties(old, made.find(w("pPr")))
        return old

    def relevel(self, p: _Element, level: int) -> _Element:
        """The list item `p` put at `level`, a tracked change of its properties."""
        from app.core.documents.word_items import at_level  # noqa: PLC0415 - only a list item moved a level

        model = p.makeelement(w("p"), {})
        props = p.find(w("pPr"))
        if props is not None:
            model.append(copy.deepcopy(props))
        at_level(model, level)
        self._properties(p, model.find(w("pPr")))
        return p

    # -- marks --------------------------------------------------------------------------
    def _whole(self, el: _Element, kind: str) -> None:
        paragraphs = [el] if tag_of(el) == w("p") else list(el.iter(w("p")))
        for p in paragraphs:
            self._runs(list(p), kind)
            self._mark(p, kind)
        for tr in el.iter(w("tr")):
            props = tr.find(w("trPr"))
            if props is None:
                props = tr.makeelement(w("trPr"), {})
                ex = tr.find(w("tblPrEx"))
                tr.insert(1 if ex is not None and tr.index(ex) == 0 else 0, props)
            change = props.find(w("trPrChange"))
            if props.find(w(kind)) is None:
                mark = self.revisions.mark(kind, props)
                if change is not None:
                    change.addprevious(mark)
                else:
                    props.append(mark)

    def _runs(self, nodes: list[_Element], kind: str) -> None:
        """Each run among `nodes` (and in their links and content controls) wrapped in a
        w:ins or w:del, runs side by side in one; runs deleted already stay as they are."""
        made: set[int] = set()
        for node in nodes:
            tag = tag_of(node)
            if tag == w("proofErr"):   # spelling marks, which Word finds again
                detach(node)
            elif tag == w("r"):
                if kind == "ins" and any(tag_of(c) in _REFERENCES for c in node):
                    continue   # a comment's or note's mark: rejecting the text keeps it
                if kind == "del":
                    for el in node.iter(*_TEXT):
                        el.tag = _TEXT[tag_of(el)]
                before = node.getprevious()
                if before is not None and id(before) in made and before.tail is None:
                    before.append(node)
                    continue
                wrapper = self.revisions.mark(kind, node)
                node.addprevious(wrapper)
                wrapper.append(node)
                made.add(id(wrapper))
            elif tag in _INTO:
                self._runs(list(node), kind)

    def _mark(self, p: _Element, kind: str) -> None:
        """The paragraph's mark (its end) inserted or deleted."""
        props = paragraph_props(p)
        run_props = props.find(w("rPr"))
        if run_props is None:
            run_props = props.makeelement(w("rPr"), {})
            later = next((el for el in props if tag_of(el) in (w("sectPr"), w("pPrChange"))),
                         None)
            if later is not None:
                later.addprevious(run_props)
            else:
                props.append(run_props)
        if run_props.find(w(kind)) is not None:
            return
        ins = run_props.find(w("ins"))
        at = run_props.index(ins) + 1 if kind == "del" and ins is not None else 0
        run_props.insert(at, self.revisions.mark(kind, run_props))

    def _properties(self, p: _Element, new: _Element | None) -> None:
        """`p` given the paragraph properties `new` (a list's level, a style), the old ones
        kept in a tracked change of its properties."""
        old = p.find(w("pPr"))
        before = [el for el in old if tag_of(el) not in _NOT_IN_OLD_PPR] \
            if old is not None else []
        after = [el for el in new if tag_of(el) not in _NOT_IN_OLD_PPR] \
            if new is not None else []
        if new is None or (len(before) == len(after) and all(map(_same, before, after))):
            return
        props = copy.deepcopy(new)
        for el in list(props):
            if tag_of(el) in _NOT_IN_OLD_PPR:
                props.remove(el)
        kept = [el for el in old if tag_of(el) in (w("rPr"), w("sectPr"))] \
            if old is not None else []
        for el in kept:
            props.append(el)
        change = self.revisions.mark("pPrChange", props)
        was = change.makeelement(w("pPr"), {})
        for el in before:
            was.append(copy.deepcopy(el))
        change.append(was)
        props.append(change)
        if old is not None:
            p.replace(old, props)
        else:
            p.insert(0, props)


def _same(a: _Element, b: _Element) -> bool:
    """The same element, whatever namespaces each tree declares."""
    return a.tag == b.tag and dict(a.attrib) == dict(b.attrib) and \
        (a.text or "").strip() == (b.text or "").strip() and len(a) == len(b) and \
        all(map(_same, a, b))
