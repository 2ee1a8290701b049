"""A Word document (.docx) as Markdown: headings, lists, bold and italic, links, tables.

The body is walked in order (paragraphs and tables as they stand). Headings come from
Word's heading styles (whatever the language of the styles' display names, the built-in
names are stored in English), list items from the list styles or a paragraph's numbering.
"""

from __future__ import annotations

import re
from pathlib import Path

from app.core.documents.guard import Out

_HEADING = re.compile(r"^heading (\d)$", re.I)
_LIST_LEVEL = re.compile(r"(\d)$")


def open_docx(path: Path):
    from docx import Document
    return Document(str(path))


def style_names(doc) -> dict[str, str]:
    return {s.style_id: (s.name or "") for s in doc.styles}


def render(path: Path, out: Out) -> None:
    from docx.oxml.ns import qn
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    doc = open_docx(path)
    names = style_names(doc)
    p_tag, tbl_tag = qn("w:p"), qn("w:tbl")
    previous_item = False
    for child in doc.element.body.iterchildren():
        if child.tag == p_tag:
            line = paragraph_line(Paragraph(child, doc), names)
            if line is None:
                continue
            item = line.lstrip().startswith(("- ", "1. "))
            if not (item and previous_item):
                out.blank()
            out.add(line)
            previous_item = item
        elif child.tag == tbl_tag:
            out.blank()
            table_lines(Table(child, doc), out)
            out.blank()
            previous_item = False
        else:
            continue
        out.tick()


def _style_of(paragraph, names: dict[str, str]) -> str:
    ppr = paragraph._p.pPr
    style_id = ppr.pStyle.val if ppr is not None and ppr.pStyle is not None else None
    return names.get(style_id, "") if style_id else ""


def paragraph_line(paragraph, names: dict[str, str]) -> str | None:
    """One paragraph as one Markdown line, or None when it holds no text."""
    text = inline_markdown(paragraph)
    if not text.strip():
        return None
    style = _style_of(paragraph, names)
    heading = _HEADING.match(style)
    if heading:
        return "#" * min(int(heading.group(1)), 6) + " " + text.strip()
    if style.lower() == "title":
        return "# " + text.strip()
    lower = style.lower()
    ppr = paragraph._p.pPr
    num = ppr.numPr if ppr is not None else None
    if lower.startswith(("list bullet", "list number")) or num is not None:
        level = 0
        match = _LIST_LEVEL.search(style)
        if match and lower.startswith("list"):
            level = max(int(match.group(1)) - 1, 0)
        elif num is not None and num.ilvl is not None and num.ilvl.val is not None:
            level = min(int(num.ilvl.val), 8)
        mark = "1." if lower.startswith("list number") else "-"
        return "  " * level + f"{mark} " + text.strip()
    if lower in ("quote", "intense quote"):
        return "> " + text.strip()
    return text.strip()


def inline_markdown(paragraph) -> str:
    """The paragraph's runs with **bold**, *italic* and [links](url); runs of the same
    formatting are joined first, so Word's many small runs do not leave marks everywhere."""
    from docx.text.hyperlink import Hyperlink

    pieces: list[tuple[str, bool, bool]] = []
    parts: list[str] = []

    def flush() -> None:
        for text, bold, italic in pieces:
            parts.append(_wrap(text, bold, italic))
        pieces.clear()

    for item in paragraph.iter_inner_content():
        if isinstance(item, Hyperlink):
            flush()
            label = "".join(r.text for r in item.runs) or item.url
            parts.append(f"[{label}]({item.url})" if item.url else label)
            continue
        text = item.text
        if not text:
            continue
        bold, italic = bool(item.bold), bool(item.italic)
        if pieces and pieces[-1][1:] == (bold, italic):
            pieces[-1] = (pieces[-1][0] + text, bold, italic)
        else:
            pieces.append((text, bold, italic))
    flush()
    return "".join(parts).replace("\n", " ").replace("\t", " ")


def _wrap(text: str, bold: bool, italic: bool) -> str:
    if not (bold or italic) or not text.strip():
        return text
    mark = "***" if bold and italic else "**" if bold else "*"
    lead = text[:len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()):]
    return f"{lead}{mark}{text.strip()}{mark}{trail}"


def cell_text(cell) -> str:
    texts = [inline_markdown(p).strip() for p in cell.paragraphs]
    return "<br>".join(t for t in texts if t).replace("|", "\\|")


def table_lines(table, out: Out) -> None:
    first = True
    for row in table.rows:
        cells = [cell_text(c) for c in row.cells]
        out.add("| " + " | ".join(cells) + " |")
        if first:
            out.add("|" + " --- |" * len(cells))
            first = False
