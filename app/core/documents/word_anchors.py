"""A paragraph write_file makes again (word_merge: its bold, italic or links changed) keeps
what points into it: its bookmarks (a cross-reference or a table of contents goes to one),
its comments' ranges and marks, and its footnote and endnote marks.

A note's or comment's mark stands where the new text has it ("worth it[comment 2]": after
"worth it"), as read_file shows it, and a comment's range ends at its mark as before; one
the new text leaves out goes, and word_loss refuses the write in a sentence (the comment or
note would be lost). A bookmark or a comment's range stands at the same
character of the text as before where the text around it stayed; inside the part that
changed, a start goes to the change's start and an end to its end, so the range takes in
the new words. The elements are the old paragraph's own (copied), ids and all.
"""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, Callable

from app.core.documents.word_parts import w
from app.core.documents.xml_tags import detach, tag_of

if TYPE_CHECKING:
    from lxml.etree import _Element

# Marks read_file shows where a comment, a footnote or an endnote is anchored (word.Reader).
MARK = re.compile(r"\[comment \d{1,6}\]|\[\^[0-9ivxlcdm]{1,8}\]")
_RANGES = frozenset(w(t) for t in ("bookmarkStart", "bookmarkEnd", "commentRangeStart",
                                   "commentRangeEnd", "permStart", "permEnd"))
_OPENS = frozenset(w(t) for t in ("bookmarkStart", "commentRangeStart", "permStart"))
_REFERENCES = frozenset(w(t) for t in ("commentReference", "footnoteReference",
                                       "endnoteReference"))
_ONE = frozenset(w(t) for t in ("tab", "br", "cr", "noBreakHyphen", "softHyphen", "sym"))
_NOT_INTO = frozenset(w(t) for t in ("p", "txbxContent", "drawing", "pict", "object", "del",
                                     "moveFrom", "rPr", "pPr"))
_HOLD = "\ue000"   # stands for a mark in the new text until its reference is put there
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"

Label = Callable[[str, "str | None"], str]   # (reference kind, its id) -> read_file's mark


def _kind(el: _Element) -> str:
    return tag_of(el).rsplit("}", 1)[-1]


def _items(p: _Element) -> tuple[str, list[tuple[_Element, int]]]:
    """The paragraph's text as Word holds it (not text boxes' or deleted text), and each
    range mark and reference run in it with the number of characters before it."""
    text: list[str] = []
    found: list[tuple[_Element, int]] = []
    size = 0

    def walk(holder: _Element) -> None:
        nonlocal size
        for el in holder:
            tag = tag_of(el)
            if tag in _RANGES:
                found.append((el, size))
            elif tag == w("r") and any(tag_of(c) in _REFERENCES for c in el):
                found.append((el, size))
            elif tag == w("t"):
                text.append(el.text or "")
                size += len(el.text or "")
            elif tag in _ONE:
                text.append("\n")
                size += 1
            elif tag and tag not in _NOT_INTO:
                walk(el)

    walk(p)
    return "".join(text), found


def held(new_text: str, old: _Element, label: Label) -> tuple[str, list[_Element]]:
    """`new_text` with each mark of one of `old`'s references ("[comment 2]") held by a
    stand-in character; and those references' runs, in the order of the stand-ins."""
    runs: dict[str, _Element] = {}
    for el, _at in _items(old)[1]:
        ref = next((c for c in el if tag_of(c) in _REFERENCES), None) \
            if tag_of(el) == w("r") else None
        if ref is not None:
            runs.setdefault(label(_kind(ref), ref.get(w("id"))), el)
    order: list[_Element] = []

    def hold(match: re.Match[str]) -> str:
        run = runs.pop(match.group(0), None)
        if run is None:
            return match.group(0)
        order.append(run)
        return _HOLD

    return MARK.sub(hold, new_text), order


