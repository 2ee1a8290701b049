"""Which board lines start a task, as a CommonMark parser (markdown-it-py) sees them."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

# An unindented bullet, spacing, a checkbox, then whitespace or the end of the line.
_CANDIDATE = re.compile(r"[-*+]([ \t]+)\[[ xX]\](?=[ \t]|$)")
# A line that could open or close a fence, start an HTML block, or underline a setext
# heading, at the top level or inside any quote or list (their markers are in the class).
# These are the only constructs that can make an unindented candidate line not a task.
_SUSPECT = re.compile(r"[ \t>*+\-0-9.)]*(?:```|~~~|<|[=-]+[ \t]*$)|.*-->")
# ("-->" only marks where a comment likely ends, so one window covers it: see task_lines.)
_RARE = ("```", "~~~", "<", "-->")  # in every _SUSPECT line but a setext underline
_UNDERLINE = ("=", "-")
_NEAR = 3  # a suspect line at most this many candidates further joins the same window

_md: MarkdownIt | None = None


def _parser() -> MarkdownIt:
    global _md
    if _md is None:
        # Imported on first need: most boards never contain a line that needs the parser.
        from markdown_it import MarkdownIt  # noqa: PLC0415 - document library
        # Block structure only: which lines are list items is decided before inline parsing.
        _md = MarkdownIt("commonmark").disable(["inline", "text_join"])
    return _md


def parser_text(bodies: list[str]) -> str:
    """The board's lines as the parser should read them: one parser line per board line.

    The board ends lines only at LF (and CRLF); CommonMark also at a lone CR. A lone CR
    becomes a space so the parser's line numbers stay the board's line numbers.
    """
    return "".join(b.replace("\r", " ") + "\n" for b in bodies)


def _candidate(body: str) -> bool:
    m = _CANDIDATE.match(body)
    if not m:
        return False
    spacing = m.group(1)
    if spacing == " ":
        return True  # "- [ ]", nearly every task line
    # Five or more columns after the bullet make the rest an indented code block
    # (tabs count to the next multiple of 4, as markdown-it counts them).
    col = 1
    for ch in spacing:
        col = col + 1 if ch == " " else col + 4 - col % 4
    return col - 1 <= 4


def _parsed_tasks(bodies: list[str], start: int) -> set[int]:
    """Lines (offset by `start`) that open a top-level bullet item whose first block is a
    paragraph beginning on the bullet's own line."""
    tokens = _parser().parse(parser_text(bodies))
    found: set[int] = set()
    bullet = False
    for i, tok in enumerate(tokens):
        if tok.level == 0 and tok.type in ("bullet_list_open", "ordered_list_open"):
            bullet = tok.type == "bullet_list_open"
        elif tok.type == "list_item_open" and tok.level == 1 and bullet:
            first = tokens[i + 1]
            if first.type == "paragraph_open" and first.map and tok.map and \
                    first.map[0] == tok.map[0]:
                found.add(tok.map[0] + start)
    return found


def task_lines(bodies: list[str], *, parse_all: bool = False) -> list[int]:
    """Indexes of the lines (without line endings) that start a task, in order.

    A task line is an unindented bullet item with a checkbox at the top level of the
    document. Running markdown-it over a 2,000-task board takes ~200 ms, so it runs only
    on windows around lines that could change the answer (_SUSPECT). Elsewhere the
    answer is exact without it: with no fence, HTML block or setext underline anywhere,
    an unindented candidate always starts a top-level item (it interrupts a paragraph,
    closes quotes and lists, and cannot be a lazy continuation line), and that item's
    first block is a paragraph on the same line (it starts with "[").

    A window starts at the last candidate before the suspect line (or where the previous
    window ended) and ends at a later candidate that the parser sees as a task: that line
    closes every block before it, so lines on either side cannot influence each other.
    The first guess for the end lies past suspect lines that follow closely (a fence's
    closing line); if that candidate is swallowed (say, by an unclosed comment), the
    window doubles until one is not, or reaches the end.
    `parse_all` parses the whole board in one go (tests compare both ways).
    """
    text = [b.replace("\r", " ") for b in bodies] if any("\r" in b for b in bodies) else bodies
    if parse_all:
        return sorted(i for i in _parsed_tasks(text, 0) if _candidate(text[i]))
    cands = [i for i, b in enumerate(text) if _candidate(b)]
    joined = "\n".join(text)
    if any(mark in joined for mark in _RARE):
        suspects = [i for i, b in enumerate(text) if _SUSPECT.match(b)]
    else:  # no fence, HTML or comment anywhere: only a setext underline (ending in = or -)
        suspects = [i for i, b in enumerate(text)
                    if b.rstrip(" \t")[-1:] in _UNDERLINE and _SUSPECT.match(b)]
    if not suspects:
        return cands
    out: list[int] = []
    done = 0  # lines before this are decided
    for n, s in enumerate(suspects):
        if s < done:
            continue
        k = bisect_right(cands, s) - 1
        start = max(done, cands[k] if k >= 0 else 0)
        out += cands[bisect_left(cands, done):bisect_left(cands, start)]
        # First guess at the end: past the suspect lines that follow closely (a fence's or
        # comment's closing line), so most windows need one parse, not two.
        last, m = s, n + 1
        while m < len(suspects) and \
                bisect_right(cands, suspects[m]) - bisect_right(cands, last) <= _NEAR:
            last, m = suspects[m], m + 1
        j = bisect_right(cands, last)
        while True:
            end = cands[j] + 1 if j < len(cands) else len(text)
            found = _parsed_tasks(text[start:end], start)
            if j >= len(cands) or cands[j] in found:
                done = end - 1 if j < len(cands) else end
                out += sorted(i for i in found if i < done and _candidate(text[i]))
                break
            j = bisect_left(cands, start + 2 * (end - start))
    out += cands[bisect_left(cands, done):]
    return out


def last_block_start(bodies: list[str]) -> int | None:
    """The first line of the document's last top-level block (None for an empty one).

    Where a new task goes when the end of the board is inside a block that would hide it
    (an unclosed fence or comment). Rare, so the whole board is parsed.
    """
    tokens = _parser().parse(parser_text(bodies))
    return next((t.map[0] for t in reversed(tokens) if t.level == 0 and t.map), None)
