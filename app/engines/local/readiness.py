"""Before a run: can the local server's model do the work? Asked of the server first
(local_server.ask_server), then, where it does not say or speaks for the chat template only
(llama.cpp), of the model itself (local_probe); the context is checked against the first
request. A not-ready answer names what to change on that server."""

from __future__ import annotations

from typing import Any

from app.core.engine.port import (CONTEXT_TOO_SMALL, ENGINE_UNREACHABLE, MODEL_NOT_FOUND, NO_ANSWER, NO_MODELS,
                              NO_TOOLS, Availability, EngineError)
from app.core.records.redact import redact
from app.core.engine.model_names import model_shown as _shown
from app.engines.local.server import LLAMA_CPP
from app.engines.quick_ready import refused as _refused
from app.engines.deadline import AVAILABILITY_TIMEOUT_S, within

PROBE_TIMEOUT_S = AVAILABILITY_TIMEOUT_S - 1.0
# A llama.cpp server has its model loaded once /props answers, so the probe is only prompt
# and a few tokens: seconds, even for a CPU-only model. Given longer (within the readiness
# check's 8 seconds), its verdict is read before the run, not after a round of wasted steps;
# a probe cut short still records its verdict for the next check.
LLAMA_PROBE_TIMEOUT_S = 6.0


def availability(engine: Any) -> Availability:
    """The readiness of `engine` (a LocalEngine); never raises."""
    url = engine.base_url()

    def no(message: str, reason: str, models: list[str], **facts: object) -> Availability:
        return Availability(False, message, models, reason,
                            {"url": url, **{k: str(v) for k, v in facts.items()}})

    if _refused(url):  # most people have no local server: said at once, and no SDK loaded
        return no(engine.voice().unreachable, ENGINE_UNREACHABLE, [])
    import openai  # noqa: F401, PLC0415 - no SDK loaded when nothing answers (tests/engines/local/test_local_engine.py); here, so the server's seconds are not spent importing

    try:
        ids = within(AVAILABILITY_TIMEOUT_S + 1.0, lambda: engine.list_models(engine._api_key()))
        if not ids:
            return no(f"The server at {url} is running but has no models yet. "
                      "Download one first, for example: ollama pull qwen3.", NO_MODELS, [])
        model = engine.config.model or ids[0]
        if not _has_model(ids, model):
            return no(f"The server at {url} has no model called '{model}'. "
                      f"It has: {', '.join(ids[:8])}.", MODEL_NOT_FOUND, ids, model=model)
        engine.config.model = model
        facts = engine.facts()
        template_only = facts.tools is True and facts.server == LLAMA_CPP
        if facts.tools is None:
            facts.tools = engine.probe_tools(PROBE_TIMEOUT_S)
    except EngineError as exc:
        return no(exc.message, exc.cause, [], model=engine.config.model)
    except TimeoutError:
        return no(f"The server at {url} did not answer within "
                  f"{AVAILABILITY_TIMEOUT_S:g} seconds. Check that it is running.", NO_ANSWER,
                  [], seconds=f"{AVAILABILITY_TIMEOUT_S:g}")
    except Exception as exc:  # availability never raises
        return no(redact(f"Could not check the local server: {exc}"), "", [])
    if facts.tools is False:
        return no(f"The model '{_shown(model)}' cannot use tools, which Harness Desk "
                  f"needs. {facts.tools_remedy()}", NO_TOOLS, ids, model=_shown(model))
    need = engine.first_request_tokens()
    if facts.n_ctx and facts.n_ctx < need:
        return no(f"The model's context is {facts.n_ctx:,} tokens, "
                  f"too small for Harness Desk's first request and its reply (about "
                  f"{need:,} tokens). {facts.context_remedy(need)}", CONTEXT_TOO_SMALL, ids,
                  model=model, n_ctx=f"{facts.n_ctx:,}", need=f"{need:,}")
    # Last, as it is the one check that asks the model (probe_tools never raises).
    probed = engine.probe_tools(LLAMA_PROBE_TIMEOUT_S) if template_only else facts.tools
    if probed is False:
        return no(f"The model '{_shown(model)}' did not call a tool when asked to: its chat "
                  "template supports tools, but the model wrote words instead, so it is "
                  "probably too small for this work. Start llama-server with a larger "
                  "model that can use tools (for example Qwen2.5-7B-Instruct or "
                  "Llama-3.1-8B-Instruct).", NO_TOOLS, ids, model=_shown(model))
    count = f"{len(ids)} model{'' if len(ids) == 1 else 's'}"
    said = ["it can use tools" if probed else
            "whether it can use tools is checked on its first reply"]
    if facts.n_ctx:
        said.append(f"context {facts.n_ctx:,} tokens")
    return Availability(True, f"Ready: {_shown(model)} on {url} ({count}; {'; '.join(said)}).", ids)


def _has_model(ids: list[str], model: str) -> bool:
    # Ollama lists "qwen3:latest" for a model pulled as "qwen3".
    return model in ids or f"{model}:latest" in ids or model.removesuffix(":latest") in ids
