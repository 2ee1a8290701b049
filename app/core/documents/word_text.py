"""The text of one Word paragraph, as read_file shows it and as edit_file finds it.

A paragraph is walked once into pieces: the text of its runs (inside links, content
controls, fields, smart tags and tracked insertions too), tracked deletions, tabs and
breaks, and the marks of its footnotes, endnotes and comments. From the pieces come

- the line read_file shows: **bold**, *italic*, [links](url), "[inserted: …]" and
  "[deleted: …]" around tracked changes, "[^1]" where a footnote is referenced; with, for
  each character, where it came from in the paragraph's plain text (or -1 for a mark), so
  that text copied from read_file is found again exactly;
- the plain text (what the paragraph reads as with its tracked changes accepted) and the
  elements holding it, which edit_file changes.

Text boxes anchored in the paragraph are collected (once: Word stores each twice, a modern
drawing and an older copy for programs that cannot read it) and rendered after it.
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Protocol, TypeVar

from app.core.documents.word_parts import MC, W, w
from app.core.documents.xml_tags import tag_of

if TYPE_CHECKING:
    from lxml.etree import _Element

_Item = TypeVar("_Item")
_Key = TypeVar("_Key")

_ON = {None, "1", "true", "on"}
_PASS = {w("hyperlink"), w("ins"), w("del"), w("moveTo"), w("moveFrom"), w("sdt"),
         w("sdtContent"), w("smartTag"), w("customXml"), w("fldSimple"), w("bdo"), w("dir")}
_FIXED = {w("tab"): " ", w("br"): "\n", w("cr"): "\n", w("noBreakHyphen"): "-",
          w("ptab"): " "}
_TABS = {w("tab"), w("ptab")}
_TYPE = w("type")
_DRAWN = {w("drawing"), w("pict"), w("object"), f"{{{MC}}}AlternateContent"}
_CHOICE, _FALLBACK = f"{{{MC}}}Choice", f"{{{MC}}}Fallback"
_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_R, _RPR, _T, _DEL_TEXT, _B, _I, _ID = (w("r"), w("rPr"), w("t"), w("delText"), w("b"),
                                        w("i"), w("id"))
_HYPERLINK, _INS_TAGS, _DEL_TAGS = w("hyperlink"), (w("ins"), w("moveTo")), (w("del"),
                                                                              w("moveFrom"))
_REFS = {w("footnoteReference"): "footnoteReference", w("endnoteReference"): "endnoteReference",
         w("commentReference"): "commentReference"}
_ALTERNATE = f"{{{MC}}}AlternateContent"
_FLD_CHAR, _CHECK_BOX = w("fldChar"), f"{w('ffData')}/{w('checkBox')}"
_CHECKED, _DEFAULT = w("checked"), w("default")


DELETED = -2  # Line.pos of a character shown as deleted


# The change view's marks for a run's underline and colour (`looks`): LOOK + "u#C00000" +
# LOOK_TEXT, the run's text, LOOK_END. Noncharacters: never in a document's text, and never
# in what read_file shows (only the change view asks for them).
LOOK, LOOK_TEXT, LOOK_END = "\ufdd3", "\ufdd4", "\ufdd5"
_HEX = re.compile(r"[0-9A-Fa-f]{6}")


class Piece:
    __slots__ = ("bold", "change", "el", "italic", "kind", "link", "look", "text")

    def __init__(self, text: str, el: _Element, kind: str, bold: bool = False,
                 italic: bool = False, link: str | None = None, change: str | None = None,
                 look: str = ""):
        self.text, self.el, self.kind = text, el, kind
        self.bold, self.italic, self.link, self.change = bold, italic, link, change
        self.look = look   # "u" underlined, "#RRGGBB" its colour, both, or ""


class Line:
    """Rendered characters, each with its index in the paragraph's plain text (-1: a mark)."""

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.pos: list[int] = []

    def add(self, text: str, start: int = -1) -> None:
        """`start`: where `text` begins in the plain text; -1 for a mark, -2 for text
        shown as deleted."""
        self.chars.extend(text)
        self.pos.extend(range(start, start + len(text)) if start >= 0 else [start] * len(text))

    def extend(self, other: "Line") -> None:
        self.chars.extend(other.chars)
        self.pos.extend(other.pos)

    @property
    def text(self) -> str:
        return "".join(self.chars)

    def strip(self) -> "Line":
        text = self.text
        lead, end = len(text) - len(text.lstrip()), len(text.rstrip())
        out = Line()
        out.chars, out.pos = self.chars[lead:end], self.pos[lead:end]
        return out