def carry(old: _Element, made: _Element, held_runs: list[_Element]) -> list[_Element]:
    """`old`'s bookmarks, comment ranges and note and comment marks put into `made` (copies);
    returns those of `old` that were."""
    old_text, found = _items(old)
    holds = _take_holds(made)
    new_text = _items(made)[0]
    if not found:
        return []
    from app.core.documents.word_edit import shared_ends  # noqa: PLC0415 - only a rebuilt paragraph

    head, tail = shared_ends(old_text, new_text)
    places: list[tuple[int, int, _Element]] = []
    placed_runs = dict(zip(map(id, held_runs), holds))
    for n, (el, at) in enumerate(found):
        if tag_of(el) == w("r"):   # a mark the new text left out goes (word_loss says so)
            if id(el) not in placed_runs:
                continue
            to = placed_runs[id(el)]
        elif at <= head:
            to = at
        elif at >= len(old_text) - tail:
            to = at + len(new_text) - len(old_text)
        else:
            to = head if tag_of(el) in _OPENS else len(new_text) - tail
        places.append((max(0, min(to, len(new_text))), n, el))
    places = _with_their_marks(places, {id(el): at for el, at in found})
    for to, _n, el in sorted(places, key=lambda x: (x[0], x[1])):
        kept = copy.deepcopy(el)
        kept.tail = None
        _place(made, kept, to)
    return [el for _to, _n, el in places]


def _with_their_marks(places: list[tuple[int, int, _Element]], was: dict[int, int]
                      ) -> list[tuple[int, int, _Element]]:
    """A comment's range ends where its mark now stands, where it ended at its mark before
    (as Word keeps them: the mark just after the range), and begins no later than that."""
    marks: dict[str, tuple[int, int]] = {}   # comment id -> (where its mark was, is)
    for to, _n, el in places:
        ref = el.find(w("commentReference")) if tag_of(el) == w("r") else None
        if ref is not None:
            marks[ref.get(w("id")) or ""] = (was[id(el)], to)
    ends: dict[str, int] = {}
    out = []
    for to, n, el in places:
        if tag_of(el) == w("commentRangeEnd"):
            mark = marks.get(el.get(w("id")) or "")
            if mark is not None and mark[0] == was[id(el)]:
                to = mark[1]
            ends[el.get(w("id")) or ""] = to
        out.append((to, n, el))
    for k, (to, n, el) in enumerate(out):
        if tag_of(el) == w("commentRangeStart"):
            out[k] = (min(to, ends.get(el.get(w("id")) or "", to)), n, el)
    return out


def _take_holds(made: _Element) -> list[int]:
    """The stand-ins taken out of `made`'s text, and where each stood (characters before)."""
    at: list[int] = []
    size = 0
    for el in list(made.iter()):
        tag = tag_of(el)
        if tag == w("t"):
            text = el.text or ""
            pieces = text.split(_HOLD)
            for piece in pieces[:-1]:
                size += len(piece)
                at.append(size)
            size += len(pieces[-1])
            el.text = "".join(pieces)
            if not el.text:
                run = el.getparent()
                assert run is not None   # a text element sits in its run
                run.remove(el)
                if all(tag_of(c) == w("rPr") for c in run):
                    detach(run)
        elif tag in _ONE:
            size += 1
    return at


def _length(el: _Element) -> int:
    tag = tag_of(el)
    if tag == w("t"):
        return len(el.text or "")
    if tag in _ONE:
        return 1
    if not tag or tag in _NOT_INTO:
        return 0
    return sum(_length(c) for c in el)


def _place(holder: _Element, el: _Element, at: int, pos: int = 0) -> None:
    """`el` put in `holder` after the characters before `at` (and after anything else that
    stands there already), a run split where `at` falls inside it."""
    last: _Element | None = None
    for child in holder:
        if tag_of(child) == w("pPr"):
            last = child
            continue
        size = _length(child)
        if pos + size <= at:
            last, pos = child, pos + size
            continue
        if pos < at:
            if tag_of(child) == w("r"):
                _split(child, at - pos).addprevious(el)
            else:   # a link: into it
                _place(child, el, at, pos)
            return
        break
    if last is None:
        holder.insert(0, el)
    else:
        last.addnext(el)


def _split(run: _Element, at: int) -> _Element:
    """The run cut after `at` characters of its text: the new run holding the rest."""
    rest = run.makeelement(w("r"), dict(run.attrib))
    props = run.find(w("rPr"))
    if props is not None:
        rest.append(copy.deepcopy(props))
    pos, moving = 0, False
    for child in list(run):
        if moving:
            rest.append(child)
            continue
        size = _length(child)
        if pos + size <= at:
            pos += size
            moving = pos == at and size > 0
            continue
        if tag_of(child) == w("t"):
            text = child.text or ""
            cut = at - pos
            tail = child.makeelement(w("t"), {_XML_SPACE: "preserve"})
            tail.text = text[cut:]
            child.text = text[:cut]
            child.set(_XML_SPACE, "preserve")
            rest.append(tail)
        else:
            rest.append(child)
        moving = True
    run.addnext(rest)
    return rest
