"""Claude through the official anthropic SDK: the Messages API with tools, streamed and prompt-cached."""

from __future__ import annotations

import importlib
import os
import threading
from typing import TYPE_CHECKING, Any, Callable

from app.core.engine.conversation import Message, ModelTurn, ToolCall, ToolSpec, Usage
from app.core.engine.port import Availability, EngineConfig, EngineError
from app.engines.claude.replay import block_param, fingerprint, make_record
from app.engines.claude.send import stream_messages
from app.engines.claude.stream import MessageReader
from app.engines.claude.web import cut_off_activity, web_activity
from app.engines.claude.wire import ClaudeRequests
from app.engines import sdk_import
from app.engines.deadline import AVAILABILITY_TIMEOUT_S
from app.engines.keyed import check_keyed, require_key
from app.engines.keys import CALL_TIMEOUT_S
from app.engines.openai.compat import estimated_usage, with_usage
from app.engines.prices import PricedEngine
from app.engines.wire import (Voice, check_base_url, emit, from_status, from_transport,
                              stream_broken)
from app.engines.wire_cache import Prefix, WireCache

if TYPE_CHECKING:
    import anthropic

DEFAULT_BASE_URL = "https://api.anthropic.com"
# Shown when the models API cannot be read; newest first.
FALLBACK_MODELS = ("claude-sonnet-5-5", "claude-opus-5-5", "claude-haiku-5-5", "claude-opus-5",
                   "claude-sonnet-5", "claude-haiku-4-5")
# Stop reasons after which the reply's last block may be cut off mid-way.
CUT_OFF = ("max_tokens", "model_context_window_exceeded")


