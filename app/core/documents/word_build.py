"""Word paragraphs and tables made from Markdown in the look of the document's own: a
paragraph keeps a model paragraph's properties (w:pPr: style, alignment, numbering, spacing)
and its first run's properties (w:rPr: font, size, colour), with Markdown's bold, italic,
code and links on top; a table (word_table) keeps its table, row and cell properties.

Used by word_merge, which decides which paragraph of the document is the model for each
new one. Everything is plain lxml on the document's own tree: nothing else of it changes.
"""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, Callable

from app.core.documents.word_parts import PKG_RELS, WordPackage, parse, rels_name, w
from app.core.documents.xml_tags import tag_of

if TYPE_CHECKING:
    from lxml.etree import _Element
    from markdown_it.token import Token


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

_NOT_TAKEN = (w("sectPr"), w("pPrChange"))
_REVISIONS = tuple(w(t) for t in ("ins", "del", "moveFrom", "moveTo", "rPrChange"))
Relate = Callable[[str], str]   # a link's address -> the id of its relationship
_HYPERLINK = ("http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
              "hyperlink")


def element(tag: str, **attrs: str) -> _Element:
    """A new w:`tag` element with w: attributes `attrs`."""
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
    p = element("p")
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


def fresh(p: _Element) -> _Element:
    """A paragraph made new in another's look without what was that one's own: its section's
    properties and the marks of its tracked changes (another reviewer's, under their ids)."""
    ppr = p.find(w("pPr"))
    if ppr is None:
        return p
    for el in list(ppr):
        if tag_of(el) in _NOT_TAKEN:
            ppr.remove(el)
        elif tag_of(el) == w("rPr"):
            for mark in list(el):
                if tag_of(mark) in _REVISIONS:
                    el.remove(mark)
    return p


def add_runs(p: _Element, inline: Token, base: _Element | None, relate: Relate,
             mono: bool = False) -> None:
    from app.core.documents.word_write import inline_pieces  # noqa: PLC0415 - document library

    for raw, strong, em, link, code in inline_pieces(inline):
        text = _CONTROL.sub("", raw)
        if text:
            run = _run(text, base, strong, em, mono or code, link is not None)
            if link:
                holder = element("hyperlink")
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
    r = element("r")
    rpr = copy.deepcopy(base) if base is not None else element("rPr")
    for on, tag in ((bold, "b"), (italic, "i")):
        if on:
            _put(rpr, element(tag))
    if mono:
        _put(rpr, element("rFonts", ascii=_MONO, hAnsi=_MONO, cs=_MONO))
    if linked:
        _put(rpr, element("color", val="0563C1"))
        _put(rpr, element("u", val="single"))
    if len(rpr):
        r.append(rpr)
    for n, line in enumerate(text.split("\n")):
        if n:
            r.append(element("br"))
        if line:
            t = element("t")
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