class Context(Protocol):
    """What walking a paragraph asks of its reader (word.Reader)."""

    looks: bool

    def link(self, el: _Element) -> str | None: ...

    def mark(self, kind: str, note_id: str | None) -> str: ...


class Paragraph:
    """One w:p walked: its pieces, its text boxes and (set by the renderer) its line."""

    def __init__(self, p: _Element, ctx: Context):
        self.p = p
        self.pieces: list[Piece] = []
        self.boxes: list[tuple[_Element, _Element | None]] = []  # (txbxContent, its twin)
        self.line: Line | None = None
        self.looks = ctx.looks
        _walk(p, ctx, self, bold=False, italic=False, link=None, change=None)

    def segments(self) -> list[Piece]:
        return [x for x in self.pieces if x.kind in ("t", "fixed")]

    def plain(self) -> str:
        return "".join(x.text for x in self.segments())

    def inline(self) -> Line:
        return _inline(self.pieces, self.looks)

    def tabs(self) -> set[int]:
        """The positions in the plain text that are tabs."""
        found, at = set(), 0
        for seg in self.segments():
            if seg.kind == "fixed" and tag_of(seg.el) in _TABS:
                found.add(at)
            at += len(seg.text)
        return found

    def breaks(self) -> set[int]:
        """The positions in the plain text that are breaks (of a line, a page, a column)."""
        return {at for at, char in enumerate(self.plain()) if char == "\n"}


_VAL = w("val")


def _look(rpr: _Element) -> str:
    """A run's underline and text colour: "u", "#C00000", "u#C00000" or ""."""
    u, color = rpr.find(w("u")), rpr.find(w("color"))
    under = u is not None and (u.get(_VAL) or "single").lower() not in ("none", "0", "false")
    value = color.get(_VAL) if color is not None else None
    shade = f"#{value.upper()}" if value and _HEX.fullmatch(value) and value != "000000" \
        else ""
    return ("u" if under else "") + shade


def on(el: _Element | None) -> bool:
    return el is not None and el.get(_VAL) in _ON


def _walk(el: _Element, ctx: Context, para: Paragraph, bold: bool, italic: bool,
          link: str | None, change: str | None) -> None:
    for child in el:
        tag = tag_of(child)
        if tag == _R:
            _run(child, ctx, para, link, change)
        elif tag in _PASS:
            sub_link, sub_change = link, change
            if tag == _HYPERLINK:
                sub_link = ctx.link(child) or link
            elif tag in _INS_TAGS:
                sub_change = "inserted" if change is None else change
            elif tag in _DEL_TAGS:
                sub_change = "deleted"
            _walk(child, ctx, para, bold, italic, sub_link, sub_change)
        elif tag == _ALTERNATE:
            choice = child.find(_CHOICE)
            if choice is not None:
                _walk(choice, ctx, para, bold, italic, link, change)


def _run(r: _Element, ctx: Context, para: Paragraph, link: str | None,
         change: str | None) -> None:
    bold = italic = False
    look = ""
    for child in r:
        tag = tag_of(child)
        if tag == _RPR:
            bold, italic = on(child.find(_B)), on(child.find(_I))
            look = _look(child)
        elif tag == _T:
            kind = "del" if change == "deleted" else "t"
            para.pieces.append(Piece(_flat(child.text or ""), child, kind, bold, italic, link,
                                     change, look))
        elif tag == _DEL_TEXT:
            para.pieces.append(Piece(_flat(child.text or ""), child, "del", bold, italic, link,
                                     "deleted", look))
        elif tag in _FIXED:
            kind = "del" if change == "deleted" else "fixed"
            para.pieces.append(Piece(_FIXED[tag], child, kind, False, False, link, change))
        elif tag in _REFS:
            mark = ctx.mark(_REFS[tag], child.get(_ID))
            if mark:
                para.pieces.append(Piece(mark, child, "mark"))
        elif tag in _DRAWN:
            para.boxes.extend(text_boxes(child))
        elif tag == _FLD_CHAR:
            box = child.find(_CHECK_BOX)
            if box is not None:  # a form's check box, shown as a person sees it
                state = box.find(_CHECKED)
                state = state if state is not None else box.find(_DEFAULT)
                para.pieces.append(Piece("[x]" if on(state) else "[ ]", child, "mark"))


def _flat(text: str) -> str:
    return text.replace("\n", " ").replace("\t", " ").replace("\r", " ")


