"""Issue 19: the Local engine asks llama.cpp, Ollama and LM Studio what the model can do, in
each server's own shapes (loopback fakes), checks the context before sending, caps every
step, recognises every server's overflow answer, and cuts a silent stream on Stop."""

from __future__ import annotations

import threading
import time

import openai  # noqa: F401  imported here, so an availability check's seconds are not spent on it
import pytest

from app.core.engine.conversation import Message
from app.core.engine.port import MODEL_NOT_FOUND, PROMPT_TOO_LONG, EngineConfig, EngineError
from app.core.run.reports import SYSTEM_PROMPT
from app.core.tools.toolbox import TOOL_SPECS
from app.engines.local.engine import LOCAL_MAX_OUTPUT_TOKENS, LocalEngine
from tests.engines.fake_servers import (Reply, chat_events, chat_reply, chat_stream,
                                        llama_context_rule, llama_probe_rule, llama_props,
                                        lm_studio_v0, oa_error, oa_models, ollama_ps,
                                        ollama_show)

CHAT = "/v1/chat/completions"
FIRST = [Message(role="user", text="Task: write notes.md. " + "Earlier: nothing. " * 40)]
MODEL = "SmolLM2-135M-Instruct"


def engine_for(server, model: str = MODEL) -> LocalEngine:
    return LocalEngine(EngineConfig(model=model, base_url=server.url + "/v1", timeout_s=5))


def llama(server, supports_tools: bool, n_ctx: int, calls: bool = True,
          model: str = MODEL) -> LocalEngine:
    server.default("/v1/models", oa_models([model]))
    server.default("/props", llama_props(supports_tools, n_ctx, model))
    server.rules[CHAT] = llama_probe_rule(calls)
    return engine_for(server, model)


def probes(server) -> list[dict]:
    return [b for b in server.bodies(CHAT) if not b.get("stream")]


# -- llama.cpp --------------------------------------------------------------------------------

def test_llama_cpp_whose_template_cannot_use_tools_is_not_ready_and_nothing_is_sent(server):
    engine = llama(server, supports_tools=False, n_ctx=8192)
    state = engine.availability()
    assert not state.ready
    assert state.message == (
        f"The model '{MODEL}' cannot use tools, which Harness Desk needs. Start "
        "llama-server with --jinja and a model whose chat template supports tools (for example "
        "Qwen2.5-7B-Instruct or Llama-3.1-8B-Instruct).")
    with pytest.raises(EngineError) as caught:  # the run stops at once, with the remedy
        engine.turn(SYSTEM_PROMPT, TOOL_SPECS, FIRST)
    assert caught.value.code == MODEL_NOT_FOUND and "--jinja" in caught.value.message
    assert server.bodies(CHAT) == []  # the server would have dropped the tools silently


def test_llama_cpp_with_tools_is_ready_and_each_step_is_forced_to_call_a_capped_tool(server):
    engine = llama(server, supports_tools=True, n_ctx=8192)
    state = engine.availability()
    assert state.ready
    assert state.message == (f"Ready: {MODEL} on {server.url}/v1 (1 model; it can use tools; "
                             "context 8,192 tokens).")
    (probe,) = probes(server)  # the template says it can; the model is asked once
    assert probe["tools"][0]["function"]["name"] == "ping" and probe["tool_choice"] == "required"
    server.push(CHAT, chat_stream("", [("c1", "list_files", {})]))
    engine.turn(SYSTEM_PROMPT, TOOL_SPECS, FIRST)
    (body,) = [b for b in server.bodies(CHAT) if b.get("stream")]
    assert body["tool_choice"] == "required"
    assert 0 < body["max_tokens"] <= LOCAL_MAX_OUTPUT_TOKENS
    engine.availability()
    assert len(probes(server)) == 1  # the verdict is kept: not asked again


def test_llama_cpp_with_tools_but_a_model_that_writes_words_is_not_ready(server):
    """SmolLM2-135M on a template that supports tools: the server says yes, the model cannot."""
    engine = llama(server, supports_tools=True, n_ctx=8192, calls=False,
                   model="/models/tiny-135m.Q4_0.gguf")  # llama-server names it by its path
    state = engine.availability()
    assert not state.ready
    assert state.facts["model"] == "tiny-135m.Q4_0.gguf"  # the window's words name it so too
    assert state.message == (
        "The model 'tiny-135m.Q4_0.gguf' did not call a tool when asked to: its chat template supports "
        "tools, but the model wrote words instead, so it is probably too small for this work. "
        "Start llama-server with a larger model that can use tools (for example "
        "Qwen2.5-7B-Instruct or Llama-3.1-8B-Instruct).")
    assert len(probes(server)) == 1


