"""A PDF page's text as Markdown a model can read: paragraphs joined from their lines, bullet
glyphs as "- " list items, and a table kept as a table.

pypdf's layout mode places the text as it sits on the page: a blank line where the page
leaves a gap, columns of a table apart by runs of spaces. From that: lines of one block are
one paragraph, except after a line much shorter than the page's full lines (a heading, a
paragraph's last line); a line starting with a bullet glyph begins a list item, and the
more indented lines under it continue it; two or more lines in a row that split into the
same number (2+) of columns at the same places are a table (unless the first column is a
list's numbers: 1. 2. 3. or a. b. c.). Where layout mode fails on a
page, pypdf's plain text is read the same way (without the gaps and columns).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pypdf import PageObject

# Bullet glyphs as PDFs carry them: Symbol and Wingdings private-use codes, the DEL a
# Symbol bullet becomes in some fonts, WinAnsi's bullet code left undecoded, and the
# Unicode bullets.
BULLETS = "\u2022\u25cf\u25cb\u25e6\u25aa\u25a0\u25a1\u25ba\u27a2\u2023\u2043\u2219" \
          "\uf0b7\uf0a7\uf0d8\uf0fc\uf076\uf06e\uf0a8\x7f\x95\u00b7"
_BULLET = re.compile(rf"^\s*[{BULLETS}]\s*")
_NUMBERED = re.compile(r"^\s*(\d{1,3}|[a-zA-Z]|[ivxIVX]{1,5})[.)]\s")
_MARKER = re.compile(r"^(\d{1,3}|[a-zA-Z]|[ivxIVX]{1,5})[.)]$")
_GAP = re.compile(r"\S(?:.*?\S)?(?=\s{3,}|\s*$)")
_FULL = 0.75   # a line at least this share of the page's longest line runs on


def page_lines(page: PageObject) -> list[str]:
    try:
        text = page.extract_text(extraction_mode="layout")
    except Exception:   # noqa: BLE001 - layout mode trips on some fonts; plain text stays
        text = None
    if text is None or not text.strip():
        text = page.extract_text() or ""
    return markdown_lines(text)


def _cells(line: str) -> list[tuple[int, str]]:
    return [(m.start(), m.group(0)) for m in _GAP.finditer(line)]


def markdown_lines(text: str) -> list[str]:
    raw = [line.rstrip() for line in text.replace("\r", "").split("\n")]
    if not any(raw):
        return []
    longest = max(len(line.strip()) for line in raw)
    out: list[str] = []
    i = 0
    while i < len(raw):
        table = _table_at(raw, i)
        if table:
            rows = [[cell.replace("|", "\\|") for _at, cell in _cells(raw[j])]
                    for j in range(i, i + table) if raw[j].strip()]
            if out and out[-1]:
                out.append("")
            out.append("| " + " | ".join(rows[0]) + " |")
            out.append("|" + " --- |" * len(rows[0]))
            out.extend("| " + " | ".join(row) + " |" for row in rows[1:])
            out.append("")
            i += table
            continue
        _text_line(raw, i, longest, out)
        i += 1
    while out and not out[-1]:
        out.pop()
    return [line for n, line in enumerate(out) if line or (n and out[n - 1])]


def _table_at(raw: list[str], i: int) -> int:
    """How many lines from i form a table (0: none); a single blank line between two rows
    (a table without borders leaves gaps) belongs to it."""
    first = _cells(raw[i])
    if len(first) < 2 or _BULLET.match(raw[i]):
        return 0
    starts = [at for at, _cell in first]
    rows, n, end = 1, i + 1, i + 1
    while n < len(raw):
        if not raw[n].strip() and n + 1 < len(raw) and raw[n + 1].strip():
            n += 1
        cells = _cells(raw[n])
        if len(cells) != len(starts) or any(abs(at - s) > 2 for (at, _c), s in
                                            zip(cells, starts)):
            break
        rows, n, end = rows + 1, n + 1, n + 1
    if rows < 2 or all(_MARKER.match(_cells(raw[j])[0][1]) for j in range(i, end)
                       if raw[j].strip()):
        return 0   # one row, or a numbered list with its numbers apart from the text
    return end - i


def _text_line(raw: list[str], i: int, longest: int, out: list[str]) -> None:
    line = raw[i]
    if not line.strip():
        out.append("")
        return
    text = " ".join(line.split())
    if out and out[-1] == "- ":
        out[-1] += text   # a bullet on a line of its own: its text is on the next line
        return
    bullet = _BULLET.match(line)
    joins = out and out[-1] and i and raw[i - 1].strip() and not _NUMBERED.match(text)
    if bullet:
        out.append("- " + " ".join(line[bullet.end():].split()))
        return
    if joins:
        before = raw[i - 1]
        in_item = out[-1].startswith("- ") and _indent(line) > _indent(before) - 1 and \
            _indent(line) > 0
        full = len(before.strip()) >= _FULL * longest
        if (full or in_item) and not _table_at(raw, i - 1):
            last = out[-1]
            if last.endswith("-") and len(last) > 1 and last[-2].isalpha() and text[:1].islower():
                out[-1] = last[:-1] + text   # a word hyphenated across the line break
            else:
                out[-1] = last + " " + text
            return
    out.append(text)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())
