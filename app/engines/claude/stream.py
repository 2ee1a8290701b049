"""One streamed Messages API reply, accumulated into the message as plain JSON.

What the anthropic SDK's MessageStream does with typed objects (lib/streaming/_messages.py,
accumulate_event), done on the events' JSON: `message_start` gives the message, each
`content_block_start` a block, the deltas grow it (text, thinking, signature, citations, a
tool call's input JSON), `message_delta` the stop reason and final usage. A tool call's
input is parsed when its block closes (the SDK parses the partial JSON at every delta; a
block that never closes is not used). The SDK's rules for the stream are kept: `ping` and
nameless events are skipped, an `event: error` raises the SDK's own status error for its
body (claude_sdk.status_error, as its Stream does), and input JSON that cannot be
parsed raises ValueError, which the engine reports as a broken stream.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Iterator

from app.engines.claude import sdk as claude_sdk
from app.engines.raw_stream import RawStream

if TYPE_CHECKING:
    import anthropic
    import httpx2

TRACKS_INPUT = ("tool_use", "server_tool_use")


class MessageReader:
    """Iterate for (kind, text) per event: kind is the event's type, or "text"/"thinking"
    for a delta of words (text is then the words). `snapshot` is the message so far (None
    before message_start), `closed` the indexes of the blocks closed, `finished` whether
    message_stop came."""

    def __init__(self, client: anthropic.Anthropic, response: httpx2.Response):
        self._client = client
        self._raw = RawStream(claude_sdk.sse_decoder(client), response)
        self.response = response
        self.snapshot: dict[str, Any] | None = None
        self.closed: set[int] = set()
        self.finished = False
        self._inputs: dict[int, str] = {}

    def __enter__(self) -> "MessageReader":
        return self

    def __exit__(self, *exc: object) -> None:
        self._raw.close()

    def close(self) -> None:
        self._raw.close()

    def __iter__(self) -> Iterator[tuple[str, str]]:
        for event, data in self._raw.events():
            if event == "ping" or event is None:
                continue
            if event == "error":
                raise self._error(data)
            if not data:
                continue
            yield self._take(json.loads(data))

    def _error(self, data: str) -> Exception:
        body: Any = data
        try:
            body = json.loads(data)
            message = f"{body}"
        except Exception:
            message = data or f"Error code: {self.response.status_code}"
        return claude_sdk.status_error(self._client, message, body, self.response)

    def _take(self, event: dict[str, Any]) -> tuple[str, str]:
        kind = event.get("type", "")
        snapshot = self.snapshot
        if snapshot is None:
            if kind != "message_start":
                raise ValueError(f"the stream sent {kind!r} before message_start")
            message = event["message"]
            self.snapshot = {**message, "content": list(message.get("content") or [])}
            return kind, ""
        if kind == "content_block_start":
            snapshot["content"].append(dict(event["content_block"]))
        elif kind == "content_block_delta":
            return self._delta(snapshot["content"][event["index"]], event["index"],
                               event["delta"])
        elif kind == "content_block_stop":
            index = event["index"]
            raw = self._inputs.pop(index, "")
            if raw:
                block = snapshot["content"][index]
                try:
                    block["input"] = json.loads(raw)
                except ValueError as exc:
                    raise ValueError(f"Unable to parse tool parameter JSON from model: {exc}. "
                                     f"JSON: {raw}") from None
            self.closed.add(index)
        elif kind == "message_delta":
            self._final(snapshot, event)
        elif kind == "message_stop":
            self.finished = True
        return kind, ""

    def _delta(self, block: dict[str, Any], index: int, delta: dict[str, Any]) -> tuple[str, str]:
        kind, has = delta.get("type"), block.get("type")
        if kind == "text_delta" and has == "text":
            block["text"] = (block.get("text") or "") + delta["text"]
            return "text", delta["text"]
        if kind == "thinking_delta" and has == "thinking":
            block["thinking"] = (block.get("thinking") or "") + delta["thinking"]
            return "thinking", delta["thinking"]
        if kind == "signature_delta" and has == "thinking":
            block["signature"] = delta["signature"]
        elif kind == "input_json_delta" and has in TRACKS_INPUT:
            self._inputs[index] = self._inputs.get(index, "") + delta["partial_json"]
        elif kind == "citations_delta" and has == "text":
            block["citations"] = (block.get("citations") or []) + [delta["citation"]]
        return "content_block_delta", ""

    @staticmethod
    def _final(snapshot: dict[str, Any], event: dict[str, Any]) -> None:
        delta, usage = event.get("delta") or {}, event.get("usage") or {}
        snapshot["stop_reason"] = delta.get("stop_reason")
        snapshot["stop_sequence"] = delta.get("stop_sequence")
        snapshot["stop_details"] = delta.get("stop_details")
        if delta.get("container") is not None:
            snapshot["container"] = delta["container"]
        # Usage counts on a message_delta are totals: they overwrite; an optional one left
        # out keeps the value message_start gave.
        kept = snapshot["usage"] = dict(snapshot.get("usage") or {})
        kept["output_tokens"] = usage.get("output_tokens")
        for name in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens",
                     "server_tool_use", "output_tokens_details"):
            if usage.get(name) is not None:
                kept[name] = usage[name]
