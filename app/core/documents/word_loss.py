"""write_file over a Word document: refused, in a person's words, when the new document would
not keep something Markdown cannot carry.

write_file merges the new text into the document's own XML (word_merge): an unchanged block
keeps its pictures, fields and notes, but a changed or removed block loses what it held
beyond its text. What a person would miss is named: its
pictures, headers, footers, footnotes, comments, tracked changes, text boxes, form fields,
fields such as page numbers or a table of contents, equations, charts, embedded files,
custom data such as SharePoint's document properties; each counted, so that one picture of
two lost is seen. The bookkeeping Word writes in every file (bookmarks, language marks,
revision ids) is not.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.documents.base import DocumentError
from app.core.documents.guard import corrupt_sentence, open_package
from app.core.documents.keep import beside
from app.core.documents.word_parts import W, WordPackage

if TYPE_CHECKING:
    from lxml import etree

# (word for a person, element local names that show it) in the body's XML.
_IN_TEXT = (
    ("its pictures or shapes", ("drawing", "pict")),
    ("its embedded objects", ("object",)),
    ("its text boxes", ("txbxContent",)),
    ("its tracked changes", ("ins", "del", "moveTo", "moveFrom")),
    ("its content controls and form fields", ("sdt", "checkBox", "ffData")),
    ("its fields (such as page numbers or a table of contents)", ("fldChar", "fldSimple")),
    ("its equations", ("oMath", "oMathPara")),
    ("its footnotes", ("footnoteReference",)),
    ("its endnotes", ("endnoteReference",)),
    ("its comments", ("commentReference",)),
)
_HEADS = (("header", "its headers"), ("footer", "its footers"))
_PARTS = (("word/media/", "its pictures or shapes"), ("word/charts/", "its charts"),
          ("word/embeddings/", "its embedded files"), ("vbaProject", "its macros"))


def features(data: bytes) -> list[str]:
    """What a person would recognise in the Word package `data`, in their words."""
    from lxml import etree  # noqa: PLC0415 - document library

    found: list[str] = []
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        pkg = WordPackage(zf)
        names = zf.namelist()
        for marker, words in _PARTS:
            if any(marker in n for n in names):
                found.append(words)
        body = Counter(etree.QName(el).localname for el in pkg.tree(pkg.main).iter()
                       if isinstance(el.tag, str))
        for words, tags in _IN_TEXT:   # one entry per element: one fewer is one lost
            count = sum(body[tag] for tag in tags)
            found.extend(f"{words}\0#{n}" for n in range(count))
        for kind, words in _HEADS:
            if any(_holds_something(pkg.tree(part)) for part in pkg.part_of(kind)):
                found.append(words)
        found.extend(_custom_data(zf))
    return list(dict.fromkeys(found))


def _custom_data(zf: zipfile.ZipFile) -> list[str]:
    """Custom data a program stored in the document (SharePoint's document properties,
    a form's data, the sources of a bibliography), each marked with a digest of its bytes
    so that one kept is not taken for another; an empty list of bibliography sources, which
    every new document has, is not counted."""
    found = []
    for name in sorted(n for n in zf.namelist() if n.startswith("customXml/item")
                       and "/_rels/" not in n and not n.split("/")[-1].startswith("itemProps")):
        data = zf.read(name)
        digest = hashlib.sha256(data).hexdigest()[:12]
        if b"bibliography" in data[:600]:
            if b"Source>" in data or b"Source " in data:  # a source the person added
                found.append(f"its bibliography sources\0{digest}")
            continue
        found.append(f"its custom data (such as SharePoint properties)\0{digest}")
    return found


def _holds_something(tree: etree._Element) -> bool:
    """A header or footer with text, a picture or a field (an empty one loses nothing)."""
    for el in tree.iter():
        tag = el.tag if isinstance(el.tag, str) else ""
        if tag == f"{{{W}}}t" and (el.text or "").strip():
            return True
        if tag.rsplit("}", 1)[-1] in ("drawing", "pict", "object", "fldChar", "fldSimple"):
            return True
    return False


def check_word_replacement(path: Path, new_data: bytes) -> None:
    with open_package(path) as zf:  # the size, encryption and DOCTYPE checks
        del zf
    try:
        with open(path, "rb") as fh:
            before = features(fh.read())
        after = set(features(new_data))
    except Exception:  # a damaged part surfaces as any kind of library error
        raise DocumentError(corrupt_sentence(path)) from None
    lost = list(dict.fromkeys(f.split("\0")[0] for f in before if f not in after))
    if lost:
        things = lost[0] if len(lost) == 1 else ", ".join(lost[:-1]) + " and " + lost[-1]
        raise DocumentError(
            f"Replacing it with write_file would drop {things} from '{path.name}', so nothing "
            f"was changed; use edit_file to change its text, or write the result to a new "
            f"file beside it, such as '{beside(path)}'.")
