"""write_file over an existing Word document: the new Markdown merged into the document's own
XML, so that what did not change stays exactly as Word saved it.

The document is read as read_file shows it (word.Reader), block by block: each paragraph's
line (and each text box's), each table's rows. The new Markdown is cut the same way (a line
per paragraph or list item, a table or a fenced code block whole) and the two lists are
compared (difflib; a list item without its number, which Word gives it). Then, in the body:

- a block whose lines are all unchanged keeps its XML exactly, byte for byte (word_splice);
- a changed paragraph whose text only changed is changed in place as edit_file changes it;
  one whose bold, italic or links changed is made again, keeping its paragraph properties
  (style, alignment, numbering, spacing), its first run's properties (font, size, colour),
  its bookmarks and its comments' and notes' marks (word_anchors); a changed table keeps
  every unchanged cell, and each changed cell's properties and look where its rows and
  columns are the same, else is built again in the old table's look (word_table);
- an added block takes the look of the nearest block of its kind before it (a heading of
  the same level, a quote, body text, a table); a list item stays in its list at its level
  (word_items);
- a removed block goes; empty paragraphs, bookmarks and the section's properties (page
  size, margins, headers and footers) stay where they were.

In a document that tracks changes (Review > Track Changes), each change is a tracked change
by "Harness Desk", as edit_file's are (word_tracked): a removed block stays, marked deleted.

Every other part of the package (styles, theme, fonts, numbering, settings, headers,
footers, notes, properties) keeps its bytes (word_parts.replaced). Headers, footers, notes
and comments are shown by read_file but not written here: they stay as they are.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from app.core.documents.base import DocumentError
from app.core.documents.guard import Full, Out, guarded
from app.core.documents.word import Reader
from app.core.documents.word_build import Links
from app.core.documents.word_fill import Filler, Plan
from app.core.documents.word_units import Edit, Unit
from app.core.documents.word_inplace import edited_inside, editor
from app.core.documents.word_items import HEADING, ITEM
from app.core.documents.word_keep import NO_THUMBNAIL
from app.core.documents.word_pairs import compared
from app.core.documents.word_parts import (WordPackage, parse, relationships, replaced,
                                           serialise, w)
from app.core.documents.word_sinks import Body
from app.core.documents.word_splice import Before, spliced
from app.core.documents.word_styles import HeadingStyles
from app.core.documents.word_track import AUTHOR, Revisions, tracks_changes
from app.core.documents.word_tracked import Tracker
from app.core.documents.xml_tags import tag_of

if TYPE_CHECKING:
    from lxml.etree import _Element

    from app.core.documents.word import ShownParagraph
    from app.core.documents.word_anchors import Label
    from app.core.documents.word_sinks import Sink

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_OUTSIDE = re.compile(r"^\[(?:(?:First-page |Even-page )?(?:[Hh]eader|[Ff]ooter)\] |"
                      r"\^[0-9ivxlcdm]{1,8}\]: |comment \d{1,6}\] )")
_NO_TEXT = re.compile(r"^\('[^\n]*' holds no text\.\)$")
_INDEX_CHARS = 50_000_000
_SECONDS = 60.0


class Merged(bytes):
    """The new package's bytes, with what changed in a person's words (`summary`)."""

    summary = ""


def merge_docx(path: Path, markdown: str) -> Merged:
    def action(_checked: zipfile.ZipFile) -> Merged:
        raw = path.read_bytes()
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            return _merge(zf, raw, path, markdown)

    return guarded(path, action)


class _Reader(Reader):
    """word.Reader noting each paragraph's heading, list or quote mark."""

    def __init__(self, pkg: WordPackage, collect: list[ShownParagraph]):
        super().__init__(pkg, collect=collect)
        self.leads: dict[_Element, tuple[str, bool]] = {}
        self._head: tuple[str, bool] | None = None

    def _lead(self, style_id: str | None, listed: tuple[int, str] | None) -> tuple[str, bool]:
        self._head = super()._lead(style_id, listed)
        return self._head

    def paragraph(self, p: _Element, sink: Sink, prefix: str) -> bool:
        self._head = None
        shown = super().paragraph(p, sink, prefix)
        if self._head is not None:
            self.leads[p] = self._head
        return shown


