"""Claude's own web tools: the server tools web_search and web_fetch, offered only
on a task that may look things up, and what a reply looked up, read into a WebActivity.

The tool types are the newest the anthropic SDK installed by pyproject.toml defines
(anthropic/types/web_search_tool_20260318_param.py and web_fetch_tool_20260318_param.py;
the SDK also has web_search_20250305 / 20260209 and web_fetch_20250910 / 20260209 /
20260309). The service runs both tools itself: nothing here opens a URL.

Fetching is kept away from the person's files: `url_sources.client_tool_results` is
`none`, so a URL that reached the model only inside one of our tools' results (a file read
with read_file, a search of the folder) can never be fetched, and `user_input` is `none`
too, since the messages the harness writes carry the folder's words as well (the board,
which is a file of the folder, the standing instructions file, earlier rounds' findings).
Only URLs the service's own searches and fetches gave can be fetched: a page the task
names is found through a search first. `allowed_domains` and `blocked_domains` come from the person's settings;
the service takes one or the other, never both, so an allow list, being the stricter,
wins. `max_uses` is the task's lookup cap, the same every step, so the tools' JSON, and
the cached prefix it starts, never changes within a task's rounds.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from app.core.web.types import WebAccess, WebActivity, WebCitation, WebPage, WebSearch

WEB_SEARCH_TYPE = "web_search_20260318"
WEB_FETCH_TYPE = "web_fetch_20260318"
# About how much of one fetched page the model reads (the service cuts it there): a long
# page would otherwise fill the context, and every later step pays for it again.
MAX_PAGE_TOKENS = 20_000
SERVER_BLOCKS = ("server_tool_use", "web_search_tool_result", "web_fetch_tool_result")
# The fields of each citation type that the Messages API takes back (its *Param types).
_CITATION_FIELDS = {
    "web_search_result_location": ("cited_text", "encrypted_index", "title", "type", "url"),
    "char_location": ("cited_text", "document_index", "document_title", "end_char_index",
                      "start_char_index", "type"),
    "page_location": ("cited_text", "document_index", "document_title", "end_page_number",
                      "start_page_number", "type"),
    "content_block_location": ("cited_text", "document_index", "document_title",
                               "end_block_index", "start_block_index", "type"),
    "search_result_location": ("cited_text", "end_block_index", "search_result_index",
                               "source", "start_block_index", "title", "type"),
}


def web_tools(access: WebAccess) -> list[dict[str, Any]]:
    """The two server tools' definitions for a task that may look things up."""
    domains: dict[str, Any] = {}
    if access.allowed_domains:
        domains["allowed_domains"] = list(access.allowed_domains)
    elif access.blocked_domains:
        domains["blocked_domains"] = list(access.blocked_domains)
    search = {"type": WEB_SEARCH_TYPE, "name": "web_search", "max_uses": access.max_uses,
              **domains}
    fetch = {"type": WEB_FETCH_TYPE, "name": "web_fetch", "max_uses": access.max_uses,
             **domains, "max_content_tokens": MAX_PAGE_TOKENS,
             "url_sources": {"client_tool_results": {"type": "none"},
                             "server_tool_results": {"type": "all"},
                             "user_input": {"type": "none"}}}
    return [search, fetch]


def server_block_param(block: dict[str, Any]) -> dict[str, Any]:
    """A server tool block of a reply as the Messages API takes it back: as it came, but for
    a `caller` the reply gave as null (the request types take a caller object or none)."""
    return {k: v for k, v in block.items() if not (k == "caller" and v is None)}


def citations_param(citations: list[Any]) -> list[dict[str, Any]]:
    """A text block's citations as the API takes them back (its TextCitationParam types)."""
    out = []
    for c in citations:
        if not isinstance(c, dict):
            continue
        fields = _CITATION_FIELDS.get(c.get("type", ""))
        out.append({k: c.get(k) for k in fields} if fields else
                   {k: v for k, v in c.items() if v is not None})
    return out


