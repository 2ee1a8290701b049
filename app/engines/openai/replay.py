"""OpenAI Responses output kept as it came, and sent back as input items in the same order.

A response's output is a sequence of items: reasoning, assistant messages (each with its
`phase`: "commentary" between calls, "final_answer" at the end), and function calls. OpenAI
asks for them back in the order returned, each assistant message with its phase; a message
moved ahead of its reasoning, or one without its phase, degrades the model's next step. So a
turn keeps its output as its record (`ModelTurn.record`) and the next steps replay it.

Left out on purpose: reasoning without encrypted content (with `store: false` the service
could not resolve it), reasoning the service said it can no longer verify (`stale`), and a
function call the engine did not return (cut off by the output limit: it has no output).
"""

from __future__ import annotations

import copy
from typing import Any

from app.core.engine.conversation import Message
from app.engines.openai.web import annotations_param, search_call_item

RECORD_KIND = "openai-responses"


def output_items(response: dict[str, Any]) -> list[dict[str, Any]]:
    """The output items of a response (its JSON) as the Responses API takes them back in
    `input`."""
    items: list[dict[str, Any]] = []
    for item in response.get("output") or []:
        kind = item.get("type")
        if kind == "reasoning":
            if item.get("encrypted_content"):
                items.append({"type": "reasoning", "id": item.get("id"),
                              "summary": [{"type": "summary_text", "text": s.get("text")}
                                          for s in item.get("summary") or []],
                              "encrypted_content": item["encrypted_content"]})
        elif kind == "message":
            message: dict[str, Any] = {
                "type": "message", "id": item.get("id"), "role": "assistant",
                "status": item.get("status") or "completed",
                "content": [_content_part(p) for p in item.get("content") or []
                            if p.get("type") in ("output_text", "refusal")]}
            if item.get("phase"):
                message["phase"] = item["phase"]
            items.append(message)
        elif kind == "function_call":
            items.append({"type": "function_call", "call_id": item.get("call_id"),
                          "name": item.get("name"), "arguments": item.get("arguments") or ""})
        elif kind == "web_search_call":  # a search the service ran: back as it came
            items.append(search_call_item(item))
    return items


def _content_part(part: dict[str, Any]) -> dict[str, Any]:
    if part.get("type") == "refusal":
        return {"type": "refusal", "refusal": part.get("refusal")}
    return {"type": "output_text", "text": part.get("text"),
            "annotations": annotations_param(part.get("annotations") or [])}


def make_record(model: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    return {"kind": RECORD_KIND, "model": model, "items": items}


def replay_items(m: Message, stale: set[str]) -> list[dict[str, Any]] | None:
    """The input items for assistant message `m`, or None when it has no usable record."""
    record = m.record
    if not (isinstance(record, dict) and record.get("kind") == RECORD_KIND):
        return None
    returned = {c.id for c in m.tool_calls}
    items = []
    for item in copy.deepcopy(record.get("items") or []):
        if item.get("type") == "reasoning" and item.get("id") in stale:
            continue
        if item.get("type") == "function_call" and item.get("call_id") not in returned:
            continue
        items.append(item)
    return items


def reasoning_ids(request: dict[str, Any]) -> set[str]:
    return {i["id"] for i in request.get("input", [])
            if isinstance(i, dict) and i.get("type") == "reasoning" and i.get("id")}
