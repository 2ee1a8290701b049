"""A change to a Word document as the person would see it in Word with track changes on: the
document formatted (headings, bold, italic, lists, tables), inserted words underlined in the
added colour, deleted words struck through in the removed colour, a paragraph whose words
stayed but whose formatting changed marked as such. Unchanged stretches fold to a few
paragraphs around each change.

Both versions are read through the document reader (word.py, via its Markdown rendering:
every text it shows, text boxes, notes and tracked changes included), so what is compared
is what read_file shows. Builds a small HTML subset for a text browser; everything escaped.
A PDF's rendering (pdf_text: paragraphs, list items, tables) is compared the same way, its
text taken literally (`literal`: a *, [ or > in a PDF is a character, not a mark).
"""

from __future__ import annotations

import difflib
import itertools
import re
import time
from html import escape

from app.core.documents.word_escape import UNHOLD, held
from app.core.documents.word_text import LOOK, LOOK_END
from app.core.tools.line_match import grouped, matching_lines, opcodes

CONTEXT = 3            # unchanged paragraphs shown around each change
WHOLE_BELOW = 80       # a document of fewer paragraphs is shown whole
WORD_MARK_CHARS = 6000  # a longer rewritten paragraph is shown removed, then added
MAX_BLOCKS = 1500      # paragraphs shown at most
FIRST = "first-change"  # the anchor before the first change

_HEADING = re.compile(r"^(#{1,6}) (.*)$")
_ITEM = re.compile(r"^( *)(-|[•◦▪]|\w{1,6}[.)]) (.*)$")
_ROW_RULE = re.compile(r"^\|(\s*:?-{3,}:?\s*\|)+\s*$")
_LINK = re.compile(r"\[([^\[\]]*)\]\(([^)\s]*)\)")
_MARKS = re.compile(r"\*\*\*|\*\*|\*|\[(?:inserted|deleted): |\]|\ufdd3[^\ufdd4]*\ufdd4|\ufdd5")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_WORD = re.compile(r"(?:(?!<br>)\S)+\s*|<br>\s*|\s+")
# A literal text's *, [ and > stand in as noncharacters (never in a document's text) while it
# is compared, so no mark or quote is read into them; they are put back as the HTML is written.
_LITERAL = str.maketrans({"*": "\ufdd0", "[": "\ufdd1", ">": "\ufdd2"})
# A character the rendering escapes (word_escape: `\*`, `\#`, `\|`) is the text's own: it
# stands in as a private-use character the same way, and is shown without its backslash.
_UNLITERAL: dict[int, int] = {0xFDD0: ord("*"), 0xFDD1: ord("["), 0xFDD2: ord(">"), **UNHOLD}


def blocks_of(markdown: str) -> list[str]:
    """The rendering's paragraphs and table rows, one per line (rules and gaps left out)."""
    return [line for line in markdown.splitlines() if line.strip() and
            not _ROW_RULE.match(line.strip())]


# -- a paragraph's words with their look -----------------------------------------------------
# A word's look: bold, italic, inside a link, the tracked changes around it ("inserted",
# "deleted", innermost last) and the run's underline and colour ("u#C00000", or "").
Look = tuple[bool, bool, bool, tuple[str, ...], str]
Token = tuple[str, Look]  # (word with its trailing space, its look)


def tokens(inline: str) -> list[Token]:
    """The words of one paragraph's Markdown, each with its bold, italic, link and tracked
    change ("inserted"/"deleted" already in the document) as the rendering marks them."""
    inline = _LINK.sub(lambda m: "\x01" + m.group(1) + "\x02", inline)
    out: list[Token] = []
    bold = italic = link = False
    tracked: list[str] = []
    look = ""   # the run's underline and colour (word_text.LOOK), "u#C00000"
    pos = 0
    for m in _MARKS.finditer(inline):
        out.extend(_words(inline[pos:m.start()], (bold, italic, link, tuple(tracked), look)))
        pos = m.end()
        mark = m.group(0)
        if mark.startswith(LOOK):
            look = mark[1:-1]
        elif mark == LOOK_END:
            look = ""
        elif mark.startswith("[") and mark != "]":
            tracked.append("inserted" if "inserted" in mark else "deleted")
        elif mark == "]":
            if tracked:
                tracked.pop()
            else:
                out.extend(_words("]", (bold, italic, link, tuple(tracked), look)))
        else:
            before = inline[m.start() - 1] if m.start() else " "
            after = inline[m.end()] if m.end() < len(inline) else " "
            closing = ((bold and len(mark) >= 2) or (italic and len(mark) in (1, 3)))
            if (closing and before.isspace()) or (not closing and after.isspace()):
                out.extend(_words(mark, (bold, italic, link, tuple(tracked), look)))  # a *
                continue
            if len(mark) >= 2:
                bold = not bold
            if len(mark) in (1, 3):
                italic = not italic
    out.extend(_words(inline[pos:], (bold, italic, link, tuple(tracked), look)))
    merged: list[Token] = []
    for word, word_look in _linked(out):
        word = word.replace("\x01", "").replace("\x02", "")
        if merged and not _line_break(word) and not _line_break(merged[-1][0]) and (
                not word.strip() or not merged[-1][0][-1:].isspace()):
            merged[-1] = (merged[-1][0] + word, merged[-1][1])  # a space or a word's rest
        elif word:
            merged.append((word, word_look))
    return merged


