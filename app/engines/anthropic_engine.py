"""Claude through the official anthropic SDK: the Messages API with tools, streamed and prompt-cached."""

from __future__ import annotations

import os
import re
import threading
from typing import Any, Callable

from app.core.conversation import Message, ModelTurn, ToolCall, ToolResult, ToolSpec, Usage
from app.core.engine import Availability, EngineConfig, EngineError
from app.core.pictures import fitted, parts_for, shown_pictures
from app.engines.claude_send import stream_messages
from app.engines.claude_replay import (Chain, block_digest, block_param, fingerprint, make_record,
                                      replay_blocks)
from app.engines.keyed import check_keyed, require_key
from app.engines.keys import CALL_TIMEOUT_S
from app.engines.openai_compat import estimated_usage, with_usage
from app.engines.prices import PricedEngine
from app.engines.wire_cache import WireCache
from app.engines.wire import (AVAILABILITY_TIMEOUT_S, Voice, check_base_url, emit, from_status,
                              from_transport, stable_tools, stream_broken)

DEFAULT_BASE_URL = "https://api.anthropic.com"
DEFAULT_MAX_TOKENS = 32_000
# Older models refuse a max_tokens above their own output limit.
_OUTPUT_LIMITS = {"claude-3-haiku": 4096, "claude-3-opus": 4096, "claude-3-5-haiku": 8192,
                  "claude-3-5-sonnet": 8192}
# Shown when the models API cannot be read; newest first.
FALLBACK_MODELS = ("claude-sonnet-5-5", "claude-opus-5-5", "claude-haiku-5-5", "claude-opus-5",
                   "claude-sonnet-5", "claude-haiku-4-5")
# Claude scales down any picture whose long side passes 1568 px (its vision guide): sending
# it smaller saves the upload and the wait, at no cost to what the model sees.
CLAUDE_PICTURE_SIDE = 1568
MAX_CACHE_BREAKPOINTS = 4  # the API refuses a fifth
EPHEMERAL = {"type": "ephemeral"}
# Claude 5 models and later think adaptively by default, and on the newest of them the
# text between tool calls arrives as thinking; asking for it summarized shows it live.
SUMMARIZED_THINKING = {"type": "adaptive", "display": "summarized"}
_GENERATION = re.compile(r"^claude-[a-z]+-(\d+)(?:-|$)")
# Stop reasons after which the reply's last block may be cut off mid-way.
CUT_OFF = ("max_tokens", "model_context_window_exceeded")


