"""A round's web sources in the exported summary, as Markdown: what it searched
for and each page it was given or read, as a link. HTML, PDF and ODT are made from this
Markdown (render.py), so the links are links in every format. No Qt here.
"""

from __future__ import annotations

from datetime import datetime
from typing import Callable

from app.export.words import date_time, plural, tr

WEB_SCHEMES = ("http://", "https://")


def sources_lines(web, lang: str, md_cell: Callable[[str], str]) -> list[str]:
    """The Markdown lines for one round's lookups; [] when it looked nothing up. `md_cell`
    escapes a text for Markdown on one line (markdown.md_cell)."""
    if web is None or web.empty:
        return []
    pages = [p for p in web.pages if not p.error]
    searches = max(web.search_count, len(web.searches))
    # A space after the bold label, in Chinese too: "**：**字" would not be bold (CommonMark).
    counts = tr(lang, "{searches}, {pages}",
                searches=plural(lang, searches, "{n} search", "{n} searches"),
                pages=plural(lang, len(pages), "{n} page read", "{n} pages read"))
    out = [f"**{tr(lang, 'Looked up:')}** {counts}", ""]
    for s in web.searches:
        found = (tr(lang, "the search failed") if s.error else
                 tr(lang, "found nothing") if s.results <= 0 else
                 plural(lang, s.results, "{n} result", "{n} results"))
        out.append("- " + tr(lang, "Searched for “{query}”: {found}", query=md_cell(s.query),
                             found=found))
    for p in web.pages:
        facts = [md_cell(p.site)] if p.site else []
        facts.append(tr(lang, "could not be read") if p.error else
                     tr(lang, "read in full") if p.fetched else tr(lang, "a search result"))
        when = _when(p.retrieved_at, lang)
        if when:
            facts.append(tr(lang, "retrieved {time}", time=when))
        out.append(f"- {link(p.title, p.url, md_cell)} — " + " · ".join(facts))
    return out + [""]


def link(title: str, url: str, md_cell: Callable[[str], str]) -> str:
    """A Markdown link to a web page; any other address is shown as text, never linked."""
    shown = md_cell(title.strip() or url)
    if not url.lower().startswith(WEB_SCHEMES):
        return shown
    # An angle-bracket destination: spaces, line breaks, control characters and angle
    # brackets inside the address are percent-encoded, so it cannot end the link early.
    target = "".join(f"%{ord(c):02X}" if ord(c) <= 0x20 or c in "<>\\" or ord(c) == 0x7F
                     else c for c in url)
    return f"[{shown}](<{target}>)"


def _when(stamp: str, lang: str) -> str:
    try:
        moment = datetime.fromisoformat(stamp).astimezone()
    except (TypeError, ValueError):
        return ""
    return date_time(moment, lang)
