"""Word paragraphs and tables made from Markdown in the look of the document's own: a
paragraph keeps a model paragraph's properties (w:pPr: style, alignment, numbering, spacing)
and its first run's properties (w:rPr: font, size, colour), with Markdown's bold, italic,
code and links on top; a table keeps its table, row and cell properties.

Used by word_merge, which decides which paragraph of the document is the model for each
new one. Everything is plain lxml on the document's own tree: nothing else of it changes.
"""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, Callable

from app.core.documents.word_parts import PKG_RELS, WordPackage, parse, rels_name, w
from app.core.documents.word_sinks import cell_lines
from app.core.documents.xml_tags import tag_of

if TYPE_CHECKING:
    from lxml.etree import _Element
    from markdown_it.token import Token

    from app.core.documents.word_tracked import Tracker

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")  # not allowed in XML
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_EMPHASIS = (w("b"), w("bCs"), w("i"), w("iCs"))
_MONO = "Courier New"
# The run properties' order in the schema (CT_RPr), so an added one goes where Word wants it.
_RPR_ORDER = ["rStyle", "rFonts", "b", "bCs", "i", "iCs", "caps", "smallCaps", "strike",
              "dstrike", "outline", "shadow", "emboss", "imprint", "noProof", "snapToGrid",
              "vanish", "webHidden", "color", "spacing", "w", "kern", "position", "sz", "szCs",
              "highlight", "u", "effect", "bdr", "shd", "fitText", "vertAlign", "rtl", "cs",
              "em", "lang", "eastAsianLayout", "specVanish", "oMath"]

Relate = Callable[[str], str]   # a link's address -> the id of its relationship
_HYPERLINK = ("http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
              "hyperlink")


def _el(tag: str, **attrs: str) -> _Element:
    from lxml import etree  # noqa: PLC0415 - document library

    el = etree.Element(w(tag))
    for key, value in attrs.items():
        el.set(w(key), value)
    return el


def inline_token(text: str) -> Token:
    """The inline Markdown `text` parsed as word_write parses a paragraph's."""
    from markdown_it import MarkdownIt  # noqa: PLC0415 - document library

    md = MarkdownIt("commonmark")
    md.core.ruler.disable("text_join")   # as word_write.parse: `&#32;` stays a token
    return md.parseInline(text)[0]


def first_rpr(p: _Element) -> _Element | None:
    """The run properties of a paragraph's first run with text (outside a link), or None."""
    fallback = None
    for r in p.iter(w("r")):
        parent = r.getparent()
        if parent is not None and tag_of(parent) == w("hyperlink"):
            continue
        if r.find(w("t")) is not None:
            return r.find(w("rPr"))
        if fallback is None:
            fallback = r.find(w("rPr"))
    return fallback


def paragraph(model: _Element | None, inline: Token, relate: Relate,
              mono: bool = False) -> _Element:
    """A new w:p: `model`'s paragraph and first run properties, `inline`'s text."""
    p = _el("p")
    base = None
    if model is not None:
        ppr = model.find(w("pPr"))
        if ppr is not None:
            p.append(copy.deepcopy(ppr))
        found = first_rpr(model)
        base = copy.deepcopy(found) if found is not None else None
    if base is not None:
        for el in list(base):
            if el.tag in _EMPHASIS or tag_of(el) == w("rPrChange"):
                base.remove(el)
    add_runs(p, inline, base, relate, mono)
    return p


def add_runs(p: _Element, inline: Token, base: _Element | None, relate: Relate,
             mono: bool = False) -> None:
    from app.core.documents.word_write import inline_pieces  # noqa: PLC0415 - document library

    for raw, strong, em, link, code in inline_pieces(inline):
        text = _CONTROL.sub("", raw)
        if text:
            run = _run(text, base, strong, em, mono or code, link is not None)
            if link:
                holder = _el("hyperlink")
                if link.startswith("#"):
                    holder.set(w("anchor"), link[1:])
                else:
                    holder.set(_R_ID, relate(link))
                holder.append(run)
                p.append(holder)
            else:
                p.append(run)


def _run(text: str, base: _Element | None, bold: bool, italic: bool, mono: bool,
         linked: bool) -> _Element:
    r = _el("r")
    rpr = copy.deepcopy(base) if base is not None else _el("rPr")
    for on, tag in ((bold, "b"), (italic, "i")):
        if on:
            _put(rpr, _el(tag))
    if mono:
        _put(rpr, _el("rFonts", ascii=_MONO, hAnsi=_MONO, cs=_MONO))
    if linked:
        _put(rpr, _el("color", val="0563C1"))
        _put(rpr, _el("u", val="single"))
    if len(rpr):
        r.append(rpr)
    for n, line in enumerate(text.split("\n")):
        if n:
            r.append(_el("br"))
        if line:
            t = _el("t")
            t.text = line
            t.set(_XML_SPACE, "preserve")
            r.append(t)
    return r


def _put(rpr: _Element, el: _Element) -> None:
    """`el` in `rpr` in the schema's order, in place of one of its kind."""
    name = tag_of(el).rsplit("}", 1)[-1]
    old = rpr.find(tag_of(el))
    if old is not None:
        rpr.replace(old, el)
        return
    rank = _RPR_ORDER.index(name)
    for n, child in enumerate(rpr):
        local = tag_of(child).rsplit("}", 1)[-1]
        if local in _RPR_ORDER and _RPR_ORDER.index(local) > rank:
            rpr.insert(n, el)
            return
    rpr.append(el)