def _merge(zf: zipfile.ZipFile, raw: bytes, path: Path, markdown: str) -> Merged:
    pkg = WordPackage(zf)
    tree = pkg.tree(pkg.main)
    body = tree.find(w("body"))
    if body is None:
        raise DocumentError(f"'{path.name}' holds no body of text to replace.")
    before = Before(body)
    shown: list[ShownParagraph] = []
    reader = _Reader(pkg, shown)
    try:
        old, silent = _old_units(reader, body)
    except Full:
        raise DocumentError(f"'{path.name}' is too large to be replaced in place; write the "
                            "result to a new file instead.") from None
    lines = {id(para.p): line.text.rstrip() for _part, para, line, _twin in shown}
    new = new_units(markdown)
    links = Links(pkg)
    by_text: dict[str, list[_Element]] = {}
    for _part, para, line, _twin in shown:
        by_text.setdefault(line.text.rstrip(), []).append(para.p)
    style_parts = pkg.part_of("styles")
    styles_part = style_parts[0] if style_parts else None
    headings = HeadingStyles(pkg.tree(styles_part) if styles_part else None, reader.styles)
    tracker = Tracker(Revisions(pkg.trees.values())) if tracks_changes(pkg) else None
    items = {id(p): head for p, (head, item) in reader.leads.items() if item and head.strip()}
    edit = editor(shown, tracker.revisions if tracker is not None else None, items)
    plan = _plan(old, silent, new, lines, links, path, headings, edit, by_text, reader.mark,
                 tracker)
    if not (plan.changed or plan.tables or plan.added or plan.moved or plan.removed):
        unchanged = Merged(raw)
        unchanged.summary = _summary(plan)
        return unchanged
    for el in list(body):
        body.remove(el)
    body.extend(plan.out)
    parts = {pkg.main: spliced(tree, zf.read(pkg.main), before)}
    if links.changed:
        parts[links.name] = serialise(links.root, links.original)
    if headings.changed and styles_part and headings.tree is not None:
        parts[styles_part] = serialise(headings.tree, zf.read(styles_part))
    unpictured, dropped = _without_thumbnail(zf)
    merged = Merged(replaced(zf, {**parts, **unpictured}, dropped, raw=raw))
    merged.summary = _summary(plan) + (
        f"; the document tracks changes, so each is a tracked change by {AUTHOR}, to accept "
        "or reject in Word" if tracker is not None else "")
    return merged


def _without_thumbnail(zf: zipfile.ZipFile) -> tuple[dict[str, bytes], frozenset[str]]:
    """The package's relationships and content types without its thumbnail, which is a
    picture of the text just replaced (word_keep says why); and the thumbnail's part."""
    names = set(zf.namelist())
    thumbs = {t for _i, kind, t, ext in relationships(zf, "")
              if kind in NO_THUMBNAIL and not ext and t in names}
    if not thumbs or "_rels/.rels" not in names or "[Content_Types].xml" not in names:
        return {}, frozenset()
    rels, types = zf.read("_rels/.rels"), zf.read("[Content_Types].xml")
    rels_root, types_root = parse(rels), parse(types)
    for rel in list(rels_root):
        if rel.get("Type") in NO_THUMBNAIL:
            rels_root.remove(rel)
    for el in list(types_root):
        if (el.get("PartName") or "").lstrip("/") in thumbs:
            types_root.remove(el)
    return ({"_rels/.rels": serialise(rels_root, rels),
             "[Content_Types].xml": serialise(types_root, types)}, frozenset(thumbs))


def _old_units(reader: _Reader, body: _Element) -> tuple[list[Unit], dict[int, list[_Element]]]:
    """The shown lines of the document, each with the body element it belongs to (None for
    a header, footer, note or comment); and, by the index of the next shown unit, the body
    elements that show nothing (empty paragraphs, bookmarks, the section's properties)."""
    out = Out(max_chars=_INDEX_CHARS, seconds=_SECONDS)
    units: list[Unit] = []
    silent: dict[int, list[_Element]] = {}

    def outside(start: int) -> None:
        units.extend(Unit(line.rstrip(), "outside") for line in out.lines[start:] if line)

    heads = reader._heads(body)
    for label, part in heads["Header"]:
        start = len(out.lines)
        reader._part(part, out, f"[{label}] ")
        outside(start)
    reader._use(reader.pkg.main)
    sink = Body(out)
    for el in body:
        start = len(out.lines)
        reader.blocks(cast(Any, [el]), sink, "")
        shown = [line.rstrip() for line in out.lines[start:] if line]
        if not shown:
            silent.setdefault(len(units), []).append(el)
            continue
        cut = new_units("\n".join(shown))   # as the new Markdown is cut
        if len(cut) == 1 and tag_of(el) == w("tbl"):
            units.append(Unit(cut[0].text, "table", el))
        elif len(cut) == 1 and tag_of(el) == w("p"):
            head, item = reader.leads.get(el, ("", False))
            kind = "list" if item else _kind(cut[0].text) if head.strip() else "body"
            units.append(Unit(cut[0].text, kind, el, head))
        else:   # a content control, or a paragraph and its text boxes: kept or rebuilt
            units.extend(Unit(unit.text, "other", el) for unit in cut)
    start = len(out.lines)
    reader._notes("footnoteReference", "footnote", out)
    reader._notes("endnoteReference", "endnote", out)
    reader._comments(out)
    for label, part in heads["Footer"]:
        reader._part(part, out, f"[{label}] ")
    outside(start)
    return units, silent


