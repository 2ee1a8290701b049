"""A block write_file adds to a Word document (word_fill), made in the look of the nearest
block of its kind in the old document: a heading of its level (else the document's heading
style for it), a list item of its list at its level (word_items), a quote, body text, a table
(word_table); a fenced code block a paragraph a line in a fixed-width font.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.documents.word_build import fresh, inline_token, paragraph
from app.core.documents.word_items import HEADING, ITEM, item_model, level_of
from app.core.documents.word_parts import w
from app.core.documents.word_table import new_table, rows_of

if TYPE_CHECKING:
    from lxml.etree import _Element
    from markdown_it.token import Token

    from app.core.documents.word_build import Relate
    from app.core.documents.word_units import Unit
    from app.core.documents.word_styles import HeadingStyles


def added(unit: Unit, at: int, old: list[Unit], styles: HeadingStyles, relate: Relate,
          after_item: bool) -> list[_Element]:
    """The new block `unit`, put before old unit `at`; `after_item`: whether it follows a
    list item in the new text."""
    if unit.kind == "table":
        return [new_table(_model(old, "table", at), rows_of(unit.text), relate)]
    model = item_model(old, at, level_of(unit.text), after_item) if unit.kind == "list" else \
        _model(old, unit.kind, at)
    if unit.kind == "code":
        first, *lines = unit.text.split("\n")
        fence = first.strip()[:3]
        lines = lines[:-1] if lines and lines[-1].strip().startswith(fence) else lines
        body = _model(old, "body", at)
        return [fresh(paragraph(body, _code(line), relate)) for line in lines]
    text = unit.text
    heading = HEADING.match(text)
    if heading:
        text = text[heading.end():]
        if model is None:
            model = _heading_model(styles, len(heading.group(1)))
    elif unit.kind == "quote":
        text = text[2:]
    elif unit.kind == "list" and model is not None:
        mark = ITEM.match(text)
        text = text[mark.end():] if mark else text
    if model is None:
        model = _model(old, "body", at)
    return [fresh(paragraph(model, inline_token(text), relate))]


def _model(old: list[Unit], kind: str, at: int) -> _Element | None:
    """The nearest block of `kind` before old unit `at`, else after it."""
    order = list(range(min(at, len(old)) - 1, -1, -1)) + list(range(at, len(old)))
    for i in order:
        unit = old[i]
        if unit.kind == kind and unit.el is not None:
            return unit.el
    return None


def _heading_model(styles: HeadingStyles, level: int) -> _Element | None:
    from lxml import etree  # noqa: PLC0415 - document library

    sid = styles.style_id(level)
    if sid is None:
        return None
    p = etree.Element(w("p"))
    etree.SubElement(etree.SubElement(p, w("pPr")), w("pStyle")).set(w("val"), sid)
    return p


def _code(line: str) -> Token:
    from markdown_it.token import Token  # noqa: PLC0415 - document library

    return Token("inline", "", 0, children=[Token("code_inline", "", 0, content=line)])
