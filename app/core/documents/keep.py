"""Nothing lost: before a document on disk is replaced, compare it with what would be saved.

The libraries rebuild files (openpyxl rewrites a whole workbook and drops what it does not
understand; python-docx keeps unknown parts). So the new bytes are made in memory first and
compared with the file on disk, part by part:

- every part of the old package must still be there (parts the programs rebuild on their
  own, such as the calculation chain or document statistics, excepted);
- every kind of XML element in an old part must still occur in the new one (a
  conditional format, a shape, a tracked change, a comment anchor...), except the cell
  contents a set_cells call itself replaces.

Where anything would go, the write is refused with a sentence naming it. Element kinds are
compared, not attributes: an attribute a library drops (a column width, say) is not seen.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.documents.base import DocumentError
from app.core.documents.guard import open_package
from app.core.documents.sheet_write import markdown_to_xlsx
from app.core.documents.word_write import markdown_to_docx

if TYPE_CHECKING:
    from lxml import etree

# Parts a program rebuilds by itself; losing them loses nothing the person made.
_REBUILT = re.compile(r"^(docProps/app\.xml|xl/calcChain\.xml|\[Content_Types\]\.xml|"
                      r".*\.rels|xl/printerSettings/.*|word/webSettings\.xml)$")
# Containers and bookkeeping that Office writes and the libraries leave out; the elements
# inside a container that matter are compared on their own.
_BOOKKEEPING = {"extLst", "ext", "AlternateContent", "Choice", "Fallback", "absPath",
                "revisionPtr", "calcFeatures", "feature", "proofErr", "lastRenderedPageBreak"}
# Cell contents: replaced by set_cells itself (a formula set to a number, text to a formula).
CELL_CONTENT = {"f", "v", "is", "t", "r", "rPr", "rFont", "b", "i", "u", "sz", "color",
                "family", "scheme", "charset", "strike", "vertAlign", "outline", "shadow",
                "condense", "extend", "rPh", "phoneticPr"}

_KINDS = (("media/", "pictures"), ("header", "headers"), ("footer", "footers"),
          ("comments", "comments"), ("footnotes", "footnotes"), ("endnotes", "endnotes"),
          ("charts/", "charts"), ("drawings/", "drawings or shapes"),
          ("embeddings/", "embedded files"), ("customXml/", "custom data stored in the file"),
          ("vbaProject", "macros"), ("activeX", "form controls"), ("ctrlProps", "form controls"),
          ("pivot", "pivot tables"), ("slicer", "slicers"), ("timeline", "timelines"),
          ("threadedComments", "comments"), ("persons/", "comment authors"),
          ("queryTables", "data queries"), ("connections", "data connections"),
          ("externalLinks", "links to other workbooks"), ("tables/", "tables"),
          ("worksheets/", "sheets"), ("chartsheets/", "chart sheets"), ("word/document", "the text"))
_FEATURES = {
    "drawing": "pictures or shapes", "pict": "pictures", "object": "embedded objects",
    "ins": "tracked changes", "del": "tracked changes", "sdt": "content controls",
    "fldChar": "fields (such as a table of contents)", "fldSimple": "fields",
    "commentRangeStart": "comments", "commentReference": "comments",
    "footnoteReference": "footnotes", "endnoteReference": "endnotes",
    "headerReference": "headers", "footerReference": "footers", "txbxContent": "text boxes",
    "conditionalFormatting": "conditional formatting", "dataValidation": "data validation",
    "dataValidations": "data validation", "sparklineGroup": "sparklines",
    "mergeCell": "merged cells", "hyperlink": "links", "legacyDrawing": "notes on cells",
    "color": "colours", "highlight": "highlighting", "sz": "font sizes", "jc": "alignment",
    "shd": "shading", "numPr": "numbered or bulleted lists", "tab": "tab stops or tabs",
    "br": "line or page breaks", "sectPr": "page layout", "protectedRange": "protection",
    "sheetProtection": "protection", "autoFilter": "filters", "definedName": "named ranges",
    "sparklineGroups": "sparklines", "conditionalFormattings": "conditional formatting",
    "slicerList": "slicers", "tableParts": "tables",
    "oleObjects": "embedded objects", "controls": "form controls", "picture": "pictures",
}


def parts_of(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {info.filename: zf.read(info) for info in zf.infolist()}


def _tags(data: bytes) -> set[str]:
    """The element names in one XML part, streamed: a big sheet is never held as a tree."""
    from lxml import etree  # noqa: PLC0415 - document library

    found: set[str] = set()
    try:
        for _event, el in etree.iterparse(io.BytesIO(data), events=("end",),
                                          resolve_entities=False, no_network=True,
                                          load_dtd=False):
            if isinstance(el.tag, str):
                found.add(el.tag)
            el.clear(keep_tail=False)
    except etree.XMLSyntaxError:
        return set()
    return found


def _outermost(data: bytes, missing: set[str]) -> list[str]:
    """The missing element names not inside another missing element: a sparkline group,
    not each of its parts."""
    from lxml import etree  # noqa: PLC0415 - document library

    if not missing:
        return []
    root = etree.fromstring(data, _parser())
    found: list[str] = []
    for el in root.iter(*missing):
        parent = el.getparent()
        while parent is not None and parent.tag not in missing:
            parent = parent.getparent()
        if parent is None and el.tag not in found:
            found.append(str(el.tag))  # a name looked for: always a str
    return found


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def lost_in(old: dict[str, bytes], new: dict[str, bytes], spare: dict[str, set[str]],
            rebuilt: re.Pattern[str] = _REBUILT, capable: dict[str, set[str]] | None = None
            ) -> list[str]:
    """What the new package would not keep of the old one, in words for a person. `spare`:
    element names each part may lose; `capable`: elements a part could have held anyway."""
    lost: list[str] = []
    renamed = _renamed_sheets(old, new)
    for name, data in old.items():
        if rebuilt.match(name):
            continue
        new_name = renamed.get(name, name)
        if new_name not in new:
            lost.append(_part_words(name))
            continue
        if not name.endswith((".xml", ".vml")) or data == new[new_name]:
            continue
        allowed = spare.get(name, set()) | _BOOKKEEPING
        kept = _tags(new[new_name]) | (capable or {}).get(new_name, set())
        missing = {t for t in _tags(data) - kept if _local(t) not in allowed}
        lost.extend(_FEATURES.get(_local(t)) or _detail_words(name)
                    for t in _outermost(data, missing))
    return sorted(set(lost))


def sheet_parts(parts: dict[str, bytes]) -> dict[str | None, str]:
    """Sheet name -> its part name, from xl/workbook.xml and its relationships."""
    from lxml import etree  # noqa: PLC0415 - document library

    try:
        book = etree.fromstring(parts["xl/workbook.xml"], _parser())
        rels = etree.fromstring(parts["xl/_rels/workbook.xml.rels"], _parser())
    except (KeyError, etree.XMLSyntaxError):
        return {}
    targets = {r.get("Id"): r.get("Target", "") for r in rels}
    found: dict[str | None, str] = {}
    for el in book.iter("{*}sheet"):
        rid = next((v for k, v in el.attrib.items() if k.endswith("}id")), None)
        target = targets.get(rid, "")
        if target:
            found[el.get("name")] = (target.lstrip("/") if target.startswith("/")
                                     else "xl/" + target)
    return found


def _renamed_sheets(old: dict[str, bytes], new: dict[str, bytes]) -> dict[str, str]:
    """Old part name -> new part name of each sheet (openpyxl renumbers sheet parts)."""
    before, after = sheet_parts(old), sheet_parts(new)
    return {part: after[name] for name, part in before.items() if name in after}


def _parser() -> etree.XMLParser:
    from lxml import etree  # noqa: PLC0415 - document library
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)


def _part_words(name: str) -> str:
    for marker, words in _KINDS:
        if marker in name:
            return words
    return _detail_words(name)


# What a person calls what is in a part, for anything not named more precisely above: a
# sentence never names a part or an XML element.
_DETAILS = (("xl/styles", "cell formatting"), ("xl/workbook", "workbook settings"),
            ("xl/sharedStrings", "text in cells"), ("xl/worksheets/", "details of its sheets"),
            ("theme/", "its theme (colours and fonts)"), ("word/styles", "its styles"),
            ("word/settings", "document settings"), ("word/numbering", "list numbering"),
            ("word/fontTable", "its fonts"), ("word/document", "details of its text"),
            ("docProps/custom", "custom document properties"),
            ("docProps/", "document properties"), ("ppt/", "details of its slides"),
            ("word/", "other content of the document"), ("xl/", "other content of the workbook"))


def _detail_words(name: str) -> str:
    for marker, words in _DETAILS:
        if name.startswith(marker) or f"/{marker}" in name:
            return words
    return "other content of the file"


def check_kept(path: Path, new_data: bytes, spare: dict[str, set[str]] | None = None,
               action: str = "This change", rebuilt: re.Pattern[str] = _REBUILT,
               capable: dict[str, set[str]] | None = None) -> None:
    """Refuse (DocumentError) when saving `new_data` over `path` would drop anything."""
    with open_package(path) as zf:
        old = {info.filename: zf.read(info) for info in zf.infolist()}
    lost = lost_in(old, parts_of(new_data), spare or {}, rebuilt, capable)
    if lost:
        raise DocumentError(
            f"{action} would drop {', '.join(lost[:6])}{' and more' if len(lost) > 6 else ''} "
            f"from '{path.name}', so nothing was changed; write the result to a new file "
            f"beside it instead, such as '{beside(path)}'.")


def beside(path: Path) -> str:
    return f"{path.stem} (new){path.suffix}"


# write_file replaces a document's content and look (its styles, theme and settings come
# from the writer): what must not be lost is content Markdown cannot carry.
_RESTYLED = re.compile(_REBUILT.pattern[:-2] + r"|docProps/.*|word/(settings|fontTable|styles|"
                       r"stylesWithEffects|numbering|webSettings)\.xml|(word|xl)/theme/.*|"
                       r"xl/(styles|sharedStrings)\.xml)$")
_SAMPLE = """# Title

