"""A workbook's package as Excel saved it: its parts read once, a few replaced, the rest kept.

Editing a workbook goes through here instead of a library that rebuilds the whole file:
every part keeps its bytes, its place in the zip and its compression unless an edit
replaces it, so styles, charts, pictures, pivot caches, comments, macros, external links
and custom XML are never touched. XML parts that change are parsed with lxml (never
resolving entities) and written back with the declaration they came with.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.documents.guard import open_package
from app.core.documents.xml_tags import tag_of
from app.core.documents.zip_keep import kept_zip

if TYPE_CHECKING:
    from lxml import etree

WORKSHEET = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"
_REL_ID = re.compile(r"}id$")
_DECLARATION = re.compile(rb"^\s*(<\?xml[^>]*\?>\s*)")


def parser() -> etree.XMLParser:
    from lxml import etree  # noqa: PLC0415 - document library
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)


def parse(data: bytes) -> etree._Element:
    from lxml import etree  # noqa: PLC0415 - document library
    return etree.fromstring(data, parser())


def serialize(root: etree._Element, original: bytes) -> bytes:
    """`root` as bytes, under the XML declaration the part had (Excel's standalone="yes")."""
    from lxml import etree  # noqa: PLC0415 - document library

    head = _DECLARATION.match(original)
    declared = head.group(1).lower() if head else b""
    if head and (b"utf-8" in declared or b"encoding" not in declared):
        return head.group(1) + etree.tostring(root, encoding="UTF-8", xml_declaration=False)
    return etree.tostring(root, encoding="UTF-8", xml_declaration=True, standalone=True)


def ns_of(root: etree._Element) -> str:
    """The namespace of a part's root element (transitional or strict SpreadsheetML)."""
    tag = tag_of(root)
    return tag[1:].split("}", 1)[0] if tag.startswith("{") else ""


class Sheet:
    def __init__(self, name: str, sheet_id: str, part: str, kind: str, index: int):
        self.name, self.sheet_id, self.part, self.kind, self.index = (name, sheet_id, part,
                                                                      kind, index)


class Package:
    """The parts of one workbook on disk, in their zip order, and what changed."""

    def __init__(self, path: Path):
        self.path = Path(path)
        with open_package(self.path) as zf:
            self.raw = self.path.read_bytes()
            self.infos = zf.infolist()
            self.parts = {info.filename: zf.read(info) for info in self.infos}
            self.comment = zf.comment
        self.changed: dict[str, bytes | None] = {}   # part -> new bytes, or None: removed
        self._trees: dict[str, etree._Element] = {}
        self._dirty: set[str] = set()
        self.sheets = self._sheets()

    def data(self, name: str) -> bytes | None:
        self._flush()
        if name in self.changed:
            return self.changed[name]
        return self.parts.get(name)

    def tree(self, name: str) -> etree._Element:
        """The parsed part, parsed once; changes to it are saved by `touch`."""
        if name not in self._trees:
            self._trees[name] = parse(self.parts[name])
        return self._trees[name]

    def touch(self, name: str) -> None:
        """The parsed part `name` was changed: it is written out when the package is."""
        self._dirty.add(name)

    def _flush(self) -> None:
        for name in sorted(self._dirty):
            if self.changed.get(name, b"") is not None:
                new = serialize(self._trees[name], self.parts[name])
                if new != self.parts[name]:
                    self.changed[name] = new
        self._dirty.clear()

    def remove(self, name: str) -> None:
        self.changed[name] = None

    def rels(self, part: str) -> list[tuple[str, str, str]]:
        """(id, type, target part) of each relationship of `part`."""
        folder, base = posixpath.split(part)
        name = posixpath.join(folder, "_rels", base + ".rels")
        if name not in self.parts:
            return []
        found: list[tuple[str, str, str]] = []
        for rel in parse(self.parts[name]):
            target = rel.get("Target", "")
            if rel.get("TargetMode") == "External":
                resolved = target
            elif target.startswith("/"):
                resolved = target.lstrip("/")
            else:
                resolved = posixpath.normpath(posixpath.join(folder, target))
            found.append((rel.get("Id", ""), rel.get("Type", ""), resolved))
        return found

    def _sheets(self) -> list[Sheet]:
        book = self.tree("xl/workbook.xml")
        targets = {rid: (kind, target) for rid, kind, target in self.rels("xl/workbook.xml")}
        sheets = []
        for index, el in enumerate(book.iter("{*}sheet")):
            rid = next((v for k, v in el.attrib.items() if _REL_ID.search(k)), None)
            kind, target = targets.get(rid, ("", "")) if rid is not None else ("", "")
            sheets.append(Sheet(el.get("name", ""), el.get("sheetId", ""), target,
                                "worksheet" if kind.endswith("/worksheet") else
                                kind.rsplit("/", 1)[-1], index))
        return sheets

    def date1904(self) -> bool:
        pr = next(self.tree("xl/workbook.xml").iter("{*}workbookPr"), None)
        return pr is not None and pr.get("date1904", "").lower() in ("1", "true")

    def to_bytes(self) -> bytes:
        """The package with the changed parts, every other part as it was, in the same order
        and with the same compression: its stored bytes copied (zip_keep), or where that
        cannot be done (Zip64...), its bytes deflated again by zipfile."""
        self._flush()
        if not self.changed:
            return self.raw     # nothing changed: the very same bytes
        kept = kept_zip(self.raw, self.infos, self.changed, self.comment)
        if kept is not None:    # every other part's stored bytes copied as they were
            return kept
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as zout:
            for info in self.infos:
                new = self.changed.get(info.filename, self.parts[info.filename])
                if new is None:
                    continue
                copy = zipfile.ZipInfo(info.filename, info.date_time)
                copy.compress_type = info.compress_type
                copy.external_attr = info.external_attr
                copy.create_system = info.create_system
                copy.comment = info.comment
                zout.writestr(copy, new)
            zout.comment = self.comment
        return out.getvalue()