class AnthropicEngine(PricedEngine):
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
    default_model = FALLBACK_MODELS[0]

    def __init__(self, config: EngineConfig | None = None):
        super().__init__(config)
        self._kept: tuple[tuple[str, float], Any] | None = None  # see _turn_client
        self._wire = WireCache()  # each message's blocks, built once (see wire_cache)
        self._sent: tuple[list[dict] | None, str] = (None, "")  # see _messages

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

    def _client(self, key: str, timeout_s: float) -> Any:
        import anthropic
        import httpx2

        # max_retries=0: the loop is the only retry layer (RELIABILITY.md, "Loops and money").
        base_url = check_base_url(self.voice(), self.base_url())
        return anthropic.Anthropic(api_key=key, base_url=base_url, max_retries=0,
                                   timeout=httpx2.Timeout(timeout_s, connect=min(10.0, timeout_s)))

    def _turn_client(self) -> Any:
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
        import importlib

        return check_keyed("Claude", "ANTHROPIC_API_KEY", self.base_url(), self.model,
                           list(FALLBACK_MODELS), self._key, self._list_models,
                           offered=lambda ids: ids, has_model=_offers,
                           prepare=lambda: importlib.import_module("anthropic"))

    def _list_models(self, key: str) -> list[str]:
        import anthropic

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

    # -- one model turn ------------------------------------------------------------------

    def build_request(self, system: str, tools: list[ToolSpec], messages: list[Message],
                      max_output_tokens: int | None = None) -> dict:
        """The Messages API request body (without `stream`), cache breakpoints included."""
        tool_defs: list[dict] = [{"name": t.name, "description": t.description,
                                  "input_schema": t.parameters} for t in stable_tools(tools)]
        system_blocks = [{"type": "text", "text": system}] if system else []
        max_tokens = int(self.config.options.get("max_tokens", self._max_tokens()))
        cap = max_output_tokens
        request: dict[str, Any] = {
            "model": self.model,
            "max_tokens": min(max_tokens, cap) if cap else max_tokens,
            "messages": self._messages(messages, system_blocks, tool_defs),
        }
        if system_blocks:
            request["system"] = system_blocks
            system_blocks[-1]["cache_control"] = EPHEMERAL
        if tool_defs:
            request["tools"] = tool_defs
            tool_defs[-1]["cache_control"] = EPHEMERAL
        if self.summarizes_thinking():
            request["thinking"] = dict(SUMMARIZED_THINKING)
        if request["messages"]:
            content = request["messages"][-1]["content"]
            if content[-1]["type"] in ("text", "tool_result", "tool_use"):
                # A copy: the block itself is kept for the next steps without it.
                content[-1] = {**content[-1], "cache_control": EPHEMERAL}
        assert _breakpoints(request) <= MAX_CACHE_BREAKPOINTS
        return request

    def summarizes_thinking(self) -> bool:
        """Whether this model takes `thinking.display` (Claude 5 and later, adaptive thinking)."""
        if "thinking" in self.config.options:
            return bool(self.config.options["thinking"])
        found = _GENERATION.match(self.model)
        return bool(found) and int(found.group(1)) >= 5

    def _max_tokens(self) -> int:
        for family, limit in _OUTPUT_LIMITS.items():
            if self.model.startswith(family):
                return limit
        return DEFAULT_MAX_TOKENS

    def _messages(self, messages: list[Message], system: list[dict],
                  tools: list[dict]) -> list[dict]:
        """The request's messages, each message's blocks (and their digests) built once
        (WireCache) and the replay prefix of each reply found in one pass (Chain)."""
        out: list[dict] = []
        digests: list[list[bytes]] = []  # per entry of `out`, its blocks' digests
        shown = shown_pictures([r for m in messages for r in m.tool_results])
        sees = self.sees_pictures()
        chain, fed = Chain(self.model, system, tools), 0
        self._wire.begin()
        for m in messages:
            if m.role == "user":
                key = (sees, m.text, tuple(
                    (r.call_id, r.content, r.is_error, r.pictures,
                     tuple((id(r), k) in shown for k in range(len(r.pictures))))
                    for r in m.tool_results))
                blocks, digs = self._wire.get(m, key, lambda: _digested(self._user_blocks(m, shown)))
            else:
                # An assistant reply goes back exactly as it came, when its prefix still
                # matches (see claude_replay); replies merged into one turn never do.
                merged = bool(out) and out[-1]["role"] == "assistant"
                prefix = ""
                if not merged:
                    for entry, digs in zip(out[fed:], digests[fed:]):
                        chain.feed(entry["role"], digs)
                    fed, prefix = len(out), chain.hexdigest()
                key = (self.model, prefix, m.text, m.record,
                       tuple((c.id, c.name, c.arguments) for c in m.tool_calls))
                blocks, digs = self._wire.get(m, key, lambda: _digested(self._replied(m, prefix)))
            if not blocks:
                continue  # the API refuses empty content
            if out and out[-1]["role"] == m.role:
                out[-1]["content"].extend(blocks)  # keep roles alternating
                digests[-1].extend(digs)
            else:
                out.append({"role": m.role, "content": list(blocks)})
                digests.append(list(digs))
        self._wire.end()
        for entry, digs in zip(out[fed:], digests[fed:]):
            chain.feed(entry["role"], digs)
        self._sent = (out, chain.hexdigest())  # the prefix of this request's reply
        return out

    def _replied(self, m: Message, prefix: str) -> list[dict]:
        blocks = replay_blocks(m, self.model, prefix)
        return self._assistant_blocks(m) if blocks is None else blocks

    def _user_blocks(self, m: Message, shown: set) -> list[dict]:
        # Tool results first: the API wants them at the start of the user turn after tool calls.
        blocks: list[dict] = [{"type": "tool_result", "tool_use_id": r.call_id,
                               "content": self._result_content(r, shown), "is_error": r.is_error}
                              for r in m.tool_results]
        if m.text:
            blocks.append({"type": "text", "text": m.text})
        return blocks

    def _result_content(self, r: ToolResult, shown: set[int]) -> str | list[dict]:
        """A tool result's content: its text, or a text block and an image block per picture
        (ToolResultBlockParam's content takes text and image blocks)."""
        text, sent = parts_for(r, self.sees_pictures(), shown)
        if not sent:
            return text or "(no output)"
        blocks: list[dict] = [{"type": "text", "text": text}]
        for picture in sent:
            fit = fitted(picture, CLAUDE_PICTURE_SIDE)
            blocks.append({"type": "image", "source": {
                "type": "base64", "media_type": fit.media_type, "data": fit.data}})
        return blocks

    def sees_pictures(self) -> bool:
        """Every Claude model since Claude 3 reads pictures; the `vision` option can say no."""
        return bool(self.config.options.get("vision", True))

    @staticmethod
    def _assistant_blocks(m: Message) -> list[dict]:
        """A reply without a record (another engine's, or a test's): its text and calls."""
        blocks: list[dict] = [{"type": "text", "text": m.text}] if m.text else []
        blocks.extend({"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}
                      for c in m.tool_calls)
        return blocks

    def turn(self, system: str, tools: list[ToolSpec], messages: list[Message], *,
             cancel: threading.Event | None = None,
             on_text: Callable[[str], None] | None = None,
             max_output_tokens: int | None = None) -> ModelTurn:
        import anthropic

        request = self.build_request(system, tools, messages, max_output_tokens)
        client = self._turn_client()
        stream = None
        try:
            with stream_messages(client, request) as stream:
                return self._read(stream, cancel, on_text, request)
        except EngineError:
            raise
        except anthropic.APIStatusError as exc:
            err = from_status(self.voice(), exc.status_code, exc.body, exc.response.headers,
                              exc.message)
            if stream is not None:  # an error event after the 200 (overloaded mid-reply):
                with_usage(err, _billed(stream, request))  # the input was billed
            raise err from None
        except anthropic.APIConnectionError as exc:
            raise from_transport(self.voice(), exc) from None

    def _read(self, stream: Any, cancel: threading.Event | None,
              on_text: Callable[[str], None] | None, request: dict) -> ModelTurn:
        import anthropic
        import httpx2

        closed_blocks: set[int] = set()
        finished = False
        live = _Narration(on_text)
        try:
            for event in stream:
                if cancel is not None and cancel.is_set():
                    snapshot = _snapshot(stream)
                    if snapshot is None:  # before message_start: the input was sent all the same
                        return ModelTurn(model=self.model, usage=estimated_usage(request),
                                         stop_reason="cancelled")
                    return self._to_turn(snapshot, closed_blocks, request, cancelled=True)
                if event.type == "text":
                    live.say(event.text)
                elif event.type == "thinking":
                    live.say(event.thinking)  # the narration between tool calls, summarized
                elif event.type == "content_block_start":
                    live.new_block()
                elif event.type == "content_block_stop":
                    closed_blocks.add(event.index)
                elif event.type == "message_stop":
                    finished = True
        except (httpx2.TransportError, anthropic.APIConnectionError, ValueError) as exc:
            # Dropped mid-stream, or tool JSON that cannot be parsed: nothing from it is used.
            raise with_usage(stream_broken(self.voice(), f"{type(exc).__name__}: {exc}"),
                             _billed(stream, request)) from None
        if not finished:
            raise with_usage(stream_broken(self.voice(), "the stream ended without message_stop"),
                             _billed(stream, request))
        return self._to_turn(_snapshot(stream), closed_blocks, request, cancelled=False)

    def _to_turn(self, message: Any, closed_blocks: set[int], request: dict,
                 cancelled: bool) -> ModelTurn:
        texts, calls, kept = [], [], []
        last = len(message.content) - 1
        for i, block in enumerate(message.content):
            param = block_param(block)
            if param is not None and i in closed_blocks:  # a block cut off is not replayed
                kept.append(param)
            if block.type == "text" and block.text:
                texts.append(block.text)
            elif block.type == "tool_use":
                # A block not closed, or the last one of a reply cut off by the output limit
                # or the context window, may hold half its arguments: running it could write
                # half a file.
                if cancelled or i not in closed_blocks or (
                        message.stop_reason in CUT_OFF and i == last):
                    continue
                args = block.input if isinstance(block.input, dict) else {}
                calls.append(ToolCall(id=block.id, name=block.name, arguments=args))
        record = None
        if not cancelled:
            sent, prefix = self._sent
            if sent is not request["messages"]:  # a request not built by build_request
                prefix = fingerprint(self.model, request.get("system", []),
                                     request.get("tools", []), request["messages"])
            record = make_record(self.model, prefix, kept)
        return ModelTurn(text="\n\n".join(texts), tool_calls=calls, usage=_usage(message.usage),
                         model=message.model or self.model, record=record,
                         stop_reason="cancelled" if cancelled else (message.stop_reason or ""))


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


def _usage(u: Any) -> Usage:
    return Usage(input_tokens=u.input_tokens or 0, output_tokens=u.output_tokens or 0,
                 cache_read_tokens=getattr(u, "cache_read_input_tokens", None) or 0,
                 cache_write_tokens=getattr(u, "cache_creation_input_tokens", None) or 0)


def _billed(stream: Any, request: dict) -> Usage:
    """What a stream that broke off was billed: its usage so far once message_start came,
    else an estimate of the input sent."""
    try:
        snapshot = _snapshot(stream)
    except Exception:  # a snapshot half-built from a broken stream: estimate instead
        snapshot = None
    return _usage(snapshot.usage) if snapshot is not None else estimated_usage(request)


def _snapshot(stream: Any) -> Any:
    """The message accumulated so far (None before message_start arrived)."""
    try:
        return stream.current_message_snapshot
    except AssertionError:
        return None


def _offers(ids: list[str], model: str) -> bool:
    """Whether the listed ids include the model, itself or as a dated snapshot of it."""
    return any(i == model or i.startswith(model + "-") for i in ids)


def _digested(blocks: list[dict]) -> tuple[list[dict], list[bytes]]:
    return blocks, [block_digest(b) for b in blocks]


def _breakpoints(request: dict) -> int:
    blocks = list(request.get("tools", [])) + list(request.get("system", []))
    for m in request["messages"]:
        blocks += m["content"]
    return sum(1 for b in blocks if "cache_control" in b)