def _linked(items: list[Token]) -> list[Token]:
    """The words between \\x01 and \\x02 (a link's text) get the link look."""
    out: list[Token] = []
    inside = False
    for word, (b, i, _link, t, look) in items:
        if "\x01" in word:
            inside = True
        out.append((word, (b, i, inside, t, look)))
        if "\x02" in word:
            inside = False
    return out


def _words(text: str, look: Look) -> list[Token]:
    """A cell's <br> is a word of its own: a changed line is marked within its line."""
    return [(w, look) for w in _WORD.findall(text)]


def _line_break(word: str) -> bool:
    return word.startswith("<br>")


def plain(line: str) -> str:
    return "".join(w for w, _ in tokens(line))


# -- HTML ----------------------------------------------------------------------------------
def _joined(items: list[tuple[str, Look, str]], colours: dict[str, str]) -> str:
    """Words with the same look and mark in one run: (word, look, change) -> HTML."""
    return "".join(_styled("".join(word for word, _look, _change in run), look, colours, change)
                   for (look, change), run in itertools.groupby(items, lambda x: (x[1], x[2])))


def _styled(word: str, look: Look, colours: dict[str, str], change: str = "") -> str:
    bold, italic, link, tracked, drawn = look
    # <br>: a line break read_file shows (one typed in the text is escaped, held as itself)
    text = "<br>".join(escape(part.translate(_UNLITERAL)) for part in word.split("<br>"))
    if bold:
        text = f"<b>{text}</b>"
    if italic:
        text = f"<i>{text}</i>"
    if link or "u" in drawn:
        text = f"<u>{text}</u>"
    if "#" in drawn:   # the run's own colour, as Word draws it
        text = f'<span style="color:{escape(drawn[drawn.index("#"):])};">{text}</span>'
    for kind in tracked:  # a change already tracked in the document, as Word shows it
        text = _mark(text, kind, colours)
    if change:
        text = _mark(text, change, colours)
    return text


def _mark(text: str, change: str, colours: dict[str, str]) -> str:
    if change == "inserted":
        return (f'<ins style="color:{colours["added"]};text-decoration:underline;">'
                f'<u>{text}</u></ins>')
    if change == "deleted":
        return (f'<del style="color:{colours["removed"]};text-decoration:line-through;">'
                f"<s>{text}</s></del>")
    return f'<span style="background-color:{colours["changed_bg"]};">{text}</span>'


