"""Local OpenAI-compatible servers (Ollama, LM Studio, llama.cpp) through Chat Completions, no key."""

from __future__ import annotations

import json
import re
import threading
import urllib.parse
from typing import Any, Callable

from app.core.engine.conversation import Message, ModelTurn, ToolSpec
from app.core.engine.port import (BAD_ADDRESS, ENGINE_UNREACHABLE, MODEL_NOT_FOUND,
                              PROMPT_TOO_LONG, Availability, EngineConfig, EngineError)
from app.core.engine.model_names import model_shown as _shown
from app.core.tools.pictures import Picture, fitted, parts_for
from app.engines.deadline import AVAILABILITY_TIMEOUT_S, within
from app.engines.keys import CALL_TIMEOUT_S
from app.engines.local import probe as local_probe
from app.engines.local.reply import read_turn
from app.engines.local.server import LLAMA_CPP, ServerFacts, ask_server, overflow
from app.engines.quick_ready import local_unreachable
from app.engines.local.vision import LOCAL_PICTURE_SIDE, PICTURE_TOKENS, ask_vision
from app.engines import sdk_import
from app.engines.openai.compat import (CHAT_ORDER, OpenAICompatibleEngine, post_early,
                                       post_stream, result_text)
from app.engines.raw_stream import Body, compact_json, json_list
from app.engines.wire_cache import Prefix, WireCache, calls_key, results_key
from app.engines.wire import Voice, arguments_json, check_base_url, stable_tools

OLLAMA_BASE_URL = "http://localhost:11434/v1"
LM_STUDIO_BASE_URL = "http://localhost:1234/v1"
LOCAL_PRESETS = {"Ollama": OLLAMA_BASE_URL, "LM Studio": LM_STUDIO_BASE_URL}
LOCAL_API_KEY = "local"  # the SDK insists on a key; local servers ignore it. Not a secret.
LOCAL_MIN_TIMEOUT_S = 300.0  # a local model may take minutes to load before its first token
LOCAL_MAX_OUTPUT_TOKENS = 4096  # each step's output cap (the person's max_tokens option wins)
MIN_REPLY_TOKENS = 512  # a context with less room than this for the reply is too small
CHARS_PER_TOKEN_LOCAL = 3.5  # JSON and prose as small models' tokenizers count it (measured)
_DATA_URL = re.compile(r"data:image/[a-z]+;base64,[A-Za-z0-9+/=]+")


