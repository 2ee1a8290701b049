"""What a round looked up on the web: the searches, the pages read, and the
sentences that cite them. Engine-neutral: each engine that can look things up (Claude's
server tools web_search / web_fetch, OpenAI's built-in web_search) fills a WebActivity on
its ModelTurn from the reply; the loop adds them up per round (RoundRecord.web), and the
card, the evidence, the approval and the export show them.

The engines never fetch anything themselves: the services do, so no URL is ever opened by
this app. `retrieved_at` is what the service says (Claude's `retrieved_at`/`page_age`),
or when the reply arrived when it says nothing.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from pydantic import Field

from app.core.records.model import Record


class WebSearch(Record):
    """One search the service ran for the model."""

    query: str
    results: int = 0          # how many results came back (0: the search found nothing)
    error: str = ""           # the service's error code when the search failed, else ""


class WebPage(Record):
    """One page the round saw: a search result it was given or a page it fetched."""

    url: str
    title: str = ""
    retrieved_at: str = ""    # ISO 8601, or "" when unknown
    fetched: bool = False     # True: the page was read whole (web_fetch); False: a search hit
    error: str = ""           # a fetch the service refused or could not make: its code

    @property
    def site(self) -> str:
        """The site a person recognises: the host without a leading "www."."""
        host = urlsplit(self.url).hostname or ""
        return host[4:] if host.startswith("www.") else host


class WebCitation(Record):
    """A sentence of the model's answer and the source it cites."""

    url: str
    title: str = ""
    cited_text: str = ""      # the words of the page the service quotes
    sentence: str = ""        # the model's own sentence that rests on it


class WebActivity(Record):
    """Everything one reply (or, summed, one round) looked up."""

    searches: list[WebSearch] = Field(default_factory=list)
    pages: list[WebPage] = Field(default_factory=list)
    citations: list[WebCitation] = Field(default_factory=list)
    search_count: int = 0     # billed searches (Claude: usage.server_tool_use.web_search_requests)
    fetch_count: int = 0      # fetches (Claude: usage.server_tool_use.web_fetch_requests)

    def __add__(self, other: "WebActivity") -> "WebActivity":
        return WebActivity(searches=self.searches + other.searches,
                           pages=_unique_pages(self.pages + other.pages),
                           citations=self.citations + other.citations,
                           search_count=self.search_count + other.search_count,
                           fetch_count=self.fetch_count + other.fetch_count)

    @property
    def lookups(self) -> int:
        """Searches and fetches together: what the per-task cap counts."""
        return self.search_count + self.fetch_count

    @property
    def empty(self) -> bool:
        return not (self.searches or self.pages or self.citations
                    or self.search_count or self.fetch_count)

    def seen_urls(self) -> set[str]:
        """Every URL the round really retrieved or was given: what evidence may name."""
        return {p.url for p in self.pages if not p.error} | {c.url for c in self.citations}


def _unique_pages(pages: list[WebPage]) -> list[WebPage]:
    """One entry per URL: a page read whole preferred over a search hit, and a search hit
    over a fetch the service refused (the page was still seen)."""
    out: dict[str, WebPage] = {}
    for page in pages:
        have = out.get(page.url)
        if have is None or _rank(page) > _rank(have):
            out[page.url] = page
    return list(out.values())


def _rank(page: WebPage) -> int:
    return 0 if page.error else 2 if page.fetched else 1


DEFAULT_MAX_LOOKUPS = 20  # searches and fetches one task may make in a run (Limits.max_lookups)


class WebAccess(Record):
    """What the loop lets an engine offer on a task with lookups on (None: no web tool at
    all). The same every step of a task's rounds, so the tools' definitions, and with them
    the cached prefix of every request, stay byte-identical; the loop counts the lookups."""

    max_uses: int = DEFAULT_MAX_LOOKUPS          # per request: the service's own stop
    allowed_domains: list[str] = Field(default_factory=list)  # only these sites, when any
    blocked_domains: list[str] = Field(default_factory=list)  # never these sites