def test_a_thinking_model_cut_at_the_probes_cap_is_not_judged(server):
    """Only a thought before the cap says nothing about tools: ready, and the run decides."""
    engine = llama(server, supports_tools=True, n_ctx=8192, model="thinker-8b")
    server.rules.pop(CHAT)
    server.push(CHAT, chat_reply({"role": "assistant", "content": "<think>The person wants me "
                                  "to call ping. Let me think about"}, finish="length"))
    assert engine.probe_tools() is None
    state = engine.availability()
    assert state.ready  # not "it can use tools": the template can, the model is not known yet
    assert "whether it can use tools is checked on its first reply" in state.message


def test_llama_cpp_at_2048_tokens_is_not_ready_and_the_sentence_says_what_to_change(server):
    engine = llama(server, supports_tools=True, n_ctx=2048)
    state = engine.availability()
    assert not state.ready
    assert state.message.startswith("The model's context is 2,048 tokens, too small "
                                    "for Harness Desk's first request and its reply (about ")
    assert state.message.endswith("Start llama-server with a larger context, for example -c 4096.")


def test_the_prompt_is_checked_against_the_context_before_it_is_sent(server):
    engine = llama(server, supports_tools=True, n_ctx=2048)
    with pytest.raises(EngineError) as caught:
        engine.turn(SYSTEM_PROMPT, TOOL_SPECS, FIRST)
    err = caught.value
    assert err.code == PROMPT_TOO_LONG and not err.retryable
    assert "does not fit the model's context of 2,048 tokens" in err.message
    assert err.remedy == "Start llama-server with a larger context, for example -c 4096."
    assert server.bodies(CHAT) == []


def test_the_output_cap_stays_within_the_room_the_context_leaves(server):
    engine = llama(server, supports_tools=True, n_ctx=4096)
    server.push(CHAT, chat_stream("ok"))
    engine.turn(SYSTEM_PROMPT, TOOL_SPECS, FIRST)
    (body,) = server.bodies(CHAT)
    assert 512 <= body["max_tokens"] < 4096 - 1000


def test_llama_cpp_overflow_error_is_recognised_with_its_numbers(server):
    """The server counts tokens its own way: its exceed_context_size_error is the last word."""
    server.default("/v1/models", oa_models([MODEL]))
    server.default("/props", Reply(status=404, body={"error": {"code": 404, "message": "File "
                                                               "Not Found", "type": "not_found_error"}}))
    server.rules[CHAT] = llama_context_rule(2048, chars_per_token=2.0)
    server.push(CHAT, chat_stream("never sent"))
    engine = engine_for(server)
    with pytest.raises(EngineError) as caught:
        engine.turn(SYSTEM_PROMPT, TOOL_SPECS, FIRST)
    err = caught.value
    assert err.code == PROMPT_TOO_LONG
    assert err.message.startswith("The conversation (") and "tokens) does not fit the model's " \
        "context of 2,048 tokens on the local server." in err.message
    assert err.remedy.startswith("Give the model a context of ")


@pytest.mark.parametrize("status,message", [
    (400, "the input length exceeds the context length"),                       # Ollama
    (400, "Trying to keep the first 3012 tokens when context the overflows. However, the model "
          "is loaded with context length of only 2048 tokens, which is not enough. Try to load "
          "the model with a larger context length, or provide a shorter input"),  # LM Studio
    (400, "Cannot truncate prompt with n_keep (3012) >= n_ctx (2048)"),          # LM Studio
    (400, "input (3012 tokens) is larger than the max context size (2048 tokens). skipping"),
])
def test_every_servers_overflow_text_is_a_context_overflow(server, status, message):
    server.default("/v1/models", oa_models([MODEL]))
    server.push(CHAT, oa_error(status, message, "invalid_request_error"))
    with pytest.raises(EngineError) as caught:
        engine_for(server).turn(SYSTEM_PROMPT, TOOL_SPECS, FIRST)
    assert caught.value.code == PROMPT_TOO_LONG
    assert caught.value.remedy


# -- Ollama -----------------------------------------------------------------------------------

def test_ollama_reports_tools_and_the_loaded_context_from_api_ps(server):
    server.default("/v1/models", oa_models(["qwen3:8b"]))
    server.default("/api/show", ollama_show(["completion", "tools"], "temperature 0.6"))
    server.default("/api/ps", ollama_ps("qwen3:8b", 2048))
    state = engine_for(server, "qwen3:8b").availability()
    assert not state.ready and "context is 2,048 tokens" in state.message
    assert state.message.endswith("Give Ollama a larger context: start it with "
                                  "OLLAMA_CONTEXT_LENGTH=4096 (or set PARAMETER num_ctx in the "
                                  "model's Modelfile) and try again.")


