"""A Word paragraph's own characters, shown so that Markdown reads them back as themselves.

read_file shows a Word document as Markdown, and write_file reads Markdown back (word_write,
CommonMark). A paragraph that holds Markdown's own characters would come back changed: the
text `\\\\server\\_old` as `\\server_old`, `*note*` in italics, `1. First` typed by hand as a
numbered list, `&amp;` as `&`. So the characters that would be read as Markdown get a
backslash before them, and only those: `snake_case`, `5 * 3`, `C:\\Users` and `[1]` stay as
they are. The backslashes are marks (not the document's text): edit_file finds text with or
without them, and the change view shows the text without them.

A paragraph's leading spaces, tabs and other blanks (Chinese text's full-width indent) would
be dropped by Markdown, which strips the start of a paragraph: the first of them (and every
tab, which the plain text holds as a space) is shown as a character reference (`&#32;`,
`&#9;`, `&#12288;`), which CommonMark reads back as the character itself. The references are
marks too: edit_file reads them as the blanks they stand for.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.core.documents.word_text import Line

PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")   # a backslash before ASCII punctuation

_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_LINK_AHEAD = re.compile(r"[^\]]*\]\(")   # [text](…); [a][b] needs a definition, never made
# What begins a block when it begins a paragraph; the group is the character escaped.
_BLOCK_STARTS = (
    re.compile(r"(#){1,6}(?:\s|$)"),            # a heading
    re.compile(r"([>+*-])(?:\s|$)"),            # a quote, a list item
    re.compile(r"[0-9]{1,9}([.)])(?:\s|$)"),    # a numbered list item
    re.compile(r"([-*_])(?:\s*[-*_]){2,}\s*$"),  # a rule (all one character: checked below)
    re.compile(r"(~)~~"),                       # a fenced code block
    re.compile(r"(\[)[^\]]+\]:"),                 # a link's definition
)
_CLOSING_HASHES = re.compile(r"\s(#)#*$")       # a heading's optional closing sequence


def escaped(line: Line, block: bool = True, heading: bool = False) -> Line:
    """`line` (a paragraph's inline rendering, marks and all) with a backslash mark before
    each of the paragraph's own characters that Markdown would otherwise read as a mark.
    `block`: the line begins a block (where `# `, `- `, `1. ` or `> ` would start one; not
    in a table cell, nor after a heading's #s); `heading`: the line follows a heading's #s
    (whose closing #s Markdown drops)."""
    chars, pos = line.chars, line.pos
    text = "".join(chars)
    marked = _block_start(text, pos) if block else set()
    if heading:
        marked |= _closing_hash(text, pos)
    for i, char in enumerate(chars):
        if pos[i] != -1 and char in PUNCTUATION and _needs(text, i):
            marked.add(i)
    if not marked:
        return line
    out = type(line)()
    for i, (char, at) in enumerate(zip(chars, pos)):
        if i in marked:
            out.add("\\")
        out.chars.append(char)
        out.pos.append(at)
    return out


def unescaped(text: str) -> str:
    """Markdown's backslash escapes taken off (`\\*` -> `*`), leading blanks given back."""
    return ESCAPED.sub(r"\1", blanks(text))


# A blank shown as a character reference: only blanks are ever shown so (a reference the
# document's own text holds is escaped, `\&#32;`), so only those are read back.
BLANK = re.compile(r"(?<!\\)&#([0-9]{1,5});")


def lead_kept(line: Line, tabs: set[int], breaks: set[int]) -> tuple[Line, Line]:
    """(the blanks that begin `line`, shown so Markdown keeps them; the rest of `line`,
    stripped). The first blank and every tab are shown as character references, whose `&`
    stands for the blank and the rest of it is a mark: after the first, Markdown keeps a
    blank as it is. `tabs`: the positions in the plain text that are tabs (a tab reads as
    a space there); `breaks`: those that are breaks (a page break there is no blank)."""
    body = line.strip()
    lead = type(line)()
    for char, at in zip(line.chars[:len(line.text) - len(line.text.lstrip())], line.pos):
        if at < 0 or at in breaks:
            continue
        if lead.chars and at not in tabs:
            lead.add(char, at)
            continue
        lead.add("&", at)
        lead.add(f"#{9 if at in tabs else ord(char)};")
    return lead, body


def blanks(text: str) -> str:
    """The blanks shown as character references (`&#32;`) as the blanks they stand for; a
    tab as a space, as the plain text has it."""
    return BLANK.sub(_blank, text)


def _blank(m: re.Match[str]) -> str:
    char = chr(int(m.group(1)))
    return " " if char == "\t" else char if char.isspace() else m.group(0)


# An escaped character held as a private-use character while marks are read around it, so
# nothing takes it for a mark; `UNHOLD` (for str.translate) gives it back.
_HOLD = {ord(c): 0xF0000 + ord(c) for c in PUNCTUATION}
UNHOLD: dict[int, int] = {held: char for char, held in _HOLD.items()}


def held(text: str) -> str:
    """`text` with each escaped character (`\\*`) as its stand-in, its backslash gone, and
    each blank shown as a character reference as itself."""
    return blanks(ESCAPED.sub(lambda m: m.group(1).translate(_HOLD), text))


def _needs(text: str, i: int) -> bool:
    char = text[i]
    before = text[i - 1] if i else " "
    after = text[i + 1] if i + 1 < len(text) else " "
    if char == "\\":
        return after in PUNCTUATION
    if char in "*_":  # a run of them: emphasis, unless it can neither open nor close one
        start, end = i, i + 1
        while start and text[start - 1] == char:
            start -= 1
        while end < len(text) and text[end] == char:
            end += 1
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        if before.isspace() and after.isspace():   # "5 * 3", "Name: ______"
            return False
        return char == "*" or not (before.isalnum() and after.isalnum())  # "snake_case"
    if char == "`":
        return True
    if char == "<":   # a tag or an autolink
        return after.isascii() and (after.isalpha() or after in "/!?")
    if char == "&":
        return _ENTITY.match(text, i) is not None
    if char == "[":   # a link: [text](…), [text][…] or [text]: …
        return _LINK_AHEAD.match(text, i + 1) is not None
    return False


def _block_start(text: str, pos: list[int]) -> set[int]:
    if not text or pos[0] == -1:
        return set()
    for pattern in _BLOCK_STARTS:
        m = pattern.match(text)
        if m and (pattern is not _BLOCK_STARTS[3] or len(set(text) - set(" \t")) == 1):
            at = m.start(1)
            return {at} if pos[at] != -1 else set()
    return set()


def _closing_hash(text: str, pos: list[int]) -> set[int]:
    m = _CLOSING_HASHES.search(text)
    return {m.start(1)} if m and pos[m.start(1)] != -1 else set()
