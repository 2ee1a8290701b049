"""A Word document (.docx) as Markdown, all of its text in reading order.

    [Header] …                       each different header, then the body:
    # Heading, paragraphs, 1. numbered and - bulleted lists, | tables |, > quotes
    [Text box] …                     the text of a text box, after the paragraph it sits in
    [inserted: …] [deleted: …]       tracked changes, where they are
    line<br>break                    a line break within a paragraph (a cell's paragraphs too;
                                     an empty one within a cell is an empty line there)
    text[^1]  text[^i]  text[comment 1]   where a footnote, endnote or comment is anchored
    [^1]: …  [^i]: …  [comment 1] Ann: …  the notes and comments, after the body
    [Footer] …                       each different footer, last

Content controls, fields, smart tags and links are read through: their text is shown
where it stands. Headings come from Word's heading styles (whatever the language of the
display names, the built-in names are stored in English); list marks are counted from the
document's own numbering. The same walk tells edit_file where each shown line came from.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from app.core.documents.guard import Out
from app.core.documents.word_lists import Lists, Styles, roman
from app.core.documents.word_parts import MC, R, WordPackage, relationships, w
from app.core.documents.word_sinks import Body, Cell
from app.core.documents.word_escape import escaped, lead_kept
from app.core.documents.word_text import Line, Paragraph, link_of

if TYPE_CHECKING:
    from lxml.etree import _Element

    from app.core.documents.word_sinks import Sink

    # What a Reader collects of each paragraph it shows: (part, the paragraph, its shown line,
    # the paragraph's twin in a text box's older copy, or None).
    ShownParagraph = tuple[str, Paragraph, Line, _Element | None]

_THROUGH = {w("customXml"), w("ins"), w("del"), w("moveTo"), w("moveFrom")}
_KINDS = {"footnoteReference": "footnotes", "endnoteReference": "endnotes",
          "commentReference": "comments"}
_HEADS = (("headerReference", "Header"), ("footerReference", "Footer"))
_PAGES = {"first": "First-page ", "even": "Even-page "}
_P, _TBL, _SDT, _SDT_CONTENT, _PPR, _PSTYLE, _VAL = (w("p"), w("tbl"), w("sdt"),
                                                     w("sdtContent"), w("pPr"), w("pStyle"),
                                                     w("val"))
_TR, _TC, _SPAN = w("tr"), w("tc"), f"{w('tcPr')}/{w('gridSpan')}"
_ALTERNATE, _CHOICE = f"{{{MC}}}AlternateContent", f"{{{MC}}}Choice"


def render(path: Path, out: Out, looks: bool = False) -> None:
    """`looks`: with each run's underline and colour marked (word_text.LOOK), for the
    change view; never in what the model reads."""
    with zipfile.ZipFile(path) as zf:
        Reader(WordPackage(zf), looks=looks).render(out)


class Reader:
    """Walks a Word package; `collect`, when given, receives (part, Paragraph, shown Line,
    the paragraph's twin or None) for every paragraph shown."""

    def __init__(self, pkg: WordPackage, collect: list[ShownParagraph] | None = None,
                 looks: bool = False):
        self.pkg = pkg
        self.looks = looks
        self.styles = Styles(pkg.optional_tree("styles"))
        self.lists = Lists(pkg.optional_tree("numbering"), self.styles)
        self.collect = collect
        self.marks: dict[str, dict[str, str]] = {kind: {} for kind in _KINDS}
        self.part = pkg.main
        self.links: dict[str, str] = {}
        self.twins: dict[_Element, _Element] = {}
        self.in_note = False  # a note's or comment's paragraphs follow its label plainly

    # -- the context word_text asks -----------------------------------------------------
    def link(self, el: _Element) -> str | None:
        return link_of(el, self.links)

    def mark(self, kind: str, note_id: str | None) -> str:
        numbers = self.marks.get(kind)
        if numbers is None or note_id is None:
            return ""
        if note_id not in numbers:
            n = len(numbers) + 1
            numbers[note_id] = {"footnoteReference": str(n), "endnoteReference": roman(n),
                                "commentReference": str(n)}[kind]
        label = numbers[note_id]
        return f"[comment {label}]" if kind == "commentReference" else f"[^{label}]"

    # -- the whole document -------------------------------------------------------------
    def render(self, out: Out) -> None:
        body = self.pkg.tree(self.pkg.main).find(w("body"))
        heads = self._heads(body)
        for label, part in heads["Header"]:
            self._part(part, out, f"[{label}] ")
        self._use(self.pkg.main)
        if body is not None:
            self.blocks(body, Body(out), "")
        self._notes("footnoteReference", "footnote", out)
        self._notes("endnoteReference", "endnote", out)
        self._comments(out)
        for label, part in heads["Footer"]:
            self._part(part, out, f"[{label}] ")

    def _use(self, part: str) -> None:
        self.part = part
        self.links = {rid: target for rid, kind, target, ext in
                      _rels(self.pkg, part) if ext}

    def _heads(self, body: _Element | None) -> dict[str, list[tuple[str, str]]]:
        found: dict[str, list[tuple[str, str]]] = {"Header": [], "Footer": []}
        if body is None:
            return found
        seen = set()
        for sect in body.iter(w("sectPr")):
            for tag, word in _HEADS:
                for ref in sect.findall(w(tag)):
                    part = self.pkg.by_id.get(ref.get(f"{{{R}}}id") or "")
                    if part and part not in seen:
                        seen.add(part)
                        label = _PAGES.get(ref.get(w("type")) or "", "") + word.lower()
                        found[word].append((label[0].upper() + label[1:], part))
        return found

    def _part(self, part: str, out: Out, prefix: str) -> None:
        self._use(part)
        sink = Body(out)
        self.blocks(self.pkg.tree(part), sink, prefix)

    def _notes(self, kind: str, tag: str, out: Out) -> None:
        numbers = self.marks[kind]
        parts = self.pkg.part_of(_KINDS[kind])
        if not numbers or not parts:
            return
        self._use(parts[0])
        notes = {n.get(w("id")): n for n in self.pkg.tree(parts[0]).iter(w(tag))}
        for note_id, label in list(numbers.items()):
            if note_id in notes:
                self._note(notes[note_id], out, f"[^{label}]: ")

    def _comments(self, out: Out) -> None:
        parts = self.pkg.part_of("comments")
        if not parts:
            return
        self._use(parts[0])
        numbers = self.marks["commentReference"]
        comments = list(self.pkg.tree(parts[0]).iter(w("comment")))
        for comment in comments:  # comments not anchored in the body come last
            self.mark("commentReference", comment.get(w("id")))
        by_id = {c.get(w("id")): c for c in comments}
        for comment_id, label in list(numbers.items()):
            if comment_id in by_id:
                author = (by_id[comment_id].get(w("author")) or "").strip()
                self._note(by_id[comment_id], out,
                           f"[comment {label}] {author}: " if author else f"[comment {label}] ")

    def _note(self, note: _Element, out: Out, first: str) -> None:
        out.blank()
        sink = Body(out, packed=True)
        self.in_note = True
        try:
            self.blocks(note, sink, first, later="    ")
        finally:
            self.in_note = False

    # -- blocks ---------------------------------------------------------------------------
    def blocks(self, container: _Element, sink: Sink, prefix: str, later: str | None = None
               ) -> None:
        for el in container:
            tag = el.tag
            if tag == _P:
                if self.paragraph(el, sink, prefix) and later is not None:
                    prefix = later
            elif tag == _TBL:
                self.table(el, sink)
            elif tag == _SDT:
                content = el.find(_SDT_CONTENT)
                if content is not None:
                    self.blocks(content, sink, prefix, later)
            elif tag in _THROUGH:
                self.blocks(el, sink, prefix, later)
            elif tag == _ALTERNATE:
                choice = el.find(_CHOICE)
                if choice is not None:
                    self.blocks(choice, sink, prefix, later)
            sink.tick()

    def paragraph(self, p: _Element, sink: Sink, prefix: str) -> bool:
        para = Paragraph(p, self)
        ppr = p.find(_PPR)
        style_el = ppr.find(_PSTYLE) if ppr is not None else None
        style_id = style_el.get(_VAL) if style_el is not None else None
        listed = self.lists.mark(ppr, style_id)
        if prefix or self.in_note:   # what follows a mark keeps no blank of its own
            lead, inline = Line(), para.inline().strip()
        else:
            lead, inline = lead_kept(para.inline(), para.tabs(), para.breaks())
        shown = bool(inline.chars)
        if shown:
            head, item = self._lead(style_id, listed)
            if sink.in_cell and not item:
                head = ""  # a heading or a quote mark would not read as one in a table cell
            line = Line()
            line.add(prefix + head)
            heading = head.startswith("#")
            line.extend(lead)  # after blanks shown so, no text begins a block
            line.extend(escaped(inline, block=not (sink.in_cell or prefix or heading or
                                                   lead.chars), heading=heading))
            line = sink.shown(line)
            if self.collect is not None:
                self.collect.append((self.part, para, line, self.twins.get(p)))
            sink.line(line.text, item)
        elif sink.in_cell and not prefix:
            # An empty paragraph is a line of its cell still: the n-th line of a label cell
            # stands next to the n-th of the value cell beside it, as Word shows them.
            if self.collect is not None:
                self.collect.append((self.part, para, Line(), self.twins.get(p)))
            sink.line("", False)
        for box, twin in para.boxes:
            self._box(box, twin, sink)
        return shown

    def _lead(self, style_id: str | None, listed: tuple[int, str] | None) -> tuple[str, bool]:
        if self.in_note:
            return "", False
        lower = self.styles.name(style_id).lower()
        level = self.styles.heading(style_id)
        if level:
            return "#" * level + " ", False
        if lower == "title":
            return "# ", False
        if listed is not None:
            level, mark = listed
            return "  " * level + (mark + " " if mark else ""), True
        if lower in ("quote", "intense quote"):
            return "> ", False
        return "", False

    def _box(self, box: _Element, twin: _Element | None, sink: Sink) -> None:
        if twin is not None:
            mine, theirs = list(box.iter(_P)), list(twin.iter(_P))
            if len(mine) == len(theirs):
                self.twins.update(zip(mine, theirs))
        sink.gap()
        self.blocks(box, sink, "[Text box] ")
        sink.gap()

    def table(self, tbl: _Element, sink: Sink) -> None:
        rows: list[list[str]] = []
        for tr in _through(tbl, _TR):
            cells: list[str] = []
            for tc in _through(tr, _TC):
                cell = Cell(sink)
                self.blocks(tc, cell, "")
                cells.append(cell.text())
                span = tc.find(_SPAN)
                extra = int(span.get(_VAL) or 1) - 1 if span is not None and \
                    (span.get(_VAL) or "").isdigit() else 0
                cells.extend([""] * min(extra, 60))
            rows.append(cells)
        sink.table(rows)


def _through(el: _Element, tag: str) -> Iterator[_Element]:
    """The children of `el` with `tag`, also inside content controls and custom XML."""
    for child in el:
        if child.tag == tag:
            yield child
        elif child.tag == _SDT:
            content = child.find(_SDT_CONTENT)
            if content is not None:
                yield from _through(content, tag)
        elif child.tag in _THROUGH:
            yield from _through(child, tag)


def _rels(pkg: WordPackage, part: str) -> list[tuple[str, str, str, bool]]:
    return pkg.rels if part == pkg.main else relationships(pkg.zf, part)
