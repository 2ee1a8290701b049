"""One streamed Chat Completions reply from a local server, read into a ModelTurn.

The words go to `on_text` as they arrive; a tool call's arguments only grow the live view's
count (`on_text.grow`). Usage arrives only in the stream's last chunk, so a turn cut by Stop
or by the round's time limit (`cancel`, which the watcher of local_stream.py turns into a
closed stream even while the server is silent), or a stream that broke off, carries an
estimate instead (estimated_usage); a broken stream's EngineError has it as `usage`. A
server that stopped taking connections with the stream open is "nothing is answering".
A tool call cut off by the output limit is dropped: its arguments may be half there.
"""

from __future__ import annotations

import threading
import uuid
from typing import Any, Callable

from app.core.engine.conversation import ModelTurn, ToolCall, Usage
from app.core.engine.port import ENGINE_UNREACHABLE, EngineError
from app.core.records.redact import redact
from app.engines.local.stream import watch_stream
from app.engines.raw_stream import RawStream
from app.engines.openai.compat import estimated_usage, split_usage, stream_events, with_usage
from app.engines.wire import Voice, emit, parse_arguments, stream_broken


def read_turn(stream: RawStream, cancel: threading.Event | None,
              on_text: Callable[[str], None] | None, request: dict[str, Any], *, model: str,
              voice: Voice, alive: Callable[[], bool],
              cuts: tuple[type[Exception], ...]) -> ModelTurn:
    """The turn a streamed Chat Completions reply makes (see the module's docstring)."""
    texts: list[str] = []
    slots: dict[tuple[Any, int], dict[str, Any]] = {}  # see _slot_for
    finish, usage = None, None

    def so_far() -> Usage:  # the usage reported, else an estimate of what was billed
        seen = sum(map(len, texts)) + sum(len(s["args"]) for s in slots.values())
        return usage or estimated_usage(request, seen)

    with stream, watch_stream(stream, cancel, alive) as watch:
        try:
            for chunk in stream_events(stream):
                watch.tick()
                if cancel is not None and cancel.is_set():
                    return ModelTurn(text="".join(texts), model=model, usage=so_far(),
                                     stop_reason="cancelled")
                u = chunk.get("usage")
                if u:
                    usage = split_usage(u.get("prompt_tokens"), u.get("completion_tokens"),
                                        u.get("prompt_tokens_details"))
                for choice in chunk.get("choices") or []:
                    delta = choice.get("delta") or {}
                    if delta.get("content"):
                        texts.append(delta["content"])
                        emit(on_text, delta["content"])
                    for tc in delta.get("tool_calls") or []:
                        slot = _slot_for(slots, tc)
                        function = tc.get("function")
                        if function:
                            slot["name"] += function.get("name") or ""
                            slot["args"] += function.get("arguments") or ""
                            _grow(on_text, len(function.get("arguments") or ""))
                    finish = choice.get("finish_reason") or finish
        except cuts as exc:
            if cancel is not None and cancel.is_set():  # the watcher closed it: Stop or time
                return ModelTurn(text="".join(texts), model=model, usage=so_far(),
                                 stop_reason="cancelled")
            if watch.gone:  # the server stopped taking connections with the stream open
                raise with_usage(EngineError(
                    voice.unreachable, code=ENGINE_UNREACHABLE, details=redact(str(exc)),
                    action="Check that the server is running and the address is right."),
                    so_far()) from None
            raise with_usage(stream_broken(voice, f"{type(exc).__name__}: {exc}"),
                             so_far()) from None
    if finish is None:
        raise with_usage(stream_broken(voice, "the stream ended without a finish_reason"),
                         so_far())
    ordered = [slots[i] for i in sorted(slots)]
    if finish == "length" and ordered:
        ordered.pop()  # cut off by the output limit: its arguments may be half there
    calls = [ToolCall(id=s["id"] or f"call_{uuid.uuid4().hex[:12]}", name=s["name"],
                      arguments=parse_arguments(s["args"])) for s in ordered if s["name"]]
    return ModelTurn(text="".join(texts), tool_calls=calls, usage=usage or Usage(),
                     model=model, stop_reason=finish)


def _grow(on_text: Callable[[str], None] | None, chars: int) -> None:
    """Tell a live view that tool-call arguments grew (they are not words to show)."""
    grow = getattr(on_text, "grow", None)
    if grow is not None and chars:
        try:
            grow(chars)
        except Exception:  # a failing listener must not break the model call
            pass


def _slot_for(slots: dict[tuple[Any, int], dict[str, Any]], tc: dict[str, Any]
              ) -> dict[str, Any]:
    """The accumulator for a streamed tool-call delta (its JSON). Ollama sends each of
    several parallel calls whole, all with index 0: a new id at a used index starts a new call."""
    index = tc.get("index") if tc.get("index") is not None else len(slots)
    key = max((k for k in slots if k[0] == index), default=None, key=lambda k: k[1])
    call_id = tc.get("id")
    if key is None or (call_id and slots[key]["id"] and call_id != slots[key]["id"]):
        key = (index, len(slots))
        slots[key] = {"id": "", "name": "", "args": ""}
    slot = slots[key]
    slot["id"] = call_id or slot["id"]
    return slot
