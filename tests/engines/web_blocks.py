"""Web lookup blocks and items as the services send them (issue 37), shaped as the SDKs'
response types define them (anthropic.types.ServerToolUseBlock, WebSearchToolResultBlock,
WebFetchToolResultBlock, CitationsWebSearchResultLocation; openai ResponseFunctionWebSearch,
AnnotationURLCitation), for the loopback servers' scripts."""

from __future__ import annotations


# ---- Claude ------------------------------------------------------------------------------

def server_use(id_: str, name: str, **arguments) -> dict:
    return {"type": "server_tool_use", "id": id_, "name": name, "input": arguments,
            "caller": {"type": "direct"}}


def search_result(tool_use_id: str, *pages: tuple[str, str]) -> dict:
    """A search's results: (url, title) each; none for a search that found nothing."""
    return {"type": "web_search_tool_result", "tool_use_id": tool_use_id,
            "caller": {"type": "direct"},
            "content": [{"type": "web_search_result", "url": url, "title": title,
                         "encrypted_content": f"enc-{n}-{url}", "page_age": "April 3, 2026"}
                        for n, (url, title) in enumerate(pages)]}


def search_error(tool_use_id: str, code: str) -> dict:
    return {"type": "web_search_tool_result", "tool_use_id": tool_use_id,
            "caller": {"type": "direct"},
            "content": {"type": "web_search_tool_result_error", "error_code": code}}


def fetch_result(tool_use_id: str, url: str, title: str, text: str,
                 retrieved_at: str = "2026-12-04T10:00:00Z") -> dict:
    return {"type": "web_fetch_tool_result", "tool_use_id": tool_use_id, "caller": None,
            "content": {"type": "web_fetch_result", "url": url, "retrieved_at": retrieved_at,
                        "content": {"type": "document", "title": title, "citations": None,
                                    "source": {"type": "text", "media_type": "text/plain",
                                               "data": text}}}}


def fetch_error(tool_use_id: str, code: str) -> dict:
    return {"type": "web_fetch_tool_result", "tool_use_id": tool_use_id, "caller": None,
            "content": {"type": "web_fetch_tool_result_error", "error_code": code}}


def cited(text: str, url: str, title: str, cited_text: str) -> dict:
    return {"type": "text", "text": text, "citations": [{
        "type": "web_search_result_location", "url": url, "title": title,
        "cited_text": cited_text, "encrypted_index": f"idx-{url}"}]}


# ---- OpenAI ------------------------------------------------------------------------------

def oa_search(item_id: str, query: str, *urls: str, status: str = "completed") -> dict:
    return {"type": "web_search_call", "id": item_id, "status": status,
            "action": {"type": "search", "query": query, "queries": [query],
                       "sources": [{"type": "url", "url": u} for u in urls]}}


def oa_open(item_id: str, url: str) -> dict:
    return {"type": "web_search_call", "id": item_id, "status": "completed",
            "action": {"type": "open_page", "url": url}}


def oa_cited(text: str, item_id: str, *notes: tuple[str, str, str]) -> dict:
    """An assistant message whose text cites pages: (words cited, url, title) each."""
    annotations = []
    for words, url, title in notes:
        start = text.index(words)
        annotations.append({"type": "url_citation", "url": url, "title": title,
                            "start_index": start, "end_index": start + len(words)})
    return {"type": "message", "id": item_id, "status": "completed", "role": "assistant",
            "content": [{"type": "output_text", "text": text, "annotations": annotations}]}