class AnthropicEngine(ClaudeRequests, PricedEngine):
    """Claude via the Messages API, one attempt per turn (the loop owns retries).

    Why it streams: a non-streamed reply arrives only when complete, so a slow answer
    looks like a hang, Stop cannot act until it ends, and long replies run into HTTP
    read timeouts. Streaming gives live text to the window, lets `cancel` act between
    chunks, and keeps the connection busy. The price is that a stream can break off
    after a 200; a reply counts only if `message_stop` arrived, and a tool call only if
    its block was closed, so a tool call cut off mid-JSON is never returned (it raises
    STREAM_BROKEN, which the loop retries). When `cancel` is set the stream is closed at the
    next chunk and the turn comes back with stop_reason "cancelled" and no tool calls.

    Prompt caching: breakpoints on the last tool definition and on the system prompt
    (the stable prefix, identical every round) and one on the last message, so each step
    of a round reads the previous step's prefix from the cache. Three breakpoints, under
    the limit of four.

    Replies go back exactly as they came: each turn's `record` holds every block in its
    original order (thinking included, even with empty text), and the next steps send it
    back verbatim; see claude_replay for when thinking is dropped on purpose. Claude 5
    models and later get `thinking: {type: adaptive, display: summarized}`: on the newest
    ones the short notes between tool calls arrive as thinking, and summarized thinking is
    passed to `on_text` as the AI's live narration (the reply's `text` stays what it said).
    A reply cut off by `max_tokens` or `model_context_window_exceeded` runs no last call.

    Money: a turn cut by Stop carries the usage seen so far (input from message_start,
    output so far), or, before message_start, an estimate of the input sent (about 4
    characters a token); a stream that broke off raises STREAM_BROKEN with the same as the
    error's `usage`, which the retry layer counts before trying again. When the run sets an
    output cap from what is left of its USD budget (the `max_output_tokens` argument),
    max_tokens is the smaller of it and the model's own limit.
    """

    id = "anthropic"
    label = "Claude (Anthropic)"
    needs_key = True
    looks_up = True  # web_search and web_fetch, on tasks that may look things up (claude_web)
    web_blocks_sites = True  # their blocked_domains
    default_model = FALLBACK_MODELS[0]

    def __init__(self, config: EngineConfig | None = None):
        super().__init__(config)
        self._kept: tuple[tuple[str, float], anthropic.Anthropic] | None = None  # _turn_client
        self._wire = WireCache()  # each message's blocks, built once (see wire_cache)
        self._prefix = Prefix()
        self._sent: tuple[list[dict[str, Any]] | None, str] = (None, "")  # see _messages
        self._turns, self._out, self._encoded = [], [], []  # the last request's (claude_wire)

    # -- configuration -------------------------------------------------------------------

    def base_url(self) -> str:
        return (self.config.base_url or os.environ.get("ANTHROPIC_BASE_URL")
                or DEFAULT_BASE_URL).rstrip("/")

    def voice(self) -> Voice:
        url, model = self.base_url(), self.model
        return Voice(
            name="Claude",
            auth="Your Claude API key was rejected. Open Engine settings and paste a new key.",
            forbidden=("Your Claude API key is not allowed to make this request. Check the key's "
                       "permissions in the Anthropic Console, or paste another key in Engine settings."),
            quota=("Your Anthropic account is out of credit or has reached its spending limit. "
                   "Add credit or raise the limit in the Anthropic Console, then run again."),
            model_missing=(f"Claude has no model called '{model}' that your key can use. "
                           "Open Engine settings and choose another model."),
            unreachable=(f"Could not connect to Claude at {url}. Check your internet connection "
                         "and try again."),
            fix_address="Correct ANTHROPIC_BASE_URL, or the --base-url given, to a web address.",
        )

    def start_loading(self) -> None:
        sdk_import.start("anthropic")

    def _client(self, key: str, timeout_s: float) -> anthropic.Anthropic:
        import anthropic  # noqa: PLC0415 - AI SDK, only for a run
        import httpx2  # noqa: PLC0415 - listing the engines stays light

        # max_retries=0: the loop is the only retry layer (docs/architecture.md, "The one retry layer").
        base_url = check_base_url(self.voice(), self.base_url())
        return anthropic.Anthropic(api_key=key, base_url=base_url, max_retries=0,
                                   timeout=httpx2.Timeout(timeout_s, connect=min(10.0, timeout_s)))

    def _turn_client(self) -> anthropic.Anthropic:
        """The client for model turns, kept for the engine's life so connections are reused
        (no new TLS handshake, and no keychain lookup, on every step)."""
        where = (self.base_url(), self.config.timeout_s)
        if self._kept is None or self._kept[0] != where:
            self._kept = (where, self._client(self._key(), self.config.timeout_s))
        return self._kept[1]

    def _key(self, timeout: float = CALL_TIMEOUT_S) -> str:
        return require_key(self.id, "Claude", "ANTHROPIC_API_KEY", timeout)

    # -- availability --------------------------------------------------------------------

    def availability(self) -> Availability:
        return check_keyed("Claude", "ANTHROPIC_API_KEY", self.base_url(), self.model,
                           list(FALLBACK_MODELS), self._key, self._list_models,
                           offered=lambda ids: ids, has_model=_offers,
                           prepare=lambda: importlib.import_module("anthropic"))

    def _list_models(self, key: str) -> list[str]:
        import anthropic  # noqa: PLC0415 - AI SDK, only for a run

        client = self._client(key, AVAILABILITY_TIMEOUT_S)
        try:
            page = client.models.list(limit=100)
            return [m.id for m in page.data]
        except anthropic.APIStatusError as exc:
            raise from_status(self.voice(), exc.status_code, exc.body, exc.response.headers,
                              exc.message) from None
        except anthropic.APIConnectionError as exc:
            raise from_transport(self.voice(), exc) from None
        finally:
            client.close()

    # -- one model turn (the request: claude_wire) ---------------------------------------

    def turn(self, system: str, tools: list[ToolSpec], messages: list[Message], *,
             cancel: threading.Event | None = None,
             on_text: Callable[[str], None] | None = None,
             max_output_tokens: int | None = None) -> ModelTurn:
        import anthropic  # noqa: PLC0415 - AI SDK, only for a run

        request = self.build_request(system, tools, messages, max_output_tokens)
        client = self._turn_client()
        stream = None
        try:
            stream = stream_messages(client, self.encoded(request))
            with stream:
                return self._read(stream, cancel, on_text, request)
        except EngineError:
            raise
        except anthropic.APIStatusError as exc:
            err = from_status(self.voice(), exc.status_code, exc.body, exc.response.headers,
                              exc.message)
            if stream is not None:  # an error event after the 200 (overloaded mid-reply):
                _cut_off(err, stream, request)  # the input, and the lookups run, were billed
            raise err from None
        except anthropic.APIConnectionError as exc:
            raise from_transport(self.voice(), exc) from None

    def _read(self, stream: MessageReader, cancel: threading.Event | None,
              on_text: Callable[[str], None] | None, request: dict[str, Any]) -> ModelTurn:
        import anthropic  # noqa: PLC0415 - AI SDK, only for a run
        import httpx2  # noqa: PLC0415 - listing the engines stays light

        live = _Narration(on_text)
        try:
            for kind, text in stream:
                if cancel is not None and cancel.is_set():
                    if stream.snapshot is None:  # before message_start: the input was sent all the same
                        return ModelTurn(model=self.model, usage=estimated_usage(request),
                                         stop_reason="cancelled")
                    return self._to_turn(stream, request, cancelled=True)
                if text:
                    live.say(text)  # spoken, or the narration between tool calls, summarized
                elif kind == "content_block_start":
                    live.new_block()
        except (httpx2.TransportError, anthropic.APIConnectionError, ValueError) as exc:
            # Dropped mid-stream, or tool JSON that cannot be parsed: nothing from it is used.
            raise _cut_off(stream_broken(self.voice(), f"{type(exc).__name__}: {exc}"),
                           stream, request) from None
        if not stream.finished:
            raise _cut_off(stream_broken(self.voice(), "the stream ended without message_stop"),
                           stream, request)
        return self._to_turn(stream, request, cancelled=False)

    def _to_turn(self, stream: MessageReader, request: dict[str, Any],
                 cancelled: bool) -> ModelTurn:
        message, closed = stream.snapshot or {}, stream.closed
        texts, calls, kept = [], [], []
        content = message.get("content") or []
        stop_reason = message.get("stop_reason")
        for i, block in enumerate(content):
            param = block_param(block)
            if param is not None and i in closed:  # a block cut off is not replayed
                kept.append(param)
            kind = block.get("type")
            if kind == "text" and block.get("text"):
                texts.append(block["text"])
            elif kind == "tool_use" and param is not None:  # (always, for a tool_use block)
                # A block not closed, or the last one of a reply cut off by the output limit
                # or the context window, may hold half its arguments: running it could write
                # half a file.
                if cancelled or i not in closed or (
                        stop_reason in CUT_OFF and i == len(content) - 1):
                    continue
                calls.append(ToolCall(id=param["id"], name=param["name"],
                                      arguments=param["input"]))
        record = None
        if not cancelled:
            sent, prefix = self._sent
            if sent is not request["messages"]:  # a request not built by build_request
                prefix = fingerprint(self.model, request.get("system", []),
                                     request.get("tools", []), request["messages"])
            record = make_record(self.model, prefix, kept)
        return ModelTurn(text="\n\n".join(texts), tool_calls=calls,
                         usage=_usage(message.get("usage")),
                         model=message.get("model") or self.model, record=record,
                         stop_reason="cancelled" if cancelled else (stop_reason or ""),
                         web=web_activity({**message, "content": [
                             b for i, b in enumerate(content) if i in closed]}))


