"""What the Messages and Responses APIs enforce about their web tools (issue 37), for the
loopback servers: each request is checked against the SDKs' own param types (a tool type
the SDK does not know, a field a type does not have, a web block sent back changed, is a
400 as the service gives), and a scripted reply is served as the service would serve it:
no lookup by a tool that was not offered, a lookup past `max_uses` answered with
`max_uses_exceeded`, a fetch of a URL no allowed source gave refused, sources only when
asked for, usage counted from what really ran, streamed or not as the request said.
"""

from __future__ import annotations

import copy
import functools
import re
import typing
from typing import Any
from urllib.parse import urlsplit

URL = re.compile(r"https?://[^\s<>\"'`()\[\]]+")
CLAUDE_SERVER_BLOCKS = ("server_tool_use", "web_search_tool_result", "web_fetch_tool_result")


class Refused(Exception):
    """A request the service refuses with a 400: `message` names the field."""


def _keys(td: Any) -> tuple[set[str], set[str]]:
    return set(td.__required_keys__) | set(td.__optional_keys__), set(td.__required_keys__)


def _fields(where: str, value: Any, td: Any) -> None:
    """`value` must be an object with only `td`'s keys, its required ones present, and no
    null where the type takes none."""
    if not isinstance(value, dict):
        raise Refused(f"{where}: Input should be a valid dictionary")
    allowed, required = _keys(td)
    extra = sorted(set(value) - allowed)
    if extra:
        raise Refused(f"{where}.{extra[0]}: Extra inputs are not permitted")
    missing = sorted(required - set(value))
    if missing:
        raise Refused(f"{where}.{missing[0]}: Field required")
    hints = typing.get_type_hints(td)
    for key, item in value.items():
        if item is None and type(None) not in typing.get_args(hints.get(key)):
            raise Refused(f"{where}.{key}: Input should be a valid dictionary or object")


def _literals(td: Any, key: str = "type") -> tuple[str, ...]:
    hint = typing.get_type_hints(td).get(key)
    out: list[str] = []
    for arg in typing.get_args(hint) or ():
        out += [a for a in typing.get_args(arg) if isinstance(a, str)] if typing.get_args(arg) \
            else [arg] if isinstance(arg, str) else []
    return tuple(out)


# ---- Messages API ----------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _claude_types() -> dict[str, Any]:
    from anthropic.types import (DocumentBlockParam, ServerToolUseBlockParam, TextBlockParam,
                                 ToolParam, WebFetchBlockParam, WebFetchToolResultBlockParam,
                                 WebFetchToolResultErrorBlockParam, WebSearchResultBlockParam,
                                 WebSearchToolResultBlockParam)
    from anthropic.types.tool_union_param import ToolUnionParam
    from anthropic.types.web_fetch_url_sources_param import WebFetchURLSourcesParam
    from anthropic.types.web_search_tool_request_error_object_param import (
        WebSearchToolRequestErrorObjectParam)
    from anthropic.types import (CitationWebSearchResultLocationParam,
                                 CitationCharLocationParam)

    tools = {}
    for td in typing.get_args(ToolUnionParam):
        for name in _literals(td):
            tools[name] = td
    return {"tools": tools, "custom": ToolParam, "server_tool_use": ServerToolUseBlockParam,
            "web_search_tool_result": WebSearchToolResultBlockParam,
            "web_fetch_tool_result": WebFetchToolResultBlockParam, "text": TextBlockParam,
            "web_search_result": WebSearchResultBlockParam,
            "web_search_tool_result_error": WebSearchToolRequestErrorObjectParam,
            "web_fetch_result": WebFetchBlockParam,
            "web_fetch_tool_result_error": WebFetchToolResultErrorBlockParam,
            "document": DocumentBlockParam, "url_sources": WebFetchURLSourcesParam,
            "web_search_result_location": CitationWebSearchResultLocationParam,
            "char_location": CitationCharLocationParam}


