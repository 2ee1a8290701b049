"""Markdown to a real Word document: Word's own heading, list, quote and table styles, bold,
italic, links and code; no Markdown marks left as text.

markdown-it-py (already the board's parser) reads the Markdown; python-docx writes the file
from its default template, whose styles Word knows by name.
"""

from __future__ import annotations

import io
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from app.core.documents.word_keep import finished

if TYPE_CHECKING:
    from docx.document import Document
    from docx.text.paragraph import Paragraph
    from markdown_it.rules_block import StateBlock
    from markdown_it.token import Token

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")  # not allowed in XML
_MONO = "Courier New"


def _clean(text: str) -> str:
    return _CONTROL.sub("", text)


def parse(markdown: str) -> list[Token]:
    from markdown_it import MarkdownIt  # noqa: PLC0415 - document library

    md = MarkdownIt("commonmark").enable("table")
    md.block.ruler.at("reference", _not_a_note(md.block.ruler.__rules__))
    # A character reference (`&#32;`) and an escape (`\*`) stay tokens of their own: a
    # blank read_file shows as `&#32;` begins a paragraph, a blank typed does not (_lines).
    md.core.ruler.disable("text_join")
    return md.parse(markdown)


def _not_a_note(rules: list[Any]) -> Callable[[StateBlock, int, int, bool], bool]:
    """Markdown's link definition rule, but for a line that begins `[^`: a footnote as
    read_file shows one (`[^1]: Ibid.`), or one typed by hand, which CommonMark would take
    for the definition of a link `^1` and leave out of the document. It is a paragraph."""
    define = next(rule.fn for rule in rules if rule.name == "reference")

    def reference(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        at = state.bMarks[start] + state.tShift[start]
        if state.src.startswith("[^", at):
            return False
        return bool(define(state, start, end, silent))

    return reference


def markdown_to_docx(markdown: str, replacing: Path | None = None) -> bytes:
    """A .docx made from Markdown; over `replacing`, with that document's own properties
    (word_keep.finished)."""
    from docx import Document  # noqa: PLC0415 - document library


    doc = Document()
    props = doc.core_properties
    props.author, props.last_modified_by, props.comments = "", "", ""
    props.title = props.subject = props.keywords = ""
    props.created = props.modified = datetime.now(timezone.utc).replace(microsecond=0,
                                                                         tzinfo=None)
    tokens = parse(markdown)
    lists: list[str] = []       # "Bullet" / "Number", one per open list
    item_started: list[bool] = []
    quote = 0
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        kind = tok.type
        if kind == "heading_open":
            paragraph = doc.add_heading(level=min(int(tok.tag[1]), 9))
            add_inline(paragraph, tokens[i + 1])
            i += 3
            continue
        if kind in ("bullet_list_open", "ordered_list_open"):
            lists.append("Bullet" if kind == "bullet_list_open" else "Number")
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif kind == "list_item_open":
            item_started.append(False)
        elif kind == "list_item_close":
            item_started.pop()
        elif kind == "blockquote_open":
            quote += 1
        elif kind == "blockquote_close":
            quote -= 1
        elif kind == "paragraph_open":
            style = _paragraph_style(lists, item_started, quote)
            for n, inline in enumerate(sub_items(tokens[i + 1]) if lists else [tokens[i + 1]]):
                deeper = f"List Number {min(len(lists) + 1, 3)}"
                add_inline(doc.add_paragraph(style=style if n == 0 else deeper), inline)
            i += 3
            continue
        elif kind in ("fence", "code_block"):
            for line in tok.content.rstrip("\n").split("\n"):
                run = doc.add_paragraph().add_run(_clean(line))
                run.font.name = _MONO
        elif kind == "table_open":
            i = _table(doc, tokens, i, bold_header=replacing is None)
            continue
        elif kind == "html_block":   # a line of only <br>: a paragraph of line breaks
            content = tok.content.strip()
            doc.add_paragraph("\n" * len(_BR.findall(content)) if _BRS.fullmatch(content)
                              else _clean(content))
        i += 1
    out = io.BytesIO()
    doc.save(out)
    return finished(out.getvalue(), replacing)


def _paragraph_style(lists: list[str], item_started: list[bool], quote: int) -> str | None:
    if lists:
        if item_started and item_started[-1]:
            return "List Continue" if len(lists) == 1 else f"List Continue {min(len(lists), 3)}"
        if item_started:
            item_started[-1] = True
        depth = min(len(lists), 3)
        return f"List {lists[-1]}" + (f" {depth}" if depth > 1 else "")
    return "Quote" if quote else None


_BR = re.compile(r"<br\s*/?>", re.I)
_BRS = re.compile(r"(?:<br\s*/?>\s*)+", re.I)
# A list item's own mark as read_file shows it ("a.", "iv.", "(b)", "2.1"), where CommonMark
# sees none: at the start of a line in a list item, it begins an item of the list below.
_SUB_MARK = re.compile(r"(?:\(?(?:[a-zA-Z]|[ivxlcdmIVXLCDM]{1,6}|[0-9]{1,3}(?:\.[0-9]{1,3})*)"
                       r"[.):]|[0-9]{1,3}(?:\.[0-9]{1,3})+)[ \t]+")


def _lines(inline: Token) -> list[Token]:
    """A table cell's inline Markdown, split at each <br> that text follows; one that
    another <br> or a blank follows, or nothing, is a line break (read_file shows a
    paragraph that ends in line breaks as "13.6%<br><br>", one that begins with a blank
    as "&#32;34,000", an empty paragraph as an empty line: "<br>Gross Income" begins with
    one, which comes back as an empty paragraph)."""
    children = inline.children or []
    breaks = [child.type == "html_inline" and _BR.fullmatch(child.content) is not None
              for child in children]
    return _split(inline, [brk and n + 1 < len(children) and not breaks[n + 1] and not (
        children[n + 1].type == "text" and children[n + 1].content[:1].isspace())
        for n, brk in enumerate(breaks)])


def sub_items(inline: Token) -> list[Token]:
    """A list item's paragraph, split where a line begins with a mark CommonMark does not
    read as one: read_file shows a lettered item below a numbered one as "  a. 2-a", which
    CommonMark joins to the item above as more of its text. Each part after the first is an
    item of the list below, its mark left to Word."""
    children = inline.children or []
    cuts = []
    for n, child in enumerate(children):
        after = children[n + 1] if n + 1 < len(children) else None
        mark = _SUB_MARK.match(after.content) if after is not None and \
            child.type == "softbreak" and after.type == "text" else None
        cut = bool(mark and after is not None and after.content[mark.end():].strip())
        if cut and mark and after is not None:
            after.content = after.content[mark.end():]
        cuts.append(cut)
    return _split(inline, cuts)


def _split(inline: Token, cuts: list[bool]) -> list[Token]:
    """`inline` split into one token per part, at the children marked in `cuts` (which go)."""
    from markdown_it.token import Token  # noqa: PLC0415 - document library

    if not any(cuts):
        return [inline]
    parts: list[list[Token]] = [[]]
    for child, cut in zip(inline.children or [], cuts):
        if cut:
            parts.append([])
        else:
            parts[-1].append(child)
    return [Token("inline", "", 0, children=part) for part in parts]


def _table(doc: Document, tokens: list[Token], i: int, bold_header: bool) -> int:
    """The table at tokens[i]; its header row bold in a new document (over a document,
    the Markdown is read_file's, which shows a bold cell as **bold**). A cell's lines
    (read_file joins a cell's paragraphs with <br>) are paragraphs of the cell."""
    rows: list[list[Token]] = []
    header_rows = 0
    while tokens[i].type != "table_close":
        tok = tokens[i]
        if tok.type == "tr_open":
            rows.append([])
        elif tok.type in ("th_open", "td_open"):
            rows[-1].append(tokens[i + 1])
            if tok.type == "th_open" and len(rows) > header_rows:
                header_rows = len(rows)
        i += 1
    width = max((len(r) for r in rows), default=0)
    if rows and width:
        table = doc.add_table(rows=len(rows), cols=width)
        table.style = "Table Grid"
        for r, row in enumerate(rows):
            for c, inline in enumerate(row):
                cell = table.cell(r, c)
                for n, part in enumerate(_lines(inline)):
                    add_inline(cell.paragraphs[0] if n == 0 else cell.add_paragraph(), part,
                               bold=bold_header and r < header_rows)
    return i + 1


def inline_pieces(inline: Token, bold: bool = False
                  ) -> Iterator[tuple[str, bool, bool, str | None, bool]]:
    """The texts of one token's inline Markdown, each with its look: (text, bold, italic,
    link or None, code). A soft break is a space, a hard break or <br> a line break; empty
    texts are left out, control characters are not (the writer cleans them)."""
    strong, em = int(bold), 0
    link: str | None = None
    for child in _joined(inline.children or []):
        kind = child.type
        if kind in ("strong_open", "strong_close"):
            strong += 1 if kind == "strong_open" else -1
        elif kind in ("em_open", "em_close"):
            em += 1 if kind == "em_open" else -1
        elif kind == "link_open":
            link = str(child.attrs.get("href") or "")
        elif kind == "link_close":
            link = None
        elif kind in ("text", "code_inline", "html_inline", "image", "softbreak", "hardbreak"):
            text = {"softbreak": " ", "hardbreak": "\n"}.get(kind, child.content)
            if kind == "html_inline" and _BR.fullmatch(text):
                text = "\n"   # a line break, as <br> is in HTML
            if text:
                yield text, strong > 0, em > 0, link, kind == "code_inline"


def add_inline(paragraph: Paragraph, inline: Token, bold: bool = False) -> None:
    """The inline Markdown of one token (strong, em, links, code) as runs of `paragraph`."""
    for text, strong, em, link, code in inline_pieces(inline, bold):
        if link:
            add_link(paragraph, link, _clean(text), strong, em)
            continue
        run = paragraph.add_run(_clean(text))
        run.bold = True if strong else None
        run.italic = True if em else None
        if code:
            run.font.name = _MONO


def _joined(children: list[Token]) -> list[Token]:
    """Neighbouring texts (a character reference or an escape is a text of its own) as one."""
    out: list[Token] = []
    for child in children:
        if child.type in ("text", "text_special") and out and out[-1].type == "text":
            out[-1] = out[-1].copy(content=out[-1].content + child.content)
        else:
            out.append(child.copy(type="text") if child.type == "text_special" else child)
    return out


def add_link(paragraph: Paragraph, url: str, text: str, bold: bool, italic: bool) -> None:
    """A real Word hyperlink (w:hyperlink with an external relationship), blue, underlined."""
    from docx.opc.constants import RELATIONSHIP_TYPE as RT  # noqa: PLC0415 - document library
    from docx.oxml import OxmlElement  # noqa: PLC0415 - document library
    from docx.oxml.ns import qn  # noqa: PLC0415 - document library

    r_id = paragraph.part.relate_to(url, RT.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), r_id)
    run = OxmlElement("w:r")
    props = OxmlElement("w:rPr")
    for tag, value in (("w:b", None) if bold else (None, None),
                       ("w:i", None) if italic else (None, None),
                       ("w:color", "0563C1"), ("w:u", "single")):
        if tag:
            element = OxmlElement(tag)
            if value:
                element.set(qn("w:val"), value)
            props.append(element)
    run.append(props)
    t = OxmlElement("w:t")
    t.text = text
    t.set(qn("xml:space"), "preserve")
    run.append(t)
    link.append(run)
    paragraph._p.append(link)  # type: ignore[arg-type]  # python-docx types CT_P children as CT_P
