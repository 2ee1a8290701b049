"""OpenDocument text, spreadsheets and presentations (.odt, .ods, .odp) as Markdown.

No ODF library is well kept enough to depend on, and content.xml is plain, documented XML,
so it is read here with the standard library: expat feeding ElementTree's TreeBuilder, with
any DOCTYPE or entity declaration refused outright (never resolved), from a member whose
size the zip directory has already bounded.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import xml.parsers.expat
import zipfile
from pathlib import Path
from typing import NoReturn

from app.core.documents.base import DocumentError
from app.core.documents.guard import Out, corrupt_sentence, encrypted_sentence
from app.core.documents.sheets import MAX_COLS, MAX_ROWS, write_table

NS = {
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "draw": "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0",
    "presentation": "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0",
    "xlink": "http://www.w3.org/1999/xlink",
}


def q(name: str) -> str:
    prefix, local = name.split(":")
    return "{%s}%s" % (NS[prefix], local)


class _Refused(Exception):
    pass


def safe_parse(zf: zipfile.ZipFile, member: str) -> ET.Element:
    """Parse one XML member; a DOCTYPE or an entity declaration stops the parse."""
    builder = ET.TreeBuilder()
    parser = xml.parsers.expat.ParserCreate(namespace_separator="}")

    def refuse(*_args: object) -> NoReturn:
        raise _Refused()

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse
    parser.StartElementHandler = lambda tag, attrs: builder.start(
        _name(tag), {_name(k): v for k, v in attrs.items()})
    parser.EndElementHandler = lambda tag: builder.end(_name(tag))
    parser.CharacterDataHandler = builder.data
    with zf.open(member) as fh:
        while chunk := fh.read(1 << 16):
            parser.Parse(chunk, False)
        parser.Parse(b"", True)
    return builder.close()


def _name(tag: str) -> str:
    return "{" + tag if "}" in tag else tag


def render(path: Path, zf: zipfile.ZipFile, out: Out) -> None:
    names = set(zf.namelist())
    if "META-INF/manifest.xml" in names:
        with zf.open("META-INF/manifest.xml") as fh:
            if b"encryption-data" in fh.read(4 * 1024 * 1024):
                raise DocumentError(encrypted_sentence(path))
    if "content.xml" not in names:
        raise DocumentError(corrupt_sentence(path))
    try:
        root = safe_parse(zf, "content.xml")
    except _Refused:
        raise DocumentError(f"'{path.name}' contains XML with a DOCTYPE or entity "
                            "declarations, which documents never need (it may be an attack), "
                            "so it was not opened.") from None
    except xml.parsers.expat.ExpatError:
        raise DocumentError(corrupt_sentence(path)) from None
    body = root.find(q("office:body"))
    if body is None:
        raise DocumentError(corrupt_sentence(path))
    for kind in body:
        if kind.tag == q("office:text"):
            _blocks(kind, out)
        elif kind.tag == q("office:spreadsheet"):
            for table in kind.iter(q("table:table")):
                out.blank()
                out.add(f"## Sheet: {table.get(q('table:name'), '')}")
                _sheet(table, out)
        elif kind.tag == q("office:presentation"):
            for number, page in enumerate(kind.iter(q("draw:page")), 1):
                _slide(number, page, out)


def inline(element: ET.Element) -> str:
    parts = [element.text or ""]
    for child in element:
        if child.tag == q("text:s"):
            parts.append(" " * min(int(child.get(q("text:c"), "1") or 1), 100))
        elif child.tag in (q("text:tab"), q("text:line-break")):
            parts.append(" ")
        elif child.tag == q("text:a"):
            label, url = inline(child), child.get(q("xlink:href"), "")
            parts.append(f"[{label}]({url})" if url else label)
        elif child.tag == q("text:note"):
            pass  # footnotes are not part of the running text
        else:
            parts.append(inline(child))
        parts.append(child.tail or "")
    return "".join(parts).replace("\n", " ")


def _blocks(parent: ET.Element, out: Out, level: int = -1) -> None:
    for child in parent:
        out.tick()
        if child.tag == q("text:h"):
            depth = min(int(child.get(q("text:outline-level"), "1") or 1), 6)
            out.blank()
            out.add("#" * depth + " " + inline(child).strip())
        elif child.tag == q("text:p"):
            text = inline(child).strip()
            if not text:
                continue
            if level >= 0:
                out.add("  " * level + "- " + text)
            else:
                out.blank()
                out.add(text)
        elif child.tag == q("text:list"):
            if level < 0:
                out.blank()
            for item in child:
                _blocks(item, out, level + 1)
        elif child.tag == q("table:table"):
            out.blank()
            first = True
            for row in child.iter(q("table:table-row")):
                cells = [inline_all(c) for c in row if c.tag == q("table:table-cell")]
                out.add("| " + " | ".join(cells) + " |")
                if first:
                    out.add("|" + " --- |" * len(cells))
                    first = False
            out.blank()
        elif child.tag in (q("text:section"), q("text:list-item"), q("text:list-header")):
            _blocks(child, out, level)


def inline_all(cell: ET.Element) -> str:
    texts = [inline(p).strip() for p in cell.iter(q("text:p"))]
    return "<br>".join(t for t in texts if t).replace("|", "\\|")


_REF = re.compile(r"\[\$?'?([^\].']*?)'?\.([A-Z$]+[0-9$]+)(?::\.([A-Z$]+[0-9$]+))?\]")


def formula_text(formula: str) -> str:
    text = formula.split(":", 1)[1] if re.match(r"^[a-z]+:=", formula) else formula
    return _REF.sub(lambda m: (f"{m.group(1)}!" if m.group(1) else "") + m.group(2)
                    + (f":{m.group(3)}" if m.group(3) else ""), text)


def _cell(cell: ET.Element) -> str:
    value = inline_all(cell)
    formula = cell.get(q("table:formula"))
    if formula:
        shown = formula_text(formula)
        return shown + (f" → {value}" if value else "")
    return value


def _sheet(table: ET.Element, out: Out) -> None:
    rows: list[tuple[int, list[str]]] = []
    used, number = 0, 0
    for row in table.iter(q("table:table-row")):
        repeat = int(row.get(q("table:number-rows-repeated"), "1") or 1)
        texts: list[str] = []
        for cell in row:
            if cell.tag not in (q("table:table-cell"), q("table:covered-table-cell")):
                continue
            times = int(cell.get(q("table:number-columns-repeated"), "1") or 1)
            text = _cell(cell)
            texts.extend([text] * min(times, MAX_COLS - len(texts)))
            if len(texts) >= MAX_COLS:
                break
        while texts and not texts[-1]:
            texts.pop()
        if not texts:
            number += repeat
        else:
            for _ in range(min(repeat, MAX_ROWS - len(rows))):
                number += 1
                rows.append((number, texts))
            used = max(used, len(texts))
        if len(rows) >= MAX_ROWS or number > 10 * MAX_ROWS:
            break
    out.blank()
    if not rows:
        out.add("(this sheet is empty)")
        return
    write_table(out, rows, used)   # the workbook's layout (sheets.py)


def _slide(number: int, page: ET.Element, out: Out) -> None:
    out.blank()
    name = page.get(q("draw:name"), "")
    out.add(f"## Slide {number}" + (f": {name}" if name and not name.startswith("page") else ""))
    out.add("")
    notes = page.find(q("presentation:notes"))
    for frame in page:
        if frame is notes:
            continue
        for p in frame.iter(q("text:p")):
            text = inline(p).strip()
            if text:
                out.add("- " + text)
    if notes is not None:
        texts = [inline(p).strip() for p in notes.iter(q("text:p"))]
        texts = [t for t in texts if t]
        if texts:
            out.blank()
            out.add("Notes:")
            for text in texts:
                out.add("> " + text)