def check_claude(request: Any) -> None:
    """Raise Refused where the Messages API would refuse the request's web parts."""
    if not isinstance(request, dict):
        return
    types = _claude_types()
    names = []
    for i, tool in enumerate(request.get("tools") or []):
        kind = tool.get("type")
        if kind in (None, "custom"):
            _fields(f"tools.{i}.custom", tool, types["custom"])
            names.append(tool.get("name"))
            continue
        td = types["tools"].get(kind)
        if td is None:
            raise Refused(f"tools.{i}: Input tag '{kind}' found using 'type' does not match any "
                          "of the expected tags")
        _fields(f"tools.{i}.{kind}", tool, td)
        if tool.get("name") not in _literals(td, "name"):
            raise Refused(f"tools.{i}.{kind}.name: Input should be {_literals(td, 'name')}")
        if tool.get("allowed_domains") and tool.get("blocked_domains"):
            raise Refused(f"tools.{i}: allowed_domains and blocked_domains cannot be used together")
        names.append(tool["name"])
    for i, tool in enumerate(request.get("tools") or []):
        if "url_sources" in tool:
            _url_sources(f"tools.{i}.url_sources", tool["url_sources"], names)
    for k, m in enumerate(request.get("messages") or []):
        content = m.get("content")
        if m.get("role") != "assistant" or not isinstance(content, list):
            continue
        used = {b.get("id") for b in content if b.get("type") == "server_tool_use"}
        answered = {b.get("tool_use_id") for b in content
                    if b.get("type") in CLAUDE_SERVER_BLOCKS[1:]}
        if used - answered:
            raise Refused(f"messages.{k}: server_tool_use ids were found without a result "
                          f"block after them: {sorted(used - answered)}")
        for j, block in enumerate(content):
            _claude_block(f"messages.{k}.content.{j}", block, types)


def _url_sources(where: str, value: Any, names: list[str]) -> None:
    types = _claude_types()
    _fields(where, value, types["url_sources"])
    for key, variant in value.items():
        kinds = ("all", "none") if key == "user_input" else ("all", "none", "only", "except")
        if not isinstance(variant, dict) or variant.get("type") not in kinds:
            raise Refused(f"{where}.{key}: Input tag does not match any of the expected tags "
                          f"{kinds}")
        for tool in variant.get("tools") or []:
            if tool.get("name") not in names:
                raise Refused(f"{where}.{key}.tools: {tool.get('name')!r} is not in tools")


def _claude_block(where: str, block: dict, types: dict) -> None:
    kind = block.get("type")
    if kind == "text":
        _fields(f"{where}.text", block, types["text"])
        for n, c in enumerate(block.get("citations") or []):
            td = types.get(c.get("type"))
            if td is not None:
                _fields(f"{where}.text.citations.{n}", c, td)
    elif kind == "server_tool_use":
        _fields(f"{where}.server_tool_use", block, types["server_tool_use"])
    elif kind == "web_search_tool_result":
        _fields(f"{where}.{kind}", block, types[kind])
        found = block["content"]
        rows = found if isinstance(found, list) else [found]
        for n, row in enumerate(rows):
            td = types.get(row.get("type"))
            if td is None:
                raise Refused(f"{where}.content.{n}: unknown type {row.get('type')!r}")
            _fields(f"{where}.content.{n}", row, td)
    elif kind == "web_fetch_tool_result":
        _fields(f"{where}.{kind}", block, types[kind])
        got = block["content"]
        td = types.get(got.get("type"))
        if td is None:
            raise Refused(f"{where}.content: unknown type {got.get('type')!r}")
        _fields(f"{where}.content", got, td)
        if got.get("type") == "web_fetch_result":
            _fields(f"{where}.content.content", got["content"], types["document"])