class LocalEngine(OpenAICompatibleEngine):
    """A local OpenAI-compatible server (Ollama, LM Studio, llama.cpp) through Chat
    Completions; no key.

    Before any work, the server is asked what the model can do (local_server.ask_server:
    llama.cpp's /props, Ollama's /api/show and /api/ps, LM Studio's /api/v1 or /api/v0
    models): whether it can call tools, and its context size. Where the server does not say
    whether it can call tools, probe_tools() asks the model once for a tiny forced tool
    call (the answer is kept for the process); a llama.cpp server's "supports tools" speaks
    for the chat template only, so there the model is probed too (SmolLM2-135M, given a
    template that supports tools, writes words instead of the call). availability() says
    "Not ready" with the remedy for a model that cannot call tools or whose context is too
    small for the first request; turn() refuses to send either (one sentence, no waiting): a
    llama.cpp server whose template cannot render tools drops them silently, and Ollama cuts
    a prompt longer than its context silently.

    Each step's output is capped (max_tokens: LOCAL_MAX_OUTPUT_TOKENS, the budget's cap,
    and the room the context leaves, whichever is least). With a llama.cpp server whose
    template supports tools, tool_choice is "required" (its grammar then makes any call the
    model starts well-formed, and keeps it from ending its turn without one; the text before
    the call is still free). A context overflow, told before sending or
    by the server (llama.cpp's exceed_context_size_error, Ollama's and LM Studio's texts),
    is PROMPT_TOO_LONG with a `remedy` naming what to change on that server.

    The streamed reply is read by local_reply.read_turn (a turn cut by Stop or by the
    round's time limit, even while the server is silent, comes back as cancelled), what the
    server says of pictures by local_vision. A base URL whose path is wrong (no /v1, or /v1
    twice) gets a 404 for every request; that is diagnosed as a wrong address.
    """

    id = "local"
    label = "Local (Ollama, LM Studio)"
    _facts: ServerFacts | None = None
    _wire_kept: WireCache | None = None
    _prefix_kept: Prefix | None = None
    _body_kept: Body | None = None
    _fixed: "_Fixed | None" = None
    # The last request's messages, and their JSON (see build_request).
    _chat: list[dict[str, Any]]
    _jsons: list[bytes]
    _sizes: tuple[list[Any] | None, int, int] = (None, 0, 0)  # see build_request and _fit
    needs_key = False
    may_lack_tools = True
    default_model = ""  # the first model the server lists, unless one is chosen
    default_base_url = OLLAMA_BASE_URL

    def __init__(self, config: EngineConfig | None = None):
        super().__init__(config)
        self._chat, self._jsons = [], []

    def voice(self) -> Voice:
        url, model = self.base_url(), self.model or "(none chosen)"
        return Voice(
            name="The local server",
            auth=f"The local server at {url} refused the request as unauthorized. Check its settings.",
            forbidden=f"The local server at {url} refused the request. Check its settings.",
            quota=f"The local server at {url} refused the request for lack of resources.",
            model_missing=(f"The local server at {url} has no model called '{model}'. Download it "
                           f"first (for example: ollama pull {model}) or choose another model in "
                           "Engine settings."),
            unreachable=local_unreachable(url),
            no_tools=(f"The model '{_shown(model)}' cannot call tools, which Harness Desk "
                      "needs. Choose a model that can (for example qwen3 or llama3.1) in Engine "
                      "settings."),
        )

    def _api_key(self, timeout: float = CALL_TIMEOUT_S) -> str:
        return LOCAL_API_KEY

    def _timeout_s(self) -> float:
        return max(self.config.timeout_s, LOCAL_MIN_TIMEOUT_S)

    def _server_root(self) -> str:
        """The server itself (scheme, host, port and any prefix), without the /v1 part."""
        parts = urllib.parse.urlsplit(self.base_url())
        path = re.sub(r"(/v1)+/?$", "", parts.path.rstrip("/"))
        return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", ""))

    def _diagnose(self, exc: Exception) -> EngineError:
        err = super()._diagnose(exc)
        status = getattr(exc, "status_code", None)
        said = f"{getattr(exc, 'message', '')} {getattr(exc, 'body', '')}".lower()
        if err.code == PROMPT_TOO_LONG:
            return self._too_long(getattr(exc, "body", None), err)
        if status == 404 or "unexpected endpoint" in said:
            expected = _expected_base(self.base_url())
            if expected != self.base_url():
                return EngineError(
                    f"The local server at {self.base_url()} answers, but not at that address: "
                    f"Ollama and LM Studio expect it to end in a single /v1, as in {expected}. "
                    "Correct the server address in Engine settings.", code=ENGINE_UNREACHABLE,
                    details=err.details, cause=BAD_ADDRESS,
                    action="Correct the server address in Engine settings.")
        return err

    def _ensure_model(self) -> str:
        if not self.config.model:
            ids = self.list_models(LOCAL_API_KEY)
            if not ids:
                raise EngineError(f"The local server at {self.base_url()} has no models yet. "
                                  "Download one first, for example: ollama pull qwen3.",
                                  code=MODEL_NOT_FOUND)
            self.config.model = ids[0]
        return self.config.model

    def availability(self) -> Availability:
        """Whether the server, its model and its context can do the work (local_readiness)."""
        from app.engines.local.readiness import (  # noqa: PLC0415 - listing the engines stays light
            availability)

        return availability(self)

    def facts(self) -> ServerFacts:
        """What the server says about the chosen model (asked once per engine)."""
        if self._facts is None:
            check_base_url(self.voice(), self.base_url())  # a typo is one sentence, not a crash
            model = self._ensure_model()
            self._facts = within(AVAILABILITY_TIMEOUT_S, lambda: ask_server(
                self._server_root(), model, timeout_s=AVAILABILITY_TIMEOUT_S - 2.0))
            known = local_probe.PROBED.get((self.base_url(), model))
            if self._facts.tools is None and known is not None:
                self._facts.tools = known
        return self._facts

    def first_request_tokens(self) -> int:
        """About how many tokens the first request of a round needs, with room for its reply."""
        from app.core.run.reports import (  # noqa: PLC0415 - listing the engines stays light
            SYSTEM_PROMPT)
        from app.core.tools.specs import (  # noqa: PLC0415 - listing the engines stays light
            TOOL_SPECS)

        request = {"messages": [{"role": "system", "content": SYSTEM_PROMPT},
                                {"role": "user", "content": "x" * 1200}],  # a progress report
                   "tools": self._tools(TOOL_SPECS)}
        return self._tokens(request) + MIN_REPLY_TOKENS

    @staticmethod
    def _tokens(request: dict[str, Any]) -> int:
        """About how many tokens `request` is. A picture counts as a vision model's tiles
        (PICTURE_TOKENS), not as the characters of its base64."""

        text = json.dumps(request, ensure_ascii=False, default=str)
        pictures = _DATA_URL.findall(text)
        text = _DATA_URL.sub("", text)
        return int(len(text) / CHARS_PER_TOKEN_LOCAL) + PICTURE_TOKENS * len(pictures)

    def sees_pictures(self) -> bool:
        """Whether the model says it has vision; asked once per model, only when a picture
        is to be sent (see vision_support); the `vision` option overrides."""
        if "vision" in self.config.options:
            return bool(self.config.options["vision"])
        model = self.config.model or ""
        known: dict[str, bool] = self.__dict__.setdefault("_vision", {})
        if model not in known:
            known[model] = bool(self.vision_support(model))
        return known[model]

    def vision_support(self, model: str) -> bool | None:
        """What the server says of the model's vision (local_vision.ask_vision)."""
        return ask_vision(self._server_root(), model)

    def probe_tools(self, timeout_s: float = 30.0) -> bool | None:
        """Whether the model makes one tiny forced tool call (local_probe.probe_tools)."""
        return local_probe.probe_tools(self, timeout_s)

    @staticmethod
    def _tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
        return [{"type": "function", "function": {"name": t.name, "description": t.description,
                                                  "parameters": _no_type_lists(t.parameters)}}
                for t in stable_tools(tools)]

    def build_request(self, system: str, tools: list[ToolSpec], messages: list[Message],
                      max_output_tokens: int | None = None) -> dict[str, Any]:
        """The Chat Completions request (without `stream`). Each message's entries are built
        once with their size, and the leading messages unchanged since the last request
        taken as they were (see wire_cache); its parts are shared with later requests."""
        fixed = self._stable(system, tools)
        # The server is asked to see only for a picture.
        def context(shown: set[tuple[int, int]]) -> tuple[Any, ...]:
            return bool(shown) and self.sees_pictures(), fixed

        shown, held = self._prefix.shown_and_held(messages, context)
        sees = context(shown)[0]
        # The messages' characters (pictures aside) and pictures, as _tokens counts them.
        upto, chars, pictures = self._prefix.states[held - 1] if held else (
            len(fixed.head), fixed.chars, 0)
        chat, jsons = self._chat[:upto], self._jsons[:upto]
        rows, wire = [], self._wire
        for m in messages[held:]:
            made = None
            if m.role == "user":
                key: tuple[Any, ...] = (sees, m.text, results_key(m.tool_results, shown))
                made = wire.get(  # wire.get calls the builder at once
                    m, key, lambda: self._sized(_user_entries(m, sees, shown)))  # noqa: B023
            elif m.text or m.tool_calls:
                key = (m.text, calls_key(m.tool_calls))
                made = wire.get(m, key, lambda: self._sized([_assistant_entry(m)]))  # noqa: B023
            if made is not None:
                chat += made[0]
                jsons += made[1]
                chars, pictures = chars + made[2], pictures + made[3]
            rows.append((m, (len(chat), chars, pictures)))
        self._prefix.keep(held, rows, shown)
        wire.prune(messages)
        self._chat, self._jsons, self._sizes = chat, jsons, (chat, chars, pictures)
        self._body.keep("messages", chat, json_list(jsons))
        request: dict[str, Any] = {"model": self.model, "messages": chat,
                                   "stream_options": {"include_usage": True}}
        if tools:
            request["tools"] = fixed.tools
            facts = self._facts
            if facts is not None and facts.server == LLAMA_CPP and facts.tools:
                request["tool_choice"] = "required"  # its grammar makes the call well-formed
        caps = [LOCAL_MAX_OUTPUT_TOKENS, max_output_tokens,
                _positive(self.config.options.get("max_tokens"))]
        request["max_tokens"] = min(c for c in caps if c)
        return request

    def encoded(self, request: dict[str, Any]) -> bytes:
        """The bytes the SDK would send for `request` (with stream: true)."""
        return self._body.encode(request)

    def turn(self, system: str, tools: list[ToolSpec], messages: list[Message], *,
             cancel: threading.Event | None = None,
             on_text: Callable[[str], None] | None = None,
             max_output_tokens: int | None = None) -> ModelTurn:
        self._ensure_model()
        facts = self.facts()
        if tools and facts.tools is False:
            raise EngineError(f"The model '{_shown(self.model)}' cannot use tools, which "
                              f"Harness Desk needs. {facts.tools_remedy()}", code=MODEL_NOT_FOUND)
        request = self.build_request(system, tools, messages, max_output_tokens)
        self._fit(request, facts)
        body = self.encoded(request)
        if self._kept is None and not sdk_import.imported("openai") and not _has_query(self.base_url()):
            return self._first_turn(body, lambda stream: self._read(stream, cancel, on_text,
                                                                     request))
        return self._run(lambda client: self._read(
            post_stream(client, "/chat/completions", body), cancel, on_text, request))

    def start_loading(self) -> None:
        """Nothing ahead of the run: its first request goes out without the SDK, which then
        loads while the model reads it (_first_turn). A thread loading it meanwhile would
        take half the interpreter from the run's own start (measured: first request 0.82 s
        against 0.59 s at load 4.5, the second at the same time)."""

    def _first_turn(self, body: bytes, read: Callable[[Any], ModelTurn]) -> ModelTurn:
        """The first request of a process that has not loaded the openai SDK yet: sent at
        once (compat.post_early), the SDK loaded while the model reads it (about half a
        second of the CLI's start-up, otherwise spent before any request); the reply read
        and any error diagnosed as every other turn's."""
        http = None
        try:
            url = check_base_url(self.voice(), self.base_url()) + "/chat/completions"
            stream, http = post_early(url, self._api_key(), body, self._timeout_s(),
                                      self._turn_client)
            return read(stream)
        except Exception as exc:
            raise self._diagnose(exc) from None
        finally:
            if http is not None:
                http.close()

    def _sized(self, entries: list[dict[str, Any]]
               ) -> tuple[list[dict[str, Any]], list[bytes], int, int]:
        """A message's entries with their JSON, and their size as _tokens counts it."""
        text = json.dumps(entries, ensure_ascii=False, default=str)
        return (entries, [self._body.dumps(e) for e in entries], len(_DATA_URL.sub("", text)),
                len(_DATA_URL.findall(text)))

    def _stable(self, system: str, tools: list[ToolSpec]) -> "_Fixed":
        """What is the same every step: the system message and the tools, with their sizes."""
        key = (system, tuple((t.name, t.description, t.parameters) for t in tools))
        if self._fixed is None or self._fixed.key != key:
            head = [{"role": "system", "content": system}] if system else []
            defs = self._tools(tools) if tools else []
            self._fixed = _Fixed(key, head, defs, len(json.dumps(head, ensure_ascii=False)),
                                 len(json.dumps(defs, ensure_ascii=False)))
            self._chat, self._jsons = list(head), [self._body.dumps(e) for e in head]
            self._body.keep("tools", defs, [self._body.dumps(defs)])
        return self._fixed

    @property
    def _wire(self) -> WireCache:
        if self._wire_kept is None:
            self._wire_kept = WireCache()
        return self._wire_kept

    @property
    def _prefix(self) -> Prefix:
        if self._prefix_kept is None:
            self._prefix_kept = Prefix()
        return self._prefix_kept

    @property
    def _body(self) -> Body:
        if self._body_kept is None:
            self._body_kept = Body(CHAT_ORDER, compact_json)  # the SDK's bytes, without it
        return self._body_kept

    def _fit(self, request: dict[str, Any], facts: ServerFacts) -> None:
        """Check the prompt against the server's context before sending (Ollama would cut
        it silently), and keep the output cap within the room left."""
        if not facts.n_ctx:
            return
        chat, chars, pictures = self._sizes
        fixed = self._fixed
        if chat is request["messages"] and fixed is not None and (
                request.get("tools") in (None, fixed.tools)):
            # Sized as it was built: the messages and tools as they were, the rest now.
            rest = {k: v for k, v in request.items() if k not in ("messages", "tools")}
            chars += len(json.dumps(rest, ensure_ascii=False)) + (
                fixed.tools_chars + len(', "tools": ') if "tools" in request else 0)
            prompt = int(chars / CHARS_PER_TOKEN_LOCAL) + PICTURE_TOKENS * pictures
        else:
            prompt = self._tokens(request)
        room = facts.n_ctx - prompt
        if room < MIN_REPLY_TOKENS:
            raise EngineError(
                f"The conversation (about {prompt:,} tokens) does not fit the model's context of "
                f"{facts.n_ctx:,} tokens with room for a reply.", code=PROMPT_TOO_LONG,
                remedy=facts.context_remedy(prompt + MIN_REPLY_TOKENS),
                action="The harness shortens old tool output and tries once more.")
        request["max_tokens"] = min(request["max_tokens"], room)

    def _alive(self) -> bool:
        """Whether the server still takes connections (asked while a stream is silent)."""
        import httpx2  # noqa: PLC0415 - listing the engines stays light

        try:
            httpx2.get(f"{self.base_url()}/models", timeout=httpx2.Timeout(3.0))
        except httpx2.ConnectError:
            return False
        except httpx2.HTTPError:
            return True  # slow or odd, but there
        return True

    def _too_long(self, body: object, err: EngineError) -> EngineError:
        """The server's own overflow answer, with the numbers it gave and what to change."""
        err.message, err.remedy = overflow(body if body is not None else err.details,
                                           self._facts or ServerFacts(), MIN_REPLY_TOKENS,
                                           self.first_request_tokens() * 2)
        return err

    def _read(self, stream: Any, cancel: threading.Event | None,
              on_text: Callable[[str], None] | None, request: dict[str, Any]) -> ModelTurn:
        return read_turn(stream, cancel, on_text, request, model=self.model,
                         voice=self.voice(), alive=self._alive, cuts=self._stream_cuts())