def web_activity(message: dict[str, Any]) -> WebActivity | None:
    """What one reply (its JSON, streamed or not) looked up, or None when it looked up
    nothing: its searches, the pages it was given or read, the sentences citing them, and
    the service's own count of what it ran (usage.server_tool_use)."""
    content = message.get("content") or []
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    asked: dict[str, dict[str, Any]] = {}
    web = WebActivity()
    for block in content:
        kind = block.get("type")
        if kind == "server_tool_use":
            asked[block.get("id", "")] = block
        elif kind == "web_search_tool_result":
            use = asked.get(block.get("tool_use_id", ""), {})
            query = str((use.get("input") or {}).get("query") or "")
            found = block.get("content")
            if isinstance(found, list):
                web.searches.append(WebSearch(query=query, results=len(found)))
                web.pages += [WebPage(url=r.get("url", ""), title=r.get("title") or "",
                                      retrieved_at=now) for r in found if r.get("url")]
            else:
                web.searches.append(WebSearch(query=query, error=_code(found)))
        elif kind == "web_fetch_tool_result":
            use = asked.get(block.get("tool_use_id", ""), {})
            got = block.get("content") or {}
            if got.get("type") == "web_fetch_result":
                document = got.get("content") or {}
                web.pages.append(WebPage(url=got.get("url", ""), fetched=True,
                                         title=document.get("title") or "",
                                         retrieved_at=got.get("retrieved_at") or now))
            else:
                web.pages.append(WebPage(url=str((use.get("input") or {}).get("url") or ""),
                                         fetched=True, error=_code(got)))
        elif kind == "text":
            for c in block.get("citations") or []:
                if isinstance(c, dict) and c.get("url"):
                    web.citations.append(WebCitation(
                        url=c["url"], title=c.get("title") or "",
                        cited_text=c.get("cited_text") or "",
                        sentence=(block.get("text") or "").strip()))
    counted = (message.get("usage") or {}).get("server_tool_use") or {}
    web.search_count = int(counted.get("web_search_requests") or 0) or sum(
        1 for s in web.searches if not s.error)
    web.fetch_count = int(counted.get("web_fetch_requests") or 0) or sum(
        1 for p in web.pages if p.fetched and not p.error)
    web = web + WebActivity()  # one page per URL
    return None if web.empty else web


def cut_off_activity(message: dict[str, Any] | None) -> WebActivity | None:
    """What a reply that broke off mid-stream had the service look up, as counts only: each
    `server_tool_use` block received is a search or a fetch the service ran and bills, unless
    its result came back as an error (the service bills no failed lookup); the usage's own
    count wins when it says more. Nothing else is kept: the reply is not used, so the model
    never saw its pages. None when it looked nothing up."""
    content = (message or {}).get("content") or []
    failed = {b.get("tool_use_id") for b in content
              if b.get("type") in ("web_search_tool_result", "web_fetch_tool_result")
              and _failed(b.get("content"))}
    ran = [b.get("name") for b in content
           if b.get("type") == "server_tool_use" and b.get("id") not in failed]
    counted = ((message or {}).get("usage") or {}).get("server_tool_use") or {}
    web = WebActivity(
        search_count=max(ran.count("web_search"), int(counted.get("web_search_requests") or 0)),
        fetch_count=max(ran.count("web_fetch"), int(counted.get("web_fetch_requests") or 0)))
    return None if web.empty else web


def _failed(content: Any) -> bool:
    """Whether a search or fetch result block says the lookup failed."""
    if isinstance(content, list):
        return False  # a search's results, none or many
    kind = content.get("type", "") if isinstance(content, dict) else ""
    return kind.endswith("_error")


def _code(content: Any) -> str:
    """The error code of a search or fetch the service could not make."""
    if isinstance(content, dict):
        return str(content.get("error_code") or "unavailable")
    return "unavailable"