def serve_claude(request: dict, message: dict) -> dict:
    """The scripted reply as the service would send it for `request` (see the module)."""
    message = copy.deepcopy(message)
    tools = {t.get("name"): t for t in request.get("tools") or [] if t.get("type")}
    context = _context_urls(request)
    kept, uses, errs = [], {}, {}
    for block in message["content"]:
        kind = block.get("type")
        if kind == "server_tool_use":
            if block["name"] not in tools:
                errs[block["id"]] = "not offered"  # the model had no such tool
                continue
            uses[block["name"]] = uses.get(block["name"], 0) + 1
            tool = tools[block["name"]]
            if tool.get("max_uses") is not None and uses[block["name"]] > tool["max_uses"]:
                errs[block["id"]] = "max_uses_exceeded"
            elif block["name"] == "web_fetch":
                errs[block["id"]] = _fetch_refusal(block["input"].get("url", ""), tool,
                                                   context)
        elif kind in CLAUDE_SERVER_BLOCKS[1:]:
            why = errs.get(block["tool_use_id"])
            if why == "not offered":
                continue
            if why:
                error = ("web_search_tool_result_error" if kind == "web_search_tool_result"
                         else "web_fetch_tool_result_error")
                block["content"] = {"type": error, "error_code": why}
            elif kind == "web_search_tool_result" and isinstance(block["content"], list):
                context.update(r["url"] for r in block["content"])
            elif kind == "web_fetch_tool_result" and block["content"].get("url"):
                context.add(block["content"]["url"])
        elif kind == "text" and block.get("citations") and not tools:
            block.pop("citations")
        kept.append(block)
    message["content"] = kept
    ran = {"web_search": 0, "web_fetch": 0}
    for block in kept:
        got = block.get("content")
        if block.get("type") == "web_search_tool_result" and isinstance(got, list):
            ran["web_search"] += 1
        elif block.get("type") == "web_fetch_tool_result" and got.get("type") == "web_fetch_result":
            ran["web_fetch"] += 1
    if tools:
        message["usage"]["server_tool_use"] = {"web_search_requests": ran["web_search"],
                                               "web_fetch_requests": ran["web_fetch"]}
    return message


def _fetch_refusal(url: str, tool: dict, context: dict) -> str:
    host = urlsplit(url).hostname or ""
    allowed, blocked = tool.get("allowed_domains"), tool.get("blocked_domains") or []
    if (allowed and not any(_under(host, d) for d in allowed)) or any(
            _under(host, d) for d in blocked):
        return "url_not_allowed"
    sources = tool.get("url_sources") or {}  # omitted: every source

    def on(key: str) -> bool:
        return (sources.get(key) or {"type": "all"}).get("type") != "none"
    usable: set[str] = set()
    if on("user_input"):
        usable |= context["user_input"]
    if on("client_tool_results"):
        usable |= context["client_tool_results"]
    if on("server_tool_results"):
        usable |= context["server_tool_results"] | context.get("now", set())
    return "" if _clean(url) in usable else "url_not_in_prior_context"


def _under(host: str, domain: str) -> bool:
    domain = domain.split("/", 1)[0]
    return host == domain or host.endswith("." + domain)


def _clean(url: str) -> str:
    return url.rstrip(".,;:!?").rstrip("/")


class _Context(dict):
    """The URLs of a request by where they came from; `update`/`add` put this reply's own
    search results in as server results (a later fetch in the reply may use them)."""

    def update(self, urls) -> None:  # type: ignore[override]
        self.setdefault("now", set()).update(_clean(u) for u in urls)

    def add(self, url: str) -> None:
        self.setdefault("now", set()).add(_clean(url))


