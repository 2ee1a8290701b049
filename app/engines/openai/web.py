"""OpenAI's built-in web search, offered only on a task that may look things up,
and what a response looked up, read into a WebActivity.

Shapes as the openai SDK installed by pyproject.toml defines them: the tool is
WebSearchToolParam (`type: "web_search"`, `filters.allowed_domains`; the Responses API has
no block list for it, so the person's blocked sites cannot be passed on, and a run on a
task that may look things up says so); output items are ResponseFunctionWebSearch
(`web_search_call` with an `action` of type search / open_page / find_in_page, the search's
`sources` only when the request includes "web_search_call.action.sources"); message text
carries AnnotationURLCitation (`url_citation`: url, title, start_index, end_index). The
service runs the searches itself: nothing here opens a URL.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from app.core.web.types import WebAccess, WebActivity, WebCitation, WebPage, WebSearch

INCLUDE_SOURCES = "web_search_call.action.sources"
_ANNOTATION_FIELDS = ("end_index", "start_index", "title", "type", "url")


def web_tool(access: WebAccess) -> dict[str, Any]:
    """The web_search tool's definition for a task that may look things up."""
    tool: dict[str, Any] = {"type": "web_search"}
    if access.allowed_domains:
        tool["filters"] = {"allowed_domains": list(access.allowed_domains)}
    return tool


def search_call_item(item: dict[str, Any]) -> dict[str, Any]:
    """A web_search_call output item as the Responses API takes it back in `input`
    (ResponseFunctionWebSearchParam): as it came, its nulls left out."""
    action = {k: v for k, v in (item.get("action") or {}).items() if v is not None}
    return {"type": "web_search_call", "id": item.get("id"), "status": item.get("status"),
            "action": action}


def annotations_param(annotations: list[Any]) -> list[dict[str, Any]]:
    """An output_text part's url_citation annotations as the API takes them back (other
    annotation kinds, file citations of tools we never offer, are not kept)."""
    return [{k: a.get(k) for k in _ANNOTATION_FIELDS} for a in annotations or []
            if isinstance(a, dict) and a.get("type") == "url_citation"]


def cut_off_activity(items: list[dict[str, Any]]) -> WebActivity | None:
    """What a response that broke off mid-stream had the service look up, as counts only:
    each web_search_call item it finished (response.output_item.done, status completed) is
    a search or a page read the service ran and bills. The response is not used, so its
    sources are not kept. None when it looked nothing up."""
    done = web_activity({"output": [i for i in items if i.get("status") == "completed"]})
    if done is None:
        return None
    return WebActivity(search_count=done.search_count, fetch_count=done.fetch_count)


def web_activity(response: dict[str, Any]) -> WebActivity | None:
    """What one response looked up (None: nothing): each web_search_call's queries and
    sources or the page it opened, and the sentences of its messages that cite a page."""
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    web = WebActivity()
    for item in response.get("output") or []:
        kind = item.get("type")
        if kind == "web_search_call":
            action = item.get("action") or {}
            failed = item.get("status") == "failed"
            if action.get("type") == "search":
                sources = [s.get("url") for s in action.get("sources") or [] if s.get("url")]
                query = action.get("query") or "; ".join(action.get("queries") or [])
                web.searches.append(WebSearch(query=query, results=len(sources),
                                              error="failed" if failed else ""))
                web.pages += [WebPage(url=u, retrieved_at=now) for u in sources]
                web.search_count += 1
            elif action.get("url"):  # open_page, find_in_page: a page read
                web.pages.append(WebPage(url=action["url"], fetched=True, retrieved_at=now,
                                         error="failed" if failed else ""))
                web.fetch_count += 1
        elif kind == "message":
            for part in item.get("content") or []:
                text = part.get("text") or ""
                for a in part.get("annotations") or []:
                    if a.get("type") == "url_citation" and a.get("url"):
                        web.citations.append(WebCitation(
                            url=a["url"], title=a.get("title") or "",
                            sentence=_sentence(text, a.get("start_index"), a.get("end_index"))))
    titles = {c.url: c.title for c in web.citations if c.title}
    for page in web.pages:
        page.title = page.title or titles.get(page.url, "")
    web = web + WebActivity()  # one page per URL
    return None if web.empty else web


def _sentence(text: str, start: object, end: object) -> str:
    """The sentence of `text` that holds the citation at [start, end)."""
    if not isinstance(start, int) or not isinstance(end, int) or not 0 <= start <= len(text):
        return text.strip()[:300]
    head = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start))
    tail = min((i for i in (text.find(". ", end), text.find("\n", end)) if i >= 0),
               default=len(text))
    return text[head + 1:tail + 1].strip()