class _Narration:
    """The reply's live text for the window: spoken text and summarized thinking, each block
    apart from the one before."""

    def __init__(self, on_text: Callable[[str], None] | None):
        self.on_text, self.spoken, self.fresh = on_text, False, False

    def new_block(self) -> None:
        self.fresh = self.spoken

    def say(self, text: str) -> None:
        if not text:
            return
        emit(self.on_text, ("\n\n" if self.fresh else "") + text)
        self.spoken, self.fresh = True, False


def _usage(u: dict[str, Any] | None) -> Usage:
    u = u or {}
    return Usage(input_tokens=u.get("input_tokens") or 0, output_tokens=u.get("output_tokens") or 0,
                 cache_read_tokens=u.get("cache_read_input_tokens") or 0,
                 cache_write_tokens=u.get("cache_creation_input_tokens") or 0)


def _billed(stream: MessageReader, request: dict[str, Any]) -> Usage:
    """What a stream that broke off was billed: its usage so far once message_start came,
    else an estimate of the input sent."""
    if stream.snapshot is None:
        return estimated_usage(request)
    return _usage(stream.snapshot.get("usage"))


def _cut_off(err: EngineError, stream: MessageReader, request: dict[str, Any]) -> EngineError:
    """A reply that broke off after its 200, with what it was billed: its tokens so far and
    the searches and fetches the service ran in it (EngineError.usage and .web)."""
    with_usage(err, _billed(stream, request))
    err.web = cut_off_activity(stream.snapshot)
    return err


def _offers(ids: list[str], model: str) -> bool:
    """Whether the listed ids include the model, itself or as a dated snapshot of it."""
    return any(i == model or i.startswith(model + "-") for i in ids)
