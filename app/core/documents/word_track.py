"""An edit as a tracked change, for a document that tracks changes (Review > Track Changes in
Word): the old text is marked deleted and the new text inserted, under the name "Harness
Desk", so the person sees, accepts or rejects the AI's change in Word as any other
reviewer's. The runs around the change are split so that only the changed characters are
marked; the inserted text takes the formatting of the run where the change begins.
"""

from __future__ import annotations

import copy
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Iterable

from app.core.documents.base import DocumentError
from app.core.documents.word_parts import w

if TYPE_CHECKING:
    from lxml.etree import _Element

    from app.core.documents.word_parts import WordPackage
    from app.core.documents.word_text import Piece

AUTHOR = "Harness Desk"
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


def tracks_changes(pkg: WordPackage) -> bool:
    settings = pkg.optional_tree("settings")
    flag = settings.find(w("trackRevisions")) if settings is not None else None
    return flag is not None and flag.get(w("val")) not in ("0", "false", "off")


class Revisions:
    """Numbers and stamps the revisions one edit adds (ids after every id in the parts)."""

    def __init__(self, trees: Iterable[_Element]):
        highest = 0
        for tree in trees:
            for el in tree.iter():
                value = el.get(w("id")) if isinstance(el.tag, str) else None
                if value and value.lstrip("-").isdigit():
                    highest = max(highest, int(value))
        self.next_id = highest + 1
        self.date = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    def mark(self, kind: str, like: _Element) -> _Element:
        el = like.makeelement(w(kind), {w("id"): str(self.next_id), w("author"): AUTHOR,
                                        w("date"): self.date})
        self.next_id += 1
        return el


def tracked_replace(segments: list[Piece], start: int, length: int, new_text: str,
                    revisions: Revisions, after: bool = False) -> list[_Element]:
    """Characters [start, start + length) of the paragraph's plain text marked deleted, and
    `new_text` inserted after them (text only inserted between two runs: after the one
    before, or, `after`, before the one after); returns the text elements of the new run."""
    end, pos = start + length, 0
    first_del: _Element | None = None
    first_run: _Element | None = None
    for seg in segments:
        a, b = pos, pos + len(seg.text)
        pos = b
        if not length or b <= start or a >= end:
            continue
        run = _isolate(seg.el, max(start, a) - a, min(end, b) - a)
        if seg.el.tag == w("t"):
            seg.el.tag = w("delText")
        wrapper = revisions.mark("del", run)
        run.addprevious(wrapper)
        wrapper.append(run)
        first_del = first_del if first_del is not None else wrapper
        first_run = first_run if first_run is not None else run
    if not new_text:
        return []
    if first_del is not None and first_run is not None:  # set together
        return _insert_after(first_del, first_run, new_text, revisions)
    anchor, before = _insertion_point(segments, start, after)
    run = _run_of(anchor)
    ins_run = _new_run(run, new_text)
    wrapper = revisions.mark("ins", run)
    wrapper.append(ins_run)
    (run.addnext if before else run.addprevious)(wrapper)
    return [ins_run[-1]]


def _insert_after(first_del: _Element, model_run: _Element, new_text: str,
                  revisions: Revisions) -> list[_Element]:
    ins_run = _new_run(model_run, new_text)
    wrapper = revisions.mark("ins", model_run)
    wrapper.append(ins_run)
    first_del.addnext(wrapper)
    return [ins_run[-1]]


def _insertion_point(segments: list[Piece], start: int, after: bool = False
                     ) -> tuple[_Element, bool]:
    """(a text element, True when the insertion goes after its run / False: before)."""
    pos = 0
    texts: list[tuple[Piece, int, int]] = []
    for seg in segments:
        texts.append((seg, pos, pos + len(seg.text)))
        pos += len(seg.text)
    following = next((seg for seg, a, _b in texts if seg.kind == "t" and a == start), None)
    if after and following is not None:
        _split_before(following.el)
        return following.el, False
    for seg, a, b in texts:
        if seg.kind == "t" and a < start <= b:
            if start < b:
                _isolate(seg.el, 0, start - a)
            elif (next_el := seg.el.getnext()) is not None:
                _split_before(next_el)
            return seg.el, True
    for seg, a, _b in texts:
        if seg.kind == "t" and a >= start:
            _split_before(seg.el)
            return seg.el, False
    raise DocumentError("All of that paragraph's text is marked as deleted (a tracked "
                        "change), so there is no text there to change; change the text next "
                        "to it instead.")


def _isolate(el: _Element, lo: int, hi: int) -> _Element:
    """The run holding only `el` (a text element cut to [lo, hi), or a tab or break)."""
    if el.tag == w("t"):
        text = el.text or ""
        if hi < len(text):
            tail = el.makeelement(w("t"), {_XML_SPACE: "preserve"})
            tail.text = text[hi:]
            el.addnext(tail)
        if lo > 0:
            head = el.makeelement(w("t"), {_XML_SPACE: "preserve"})
            head.text = text[:lo]
            el.addprevious(head)
        el.text = text[lo:hi]
        el.set(_XML_SPACE, "preserve")
    run = _split_before(el)
    if (after := el.getnext()) is not None:
        _split_before(after)
    return run


def _run_of(el: _Element) -> _Element:
    run = el.getparent()
    assert run is not None  # a text element, a tab or a break sits in its run
    return run


def _split_before(el: _Element) -> _Element:
    """Move `el` and what follows it in its run into a run of its own, with the same
    formatting, just after; the run itself when `el` already begins it."""
    run = _run_of(el)
    earlier = []
    for child in run:
        if child is el:
            break
        if child.tag != w("rPr"):
            earlier.append(child)
    if not earlier:
        return run
    new = run.makeelement(w("r"), dict(run.attrib))
    props = run.find(w("rPr"))
    if props is not None:
        new.append(copy.deepcopy(props))
    moving: list[_Element] = []
    found = False
    for child in list(run):
        found = found or child is el
        if found:
            moving.append(child)
    for child in moving:
        new.append(child)
    run.addnext(new)
    return new


def _new_run(model: _Element, text: str) -> _Element:
    run = model.makeelement(w("r"), {})
    props = model.find(w("rPr"))
    if props is not None:
        run.append(copy.deepcopy(props))
    t = run.makeelement(w("t"), {_XML_SPACE: "preserve"})
    t.text = text
    run.append(t)
    with_breaks(t)
    return run


def with_breaks(t: _Element) -> list[_Element]:
    """The text element `t`, each "\n" in its text made a line break (w:br) between text
    elements of its run, as Word holds one; returns the text elements."""
    first, *rest = (t.text or "").split("\n")
    t.text, out, at = first, [t], t
    for part in rest:
        br = t.makeelement(w("br"), {})
        at.addnext(br)
        at = t.makeelement(w("t"), {_XML_SPACE: "preserve"})
        at.text = part
        br.addnext(at)
        out.append(at)
    return out
