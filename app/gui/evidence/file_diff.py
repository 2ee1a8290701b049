"""A readable before/after of one text file as HTML: removed lines red, added lines green, the
changed words of a rewritten line marked, unchanged stretches folded to a few lines of context.

Bounded, because it runs on files up to 1 MB: the lines are matched by app.core.tools.line_match
within a time bound; words are marked only in small rewritten blocks. Past a bound of time or
of changed lines, TooBig says "too big to compare here". Runs on a pool thread: no Qt here.
"""

from __future__ import annotations

import difflib
import html
import time
from typing import TypedDict

from app.core.clean_text import reveal
from app.core.tools.line_match import (CONTEXT, MAX_EDITS, TooBig, _check,  # noqa: F401
                                 grouped, matching_lines, opcodes)

TIME_LIMIT_S = 2.0  # past this the change is "too big to compare here"
MAX_CHANGED_LINES = 5000  # removed plus added lines shown at most
WORD_MARK_CHARS = 6000  # a rewritten block of more characters than this is shown by lines


def _words(line: str) -> list[str]:
    """Words with their following spaces, so joining them gives the line back."""
    out: list[str] = []
    word = ""
    for ch in line:
        if not ch.isspace() and word and word[-1].isspace():
            out.append(word)
            word = ch
        else:
            word += ch
    if word:
        out.append(word)
    return out


def _marked(old: str, new: str, removed_bg: str, added_bg: str) -> tuple[str, str]:
    """The two versions of a rewritten line with the changed words highlighted."""
    a, b = _words(old), _words(new)
    left, right = [], []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        before, after = html.escape("".join(a[i1:i2])), html.escape("".join(b[j1:j2]))
        if op == "equal":
            left.append(before)
            right.append(after)
            continue
        if before:
            left.append(f'<span style="background:{removed_bg};">{before}</span>')
        if after:
            right.append(f'<span style="background:{added_bg};">{after}</span>')
    return "".join(left), "".join(right)


class DiffColours(TypedDict):
    """diff_html's colours (CSS) and its sentence for a change of bytes only."""
    removed: str
    added: str
    muted: str
    removed_bg: str
    added_bg: str
    note_unchanged: str


def diff_html(before: str, after: str, *, removed: str, added: str, muted: str,
              removed_bg: str, added_bg: str, note_unchanged: str,
              time_limit_s: float = TIME_LIMIT_S) -> str:
    """The change from `before` to `after` as HTML rows (monospace, no wrapping of meaning).
    Raises TooBig past `time_limit_s` or MAX_CHANGED_LINES changed lines."""
    deadline = time.monotonic() + time_limit_s
    # Controls spelled out (\x1b, \u202e), not obeyed: a direction override would reorder
    # the line on screen, and what the person allows must read as what is written.
    a, b = [reveal(x) for x in before.splitlines()], [reveal(x) for x in after.splitlines()]
    groups = grouped(opcodes(matching_lines(a, b, deadline), len(a), len(b)))
    changed = sum(i2 - i1 + j2 - j1 for g in groups for tag, i1, i2, j1, j2 in g
                  if tag != "equal")
    if changed > MAX_CHANGED_LINES:
        raise TooBig()
    rows: list[str] = []

    def row(mark: str, text: str, colour: str | None, escaped: bool = False) -> None:
        body = text if escaped else html.escape(text)
        style = f' style="color:{colour};"' if colour else ""
        rows.append(f"<div{style}>{html.escape(mark)} {body or '&nbsp;'}</div>")

    for n, group in enumerate(groups):
        _check(deadline)
        if n:
            rows.append(f'<div style="color:{muted};">⋯</div>')
        for op, i1, i2, j1, j2 in group:
            if op == "equal":
                for line in a[i1:i2]:
                    row(" ", line, None)
            elif op == "replace" and i2 - i1 == j2 - j1 and \
                    sum(map(len, a[i1:i2])) + sum(map(len, b[j1:j2])) <= WORD_MARK_CHARS:
                for old, new in zip(a[i1:i2], b[j1:j2]):  # line for line: mark the words
                    left, right = _marked(old, new, removed_bg, added_bg)
                    row("−", left, removed, escaped=True)
                    row("+", right, added, escaped=True)
            else:
                for line in a[i1:i2]:
                    row("−", line, removed)
                for line in b[j1:j2]:
                    row("+", line, added)
    if not rows:
        rows.append(f'<div style="color:{muted};">{html.escape(note_unchanged)}</div>')
    return ('<div style="font-family:monospace; white-space:pre-wrap;">' + "".join(rows)
            + "</div>")