def text_boxes(el: _Element) -> list[tuple[_Element, _Element | None]]:
    """The text boxes drawn in `el`, each once: (its content, the same content's older copy
    in the alternate content's fallback, to be changed with it, or None)."""
    found: list[tuple[_Element, _Element | None]] = []
    for box in el.iter(w("txbxContent")):
        if _inside(box, el, (_FALLBACK, w("txbxContent"))):
            continue
        found.append((box, _twin(box, el)))
    return found


def _inside(node: _Element, top: _Element, tags: tuple[str, ...]) -> bool:
    parent = node.getparent()
    while parent is not None and parent is not top.getparent():
        if tag_of(parent) in tags:
            return True
        parent = parent.getparent()
    return False


def _twin(box: _Element, top: _Element) -> _Element | None:
    """The Fallback copy of a text box drawn in an mc:Choice, paired by position."""
    node, choice = box.getparent(), None
    while node is not None and node is not top.getparent():
        if tag_of(node) == _CHOICE:
            choice = node
            break
        node = node.getparent()
    if choice is None:
        return None
    holder = choice.getparent()
    fallback = holder.find(_FALLBACK) if holder is not None else None
    if fallback is None:
        return None
    mine = [b for b in choice.iter(w("txbxContent")) if not _inside(b, choice, (w("txbxContent"),))]
    theirs = [b for b in fallback.iter(w("txbxContent"))
              if not _inside(b, fallback, (w("txbxContent"),))]
    if len(mine) != len(theirs):
        return None
    return theirs[mine.index(box)]


# -- the rendered line --------------------------------------------------------------------

def _inline(pieces: list[Piece], looks: bool = False) -> Line:
    out, plain_at = Line(), 0
    starts: list[int] = []
    for piece in pieces:
        starts.append(plain_at if piece.kind in ("t", "fixed") else
                      DELETED if piece.kind == "del" else -1)
        if piece.kind in ("t", "fixed"):
            plain_at += len(piece.text)
    items = [(p, s) for p, s in zip(pieces, starts) if p.text]
    for change, group in _groups(items, lambda x: x[0].change):
        body = Line()
        for link, sub in _groups(group, lambda x: x[0].link):
            inner = Line()
            for (bold, italic, _mark, look), run in _groups(
                    sub, lambda x: (x[0].bold, x[0].italic, False, x[0].look if looks else "")
                    if x[0].kind != "mark" else (False, False, True, "")):
                if look and "".join(p.text for p, _s in run).strip():
                    inner.add(LOOK + look + LOOK_TEXT)
                    inner.extend(_emphasis(run, bold, italic))
                    inner.add(LOOK_END)
                else:
                    inner.extend(_emphasis(run, bold, italic))
            if link:
                body.add("[")
                body.extend(inner)
                body.add(f"]({link})")
            else:
                body.extend(inner)
        if change:
            out.add(f"[{change}: ")
            out.extend(body)
            out.add("]")
        else:
            out.extend(body)
    return out


def _groups(items: Iterable[_Item],
            key: Callable[[_Item], _Key]) -> Iterator[tuple[_Key, list[_Item]]]:
    """Runs of neighbouring items with the same key."""
    return ((k, list(group)) for k, group in itertools.groupby(items, key))


def _emphasis(run: list[tuple[Piece, int]], bold: bool, italic: bool) -> Line:
    line = Line()
    for piece, start in run:
        if piece.text != "\n":
            line.add(piece.text, start)
        elif start >= 0 and piece.el.get(_TYPE) in (None, "textWrapping"):
            line.add("<")          # a line break, as Markdown keeps one: the plain text's
            line.add("b", start)   # "\n" stands at the "b", never escaped
            line.add("r>")
        else:                      # a page or column break, or one deleted: a space
            line.add(" ", start)
    text = line.text
    if not (bold or italic) or not text.strip():
        return line
    mark = "***" if bold and italic else "**" if bold else "*"
    lead, end = len(text) - len(text.lstrip()), len(text.rstrip())
    out = Line()
    out.chars = line.chars[:lead] + list(mark) + line.chars[lead:end] + list(mark) + \
        line.chars[end:]
    out.pos = line.pos[:lead] + [-1] * len(mark) + line.pos[lead:end] + [-1] * len(mark) + \
        line.pos[end:]
    return out


def link_of(el: _Element, links: dict[str, str]) -> str | None:
    """A hyperlink's address: its relationship's target, or '#bookmark' for an anchor."""
    rid = el.get(_R_ID)
    if rid and rid in links:
        return links[rid]
    anchor = el.get(w("anchor"))
    return f"#{anchor}" if anchor else None


__all__ = ["Line", "Paragraph", "Piece", "W", "link_of", "on", "text_boxes"]
