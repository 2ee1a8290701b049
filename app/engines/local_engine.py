"""Local OpenAI-compatible servers (Ollama, LM Studio) through Chat Completions, with no key."""

from __future__ import annotations

import re
import threading
import urllib.parse
import uuid
from typing import Any, Callable

from app.core.conversation import Message, ModelTurn, ToolCall, ToolSpec, Usage
from app.core.redact import redact
from app.core.engine import ENGINE_UNREACHABLE, MODEL_NOT_FOUND, Availability, EngineError
from app.core.pictures import Picture, fitted, parts_for, shown_pictures
from app.engines.keys import CALL_TIMEOUT_S
from app.engines.openai_compat import (OpenAICompatibleEngine, estimated_usage,
                                       result_text, split_usage, with_usage)
from app.engines.wire import (AVAILABILITY_TIMEOUT_S, Voice, arguments_json, emit,
                              parse_arguments, stable_tools, stream_broken, within)

OLLAMA_BASE_URL = "http://localhost:11434/v1"
LM_STUDIO_BASE_URL = "http://localhost:1234/v1"
LOCAL_PRESETS = {"Ollama": OLLAMA_BASE_URL, "LM Studio": LM_STUDIO_BASE_URL}
LOCAL_API_KEY = "local"  # the SDK insists on a key; local servers ignore it. Not a secret.
LOCAL_MIN_TIMEOUT_S = 300.0
# Local vision models cut a picture into tiles of a few hundred pixels (Gemma 3 896, Qwen-VL
# 28 px patches up to its pixel budget); 1024 px keeps the detail and the request small.
LOCAL_PICTURE_SIDE = 1024  # a local model may take minutes to load before its first token


