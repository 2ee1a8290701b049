"""OpenAI through its Responses API (why: see OpenAIEngine)."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import threading
from typing import Any, Callable

from app.core.engine.conversation import Message, ModelTurn, ToolCall, ToolResult, ToolSpec, Usage
from app.core.engine.port import BAD_REQUEST, Availability, EngineConfig, EngineError
from app.core.tools.pictures import fitted, parts_for
from app.engines.keyed import check_keyed, require_key
from app.engines.keys import CALL_TIMEOUT_S
from app.engines.openai.compat import (OPENAI_BASE_URL, RESPONSES_ORDER, OpenAICompatibleEngine,
                                       estimated_usage, openai_body, post_stream, result_text,
                                       split_usage, stream_events, with_usage)
from app.engines.openai.web import INCLUDE_SOURCES, cut_off_activity, web_activity, web_tool
from app.engines.raw_stream import Body, RawStream, json_list
from app.engines.openai.replay import (make_record, output_items, reasoning_ids,
                                          replay_items)
from app.engines.wire import (Voice, arguments_json, emit, from_status, parse_arguments,
                              stable_tools, stream_broken)
from app.engines.wire_cache import Prefix, WireCache, calls_key, results_key

OPENAI_FALLBACK_MODELS = ("gpt-6.2-sol", "gpt-6.2-astra", "gpt-6.1-terra", "gpt-6-luna",
                          "gpt-6.1-sol", "gpt-5.5", "gpt-5.4-mini")
# Ids in the models list that are not chat models an agent could use.
_NOT_CHAT = ("audio", "realtime", "tts", "transcribe", "image", "embedding", "search",
             "moderation", "instruct", "dall-e", "whisper", "sora")
# Ask for each reasoning item's encrypted content, so it can be sent back statelessly.
INCLUDE_REASONING = "reasoning.encrypted_content"
# High detail fits a picture into 2048 x 2048 before it is read (OpenAI's images guide).
OPENAI_PICTURE_SIDE = 2048
_TEXT_ONLY = ("o1-mini", "o1-preview", "o3-mini", "gpt-3.5", "gpt-4-turbo-preview", "gpt-4-0")
# Output limits of model families (the first prefix that matches). A budget cap above a
# model's limit would be refused, so it is sent only below it; for a model not listed, only
# below the smallest limit of current models.
# Most specific first: "gpt-5-chat" must not be read as the gpt-5 family.
_OUTPUT_LIMITS = (("gpt-5-chat", 16_384), ("o1-mini", 65_536), ("o1-preview", 32_768),
                  ("gpt-4.1", 32_768), ("gpt-4o", 16_384), ("gpt-4-turbo", 4_096),
                  ("gpt-4", 8_192), ("gpt-3.5", 4_096), ("gpt-5", 128_000),
                  ("gpt-6", 128_000), ("o1", 100_000), ("o3", 100_000), ("o4", 100_000))
# Families that reason. Asking a model that does not for encrypted reasoning is a 400.
_REASONING_FAMILIES = ("gpt-5", "gpt-6", "o1", "o3", "o4")
# OpenAI's answer when a reasoning item it handed out earlier can no longer be verified.
_STALE_REASONING = re.compile(r"invalid_encrypted_content|could not be verified", re.IGNORECASE)
_SMALLEST_OUTPUT_LIMIT = 16_384
# How a server that does not know `include` (an OpenAI-compatible proxy) says so.
_REFUSES_INCLUDE = re.compile(r"\binclude\b|encrypted_content", re.IGNORECASE)


class OpenAIEngine(OpenAICompatibleEngine):
    """OpenAI through the Responses API, stateless, with a stable prompt_cache_key.

    Why the Responses API rather than Chat Completions: it is the API OpenAI builds its
    current models and features for (reasoning models, prompt-cache options, usage that
    reports cache writes), and OpenAI reports better prompt-cache use with it. We call it
    statelessly (`store: false`, the whole conversation sent each step): the harness owns
    the conversation, and nothing of the person's files needs to stay on OpenAI's servers.
    Its stream ends with one `response.completed` event carrying the finished response, so
    a stream that broke off is recognised for certain: no completed event, no tool calls
    (STREAM_BROKEN). It streams for the reasons given in AnthropicEngine: live text, Stop
    between chunks, and no read timeout on a slow but working reply. Local servers use
    Chat Completions instead (local_engine.py), the API they actually implement.

    Replay: each turn's `record` is its output as input items, in the order returned
    (reasoning, commentary messages with their `phase`, function calls; see
    responses_replay), and the next steps send it back so. The GPT-5/6 families reason, and
    stateless their reasoning would be redone every step, so every request asks for
    `include: ["reasoning.encrypted_content"]`. A reasoning item OpenAI says it can no longer
    verify is left out from then on and the step sent once more. A server that refuses
    `include` (some OpenAI-compatible proxies do, with a 400 or 422 naming it) gets that
    request once more without it, and no `include` from then on (`include_refused`). Those
    are rewrites of one request the server could not take, not a second retry layer.

    The system prompt goes first in `input` as a developer message, not as top-level
    `instructions`: OpenAI's "Using GPT-6.2" guide says that from GPT-6.2 on the model appends
    top-level instructions after the input, where no prompt cache reaches them, and that
    reusable instructions belong in a developer message as the first input item. That is a
    cached prefix on earlier models too.

    Output cap: the `max_output_tokens` argument, when the run's retry layer sets it
    from what is left of a USD budget, becomes `max_output_tokens` when it is below the
    model's own output limit (see _OUTPUT_LIMITS); the person's `extra["max_tokens"]` is
    honoured as well, whichever is smaller.
    """

    id = "openai"
    label = "OpenAI"
    needs_key = True
    looks_up = True  # the built-in web_search tool, on tasks that may look things up
    default_model = OPENAI_FALLBACK_MODELS[0]

    def __init__(self, config: EngineConfig | None = None):
        super().__init__(config)
        self._stale: set[str] = set()  # reasoning ids OpenAI no longer accepts
        self._wire = WireCache()
        self._prefix = Prefix()  # the last request's messages (see build_request)
        self._fixed: _Fixed | None = None
        self._items: list[dict[str, Any]] = []  # the last request's input items, and their JSON
        self._jsons: list[bytes] = []
        self._body_kept: Body | None = None
        self.include_refused = False

    @property
    def _body(self) -> Body:
        if self._body_kept is None:
            self._body_kept = openai_body(RESPONSES_ORDER)
        return self._body_kept

    def base_url(self) -> str:
        return (self.config.base_url or os.environ.get("OPENAI_BASE_URL")
                or OPENAI_BASE_URL).rstrip("/")

    def voice(self) -> Voice:
        url, model = self.base_url(), self.model
        return Voice(
            name="OpenAI",
            auth="Your OpenAI API key was rejected. Open Engine settings and paste a new key.",
            forbidden=("Your OpenAI API key is not allowed to make this request. Check its "
                       "project and permissions at platform.openai.com, or paste another key "
                       "in Engine settings."),
            quota=("Your OpenAI account has run out of quota or reached its spending limit. Add "
                   "credit or raise the limit at platform.openai.com, then run again."),
            model_missing=(f"OpenAI has no model called '{model}' that your key can use. "
                           "Open Engine settings and choose another model."),
            unreachable=(f"Could not connect to OpenAI at {url}. Check your internet connection "
                         "and try again."),
            fix_address="Correct OPENAI_BASE_URL, or the --base-url given, to a web address.",
        )

    def _api_key(self, timeout: float = CALL_TIMEOUT_S) -> str:
        return require_key(self.id, "OpenAI", "OPENAI_API_KEY", timeout)

    def availability(self) -> Availability:
        return check_keyed(
            "OpenAI", "OPENAI_API_KEY", self.base_url(), self.model, list(OPENAI_FALLBACK_MODELS),
            self._api_key, self.list_models,
            offered=lambda ids: sorted(i for i in ids if not any(w in i for w in _NOT_CHAT)),
            has_model=lambda ids, model: model in ids,
            prepare=lambda: importlib.import_module("openai"))

    def cache_key(self, system: str) -> str:
        # The workspace's key when the loop gives one; otherwise one derived from the stable
        # system prompt, which is just as constant from round to round.
        return self.config.cache_key or "hd-" + hashlib.sha256(system.encode()).hexdigest()[:24]

    def sees_pictures(self) -> bool:
        """The models of the Responses API read pictures, but for the few text-only ones."""
        if "vision" in self.config.options:
            return bool(self.config.options["vision"])
        return not self.model.startswith(_TEXT_ONLY)

    def _output(self, r: ToolResult, shown: set[tuple[int, int]]) -> str | list[dict[str, Any]]:
        """A function_call_output's output: its text, or a list of an input_text and an
        input_image per picture (a data URL), as ResponseFunctionCallOutputItemListParam."""
        text, sent = parts_for(r, self.sees_pictures(), shown)
        if not sent:
            return result_text(text, r.is_error)
        output: list[dict[str, Any]] = [{"type": "input_text",
                                         "text": result_text(text, r.is_error)}]
        for picture in sent:
            fit = fitted(picture, OPENAI_PICTURE_SIDE)
            output.append({"type": "input_image", "detail": "high",
                           "image_url": f"data:{fit.media_type};base64,{fit.data}"})
        return output

    def build_request(self, system: str, tools: list[ToolSpec], messages: list[Message],
                      max_output_tokens: int | None = None) -> dict[str, Any]:
        """The Responses API request (without `stream`). Each message's items are built once
        and the leading messages unchanged since the last request taken as they were (see
        wire_cache); the request shares them with later ones: read it, do not change it."""
        sees, stale = self.sees_pictures(), frozenset(self._stale)
        fixed = self._stable(system, tools)
        shown, held = self._prefix.shown_and_held(messages, lambda _: (sees, stale, fixed))
        upto = self._prefix.states[held - 1] if held else len(fixed.head)
        items, jsons = self._items[:upto], self._jsons[:upto]
        rows, wire = [], self._wire
        for m in messages[held:]:
            if m.role == "user":
                key: tuple[Any, ...] = (sees, m.text, results_key(m.tool_results, shown))
                made, texts = wire.get(  # wire.get calls the builder at once
                    m, key, lambda: self._made(self._user_items(m, shown)))  # noqa: B023
            else:
                key = (stale, m.text, m.record, calls_key(m.tool_calls))
                made, texts = wire.get(
                    m, key, lambda: self._made(self._assistant_items(m)))  # noqa: B023
            items += made
            jsons += texts
            rows.append((m, len(items)))
        self._prefix.keep(held, rows, shown)
        wire.prune(messages)
        self._items, self._jsons = items, jsons
        self._body.keep("input", items, json_list(jsons))
        request: dict[str, Any] = {
            "model": self.model, "input": items, "store": False,
            "prompt_cache_key": self.config.cache_key or fixed.cache_key,
        }
        include = [INCLUDE_REASONING] if _reasons(self.model) else []
        include += [INCLUDE_SOURCES] if self.web is not None else []
        if not self.include_refused and include:
            request["include"] = include
        cap = self._output_cap(max_output_tokens)
        if cap:
            request["max_output_tokens"] = cap
        if fixed.tools:
            request["tools"] = fixed.tools
        return request

    def encoded(self, request: dict[str, Any]) -> bytes:
        """The bytes the SDK would send for `request` (with stream: true)."""
        return self._body.encode(request)

    def _stable(self, system: str, tools: list[ToolSpec]) -> "_Fixed":
        """What is the same every step: the developer message, the tools, the cache key."""
        web = self.web
        key = (system, tuple((t.name, t.description, t.parameters) for t in tools),
               web.model_dump_json() if web is not None else None)
        if self._fixed is None or self._fixed.key != key:
            defs = [{"type": "function", "name": t.name, "description": t.description,
                     "parameters": t.parameters, "strict": False} for t in stable_tools(tools)]
            # The web search tool only on a task that may look things up (openai_web).
            defs += [web_tool(web)] if web is not None else []
            head = [{"role": "developer", "content": system}] if system else []
            self._fixed = _Fixed(key, head, [self._body.dumps(i) for i in head], defs,
                                 self.cache_key(system))
            self._body.keep("tools", defs, [self._body.dumps(defs)])
            self._items, self._jsons = list(head), list(self._fixed.jsons)
        return self._fixed

    def _made(self, items: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[bytes]]:
        return items, [self._body.dumps(i) for i in items]

    def _user_items(self, m: Message, shown: set[tuple[int, int]]) -> list[dict[str, Any]]:
        items = [{"type": "function_call_output", "call_id": r.call_id,
                  "output": self._output(r, shown)} for r in m.tool_results]
        return items + ([{"role": "user", "content": m.text}] if m.text else [])

    def _assistant_items(self, m: Message) -> list[dict[str, Any]]:
        replayed = replay_items(m, self._stale)
        if replayed is not None:
            return replayed  # as the service sent it
        # A reply without a record (another engine's, or a test's).
        items = [{"role": "assistant", "content": m.text}] if m.text else []
        return items + [{"type": "function_call", "call_id": c.id, "name": c.name,
                         "arguments": arguments_json(c.arguments)} for c in m.tool_calls]

    def _output_cap(self, budget: int | None) -> int | None:
        caps = [int(self.config.options["max_tokens"])] if self.config.options.get("max_tokens") else []
        if budget is not None and budget < _output_limit(self.model):
            caps.append(budget)
        # No output cap otherwise: each model's own limit applies (a fixed cap would be
        # refused by models with a smaller one).
        return min(caps) if caps else None

    def turn(self, system: str, tools: list[ToolSpec], messages: list[Message], *,
             cancel: threading.Event | None = None,
             on_text: Callable[[str], None] | None = None,
             max_output_tokens: int | None = None) -> ModelTurn:
        if not any(m.role == "assistant" for m in messages):
            self._stale.clear()  # a fresh round sends no reasoning of an earlier one
        request = self.build_request(system, tools, messages, max_output_tokens)
        try:
            return self._send(request, cancel, on_text)
        except EngineError as err:
            sent = reasoning_ids(request)
            if _stale_reasoning(err) and sent:
                # Reasoning OpenAI no longer accepts: send the step once more without it (the
                # model re-reasons), still asking for new reasoning.
                self._stale |= sent
                return self._send(self.build_request(system, tools, messages, max_output_tokens),
                                  cancel, on_text)
            if "include" not in request or not _refuses_include(err):
                raise
        # An OpenAI-compatible server that does not know `include`: this request once more
        # without it, and none from now on. Reasoning is then not carried between steps.
        self.include_refused = True
        del request["include"]
        return self._send(request, cancel, on_text)

    def _diagnose(self, exc: Exception) -> EngineError:
        err = super()._diagnose(exc)
        if err.code == BAD_REQUEST and not isinstance(exc, EngineError):
            # The error body as sent: a proxy's 422 may name the field only in its "detail".
            body = json.dumps(getattr(exc, "body", None), default=str)
            err.body_text = body  # type: ignore[attr-defined]
            err.refuses_include = bool(  # type: ignore[attr-defined]
                _REFUSES_INCLUDE.search(f"{getattr(exc, 'message', '')} {body}"))
        return err

    def _send(self, request: dict[str, Any], cancel: threading.Event | None,
              on_text: Callable[[str], None] | None) -> ModelTurn:
        body = self.encoded(request)
        return self._run(lambda client: self._read(
            post_stream(client, "/responses", body), cancel, on_text, request))

    def _read(self, stream: RawStream, cancel: threading.Event | None,
              on_text: Callable[[str], None] | None, request: dict[str, Any]) -> ModelTurn:
        voice = self.voice()
        final: dict[str, Any] | None = None
        texts: list[str] = []
        seen = 0  # characters of the reply seen so far: text, arguments, reasoning summary
        # The web_search_call items finished so far (billed lookups).
        looked: list[dict[str, Any]] = []
        with stream:
            try:
                for event in stream_events(stream):
                    if cancel is not None and cancel.is_set():
                        # The input was billed though usage never came: an estimate of it.
                        return ModelTurn(text="".join(texts), model=self.model,
                                         usage=estimated_usage(request, seen),
                                         stop_reason="cancelled")
                    kind = event.get("type")
                    if kind == "response.output_text.delta":
                        delta = event.get("delta") or ""
                        texts.append(delta)
                        seen += len(delta)
                        emit(on_text, delta)
                    elif kind in ("response.function_call_arguments.delta",
                                  "response.reasoning_summary_text.delta"):
                        seen += len(event.get("delta") or "")
                    elif kind == "response.output_item.done":
                        item = event.get("item") or {}
                        if item.get("type") == "web_search_call":
                            looked.append(item)
                    elif kind in ("response.completed", "response.incomplete"):
                        final = event.get("response") or {}
                    elif kind == "response.failed":
                        response = event.get("response") or {}
                        error = response.get("error") or {}
                        err = from_status(voice, 200, {"error": {
                            "type": error.get("code") or "", "message": error.get("message") or ""}})
                        u = response.get("usage")
                        if u:  # a failed response that says what it used was billed for it
                            with_usage(err, _usage(u))
                        raise err
                    elif kind == "error":  # after the 200: the input was billed
                        raise with_usage(from_status(voice, 200, {"error": _stream_error(event)}),
                                         estimated_usage(request, seen))
            except self._stream_cuts() as exc:
                raise _looked_up(with_usage(stream_broken(voice, f"{type(exc).__name__}: {exc}"),
                                            estimated_usage(request, seen)), looked) from None
            except self._stream_errors() as exc:
                # The live service nests a stream's error ({"type": "error", "error": {...}}),
                # which the SDK raises as an APIError while the stream is read.
                raise _looked_up(with_usage(from_status(voice, 200, {"error": exc.body}, None,
                                                        exc.message),
                                            estimated_usage(request, seen)), looked) from None
        if final is None:
            raise _looked_up(with_usage(stream_broken(voice, "the stream ended without "
                                                      "response.completed"),
                                        estimated_usage(request, seen)), looked)
        return self._to_turn(final)

    def _to_turn(self, response: dict[str, Any]) -> ModelTurn:
        """The turn a finished response (its JSON, as response.completed gave it) makes."""
        texts, calls = [], []
        incomplete = response.get("status") == "incomplete"
        for item in response.get("output") or []:
            kind = item.get("type")
            if kind == "message":
                texts += [p["text"] for p in item.get("content") or []
                          if p.get("type") == "output_text" and p.get("text")]
            elif kind == "function_call":
                if item.get("status") not in (None, "completed"):
                    continue
                raw = item.get("arguments")
                args = parse_arguments(raw)
                if incomplete and not args and raw:
                    continue  # cut off by the output limit: half its arguments
                calls.append(ToolCall(id=item.get("call_id"), name=item.get("name"),
                                      arguments=args))
        model = response.get("model") or self.model
        u = response.get("usage")
        stop = ((response.get("incomplete_details") or {}).get("reason") or "incomplete") \
            if incomplete else ("tool_use" if calls else "end_turn")
        return ModelTurn(text="\n\n".join(texts), tool_calls=calls,
                         usage=_usage(u) if u else Usage(), model=model, stop_reason=stop,
                         record=make_record(model, output_items(response)),
                         web=web_activity(response))


class _Fixed:
    """What a Responses request holds that is the same every step (see _stable)."""

    def __init__(self, key: tuple[Any, ...], head: list[dict[str, Any]], jsons: list[bytes],
                 tools: list[dict[str, Any]], cache_key: str):
        self.key, self.head, self.jsons, self.tools, self.cache_key = (key, head, jsons, tools,
                                                                      cache_key)


def _usage(u: dict[str, Any]) -> Usage:
    return split_usage(u.get("input_tokens"), u.get("output_tokens"),
                       u.get("input_tokens_details"))


def _output_limit(model: str) -> int:
    for family, limit in _OUTPUT_LIMITS:
        if model.startswith(family):
            return limit
    return _SMALLEST_OUTPUT_LIMIT


def _reasons(model: str) -> bool:
    return model.startswith(_REASONING_FAMILIES) and "-chat" not in model


def _stale_reasoning(err: EngineError) -> bool:
    return err.code == BAD_REQUEST and bool(
        _STALE_REASONING.search(f"{err.details} {err.message} {getattr(err, 'body_text', '')}"))


def _refuses_include(err: EngineError) -> bool:
    return err.code == BAD_REQUEST and not _stale_reasoning(err) and (
        getattr(err, "refuses_include", False)
        or bool(_REFUSES_INCLUDE.search(f"{err.details} {err.message}")))


def _stream_error(event: dict[str, Any]) -> dict[str, Any]:
    """An error event's fields, flat ({"type": "error", "code": ...}) or nested as the live
    service sends it ({"type": "error", "error": {...}})."""
    nested = event.get("error")
    if isinstance(nested, dict):
        return nested
    return {"type": event.get("code") or "", "code": event.get("code") or "",
            "message": event.get("message") or ""}


def _looked_up(err: EngineError, looked: list[dict[str, Any]]) -> EngineError:
    """A response that broke off after its 200, with the lookups the service ran in it
    (EngineError.web: counted in the cost and the task's cap)."""
    err.web = cut_off_activity(looked)
    return err