def _context_urls(request: dict) -> _Context:
    found = _Context(user_input=set(), client_tool_results=set(), server_tool_results=set())
    for m in request.get("messages") or []:
        content = m.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        for block in blocks or []:
            kind = block.get("type")
            if m.get("role") == "user" and kind == "text":
                found["user_input"] |= {_clean(u) for u in URL.findall(block["text"])}
            elif kind == "tool_result":
                text = block.get("content")
                text = text if isinstance(text, str) else " ".join(
                    p.get("text", "") for p in text or [])
                found["client_tool_results"] |= {_clean(u) for u in URL.findall(text)}
            elif kind == "web_search_tool_result" and isinstance(block.get("content"), list):
                found["server_tool_results"] |= {_clean(r["url"]) for r in block["content"]}
            elif kind == "web_fetch_tool_result" and block["content"].get("url"):
                found["server_tool_results"].add(_clean(block["content"]["url"]))
    return found


# ---- Responses API ---------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _responses_types() -> dict[str, Any]:
    from openai.types.responses import response_function_web_search_param as search
    from openai.types.responses import response_output_text_param as text
    from openai.types.responses.response_includable import ResponseIncludable
    from openai.types.responses.tool_param import ToolParam
    from openai.types.responses.web_search_tool_param import Filters

    tools = {}
    for td in typing.get_args(ToolParam):
        for name in _literals(td):
            tools[name] = td
    return {"tools": tools, "filters": Filters, "includable": typing.get_args(ResponseIncludable),
            "web_search_call": search.ResponseFunctionWebSearchParam,
            "search": search.ActionSearch, "open_page": search.ActionOpenPage,
            "find_in_page": search.ActionFind, "source": search.ActionSearchSource,
            "url_citation": text.AnnotationURLCitation}


def check_responses(request: Any) -> None:
    """Raise Refused where the Responses API would refuse the request's web parts."""
    if not isinstance(request, dict):
        return
    types = _responses_types()
    for i, tool in enumerate(request.get("tools") or []):
        td = types["tools"].get(tool.get("type"))
        if td is None:
            raise Refused(f"tools[{i}].type: Invalid value: {tool.get('type')!r}")
        _fields(f"tools[{i}]", tool, td)
        if tool.get("filters") is not None:
            _fields(f"tools[{i}].filters", tool["filters"], types["filters"])
    for value in request.get("include") or []:
        if value not in types["includable"]:
            raise Refused(f"include: Invalid value: {value!r}")
    for i, item in enumerate(request.get("input") or []):
        if not isinstance(item, dict):
            continue
        if item.get("type") == "web_search_call":
            _fields(f"input[{i}]", item, types["web_search_call"])
            action = item["action"]
            td = types.get(action.get("type"))
            if td is None:
                raise Refused(f"input[{i}].action.type: Invalid value")
            _fields(f"input[{i}].action", action, td)
            for n, source in enumerate(action.get("sources") or []):
                _fields(f"input[{i}].action.sources[{n}]", source, types["source"])
        for j, part in enumerate(item.get("content") if isinstance(item.get("content"), list)
                                 else []):
            for n, note in enumerate(part.get("annotations") or []):
                if note.get("type") == "url_citation":
                    _fields(f"input[{i}].content[{j}].annotations[{n}]", note,
                            types["url_citation"])


def serve_responses(request: dict, response: dict) -> dict:
    """The scripted response as the service would send it for `request` (see the module)."""
    response = copy.deepcopy(response)
    tool = next((t for t in request.get("tools") or [] if t.get("type") == "web_search"), None)
    sources = "web_search_call.action.sources" in (request.get("include") or [])
    allowed = ((tool or {}).get("filters") or {}).get("allowed_domains") or []
    out = []
    for item in response["output"]:
        if item["type"] == "web_search_call":
            if tool is None:
                continue  # not offered: the model could not search
            action = item["action"]
            if not sources:
                action.pop("sources", None)
            elif allowed:
                action["sources"] = [s for s in action.get("sources") or []
                                     if any(_under(urlsplit(s["url"]).hostname or "", d)
                                            for d in allowed)]
        elif item["type"] == "message" and tool is None:
            for part in item["content"]:
                part["annotations"] = []
        out.append(item)
    response["output"] = out
    return response
