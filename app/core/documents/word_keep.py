"""What write_file keeps of a Word document it replaces, and what it never adds.

A document written from Markdown starts from python-docx's template. Two things of that
template must not reach the person's file:

- its thumbnail (docProps/thumbnail.jpeg), a picture of another document that Explorer,
  Finder and SharePoint would show as this one's preview. It is always left out. The
  replaced document's own thumbnail is left out too: it is a picture of the text being
  replaced, so it would show what the file no longer says; Word makes a new one the next
  time the person saves, if their settings ask for one.
- its blank properties, in place of the document's own. Over an existing document, every
  property the package relates to itself is carried over as it was: the title, author,
  keywords and dates (core), the company, manager and statistics (app), the custom
  properties, sensitivity labels among them (MSIP_Label_* in the custom properties, and the
  label part Office writes since 2022), and anything else related to the package but the
  main document.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.documents.base import DocumentError
from app.core.documents.guard import corrupt_sentence, open_package
from app.core.documents.word_parts import (CT, MAIN_TYPE, PKG_RELS, STRICT_MAIN, parse,
                                           relationships, rels_name, serialise)
from app.core.documents.zip_keep import kept_zip

if TYPE_CHECKING:
    from lxml.etree import _Element

# (id, type, target part or URL, external), as word_parts.relationships gives them
_Rel = tuple[str, str, str, bool]

THUMBNAIL = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail"
_STRICT_THUMBNAIL = "http://purl.oclc.org/ooxml/officeDocument/relationships/metadata/thumbnail"
_MAIN = (MAIN_TYPE, STRICT_MAIN)
NO_THUMBNAIL = (THUMBNAIL, _STRICT_THUMBNAIL)


def finished(new_data: bytes, old_path: Path | None) -> bytes:
    """`new_data` (a package python-docx wrote) without the template's thumbnail and, when
    it replaces `old_path`, with that document's own properties."""
    with zipfile.ZipFile(io.BytesIO(new_data)) as new:
        parts = {info.filename: new.read(info) for info in new.infolist()}
        new_rels = relationships(new, "")
    carried: dict[str, bytes] = {}
    old_rels: list[_Rel] = []
    old_types: _Element | None = None
    if old_path is not None:
        try:
            carried, old_rels, old_types = _properties(old_path)
        except DocumentError:
            raise
        except Exception:  # a damaged part surfaces as any kind of library error
            raise DocumentError(corrupt_sentence(old_path)) from None
    replaced_kinds = {kind for _i, kind, _t, _e in old_rels}
    keep = [r for r in new_rels if r[1] in _MAIN or
            (r[1] not in NO_THUMBNAIL and r[1] not in replaced_kinds)]
    dropped = {t for _i, _k, t, ext in new_rels if not ext and r_not_in(t, keep)} - set(carried)
    for name in dropped:
        parts.pop(name, None)
    parts.update(carried)
    parts["_rels/.rels"] = _rels_xml(keep, old_rels)
    parts["[Content_Types].xml"] = _types_xml(parts["[Content_Types].xml"], dropped,
                                              carried, old_types)
    order = ["[Content_Types].xml", "_rels/.rels"]
    order += [n for n in parts if n not in order]
    kept = _over(old_path, parts, order, carried) if old_path is not None else None
    if kept is not None:
        return kept
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in order:
            zf.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), parts[name],
                        compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _over(old_path: Path, parts: dict[str, bytes], order: list[str],
          carried: dict[str, bytes]) -> bytes | None:
    """The new package written over the old one's bytes (zip_keep): each part carried over
    unchanged keeps the very bytes Word stored, the rest is new. None where zip_keep cannot
    copy the old package (Zip64, encrypted entries...)."""
    raw = old_path.read_bytes()
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as old:
            infos = old.infolist()
    except zipfile.BadZipFile:
        return None
    names = {info.filename for info in infos}
    replaced = {n: parts.get(n) for n in (info.filename for info in infos)
                if n not in carried or parts.get(n) != carried[n]}
    added = {name: parts[name] for name in order if name not in names}
    return kept_zip(raw, infos, replaced, b"", added)


def _properties(old_path: Path) -> tuple[dict[str, bytes], list[_Rel], _Element | None]:
    """What the package `old_path` relates to itself, but its main document and thumbnail:
    (part name -> bytes, the relationships, its content types)."""
    carried: dict[str, bytes] = {}
    with open_package(old_path) as old:  # the size, encryption and DOCTYPE checks
        names = set(old.namelist())
        old_rels = [r for r in relationships(old, "")
                    if r[1] not in _MAIN + NO_THUMBNAIL and (r[3] or r[2] in names)]
        for _rid, _kind, target, external in old_rels:
            if not external:
                carried[target] = old.read(target)
                if rels_name(target) in names:
                    carried[rels_name(target)] = old.read(rels_name(target))
        old_types = parse(old.read("[Content_Types].xml")) \
            if "[Content_Types].xml" in names else None
    return carried, old_rels, old_types


def r_not_in(target: str, rels: list[_Rel]) -> bool:
    return all(t != target for _i, _k, t, _e in rels)


def _rels_xml(keep: list[_Rel], old_rels: list[_Rel]) -> bytes:
    from lxml import etree  # noqa: PLC0415 - document library

    root = etree.Element(f"{{{PKG_RELS}}}Relationships", nsmap={None: PKG_RELS})
    used = {rid for rid, *_rest in old_rels}
    for n, (rid, kind, target, external) in enumerate(keep + old_rels):
        if n < len(keep) and rid in used:
            rid = _fresh(rid, used)
        used.add(rid)
        rel = etree.SubElement(root, f"{{{PKG_RELS}}}Relationship", Id=rid, Type=kind,
                               Target=target)
        if external:
            rel.set("TargetMode", "External")
    return serialise(root)


def _fresh(rid: str, used: set[str]) -> str:
    n = 1
    while f"rIdNew{n}" in used:
        n += 1
    return f"rIdNew{n}"


def _types_xml(data: bytes, dropped: set[str], carried: dict[str, bytes],
               old_types: _Element | None) -> bytes:
    from lxml import etree  # noqa: PLC0415 - document library

    root = parse(data)
    overrides = {el.get("PartName"): el for el in root.iter(f"{{{CT}}}Override")}
    defaults = {(el.get("Extension") or "").lower() for el in root.iter(f"{{{CT}}}Default")}
    for name in dropped:
        el = overrides.pop("/" + name, None)
        if el is not None:
            root.remove(el)
    if old_types is None:
        return serialise(root)
    old_overrides = {el.get("PartName"): el for el in old_types.iter(f"{{{CT}}}Override")}
    old_defaults = {(el.get("Extension") or "").lower(): el
                    for el in old_types.iter(f"{{{CT}}}Default")}
    for name in carried:
        part = "/" + name
        if part in old_overrides:
            if part in overrides:
                root.remove(overrides[part])
            etree.SubElement(root, f"{{{CT}}}Override", PartName=part,
                             ContentType=old_overrides[part].get("ContentType") or "")
            continue
        ext = posixpath.splitext(name)[1].lstrip(".").lower()
        if ext and ext not in defaults and ext in old_defaults:
            defaults.add(ext)
            root.insert(0, etree.Element(f"{{{CT}}}Default", Extension=ext,
                                         ContentType=old_defaults[ext].get("ContentType") or ""))
    return serialise(root)
