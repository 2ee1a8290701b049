"""A slide deck (.pptx) slide by slide: title, the text of each shape, tables, and notes.
Shapes are read in their order on the slide, top to bottom and then left to right (boxes
whose tops are within a quarter inch count as one line), not in the file's order; a
placeholder that does not say where it is sits where its layout (or master) puts it.

Read straight from the package, one slide's XML at a time, in the order the presentation
lists them: python-pptx loads and parses every part of a deck before its first slide can be
shown (17 seconds for a real deck of 5,000 slides on a slow machine), so a big deck went
past the reading's time bound with nothing shown. Here the first slides come at once and
the time budget cuts a huge deck with what it has. The members were checked (sizes, no
DOCTYPE) by guard.open_package before they are read.
"""

from __future__ import annotations

import posixpath
import threading
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.documents.guard import Out
from app.core.documents.xml_tags import tag_of

if TYPE_CHECKING:
    from lxml.etree import _Element

_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_parsers = threading.local()
_LINE = 228_600   # EMU: a quarter inch; tops closer than this read left to right
_SHAPES = (_P + "sp", _P + "grpSp", _P + "graphicFrame", _P + "cxnSp", _P + "pic",
           _P + "contentPart")
# Where a layout puts its placeholders: ("idx", n) and ("type", kind) -> (top, left).
_Places = dict[tuple[str, str], tuple[int, int]]


def render(path: Path, zf: zipfile.ZipFile, out: Out) -> None:
    root = _rels_target(zf, "", "officeDocument") or "ppt/presentation.xml"
    presentation = _xml(zf, root)
    targets = _rels(zf, root)
    ids = presentation.find(_P + "sldIdLst")
    for number, sld in enumerate(ids if ids is not None else [], 1):
        out.tick()
        part = targets.get(sld.get(_R + "id") or "", ("", ""))[1]
        if not part or part not in zf.NameToInfo:
            continue
        _slide(zf, part, number, out)


def _slide(zf: zipfile.ZipFile, part: str, number: int, out: Out) -> None:
    tree = _xml(zf, part).find(f"{_P}cSld/{_P}spTree")
    shapes = [el for el in tree if tag_of(el) in _SHAPES] if tree is not None else []
    title = next((el for el in shapes if _placeholder_index(el) == "0"), None)
    heading = _text_frame(title).strip() if title is not None else ""
    out.blank()
    out.add(f"## Slide {number}" + (f": {heading}" if heading else ""))
    out.add("")
    places = _layout_places(zf, part)
    for shape in _reading_order([s for s in shapes if s is not title], places):
        _shape(shape, out, places)
    notes = _rels_target(zf, part, "notesSlide")
    if notes and notes in zf.NameToInfo:
        body = next((el for el in _xml(zf, notes).iter(_P + "sp")
                     if _placeholder_type(el) == "body"), None)
        text = _text_frame(body).strip() if body is not None else ""
        if text:
            out.blank()
            out.add("Notes:")
            for line in text.splitlines():
                out.add("> " + line if line.strip() else ">")


def _layout_places(zf: zipfile.ZipFile, part: str) -> _Places:
    """Where the slide's layout, then its master, puts each placeholder: ("idx", n) and
    ("type", kind) -> (top, left)."""
    places: _Places = {}
    layout = _rels_target(zf, part, "slideLayout")
    master = _rels_target(zf, layout, "slideMaster") if layout and layout in zf.NameToInfo \
        else None
    for source in (master, layout):   # the layout's own places win
        if not source or source not in zf.NameToInfo:
            continue
        for shape in _xml(zf, source).iter(_P + "sp"):
            ph, at = _placeholder(shape), _offset(shape)
            if ph is None or at is None:
                continue
            places[("type", ph.get("type", "obj"))] = at
            idx = ph.get("idx")
            if idx is not None:
                places[("idx", idx)] = at
    return places


def _offset(shape: _Element) -> tuple[int, int] | None:
    for holder in (_P + "spPr", _P + "grpSpPr", _P + "xfrm"):
        box = shape.find(holder)
        if box is None:
            continue
        off = box.find(f"{_A}xfrm/{_A}off") if holder != _P + "xfrm" else box.find(_A + "off")
        if off is not None:
            try:
                return int(off.get("y", "0")), int(off.get("x", "0"))
            except ValueError:
                return None
    return None


def _where(shape: _Element, places: _Places) -> tuple[int, int] | None:
    at = _offset(shape)
    if at is None:
        ph = _placeholder(shape)
        if ph is not None:
            idx = ph.get("idx")
            at = places.get(("idx", idx)) if idx is not None else None
            at = at or places.get(("type", ph.get("type", "obj")))
    return at