def _inline_html(old: str | None, new: str | None,
                 colours: dict[str, str]) -> tuple[str, bool]:
    """One paragraph (or cell) from `old` to `new` with its words marked; and whether only
    its formatting changed."""
    if old is None or new is None:
        line, change = (new, "inserted") if old is None else (old, "deleted")
        return _joined([(w, look, change) for w, look in tokens(line or "")], colours), False
    a, b = tokens(old), tokens(new)
    if old == new:
        return _joined([(w, look, "") for w, look in b], colours), False
    if len(old) + len(new) > WORD_MARK_CHARS:
        return (_inline_html(old, None, colours)[0] + " " + _inline_html(None, new, colours)[0],
                False)
    words_a, words_b = [w.strip() for w, _ in a], [w.strip() for w, _ in b]
    only_look = words_a == words_b
    out: list[tuple[str, Look, str]] = []
    matcher = difflib.SequenceMatcher(None, words_a, words_b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            for (_, look_a), (word, look_b) in zip(a[i1:i2], b[j1:j2]):
                out.append((word, look_b, "" if look_a == look_b else "look"))
            continue
        out.extend((w, look, "deleted") for w, look in a[i1:i2])
        out.extend((w, look, "inserted") for w, look in b[j1:j2])
    return _joined(out, colours), only_look


def _cells(line: str) -> list[str]:
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return [c.strip() for c in _CELL_SPLIT.split(body)]


def _block(old: str | None, new: str | None, words: dict[str, str],
           colours: dict[str, str]) -> tuple[str, str]:
    """("row", cells HTML) for a table row, else ("p", a paragraph's HTML)."""
    line = new if new is not None else old or ""
    if line.lstrip().startswith("|"):
        a = _cells(old) if old is not None else None
        b = _cells(new) if new is not None else None
        n = max(len(a or []), len(b or []))
        tds = []
        for k in range(n):
            ca = a[k] if a is not None and k < len(a) else (None if a is None else "")
            cb = b[k] if b is not None and k < len(b) else (None if b is None else "")
            tds.append(f"<td>{_inline_html(ca, cb, colours)[0]}</td>")
        return "row", "".join(tds)
    shape = _shape(line)
    old_body = _shape(old)[2] if old is not None else None
    new_body = _shape(new)[2] if new is not None else None
    body, only_look = _inline_html(old_body, new_body, colours)
    if old is not None and new is not None and old != new and old_body == new_body:
        only_look = True  # the same words, another heading level, list level or quote
    if only_look:
        body += (f' <span style="color:{colours["muted"]};">'
                 f'{escape(words["formatting_changed"])}</span>')
    tag, style, _ = shape
    return "p", f"<{tag}{style}>{body}</{tag}>"


def _shape(line: str) -> tuple[str, str, str]:
    """(tag, style attribute, inline Markdown) of one paragraph."""
    heading = _HEADING.match(line)
    if heading:
        return f"h{len(heading.group(1))}", "", heading.group(2)
    item = _ITEM.match(line)
    if item:
        level = len(item.group(1)) // 2
        mark = "•" if item.group(2) in ("-", "•") else item.group(2)
        return "p", f' style="margin-left:{18 * (level + 1)}px;"', f"{mark} {item.group(3)}"
    if line.startswith("> "):
        return "p", ' style="margin-left:18px;font-style:italic;"', line[2:]
    return "p", "", line


def document_html(before: str, after: str, words: dict[str, str], colours: dict[str, str],
                  deadline: float | None = None, literal: bool = False) -> tuple[str, int]:
    """The change from the rendering `before` to `after` as a formatted document; and how
    many paragraphs changed (0: the text and its look are the same). `literal`: the text
    has no bold, italic, link or tracked-change marks (a PDF's)."""
    if literal:
        before, after = before.translate(_LITERAL), after.translate(_LITERAL)
    else:
        before, after = held(before), held(after)
    a, b = blocks_of(before), blocks_of(after)
    deadline = deadline if deadline is not None else time.monotonic() + 5.0
    codes = opcodes(matching_lines(a, b, deadline), len(a), len(b))
    context = max(len(a), len(b)) if max(len(a), len(b)) < WHOLE_BELOW else CONTEXT
    groups = grouped(codes, context)
    changed = sum(max(i2 - i1, j2 - j1) for g in groups for op, i1, i2, j1, j2 in g
                  if op != "equal")
    items: list[tuple[str, str]] = []
    anchored = False
    for n, group in enumerate(groups):
        if n or group[0][1] > 0 or group[0][3] > 0:
            items.append(("p", f'<p style="color:{colours["muted"]};">⋯</p>'))
        for op, i1, i2, j1, j2 in group:
            if op == "equal":
                items.extend(_block(line, line, words, colours) for line in b[j1:j2])
                continue
            start = len(items)
            if op == "replace" and i2 - i1 == j2 - j1:
                items.extend(_block(x, y, words, colours) for x, y in zip(a[i1:i2], b[j1:j2]))
            else:
                items.extend(_block(x, None, words, colours) for x in a[i1:i2])
                items.extend(_block(None, y, words, colours) for y in b[j1:j2])
            if not anchored and len(items) > start:
                # The window scrolls to the first change, with the paragraph before it.
                at = start - 1 if start and items[start - 1][0] == "p" else start
                kind, html = items[at]
                items[at] = (kind, html.replace(">", f'><a name="{FIRST}"></a>', 1))
                anchored = True
            if len(items) > MAX_BLOCKS:
                break
    if groups and (groups[-1][-1][2] < len(a) or groups[-1][-1][4] < len(b)):
        items.append(("p", f'<p style="color:{colours["muted"]};">⋯</p>'))
    out: list[str] = []
    rows: list[str] = []
    for kind, html in items + [("end", "")]:
        if kind == "row":
            rows.append(f"<tr>{html}</tr>")
            continue
        if rows:
            out.append('<table border="1" cellspacing="0" cellpadding="4">' + "".join(rows)
                       + "</table>")
            rows = []
        out.append(html)
    return "".join(out), changed