class LocalEngine(OpenAICompatibleEngine):
    """A local OpenAI-compatible server (Ollama, LM Studio) through Chat Completions; no key.

    Whether a model can call tools is found out three ways, cheapest first. Ollama's
    /api/show lists a model's capabilities ("tools") without loading it, and LM Studio's
    REST API does the same: /api/v1/models (LM Studio 0.4 and later) with
    `capabilities.trained_for_tool_use`, or /api/v0/models/{model} ("tool_use") on older
    versions; availability() asks them, so the engine list can say "cannot call tools" at
    once. When neither answers, the first real request tells:
    Ollama refuses tools for such a model with "... does not support tools", which turn()
    reports as MODEL_NOT_FOUND with a plain sentence (the remedy is to choose another model).
    probe_tools() sends a one-token request with one tool, for "Test connection".

    A base URL whose path is wrong (no /v1, or /v1 twice) gets a 404 for every request; that
    is diagnosed as a wrong address with the address to use, not as a missing model.

    Usage arrives only in the stream's last chunk, so a turn cut by Stop, or a stream that
    broke off, carries an estimate instead (estimated_usage: the request's size, about 4
    characters a token); a broken stream's EngineError has it as `usage`. The run's budget
    output cap (the `max_output_tokens` argument) becomes `max_tokens` when set; local
    models cost nothing by default, so it is set only when the person gave them a price.
    """

    id = "local"
    label = "Local (Ollama, LM Studio)"
    needs_key = False
    default_model = ""  # the first model the server lists, unless one is chosen
    default_base_url = OLLAMA_BASE_URL

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
            unreachable=f"Nothing is answering at {url}. Start Ollama (or LM Studio) and try again.",
            no_tools=(f"The model '{model}' cannot call tools, which Harness Desk needs. Choose a "
                      "model that can (for example qwen3 or llama3.1) in Engine settings."),
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
        if status == 404 or "unexpected endpoint" in said:
            expected = _expected_base(self.base_url())
            if expected != self.base_url():
                return EngineError(
                    f"The local server at {self.base_url()} answers, but not at that address: "
                    f"Ollama and LM Studio expect it to end in a single /v1, as in {expected}. "
                    "Fix the base URL in Engine settings.", code=ENGINE_UNREACHABLE,
                    details=err.details, action="Correct the base URL in Engine settings.")
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
        url = self.base_url()
        try:
            ids = within(AVAILABILITY_TIMEOUT_S + 1.0, lambda: self.list_models(LOCAL_API_KEY))
            if not ids:
                return Availability(False, f"The server at {url} is running but has no models yet. "
                                    "Download one first, for example: ollama pull qwen3.", [])
            model = self.config.model or ids[0]
            if not _has_model(ids, model):
                return Availability(False, f"The server at {url} has no model called '{model}'. "
                                    f"It has: {', '.join(ids[:8])}.", ids)
            tools = within(AVAILABILITY_TIMEOUT_S, lambda: self.tool_support(model))
        except EngineError as exc:
            return Availability(False, exc.message, [])
        except TimeoutError:
            return Availability(False, f"The server at {url} did not answer within "
                                f"{AVAILABILITY_TIMEOUT_S:g} seconds. Check that it is running.", [])
        except Exception as exc:  # availability never raises
            return Availability(False, redact(f"Could not check the local server: {exc}"), [])
        if tools is False:
            return Availability(False, f"The model '{model}' cannot call tools, which Harness Desk "
                                "needs. Choose one that can (for example qwen3 or llama3.1).", ids)
        note = "" if tools else " Whether it can call tools is checked on the first request."
        return Availability(True, f"Ready: {model} on {url} ({len(ids)} models).{note}", ids)

    def tool_support(self, model: str) -> bool | None:
        """True/False when the server says whether the model can call tools, None if it cannot tell."""
        import httpx2

        root, timeout = self._server_root(), httpx2.Timeout(3.0)
        try:  # Ollama
            shown = httpx2.post(f"{root}/api/show", json={"model": model}, timeout=timeout)
            caps = shown.json().get("capabilities") if shown.status_code == 200 else None
            if isinstance(caps, list):
                return "tools" in caps
        except (httpx2.HTTPError, ValueError, AttributeError):
            pass
        # LM Studio: it can still prompt any model for tools, so only "yes" is certain.
        try:  # the v1 REST API (LM Studio 0.4 and later)
            listed = httpx2.get(f"{root}/api/v1/models", timeout=timeout)
            entries = listed.json().get("models") if listed.status_code == 200 else None
            for entry in entries if isinstance(entries, list) else []:
                names = {entry.get("key"), entry.get("selected_variant"),
                         *(entry.get("variants") or [])} - {None}
                if model in names:
                    caps = entry.get("capabilities") or {}
                    return True if caps.get("trained_for_tool_use") is True else None
        except (httpx2.HTTPError, ValueError, AttributeError, TypeError):
            pass
        try:  # the v0 REST API of older versions
            listed = httpx2.get(f"{root}/api/v0/models/{model}", timeout=timeout)
            caps = listed.json().get("capabilities") if listed.status_code == 200 else None
            if isinstance(caps, list) and "tool_use" in caps:
                return True
        except (httpx2.HTTPError, ValueError, AttributeError):
            pass
        return None

    def sees_pictures(self) -> bool:
        """Whether the model says it has vision; asked once per model, only when a picture
        is to be sent (see vision_support); the `vision` option overrides."""
        if "vision" in self.config.options:
            return bool(self.config.options["vision"])
        model = self.config.model or ""
        known = self.__dict__.setdefault("_vision", {})
        if model not in known:
            known[model] = bool(self.vision_support(model))
        return known[model]

    def vision_support(self, model: str) -> bool | None:
        """True/False when the server says whether the model reads pictures, None if it cannot
        tell: Ollama's /api/show capabilities ("vision"), LM Studio's /api/v1/models
        (capabilities.vision) or /api/v0/models ("type": "vlm"), llama.cpp's /props
        (modalities.vision)."""
        import httpx2

        root, timeout = self._server_root(), httpx2.Timeout(3.0)
        asks = [("POST", f"{root}/api/show", {"model": model}), ("GET", f"{root}/props", None),
                ("GET", f"{root}/api/v1/models", None), ("GET", f"{root}/api/v0/models/{model}", None)]
        for method, url, body in asks:
            try:
                got = httpx2.request(method, url, json=body, timeout=timeout)
                found = _says_vision(got.json(), model) if got.status_code == 200 else None
            except (httpx2.HTTPError, ValueError, AttributeError, TypeError):
                continue
            if found is not None:
                return found
        return None

    def probe_tools(self) -> bool | None:
        """Ask the model for one token with one tool offered. False: it cannot call tools."""
        tool = ToolSpec(name="ping", description="Answer ping.",
                        parameters={"type": "object", "properties": {}})
        try:
            self._ensure_model()
            self._run(lambda client: client.chat.completions.create(
                model=self.model, max_tokens=1, messages=[{"role": "user", "content": "ping"}],
                tools=self._tools([tool])))
            return True
        except EngineError as exc:
            return False if "cannot call tools" in exc.message else None

    @staticmethod
    def _tools(tools: list[ToolSpec]) -> list[dict]:
        return [{"type": "function", "function": {"name": t.name, "description": t.description,
                                                  "parameters": t.parameters}}
                for t in stable_tools(tools)]

    def build_request(self, system: str, tools: list[ToolSpec], messages: list[Message],
                      max_output_tokens: int | None = None) -> dict:
        chat: list[dict] = [{"role": "system", "content": system}] if system else []
        shown = shown_pictures([r for m in messages for r in m.tool_results])
        sees = bool(shown) and self.sees_pictures()  # the server is asked only for a picture
        for m in messages:
            if m.role == "user":
                sent: list[Picture] = []
                for r in m.tool_results:
                    text, pictures = parts_for(r, sees, shown)
                    chat.append({"role": "tool", "tool_call_id": r.call_id,
                                 "content": result_text(text, r.is_error)})
                    sent += pictures
                if sent:  # a tool message carries text only: the pictures follow as the user's
                    parts: list[dict] = [{"type": "text", "text": m.text}] if m.text else []
                    for picture in sent:
                        fit = fitted(picture, LOCAL_PICTURE_SIDE)
                        parts += [{"type": "text", "text": f"The picture '{picture.path}':"},
                                  {"type": "image_url", "image_url": {
                                      "url": f"data:{fit.media_type};base64,{fit.data}"}}]
                    chat.append({"role": "user", "content": parts})
                elif m.text:
                    chat.append({"role": "user", "content": m.text})
            elif m.text or m.tool_calls:
                entry: dict[str, Any] = {"role": "assistant", "content": m.text or None}
                if m.tool_calls:
                    entry["tool_calls"] = [{"id": c.id, "type": "function", "function": {
                        "name": c.name, "arguments": arguments_json(c.arguments)}} for c in m.tool_calls]
                chat.append(entry)
        request: dict[str, Any] = {"model": self.model, "messages": chat,
                                   "stream_options": {"include_usage": True}}
        if tools:
            request["tools"] = self._tools(tools)
        cap = max_output_tokens
        if cap:
            request["max_tokens"] = cap
        return request

    def turn(self, system: str, tools: list[ToolSpec], messages: list[Message], *,
             cancel: threading.Event | None = None,
             on_text: Callable[[str], None] | None = None,
             max_output_tokens: int | None = None) -> ModelTurn:
        self._ensure_model()
        request = self.build_request(system, tools, messages, max_output_tokens)
        return self._run(lambda client: self._read(
            client.chat.completions.create(**request, stream=True), cancel, on_text, request))

    def _read(self, stream: Any, cancel: threading.Event | None,
              on_text: Callable[[str], None] | None, request: dict) -> ModelTurn:
        voice, texts, slots = self.voice(), [], {}
        finish, usage = None, None

        def so_far() -> Usage:  # the usage reported, else an estimate of what was billed
            seen = sum(map(len, texts)) + sum(len(s["args"]) for s in slots.values())
            return usage or estimated_usage(request, seen)

        with stream:
            try:
                for chunk in stream:
                    if cancel is not None and cancel.is_set():
                        return ModelTurn(text="".join(texts), model=self.model, usage=so_far(),
                                         stop_reason="cancelled")
                    if chunk.usage:
                        details = chunk.usage.prompt_tokens_details
                        usage = split_usage(chunk.usage.prompt_tokens,
                                            chunk.usage.completion_tokens, details)
                    for choice in chunk.choices or []:
                        delta = choice.delta
                        if delta and delta.content:
                            texts.append(delta.content)
                            emit(on_text, delta.content)
                        for tc in (delta.tool_calls or []) if delta else []:
                            slot = _slot_for(slots, tc)
                            if tc.function:
                                slot["name"] += tc.function.name or ""
                                slot["args"] += tc.function.arguments or ""
                        finish = choice.finish_reason or finish
            except self._stream_cuts() as exc:
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
                         model=self.model, stop_reason=finish)


