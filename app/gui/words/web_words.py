"""A round's web lookups in words: the card's lines and the sentences the sources
view, the decision dialog and the approval use, translated through Qt.

A round's `web` (app.core.web.types.WebActivity) is summed over its replies by the loop;
these functions only read it, and say nothing at all for a round that looked nothing up.
Module-level tr() is filed by lupdate under the empty context, where it is looked up.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

CONTEXT = ""  # lupdate files a module-level tr() here (as app/gui/words/wording.py)
MAX_QUERIES = 3   # the card names this many searches, then "and N more"
MAX_SITES = 4


def tr(text: str, n: int = -1) -> str:
    return QCoreApplication.translate(CONTEXT, text, None, n)


def _count(n: int, one: str, many: str) -> str:
    """"1 search", "2 searches": English says the plural in full, so both are translated."""
    return (one if n == 1 else many).replace("%n", str(n))


def has_lookups(web) -> bool:
    return web is not None and not web.empty


def search_total(web) -> int:
    """The searches the service ran: those it billed, or those it reported if more."""
    return max(web.search_count, len(web.searches))


def pages_read(web) -> list:
    """The pages the round was given or read, without those the service could not fetch."""
    return [p for p in web.pages if not p.error]


def sites(web) -> list[str]:
    """The sites of the pages, in the order first seen, each once."""
    return list(dict.fromkeys(p.site for p in pages_read(web) if p.site))


def looked_up(web) -> str:
    """"Looked up: 2 searches, 3 pages read"."""
    searches, pages = search_total(web), len(pages_read(web))
    return tr("Looked up: %1, %2").replace(
        "%1", _count(searches, tr("%n search"), tr("%n searches"))).replace(
        "%2", _count(pages, tr("%n page read"), tr("%n pages read")))


def quoted(text: str) -> str:
    return tr("“%1”").replace("%1", " ".join(text.split()))


def card_lines(web) -> list[str]:
    """The lines a round card shows under its files: how much it looked up, what it searched
    for, and which sites it read. [] when the round looked nothing up."""
    if not has_lookups(web):
        return []
    lines = [looked_up(web)]
    queries = list(dict.fromkeys(s.query for s in web.searches if s.query.strip()))
    if queries:
        shown = tr(", ").join(quoted(q) for q in queries[:MAX_QUERIES])
        if len(queries) > MAX_QUERIES:
            shown += tr(" and %1 more").replace("%1", str(len(queries) - MAX_QUERIES))
        lines.append(tr("Searched for %1").replace("%1", shown))
    names = sites(web)
    if names:
        shown = tr(", ").join(names[:MAX_SITES])
        if len(names) > MAX_SITES:
            shown += tr(" and %1 more").replace("%1", str(len(names) - MAX_SITES))
        lines.append(tr("Sites: %1").replace("%1", shown))
    return lines


def search_result_words(search) -> str:
    """What one search brought back, in a few words."""
    if search.error:
        return tr("the search failed")
    if search.results <= 0:
        return tr("found nothing")
    return _count(search.results, tr("%n result"), tr("%n results"))


def page_words(page) -> str:
    """How the round had a page: read whole, only as a search result, or refused."""
    if page.error:
        return tr("could not be read")
    return tr("read in full") if page.fetched else tr("a search result")


def rests_on() -> str:
    return tr("This proposal rests on these sources")


def decision_rests_on() -> str:
    return tr("Looked up before the question was asked")


def made_up_note() -> str:
    return tr("Made up for the demo: the Demo engine looked nothing up, and nothing left this "
              "computer. The addresses are examples that belong to no one.")


def not_opened_note() -> str:
    return tr("The AI service looked these pages up, not Harness Desk. A link opens in your "
              "web browser.")
