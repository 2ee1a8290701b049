"""A readable before/after of one text file as HTML: removed lines red, added lines green, the
changed words of a rewritten line marked, unchanged stretches folded to a few lines of context."""

from __future__ import annotations

import difflib
import html

CONTEXT = 3  # unchanged lines shown around each change


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


def diff_html(before: str, after: str, *, removed: str, added: str, muted: str,
              removed_bg: str, added_bg: str, note_unchanged: str) -> str:
    """The change from `before` to `after` as HTML rows (monospace, no wrapping of meaning)."""
    a, b = before.splitlines(), after.splitlines()
    rows: list[str] = []

    def row(mark: str, text: str, colour: str | None, escaped: bool = False) -> None:
        body = text if escaped else html.escape(text)
        style = f' style="color:{colour};"' if colour else ""
        rows.append(f"<div{style}>{html.escape(mark)} {body or '&nbsp;'}</div>")

    groups = difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(CONTEXT)
    for n, group in enumerate(groups):
        if n:
            rows.append(f'<div style="color:{muted};">⋯</div>')
        for op, i1, i2, j1, j2 in group:
            if op == "equal":
                for line in a[i1:i2]:
                    row(" ", line, None)
            elif op == "replace" and i2 - i1 == j2 - j1:  # line for line: mark the words
                for old, new in zip(a[i1:i2], b[j1:j2]):
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