def test_ollama_num_ctx_from_the_modelfile_counts_when_the_model_is_not_loaded(server):
    server.default("/v1/models", oa_models(["qwen3:8b"]))
    server.default("/api/show", ollama_show(["completion", "tools"], "num_ctx 16384\nstop <x>"))
    server.default("/api/ps", Reply(body={"models": []}))
    state = engine_for(server, "qwen3:8b").availability()
    assert state.ready and "context 16,384 tokens" in state.message


def test_ollama_without_a_num_ctx_is_taken_at_its_default(server):
    server.default("/v1/models", oa_models(["qwen3:8b"]))
    server.default("/api/show", ollama_show(["completion", "tools"]))
    engine = engine_for(server, "qwen3:8b")
    assert engine.facts().n_ctx == 4096 and not engine.facts().ctx_known
    server.push(CHAT, chat_stream("ok"))
    engine.turn(SYSTEM_PROMPT, TOOL_SPECS, FIRST)
    (body,) = server.bodies(CHAT)
    assert "tool_choice" not in body  # Ollama's /v1 ignores it; the nudges do the work
    assert "options" not in body      # and it ignores options.num_ctx there too


# -- LM Studio --------------------------------------------------------------------------------

def test_lm_studio_v1_uses_the_loaded_instances_context(server):
    server.default("/v1/models", oa_models(["qwen/qwen3-4b"]))
    server.default("/api/v1/models", Reply(body={"models": [{
        "type": "llm", "publisher": "qwen", "key": "qwen/qwen3-4b", "display_name": "Qwen3 4B",
        "max_context_length": 32768, "format": "gguf",
        "loaded_instances": [{"id": "qwen/qwen3-4b", "config": {"context_length": 2048}}],
        "capabilities": {"vision": False, "trained_for_tool_use": True}}]}))
    state = engine_for(server, "qwen/qwen3-4b").availability()
    assert not state.ready and "context is 2,048 tokens" in state.message
    assert state.message.endswith("In LM Studio, load the model again with a context length of "
                                  "4096 or more.")


def test_lm_studio_v0_reports_tool_use_and_loaded_context(server):
    server.default("/v1/models", oa_models(["qwen2.5-7b-instruct"]))
    server.default("/api/v0/models/qwen2.5-7b-instruct",
                   lm_studio_v0("qwen2.5-7b-instruct", ["tool_use"], 32768, 8192))
    state = engine_for(server, "qwen2.5-7b-instruct").availability()
    assert state.ready and "it can use tools; context 8,192 tokens" in state.message


# -- a stream that falls silent ----------------------------------------------------------------

def test_stop_cuts_a_stream_that_has_fallen_silent(server):
    server.default("/v1/models", oa_models([MODEL]))
    server.push(CHAT, Reply(events=chat_events("Thinking about it at length."), pause_after=2,
                            pause_s=20))
    engine = engine_for(server)
    cancel = threading.Event()
    threading.Timer(1.0, cancel.set).start()
    started = time.monotonic()
    turn = engine.turn(SYSTEM_PROMPT, [], FIRST, cancel=cancel)
    assert time.monotonic() - started < 8
    assert turn.stop_reason == "cancelled"
    assert turn.usage.input_tokens > 0  # the estimate of what was sent still counts


def test_a_server_that_stops_taking_connections_with_the_stream_open_ends_the_wait(server):
    """A graceful shutdown left the run waiting with the stream open (issue 19, point 5)."""
    from app.core.engine.port import ENGINE_UNREACHABLE
    from app.engines.local import stream as local_stream

    server.default("/v1/models", oa_models([MODEL]))
    server.push(CHAT, Reply(events=chat_events("Working on it. " * 20, pieces=20),
                            pause_after=5, pause_s=30))
    engine = engine_for(server)
    engine.facts()
    old = local_stream.SILENT_S
    local_stream.SILENT_S = 0.5
    threading.Timer(1.0, server.httpd.socket.close).start()  # no new connections from now
    started = time.monotonic()
    try:
        with pytest.raises(EngineError) as caught:
            engine.turn(SYSTEM_PROMPT, [], FIRST)
    finally:
        local_stream.SILENT_S = old
    assert time.monotonic() - started < 10
    assert caught.value.code == ENGINE_UNREACHABLE
    assert caught.value.message.startswith("Nothing is answering at ")