class _Fixed:
    """What a Chat Completions request holds that is the same every step (see _stable)."""

    def __init__(self, key: tuple[Any, ...], head: list[dict[str, Any]],
                 tools: list[dict[str, Any]], chars: int, tools_chars: int):
        self.key, self.head, self.tools = key, head, tools
        self.chars, self.tools_chars = chars, tools_chars


def _no_type_lists(schema: object) -> object:
    """The schema with each `"type": [a, b]` written as `"anyOf": [{"type": a}, {"type": b}]`,
    which means the same. Chat templates that render tools look a type up by name (Hermes
    2 Pro's, llama.cpp's tool_use templates): a list there makes llama.cpp refuse every
    request with tools ("Unable to generate parser for this template", HTTP 400)."""
    if isinstance(schema, list):
        return [_no_type_lists(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, list) and all(isinstance(v, str) for v in value):
            out["anyOf"] = [{"type": v} for v in value]
        else:  # (a property that is itself called "type" is a schema, not a list)
            out[key] = _no_type_lists(value)
    return out


def _user_entries(m: Message, sees: bool, shown: set[tuple[int, int]]) -> list[dict[str, Any]]:
    """A user message's entries: a tool message per result, and its pictures and words."""
    entries: list[dict[str, Any]] = []
    sent: list[Picture] = []
    for r in m.tool_results:
        text, pictures = parts_for(r, sees, shown)
        entries.append({"role": "tool", "tool_call_id": r.call_id,
                        "content": result_text(text, r.is_error)})
        sent += pictures
    if sent:  # a tool message carries text only: the pictures follow as the user's
        parts: list[dict[str, Any]] = [{"type": "text", "text": m.text}] if m.text else []
        for picture in sent:
            fit = fitted(picture, LOCAL_PICTURE_SIDE)
            parts += [{"type": "text", "text": f"The picture '{picture.path}':"},
                      {"type": "image_url", "image_url": {
                          "url": f"data:{fit.media_type};base64,{fit.data}"}}]
        entries.append({"role": "user", "content": parts})
    elif m.text:
        entries.append({"role": "user", "content": m.text})
    return entries


def _assistant_entry(m: Message) -> dict[str, Any]:
    entry: dict[str, Any] = {"role": "assistant", "content": m.text or None}
    if m.tool_calls:
        entry["tool_calls"] = [{"id": c.id, "type": "function", "function": {
            "name": c.name, "arguments": arguments_json(c.arguments)}} for c in m.tool_calls]
    return entry


def _positive(value: object) -> int | None:
    if not isinstance(value, (int, float, str)):  # a JSON value int() cannot take
        return None
    try:
        number = int(value)
    except ValueError:
        return None
    return number if number > 0 else None


def _has_query(url: str) -> bool:
    """Whether `url` has a query or fragment (the SDK joins a path to those its own way)."""
    parts = urllib.parse.urlsplit(url)
    return bool(parts.query or parts.fragment)


def _expected_base(url: str) -> str:
    """The base URL with its path ending in exactly one /v1 (what both servers serve)."""
    parts = urllib.parse.urlsplit(url)
    path = re.sub(r"(/v1)+$", "", parts.path.rstrip("/")) + "/v1"
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", ""))