# -- tables ---------------------------------------------------------------------------------
def cell_grid(tbl: _Element) -> list[list[_Element | None]]:
    """The table's cells as read_file shows them, row by row: a merged cell once, then None
    for each column it spans."""
    from app.core.documents.word import _through  # noqa: PLC0415 - document library

    grid: list[list[_Element | None]] = []
    for tr in _through(tbl, w("tr")):
        row: list[_Element | None] = []
        for tc in _through(tr, w("tc")):
            row.append(tc)
            span = tc.find(f"{w('tcPr')}/{w('gridSpan')}")
            value = span.get(w("val")) if span is not None else None
            row.extend([None] * min(int(value) - 1 if value and value.isdigit() else 0, 60))
        grid.append(row)
    return grid


def simple_cell(tc: _Element) -> bool:
    """A cell of paragraphs only (no table, content control or tracked change at its top)."""
    return all(tag_of(el) in (w("tcPr"), w("p")) for el in tc)


def new_table(model: _Element | None, rows: list[list[str]], relate: Relate) -> _Element:
    """A table of `rows` (each cell's lines joined with <br>), in the look of `model`'s:
    its table properties, and each cell's properties and first paragraph's look from the
    model's cell at the same place (or the nearest one)."""
    width = max((len(r) for r in rows), default=1)
    tbl = _el("tbl")
    old_grid = cell_grid(model) if model is not None else []
    tblpr = model.find(w("tblPr")) if model is not None else None
    if tblpr is not None:
        tbl.append(copy.deepcopy(tblpr))
    else:
        props = _el("tblPr")
        props.append(_el("tblW", w="0", type="auto"))
        borders = _el("tblBorders")
        for side in ("top", "left", "bottom", "right", "insideH", "insideV"):
            borders.append(_el(side, val="single", sz="4", space="0", color="auto"))
        props.append(borders)
        tbl.append(props)
    grid = _el("tblGrid")
    for _ in range(width):
        grid.append(_el("gridCol", w=str(9000 // width)))
    tbl.append(grid)
    for r, row in enumerate(rows):
        tr = _el("tr")
        for c in range(width):
            model_tc = _nearest(old_grid, r, c)
            tc = _el("tc")
            tcpr = model_tc.find(w("tcPr")) if model_tc is not None else None
            if tcpr is not None:
                tcpr = copy.deepcopy(tcpr)
                for el in list(tcpr):
                    if tag_of(el) in (w("gridSpan"), w("vMerge"), w("hMerge"), w("tcW")):
                        tcpr.remove(el)
                tc.append(tcpr)
            model_p = model_tc.find(w("p")) if model_tc is not None else None
            fill_cell(tc, [], cell_lines(row[c] if c < len(row) else "", []), model_p, relate)
            tr.append(tc)
        tbl.append(tr)
    return tbl


def _nearest(grid: list[list[_Element | None]], r: int, c: int) -> _Element | None:
    if not grid:
        return None
    row = grid[min(r, len(grid) - 1)]
    cells = [tc for tc in row[:c + 1] if tc is not None] or [tc for tc in row if tc is not None]
    return cells[-1] if cells else None


def fill_cell(tc: _Element, old_lines: list[tuple[str, _Element]], new_lines: list[str],
              model: _Element | None, relate: Relate,
              edit: Callable[[_Element, str, str], bool] | None = None,
              remake: Callable[[_Element, str], _Element] | None = None,
              tracker: Tracker | None = None) -> None:
    """The cell's shown paragraphs (`old_lines`: each one's shown text and w:p) made
    `new_lines`: one whose text stays is kept as it is, a changed one keeps its look, a new
    one takes the look of the one before it; a cell always ends with a paragraph. `edit`:
    changes a paragraph's text in place where it can, `remake` makes one again in its look,
    `tracker` marks a line added or removed as a tracked change (word_merge)."""
    new_lines = [line if line.strip() else "" for line in new_lines]
    anchor: _Element | None = None
    for n, line in enumerate(new_lines):
        if n < len(old_lines):
            text, old = old_lines[n]
            if text != line and not (edit is not None and edit(old, text, line)):
                made = remake(old, line) if remake is not None else \
                    paragraph(old, inline_token(line), relate)
                tc.replace(old, made)
                old = made
            anchor = old
            continue
        look = anchor if anchor is not None else model
        made = paragraph(look, inline_token(line), relate)
        if tracker is not None:
            tracker.inserted(made)
        if anchor is not None:
            anchor.addnext(made)
        else:
            tc.append(made)
        anchor = made
    for _text, old in old_lines[len(new_lines):]:
        if tracker is not None:
            tracker.deleted(old)
        else:
            tc.remove(old)
    if tc.find(w("p")) is None:
        tc.append(paragraph(model, inline_token(""), relate) if model is not None else _el("p"))


class Links:
    """The main part's relationships, to which a new link's address is added."""

    def __init__(self, pkg: WordPackage):
        from lxml import etree  # noqa: PLC0415 - document library

        self.name = rels_name(pkg.main)
        self.original = pkg.zf.read(self.name) if self.name in pkg.zf.namelist() else b""
        self.root = parse(self.original) if self.original else \
            etree.Element(f"{{{PKG_RELS}}}Relationships", nsmap={None: PKG_RELS})
        self.changed = False

    def __call__(self, url: str) -> str:
        from lxml import etree  # noqa: PLC0415 - document library

        ids = set()
        for rel in self.root:
            ids.add(rel.get("Id"))
            if rel.get("Type") == _HYPERLINK and rel.get("Target") == url and \
                    rel.get("TargetMode") == "External":
                return rel.get("Id") or ""
        n = 1
        while f"rIdLink{n}" in ids:
            n += 1
        etree.SubElement(self.root, f"{{{PKG_RELS}}}Relationship", Id=f"rIdLink{n}",
                         Type=_HYPERLINK, Target=url, TargetMode="External")
        self.changed = True
        return f"rIdLink{n}"
