"""A Word package as its XML parts: which part holds the body, the headers, the notes and the
comments, read with a parser that resolves nothing; and a package saved again with only the
parts that changed replaced, every other member copied as it was.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from typing import TYPE_CHECKING

from app.core.documents.zip_keep import kept_zip

if TYPE_CHECKING:
    from lxml import etree

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
MAIN_TYPE = R + "/officeDocument"
STRICT_MAIN = "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument"
# What the main document's relationships call its other text parts (transitional or strict).
TEXT_PARTS = ("header", "footer", "footnotes", "endnotes", "comments")


def w(tag: str) -> str:
    return f"{{{W}}}{tag}"


def paragraph_props(p: etree._Element) -> etree._Element:
    """The paragraph's w:pPr, made as its first child when it has none."""
    ppr = p.find(w("pPr"))
    if ppr is None:
        ppr = p.makeelement(w("pPr"), {})
        p.insert(0, ppr)
    return ppr


def parser() -> etree.XMLParser:
    from lxml import etree  # noqa: PLC0415 - document library
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           huge_tree=False, remove_blank_text=False)


def parse(data: bytes) -> etree._Element:
    from lxml import etree  # noqa: PLC0415 - document library
    return etree.fromstring(data, parser())


def rels_name(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def relationships(zf: zipfile.ZipFile, part: str) -> list[tuple[str, str, str, bool]]:
    """(id, type, target part or URL, external) of each relationship of `part`."""
    name = rels_name(part)
    if name not in zf.namelist():
        return []
    found = []
    for rel in parse(zf.read(name)):
        target = rel.get("Target") or ""
        external = rel.get("TargetMode") == "External"
        if not external:
            target = (target.lstrip("/") if target.startswith("/") else
                      posixpath.normpath(posixpath.join(posixpath.dirname(part), target)))
        found.append((rel.get("Id") or "", rel.get("Type") or "", target, external))
    return found


class WordPackage:
    """The parts of a .docx that hold text, parsed on demand and kept for saving."""

    def __init__(self, zf: zipfile.ZipFile):
        self.zf = zf
        names = set(zf.namelist())
        main = next((t for _i, kind, t, ext in relationships(zf, "")
                     if kind in (MAIN_TYPE, STRICT_MAIN) and not ext), "word/document.xml")
        if main not in names:
            raise KeyError(main)
        self.main = main
        self.rels = relationships(zf, main)
        self.links = {rid: target for rid, _k, target, ext in self.rels if ext}
        self.by_id = {rid: target for rid, _k, target, ext in self.rels
                      if not ext and target in names}
        self.trees: dict[str, etree._Element] = {}

    def part_of(self, kind: str) -> list[str]:
        """The parts of one kind ('header', 'footnotes', 'styles'...) the body relates to."""
        return [t for _i, k, t, ext in self.rels
                if not ext and k.rsplit("/", 1)[-1] == kind and t in self.zf.namelist()]

    def tree(self, part: str) -> etree._Element:
        if part not in self.trees:
            self.trees[part] = parse(self.zf.read(part))
        return self.trees[part]

    def optional_tree(self, kind: str) -> etree._Element | None:
        parts = self.part_of(kind)
        return self.tree(parts[0]) if parts else None

    def text_parts(self) -> list[str]:
        """The body first, then every header, footer, note and comment part."""
        return [self.main] + [p for kind in TEXT_PARTS for p in self.part_of(kind)]


def serialise(tree: etree._Element, original: bytes = b"") -> bytes:
    """The part's XML; with the `original` bytes, under their own declaration (Word's
    double quotes and line end), so only what changed differs."""
    from lxml import etree  # noqa: PLC0415 - document library

    if original.startswith(b"<?xml") and b"?>" in original[:200]:
        end = original.index(b"?>") + 2
        while original[end:end + 1] in (b"\r", b"\n"):
            end += 1
        return original[:end] + etree.tostring(tree, xml_declaration=False, encoding="UTF-8")
    return etree.tostring(tree, xml_declaration=True, encoding="UTF-8", standalone=True)


def replaced(zf: zipfile.ZipFile, new_parts: dict[str, bytes],
             dropped: frozenset[str] = frozenset(), raw: bytes | None = None) -> bytes:
    """The package with `new_parts` replaced or added and `dropped` left out; every other
    member is copied with its own name, date and compression. Given the package's `raw`
    bytes and no part added, the other members keep their stored bytes (zip_keep: Word's
    deflate is not Python's, and deflating them again would change every part)."""
    if raw is not None and set(new_parts) <= set(zf.namelist()):
        kept = kept_zip(raw, zf.infolist(), {**new_parts, **dict.fromkeys(dropped)},
                        zf.comment)
        if kept is not None:
            return kept
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as new:
        for info in zf.infolist():
            if info.filename in dropped:
                continue
            data = new_parts.get(info.filename)
            new.writestr(_copy_info(info), zf.read(info) if data is None else data)
        for name, data in new_parts.items():
            if name not in zf.namelist():
                new.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data,
                             compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _copy_info(info: zipfile.ZipInfo) -> zipfile.ZipInfo:
    copy = zipfile.ZipInfo(info.filename, info.date_time)
    copy.compress_type = info.compress_type
    copy.external_attr = info.external_attr
    copy.create_system = info.create_system
    return copy
