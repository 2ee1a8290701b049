"""Claude replies kept exactly as the Messages API sent them, and sent back the same way.

Newer Claude models bind each thinking block to the conversation before it (system prompt,
tools, earlier messages, earlier blocks of the same reply) and to the model: a thinking
block whose prefix changed, or that moved, is refused with a 400 ("The block is bound to a
different conversation"). So a reply is kept as its record (`ModelTurn.record`): every block
in its original order, thinking blocks with empty text included, nothing merged, plus a
fingerprint of the prefix it was written after. On replay the record's blocks go back as
they were. When the prefix no longer matches (the retry layer shortened an earlier tool
result, the model changed), the reply's thinking blocks are dropped on purpose: its text and
tool calls still go back, which the service accepts, and every later reply's prefix then
changes too, so their thinking is dropped as well. A tool call the engine did not return
(cut off by the output limit) is left out, since it has no result to pair with.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

from app.core.engine.conversation import Message
from app.engines.claude.web import SERVER_BLOCKS, citations_param, server_block_param

RECORD_KIND = "anthropic-messages"
THINKING = ("thinking", "redacted_thinking")


def fingerprint(model: str, system: Any, tools: Any, messages: list[dict[str, Any]]) -> str:
    """A hash of what a reply was written after, cache breakpoints aside (they move)."""
    chain = Chain(model, system, tools)
    for m in messages:
        chain.feed(m["role"], [block_digest(b) for b in m["content"]])
    return chain.hexdigest()


def block_digest(block: dict[str, Any]) -> bytes:
    """One content block's part of a fingerprint (cache_control aside)."""
    text = json.dumps(_bare(block), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).digest()


class Chain:
    """A fingerprint built message by message: the model, system prompt and tools, then each
    message's role and its blocks' digests, so the prefix before every reply of a request
    is found in one pass, each block hashed once (its digest is kept with its message)."""

    def __init__(self, model: str, system: Any, tools: Any):
        head = json.dumps({"model": model, "system": _bare(system), "tools": _bare(tools)},
                          sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        self._hash = hashlib.sha256(head.encode())

    def copy(self) -> "Chain":
        """A chain fed so far, to feed further without changing this one."""
        other = Chain.__new__(Chain)
        other._hash = self._hash.copy()
        return other

    def feed(self, role: str, digests: list[bytes]) -> None:
        self._hash.update(role.encode() + b"\0" + b"".join(digests) + b"\1")

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def block_param(block: dict[str, Any]) -> dict[str, Any] | None:
    """One content block of a reply (its JSON as streamed) as the Messages API takes it back
    (None: not replayable)."""
    kind = block.get("type", "")
    if kind == "thinking":
        return {"type": "thinking", "thinking": block.get("thinking") or "",
                "signature": block.get("signature") or ""}
    if kind == "redacted_thinking":
        return {"type": "redacted_thinking", "data": block.get("data")}
    if kind == "text":
        text = {"type": "text", "text": block.get("text") or ""}
        if block.get("citations"):  # the sources of what it says, as they came
            text["citations"] = citations_param(block["citations"])
        return text
    if kind in SERVER_BLOCKS:  # a search or fetch the service ran, and its result
        return server_block_param(block)
    if kind == "tool_use":
        arguments = block.get("input")
        return {"type": "tool_use", "id": block.get("id"), "name": block.get("name"),
                "input": arguments if isinstance(arguments, dict) else {}}
    return None


def make_record(model: str, prefix: str, blocks: list[dict[str, Any]]) -> dict[str, Any]:
    return {"kind": RECORD_KIND, "model": model, "prefix": prefix, "content": blocks}


def replay_blocks(m: Message, model: str, prefix: str) -> list[dict[str, Any]] | None:
    """The blocks to send back for assistant message `m`, or None when it has no usable
    record (then the neutral text and tool calls are sent)."""
    record = m.record
    if not (isinstance(record, dict) and record.get("kind") == RECORD_KIND):
        return None
    returned = {c.id for c in m.tool_calls}
    keep_thinking = record.get("model") == model and record.get("prefix") == prefix
    content = record.get("content") or []
    answered = {b.get("tool_use_id") for b in content if b.get("type") in SERVER_BLOCKS[1:]}
    blocks = []
    for block in copy.deepcopy(content):
        if block.get("type") in THINKING and not keep_thinking:
            continue  # its prefix changed: the service would refuse it
        if block.get("type") == "tool_use" and block.get("id") not in returned:
            continue  # never run, so it has no result to pair with
        if block.get("type") == "server_tool_use" and block.get("id") not in answered:
            continue  # a lookup cut off before its result: the service refuses it alone
        blocks.append(block)
    return blocks


def _bare(value: Any) -> Any:
    """A copy without cache_control anywhere."""
    if isinstance(value, dict):
        return {k: _bare(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_bare(v) for v in value]
    return value
