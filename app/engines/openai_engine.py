"""OpenAI through its Responses API (why: see OpenAIEngine)."""

from __future__ import annotations

import hashlib
import os
import threading
from typing import Any, Callable

from app.core.conversation import Message, ModelTurn, ToolCall, ToolSpec, Usage
from app.engines.base import Availability
from app.engines.keyed import check_keyed, require_key
from app.engines.keys import CALL_TIMEOUT_S
from app.engines.openai_compat import (OPENAI_BASE_URL, OpenAICompatibleEngine, result_text,
                                       split_usage)
from app.engines.wire import (Voice, arguments_json, emit, from_status, parse_arguments,
                              stable_tools, stream_broken)

OPENAI_FALLBACK_MODELS = ("gpt-6.1-sol", "gpt-6-astra", "gpt-6.1-terra", "gpt-6-luna",
                          "gpt-5.5", "gpt-5.4-mini")
# Ids in the models list that are not chat models an agent could use.
_NOT_CHAT = ("audio", "realtime", "tts", "transcribe", "image", "embedding", "search",
             "moderation", "instruct", "dall-e", "whisper", "sora")


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
    """

    id = "openai"
    label = "OpenAI"
    needs_key = True
    default_model = OPENAI_FALLBACK_MODELS[0]

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
                         "(or the base URL in Engine settings) and try again."),
        )

    def _api_key(self, timeout: float = CALL_TIMEOUT_S) -> str:
        return require_key(self.id, "OpenAI", "OPENAI_API_KEY", timeout)

    def availability(self) -> Availability:
        return check_keyed(
            "OpenAI", self.base_url(), self.model, list(OPENAI_FALLBACK_MODELS), self._api_key,
            self.list_models,
            offered=lambda ids: sorted(i for i in ids if not any(w in i for w in _NOT_CHAT)),
            has_model=lambda ids, model: model in ids)

    def cache_key(self, system: str) -> str:
        # The workspace's key when the loop gives one; otherwise one derived from the stable
        # system prompt, which is just as constant from round to round.
        return self.config.cache_key or "hd-" + hashlib.sha256(system.encode()).hexdigest()[:24]

    def build_request(self, system: str, tools: list[ToolSpec], messages: list[Message]) -> dict:
        items: list[dict] = []
        for m in messages:
            if m.role == "user":
                items += [{"type": "function_call_output", "call_id": r.call_id,
                           "output": result_text(r.content, r.is_error)} for r in m.tool_results]
                if m.text:
                    items.append({"role": "user", "content": m.text})
            else:
                if m.text:
                    items.append({"role": "assistant", "content": m.text})
                items += [{"type": "function_call", "call_id": c.id, "name": c.name,
                           "arguments": arguments_json(c.arguments)} for c in m.tool_calls]
        request: dict[str, Any] = {
            "model": self.model, "input": items, "store": False,
            "prompt_cache_key": self.cache_key(system),
        }
        # No output cap by default: each model's own limit applies (a fixed cap would be
        # refused by models with a smaller one); the run's budget guards the cost.
        if self.config.extra.get("max_tokens"):
            request["max_output_tokens"] = int(self.config.extra["max_tokens"])
        if system:
            request["instructions"] = system
        if tools:
            request["tools"] = [{"type": "function", "name": t.name, "description": t.description,
                                 "parameters": t.parameters, "strict": False}
                                for t in stable_tools(tools)]
        return request

    def turn(self, system: str, tools: list[ToolSpec], messages: list[Message],
             cancel: threading.Event | None = None,
             on_text: Callable[[str], None] | None = None) -> ModelTurn:
        request = self.build_request(system, tools, messages)
        return self._run(lambda client: self._read(
            client.responses.create(**request, stream=True), cancel, on_text))

    def _read(self, stream: Any, cancel: threading.Event | None,
              on_text: Callable[[str], None] | None) -> ModelTurn:
        voice, final, texts = self.voice(), None, []
        with stream:
            try:
                for event in stream:
                    if cancel is not None and cancel.is_set():
                        return ModelTurn(text="".join(texts), model=self.model, stop_reason="cancelled")
                    kind = event.type
                    if kind == "response.output_text.delta":
                        texts.append(event.delta)
                        emit(on_text, event.delta)
                    elif kind in ("response.completed", "response.incomplete"):
                        final = event.response
                    elif kind == "response.failed":
                        error = event.response.error
                        raise from_status(voice, 200, {"error": {
                            "type": getattr(error, "code", "") or "",
                            "message": getattr(error, "message", "")}})
                    elif kind == "error":
                        raise from_status(voice, 200, {"error": {
                            "type": event.code or "", "message": event.message}})
            except self._stream_cuts() as exc:
                raise stream_broken(voice, f"{type(exc).__name__}: {exc}") from None
        if final is None:
            raise stream_broken(voice, "the stream ended without response.completed")
        return self._to_turn(final)

    def _to_turn(self, response: Any) -> ModelTurn:
        texts, calls = [], []
        incomplete = response.status == "incomplete"
        for item in response.output or []:
            if item.type == "message":
                texts += [p.text for p in item.content if p.type == "output_text" and p.text]
            elif item.type == "function_call" and item.status in (None, "completed"):
                args = parse_arguments(item.arguments)
                if incomplete and not args and item.arguments:
                    continue  # cut off by the output limit: half its arguments
                calls.append(ToolCall(id=item.call_id, name=item.name, arguments=args))
        u = response.usage
        usage = split_usage(u.input_tokens, u.output_tokens, u.input_tokens_details) if u else Usage()
        stop = (getattr(response.incomplete_details, "reason", None) or "incomplete") if incomplete \
            else ("tool_use" if calls else "end_turn")
        return ModelTurn(text="\n\n".join(texts), tool_calls=calls, usage=usage,
                         model=response.model or self.model, stop_reason=stop)