def _kind(line: str) -> str:
    heading = HEADING.match(line)
    if heading:
        return f"h{len(heading.group(1))}"
    if line.startswith("> "):
        return "quote"
    if line.startswith("[Text box] "):
        return "box"
    if _OUTSIDE.match(line):
        return "outside"
    return "list" if ITEM.match(line) else "body"


def new_units(markdown: str) -> list[Unit]:
    """The Markdown cut as the rendering is: a line per paragraph, a table or a fenced code
    block whole."""
    units: list[Unit] = []
    lines = markdown.replace("\r\n", "\n").split("\n")
    if len([x for x in lines if x.strip()]) == 1 and _NO_TEXT.match(markdown.strip()):
        return units   # what read_file shows of a document with no text
    n = 0
    while n < len(lines):
        line = lines[n].rstrip()
        fence = _FENCE.match(line)
        if fence:
            end = n + 1
            while end < len(lines) and not lines[end].strip().startswith(fence.group(1)):
                end += 1
            units.append(Unit("\n".join(x.rstrip() for x in lines[n:end + 1]), "code"))
            n = end + 1
            continue
        if line.lstrip().startswith("|"):
            end = n
            while end < len(lines) and lines[end].lstrip().startswith("|"):
                end += 1
            units.append(Unit("\n".join(x.rstrip() for x in lines[n:end]), "table"))
            n = end
            continue
        if line.strip():
            units.append(Unit(line, _kind(line)))
        n += 1
    return units


def _plan(old: list[Unit], silent: dict[int, list[_Element]], new: list[Unit],
          lines: dict[int, str], links: Links, path: Path, styles: HeadingStyles,
          edit: Edit, by_text: dict[str, list[_Element]], label: Label,
          tracker: Tracker | None) -> Plan:
    import difflib  # noqa: PLC0415 - only a write over a Word document compares

    items = {compared(u) for u in old if u.kind == "list"}
    matcher = difflib.SequenceMatcher(None, [compared(u, items) for u in old],
                                      [compared(u, items) for u in new], autojunk=False)
    codes, inside = [], 0   # blocks whose lines changed in place
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "replace" and edited_inside(old[i1:i2], new[j1:j2], edit, by_text):
            op, inside = "equal", inside + len({id(u.el) for u in old[i1:i2]})
        codes.append((op, i1, i2, j1, j2))
    same = {i for op, i1, i2, _j1, _j2 in codes if op == "equal" for i in range(i1, i2)}
    filler = Filler(old, silent, lines, links, same, styles, edit, label, tracker)
    for op, i1, i2, j1, j2 in codes:
        if op == "equal":
            filler.equal(i1, i2, new[j1:j2])
            continue
        for unit in new[j1:j2]:
            if unit.kind == "outside":
                raise DocumentError(
                    f"write_file changes the body of '{path.name}'; its headers, footers, "
                    "notes and comments stay as they are, so nothing was changed: use "
                    "edit_file to change their text.")
        filler.replace(i1, i2, new[j1:j2])
    plan = filler.finish()
    plan.changed += inside
    return plan


def _summary(plan: Plan) -> str:
    """What changed, in plain words: "changed 2 paragraphs and 1 table, added 1"."""
    changed = [f"{n} {word}{'s' if n != 1 else ''}" for n, word in
               ((plan.changed, "paragraph"), (plan.tables, "table")) if n]
    done = ["changed " + " and ".join(changed)] if changed else []
    if plan.added:
        done.append(f"added {plan.added}")
    if plan.moved:
        done.append(f"moved {plan.moved}")
    if plan.removed:
        done.append(f"removed {plan.removed}")
    if not done:
        return "its text is unchanged"
    return ", ".join(done) + "; the rest of the document is unchanged"