def _reading_order(shapes: list[_Element], places: _Places) -> list[_Element]:
    """Top to bottom, then left to right; a shape with no known place stays after the one
    before it in the file."""
    placed: list[tuple[tuple[int, int], int, _Element]] = []
    last = (-1, -1)
    for n, shape in enumerate(shapes):
        at = _where(shape, places) or last
        last = at
        placed.append((at, n, shape))
    placed.sort(key=lambda p: (p[0][0], p[1]))
    lines: list[list[tuple[tuple[int, int], int, _Element]]] = []
    for item in placed:
        if lines and item[0][0] - lines[-1][0][0][0] < _LINE:
            lines[-1].append(item)
        else:
            lines.append([item])
    return [shape for line in lines
            for _at, _n, shape in sorted(line, key=lambda p: (p[0][1], p[1]))]


def _shape(shape: _Element, out: Out, places: _Places | None = None) -> None:
    table = shape.find(f"{_A}graphic/{_A}graphicData/{_A}tbl")
    if tag_of(shape) == _P + "graphicFrame" and table is not None:
        out.blank()
        for n, row in enumerate(table.iter(_A + "tr")):
            cells = [_text_frame(c).replace("\n", " ").replace("|", "\\|").strip()
                     for c in row if tag_of(c) == _A + "tc"]
            out.add("| " + " | ".join(cells) + " |")
            if n == 0:
                out.add("|" + " --- |" * len(cells))
        out.blank()
        return
    if tag_of(shape) == _P + "grpSp":
        for inner in _reading_order([el for el in shape if tag_of(el) in _SHAPES], {}):
            _shape(inner, out)
        return
    body = shape.find(_P + "txBody")
    if tag_of(shape) != _P + "sp" or body is None:
        return
    for paragraph in body.iter(_A + "p"):
        text = "".join(_run(r) for r in paragraph.iter(_A + "r")).strip() or \
            _paragraph(paragraph).strip()
        if text:
            ppr = paragraph.find(_A + "pPr")
            level = int(ppr.get("lvl", "0") or 0) if ppr is not None else 0
            out.add("  " * min(max(level, 0), 8) + "- " + text)


def _run(run: _Element) -> str:
    text = "".join(t.text or "" for t in run.iter(_A + "t"))
    if not text.strip():
        return text
    props = run.find(_A + "rPr")
    bold = props is not None and props.get("b") in ("1", "true")
    italic = props is not None and props.get("i") in ("1", "true")
    mark = "***" if bold and italic else "**" if bold else "*" if italic else ""
    return f"{mark}{text}{mark}" if mark else text


def _paragraph(paragraph: _Element) -> str:
    """A paragraph's text as python-pptx gives it: runs, fields, and line breaks as \\v."""
    parts = []
    for el in paragraph:
        if tag_of(el) in (_A + "r", _A + "fld"):
            parts.append("".join(t.text or "" for t in el.iter(_A + "t")))
        elif tag_of(el) == _A + "br":
            parts.append("\v")
    return "".join(parts)


def _text_frame(shape: _Element) -> str:
    return "\n".join(_paragraph(p) for p in shape.iter(_A + "p"))


def _placeholder(shape: _Element) -> _Element | None:
    for nv in shape:
        if tag_of(nv).startswith(_P + "nv"):
            return nv.find(f"{_P}nvPr/{_P}ph")
    return None


def _placeholder_index(shape: _Element) -> str | None:
    ph = _placeholder(shape)
    return None if ph is None else ph.get("idx", "0")


def _placeholder_type(shape: _Element) -> str | None:
    ph = _placeholder(shape)
    return None if ph is None else ph.get("type", "obj")


def _xml(zf: zipfile.ZipFile, part: str) -> _Element:
    from lxml import etree  # noqa: PLC0415 - document library

    parser: etree.XMLParser | None = getattr(_parsers, "parser", None)
    if parser is None:  # one per thread, as lxml's parsers want; made once, not per part
        parser = _parsers.parser = etree.XMLParser(resolve_entities=False, no_network=True,
                                                   load_dtd=False)
    return etree.fromstring(zf.read(part), parser)


def _rels(zf: zipfile.ZipFile, part: str) -> dict[str, tuple[str, str]]:
    """Relationship id -> (type's last word, the target part's name) of `part`."""
    folder, name = posixpath.split(part)
    rels = posixpath.join(folder, "_rels", name + ".rels")
    if rels not in zf.NameToInfo:
        return {}
    found: dict[str, tuple[str, str]] = {}
    for rel in _xml(zf, rels).iter(_REL + "Relationship"):
        if rel.get("TargetMode") == "External":
            continue
        target = rel.get("Target", "")
        target = target.lstrip("/") if target.startswith("/") else \
            posixpath.normpath(posixpath.join(folder, target))
        found[rel.get("Id") or ""] = (rel.get("Type", "").rsplit("/", 1)[-1], target)
    return found


def _rels_target(zf: zipfile.ZipFile, part: str, kind: str) -> str | None:
    return next((target for k, target in _rels(zf, part).values() if k == kind), None)