## Part

Text with **bold**, *italic*, `code` and a [link](https://example.org).

- one
  - two
1. three

> quote

| a | b |
|---|---|
| 1 | =A2*2 |

```
code
```
"""


def _capable(kind: str) -> dict[str, set[str]]:
    """The elements each part of a document the writer makes can hold."""
    if kind == "docx":
        sample = markdown_to_docx(_SAMPLE)
    else:
        sample = markdown_to_xlsx("## S\n\n| **a** | b |\n|---|---|\n| 1 | =A2*2 |\n")
    return {name: _tags(data) for name, data in parts_of(sample).items()}


def check_replacement(path: Path, new_data: bytes) -> None:
    """write_file over an existing .docx/.xlsx: allowed only when the old file holds nothing
    a document written from Markdown could not hold."""
    kind = path.suffix.lower().lstrip(".")
    check_kept(path, new_data, action="Replacing it with write_file", rebuilt=_RESTYLED,
               capable=_capable(kind), spare=_ALL_SHEETS)


class _AllSheets(dict[str, set[str]]):
    """Every worksheet part may lose cell contents (write_file replaces them all)."""

    def get(self, name: str, default: set[str] | None = None) -> set[str] | None:  # type: ignore[override]
        return CELL_CONTENT if name.startswith("xl/worksheets/") else default


_ALL_SHEETS = _AllSheets()
