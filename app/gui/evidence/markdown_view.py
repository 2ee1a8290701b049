"""Markdown as a person reads it (headings, lists, tables), safely, with its source a click away.

The HTML is made off the UI thread by markdown-it-py with raw HTML turned off, so a
`<script>` or an `<img onerror=…>` in a file shows as text; the browser loads no resource at
all (no picture from the web or from elsewhere on the disk) and follows no link.
"""

from __future__ import annotations

import re

from PySide6.QtWidgets import QTextBrowser, QWidget

MARKDOWN_SUFFIXES = (".md", ".markdown")
MAX_RENDERED_CHARS = 400_000


def is_markdown(name: str) -> bool:
    return name.lower().endswith(MARKDOWN_SUFFIXES)


def markdown_html(text: str, rule: str = "#999999", muted: str = "#5c6470") -> str:
    """Safe on any thread: the Markdown as HTML, raw HTML escaped, links and pictures inert;
    `rule` is the colour of table lines and `muted` the quieter text grey (read from the
    palette on the UI thread). Emphasis is shown in the muted grey, never slanted (Chinese
    has no italic: Qt would fake one), and a line break between two Chinese characters
    joins them without a space, as Chinese is written."""
    from markdown_it import MarkdownIt  # noqa: PLC0415 - document library

    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable(
        ["table", "strikethrough"])
    # Pictures become their words: nothing is fetched to show one.
    md.add_render_rule("image", lambda _self, tokens, idx, options, env: "[" + _escape(
        tokens[idx].content or "") + "]")
    md.add_render_rule("em_open", lambda *_a: f'<span style="color: {muted};">')
    md.add_render_rule("em_close", lambda *_a: "</span>")
    md.add_render_rule("softbreak", _soft_break)
    html = md.render(text).replace("<table>", f'<table border="1" cellspacing="0" '
                                              f'cellpadding="4" style="border-color: {rule};">')
    return html


_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]")


def _soft_break(_self, tokens, idx, _options, _env) -> str:
    """A line break inside a paragraph: nothing between two Chinese characters (or their
    full-width punctuation), else the usual line break that reads as a space."""
    before = next((t.content for t in reversed(tokens[:idx]) if t.content), "")
    after = next((t.content for t in tokens[idx + 1:] if t.content), "")
    if before and after and _CJK.match(before[-1]) and _CJK.match(after[0]):
        return ""
    return "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class MarkdownBrowser(QTextBrowser):
    """A read-only rendered view that loads nothing and opens nothing."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)

    def loadResource(self, kind: int, name):  # noqa: N802 (Qt's name)
        return None  # no picture, style sheet or page from anywhere
