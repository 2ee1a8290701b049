"""A streamed reply asked for through the SDK's own request path and read as plain JSON events.

The SDKs' typed streams build a pydantic object for every SSE event (the anthropic SDK's
MessageStream a typed snapshot of the whole message besides, and a pydantic generic class
anew whenever the garbage collector has dropped the last one): 3 to 8 ms a reply, more than
the rest of a step's work. The engines need a few fields of a few events. So the request
goes through the SDK's `client.post` as before (its headers and auth, its retries off as
configured, its status-error classes raised for an answer that is not 2xx), with
`cast_to=httpx2.Response`, which hands back the response unread; its bytes are split into
events by the SDK's own SSE decoder (claude_sdk/openai_sdk.sse_decoder), and each event's data
is parsed with json.loads. tests/engines/test_stream_events.py builds the SDK's typed events
and final objects from the same bytes and compares them with what the engines read.

`Body` writes a request body from JSON already made for its largest parts (the messages,
the tools), so the conversation is not serialized anew each step: the SDK's serializer
(compact, ensure_ascii off) makes each part, and the parts joined are the bytes the SDK
makes of the whole (tests/engines/test_sdk_path.py compares them with the typed methods').
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Callable, Iterator, Protocol


class Event(Protocol):
    """One server-sent event as the SDKs' decoders give it."""

    @property
    def event(self) -> str | None: ...

    @property
    def data(self) -> str: ...


class Decoder(Protocol):
    """An SDK's SSE decoder (its `SSEDecoder`)."""

    def iter_bytes(self, iterator: Iterator[bytes]) -> Iterator[Event]: ...


class RawStream:
    """The SSE events (event name, data text) of one streamed response; `response` and
    `close()` are what local_stream's watcher uses to cut a silent stream short."""

    def __init__(self, decoder: Decoder, response: Any,
                 wrap: Callable[[Exception, Any], Exception | None] | None = None):
        self.response = response
        self._decoder = decoder
        self._wrap = wrap

    def events(self) -> Iterator[tuple[str | None, str]]:
        try:
            for sse in self._decoder.iter_bytes(self.response.iter_bytes()):
                yield sse.event, sse.data
        except Exception as exc:
            wrapped = self._wrap(exc, self.response) if self._wrap is not None else None
            if wrapped is None:
                raise
            raise wrapped from exc
        finally:
            self.response.close()

    def close(self) -> None:
        self.response.close()

    def __enter__(self) -> "RawStream":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def post_raw(client: Any, path: str, body: bytes, options: Mapping[str, object]) -> Any:
    """The unread httpx response to `body` posted through the SDK's own request path."""
    import httpx2  # noqa: PLC0415 - listing the engines stays light

    return client.post(path, content=body, cast_to=httpx2.Response, stream=True, options=options)


class Body:
    """A request body serialized part by part: `dumps` is the SDK's serializer; each part
    kept (`keep`, as the pieces its JSON is made of) is used while the request still holds
    that very object. The body is joined once: a conversation of 200 KB is copied once
    here, not once per level of nesting."""

    def __init__(self, order: tuple[str, ...], dumps: Callable[[Any], bytes]):
        self.order = order
        self.dumps = dumps
        self._kept: dict[str, tuple[Any, int, list[bytes]]] = {}

    def keep(self, key: str, value: Any, pieces: list[bytes]) -> None:
        self._kept[key] = (value, len(value), pieces)

    def encode(self, request: dict[str, Any]) -> bytes:
        """`request` with `"stream": true`, keys in the SDK's order, as the SDK sends it."""
        given = {**request, "stream": True}
        unknown = set(given) - set(self.order)
        if unknown:
            raise ValueError(f"keys not in the SDK's order: {sorted(unknown)}")
        pieces: list[bytes] = []
        for key in self.order:
            if key not in given:
                continue
            value, kept = given[key], self._kept.get(key)
            pieces.append(b',"' + key.encode() + b'":')
            if kept is not None and kept[0] is value and kept[1] == len(value):
                pieces += kept[2]
            else:
                pieces.append(self.dumps(value))
        pieces[0] = b'{' + pieces[0][1:]
        pieces.append(b"}")
        return b"".join(pieces)


def compact_json(value: Any) -> bytes:
    """`value` (plain JSON: dicts, lists, strings, numbers) as the SDKs' serializer
    (`openapi_dumps`) writes it: compact, not ASCII-escaped, no NaN; without importing an
    SDK (tests/engines/local/test_local_first_request.py compares the two)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def json_list(parts: list[bytes]) -> list[bytes]:
    """The pieces of a JSON array of items already serialized, as the SDK's compact
    serializer writes it: "[", the items with "," between them, "]"."""
    if not parts:
        return [b"[]"]
    pieces: list[bytes] = [b","] * (2 * len(parts) + 1)
    pieces[1::2] = parts
    pieces[0], pieces[-1] = b"[", b"]"
    return pieces