def _expected_base(url: str) -> str:
    """The base URL with its path ending in exactly one /v1 (what both servers serve)."""
    parts = urllib.parse.urlsplit(url)
    path = re.sub(r"(/v1)+$", "", parts.path.rstrip("/")) + "/v1"
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def _has_model(ids: list[str], model: str) -> bool:
    # Ollama lists "qwen3:latest" for a model pulled as "qwen3".
    return model in ids or f"{model}:latest" in ids or model.removesuffix(":latest") in ids


def _slot_for(slots: dict, tc: Any) -> dict:
    """The accumulator for a streamed tool-call delta. Ollama sends each of several parallel
    calls whole, all with index 0: a new id at a used index starts a new call."""
    index = tc.index if tc.index is not None else len(slots)
    key = max((k for k in slots if k[0] == index), default=None, key=lambda k: k[1])
    if key is None or (tc.id and slots[key]["id"] and tc.id != slots[key]["id"]):
        key = (index, len(slots))
        slots[key] = {"id": "", "name": "", "args": ""}
    slot = slots[key]
    slot["id"] = tc.id or slot["id"]
    return slot


def _says_vision(answer: object, model: str) -> bool | None:
    """What one server's answer says of the model's vision, None when it does not say."""
    if not isinstance(answer, dict):
        return None
    if isinstance(answer.get("capabilities"), list):  # Ollama /api/show
        return "vision" in answer["capabilities"]
    if isinstance(answer.get("modalities"), dict):  # llama.cpp /props
        return bool(answer["modalities"].get("vision"))
    if isinstance(answer.get("models"), list):  # LM Studio /api/v1/models
        for entry in answer["models"]:
            if isinstance(entry, dict) and model in {entry.get("key"), *(entry.get("variants") or [])}:
                caps = entry.get("capabilities") or {}
                return bool(caps.get("vision")) if isinstance(caps, dict) else None
        return None
    if answer.get("type") in ("vlm", "llm"):  # LM Studio /api/v0/models/{model}
        return answer["type"] == "vlm"
    return None
