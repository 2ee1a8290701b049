"""The local engine (Ollama, LM Studio) through the openai SDK against a loopback Chat Completions server."""

from __future__ import annotations

import json

import pytest

from app.core.engine.conversation import Message, ToolCall, ToolResult, ToolSpec
from app.core.records.redact import redact
from app.core.engine.port import (ENGINE_UNREACHABLE, MODEL_NOT_FOUND, STREAM_BROKEN, TRANSIENT,
                              EngineConfig, EngineError)
from app.engines.local.engine import (LM_STUDIO_BASE_URL, LOCAL_MAX_OUTPUT_TOKENS, OLLAMA_BASE_URL,
                                     LocalEngine)
from tests.engines.fake_servers import (Reply, chat_events, chat_stream, free_port, oa_error,
                                        oa_models, ollama_show)

CHAT = "/v1/chat/completions"
SYSTEM = "You are the agent of Harness Desk."
TOOLS = [ToolSpec(name="read_file", description="Read a file.",
                  parameters={"type": "object", "properties": {"path": {"type": "string"}},
                              "required": ["path"]})]
FIRST = [Message(role="user", text="Task: summarise notes.md")]


@pytest.fixture
def local(server):
    return LocalEngine(EngineConfig(model="qwen3:8b", base_url=server.url + "/v1", timeout_s=5))


def test_presets_point_at_ollama_and_lm_studio():
    assert OLLAMA_BASE_URL == "http://localhost:11434/v1"
    assert LM_STUDIO_BASE_URL == "http://localhost:1234/v1"
    assert LocalEngine().base_url() == OLLAMA_BASE_URL
    assert not LocalEngine.needs_key


def test_text_tool_calls_and_usage_come_back(local, server):
    server.push(CHAT, chat_stream("Reading it.", [("call_r1", "read_file", {"path": "notes.md"})],
                                  usage={"prompt_tokens": 900, "completion_tokens": 20,
                                         "total_tokens": 920,
                                         "prompt_tokens_details": {"cached_tokens": 512}}))
    deltas: list[str] = []
    turn = local.turn(SYSTEM, TOOLS, FIRST, on_text=deltas.append)
    assert turn.text == "Reading it." == "".join(deltas)
    assert [(c.id, c.name, c.arguments) for c in turn.tool_calls] == [
        ("call_r1", "read_file", {"path": "notes.md"})]
    assert turn.usage.model_dump() == {"input_tokens": 388, "output_tokens": 20,
                                       "cache_read_tokens": 512, "cache_write_tokens": 0}


def test_request_uses_chat_messages_and_a_placeholder_key(local, server):
    server.push(CHAT, chat_stream("ok"))
    history = FIRST + [
        Message(role="assistant", tool_calls=[ToolCall(id="c1", name="read_file",
                                                       arguments={"path": "notes.md"})]),
        Message(role="user", text="Notice: now write the summary.", tool_results=[
            ToolResult(call_id="c1", name="read_file", content="# Notes")]),
    ]
    local.turn(SYSTEM, TOOLS, history)
    (request,) = [r for r in server.requests if r.path == CHAT]
    chat = request.json["messages"]
    assert chat[0] == {"role": "system", "content": SYSTEM}
    assert chat[2]["tool_calls"][0]["function"] == {"name": "read_file",
                                                    "arguments": json.dumps({"path": "notes.md"})}
    assert chat[3] == {"role": "tool", "tool_call_id": "c1", "content": "# Notes"}
    assert chat[4] == {"role": "user", "content": "Notice: now write the summary."}
    assert request.json["tools"][0]["function"]["name"] == "read_file"
    assert request.headers["authorization"] == "Bearer local"
    assert redact("a local model") == "a local model"  # the placeholder is not treated as a secret


def test_no_server_says_so_in_plain_words():
    url = f"http://127.0.0.1:{free_port()}/v1"
    engine = LocalEngine(EngineConfig(model="qwen3:8b", base_url=url))
    with pytest.raises(EngineError) as caught:
        engine.turn(SYSTEM, TOOLS, FIRST)
    assert caught.value.code == ENGINE_UNREACHABLE
    assert caught.value.message == (
        f"Nothing is answering at {url}. Start your local server (Ollama, LM Studio, llama.cpp's "
        "llama-server or another that speaks the same API) and try again.")
    state = engine.availability()
    assert not state.ready and state.message == caught.value.message


def test_availability_lists_models_and_checks_tools(local, server):
    server.push("/v1/models", oa_models(["qwen3:8b", "gemma3:1b"]))
    server.push("/api/show", ollama_show(["completion", "tools"]))
    state = local.availability()
    assert state.ready and state.models == ["qwen3:8b", "gemma3:1b"]
    assert server.bodies("/api/show") == [{"model": "qwen3:8b"}]


def test_availability_says_when_the_model_cannot_call_tools(server):
    engine = LocalEngine(EngineConfig(model="gemma3:1b", base_url=server.url + "/v1"))
    server.push("/v1/models", oa_models(["qwen3:8b", "gemma3:1b"]))
    server.push("/api/show", ollama_show(["completion"]))
    state = engine.availability()
    assert not state.ready and state.message.startswith(
        "The model 'gemma3:1b' cannot use tools, which Harness Desk needs. Pick one")


def test_availability_when_lm_studio_reports_tool_use(server):
    engine = LocalEngine(EngineConfig(model="qwen2.5-7b-instruct", base_url=server.url + "/v1"))
    server.push("/v1/models", oa_models(["qwen2.5-7b-instruct"]))
    server.push("/api/show", Reply(status=404, body={"error": "unexpected endpoint"}))
    server.push("/api/v0/models/qwen2.5-7b-instruct",
                Reply(body={"id": "qwen2.5-7b-instruct", "type": "llm", "capabilities": ["tool_use"]}))
    state = engine.availability()
    assert state.ready and "checked on the first request" not in state.message


def test_availability_names_the_missing_model(server):
    engine = LocalEngine(EngineConfig(model="llama3.1", base_url=server.url + "/v1"))
    server.push("/v1/models", oa_models(["qwen3:8b"]))
    state = engine.availability()
    assert not state.ready and "llama3.1" in state.message and "qwen3:8b" in state.message


def test_availability_with_no_models_says_how_to_get_one(local, server):
    server.push("/v1/models", oa_models([]))
    state = local.availability()
    assert not state.ready and "ollama pull" in state.message


def test_a_model_that_cannot_call_tools_stops_the_run_plainly(local, server):
    server.push(CHAT, oa_error(400, "registry.ollama.ai/library/qwen3:8b does not support tools",
                               "api_error"))
    with pytest.raises(EngineError) as caught:
        local.turn(SYSTEM, TOOLS, FIRST)
    assert caught.value.code == MODEL_NOT_FOUND and not caught.value.retryable
    assert "cannot call tools" in caught.value.message


def test_probe_tools_reports_what_the_server_says(server):
    """A forced tiny tool call: refused tools or an answer in words is False, a call True."""
    def engine(model: str) -> LocalEngine:
        return LocalEngine(EngineConfig(model=model, base_url=server.url + "/v1", timeout_s=5))

    def reply(message: dict) -> Reply:
        return Reply(body={"id": "x", "object": "chat.completion", "created": 1, "model": "m",
                           "choices": [{"index": 0, "finish_reason": "stop", "message": message}]})

    server.push(CHAT, oa_error(400, "model does not support tools"),
                reply({"role": "assistant", "content": "pong"}),
                reply({"role": "assistant", "content": None, "tool_calls": [{
                    "id": "call_1", "type": "function",
                    "function": {"name": "ping", "arguments": "{}"}}]}))
    assert engine("refuses").probe_tools() is False
    assert engine("talks").probe_tools() is False
    assert engine("calls").probe_tools() is True
    assert engine("calls").probe_tools() is True  # kept: no second request
    assert len(server.bodies(CHAT)) == 3
    assert all(b["tool_choice"] == "required" and b["tools"][0]["function"]["name"] == "ping"
               for b in server.bodies(CHAT))


def test_missing_model_is_model_not_found(local, server):
    server.push(CHAT, oa_error(404, 'model "qwen3:8b" not found, try pulling it first', "not_found"))
    with pytest.raises(EngineError) as caught:
        local.turn(SYSTEM, TOOLS, FIRST)
    assert caught.value.code == MODEL_NOT_FOUND and "ollama pull qwen3:8b" in caught.value.message


def test_without_a_chosen_model_the_first_listed_is_used(server):
    engine = LocalEngine(EngineConfig(base_url=server.url + "/v1"))
    server.push("/v1/models", oa_models(["llama3.1:8b", "qwen3:8b"]))
    server.push(CHAT, chat_stream("hi"))
    engine.turn(SYSTEM, TOOLS, FIRST)
    assert server.bodies(CHAT)[0]["model"] == "llama3.1:8b"


@pytest.mark.parametrize("mode", ["reset", "eof"])
def test_stream_cut_inside_tool_arguments_returns_no_tool_call(local, server, mode):
    events = chat_events("", [("call_1", "read_file", {"path": "a-long-file-name.md"})])
    first_args = next(i for i, (_, d) in enumerate(events) if isinstance(d, dict) and d["choices"]
                      and d["choices"][0]["delta"].get("tool_calls")
                      and d["choices"][0]["delta"]["tool_calls"][0]["function"].get("arguments"))
    server.push(CHAT, Reply(events=events, cut_after=first_args + 1, cut_mode=mode))
    with pytest.raises(EngineError) as caught:
        local.turn(SYSTEM, TOOLS, FIRST)
    assert caught.value.code == STREAM_BROKEN and caught.value.retryable


def test_output_limit_drops_the_last_tool_call(local, server):
    server.push(CHAT, chat_stream("", [("c1", "read_file", {"path": "a"}),
                                       ("c2", "read_file", {"path": "b"})], finish="length"))
    turn = local.turn(SYSTEM, TOOLS, FIRST)
    assert [c.id for c in turn.tool_calls] == ["c1"]


def test_server_overload_is_retryable(local, server):
    server.push(CHAT, oa_error(503, "server busy", "server_error"))
    with pytest.raises(EngineError) as caught:
        local.turn(SYSTEM, TOOLS, FIRST)
    assert caught.value.code == TRANSIENT and caught.value.retryable


def test_ollama_parallel_calls_all_numbered_zero_stay_separate(local, server):
    """Ollama streams each of several parallel calls whole, every one with index 0."""
    events = chat_events(calls=[("call_a", "read_file", {"path": "a.md"})])
    whole_b = {"tool_calls": [{"index": 0, "id": "call_b", "type": "function",
                               "function": {"name": "read_file",
                                            "arguments": json.dumps({"path": "b.md"})}}]}
    first_chunk = events[1][1]
    second = (None, {**first_chunk, "choices": [{"index": 0, "delta": whole_b,
                                                  "finish_reason": None}]})
    finish_at = next(i for i, (_, e) in enumerate(events)
                     if isinstance(e, dict) and e.get("choices")
                     and e["choices"][0]["finish_reason"])
    events.insert(finish_at, second)
    server.push(CHAT, Reply(events=events))
    turn = local.turn(SYSTEM, TOOLS, FIRST)
    assert [(c.id, c.name, c.arguments) for c in turn.tool_calls] == [
        ("call_a", "read_file", {"path": "a.md"}), ("call_b", "read_file", {"path": "b.md"})]


# -- money: what a cut turn was billed, and the budget's output cap ---------------------------
def test_a_turn_cut_by_stop_carries_an_estimate_of_the_billed_input(local, server):
    import threading

    server.push(CHAT, chat_stream("A long answer in several pieces.",
                                  [("c1", "read_file", {"path": "a.md"})]))
    cancel = threading.Event()
    turn = local.turn(SYSTEM, TOOLS, FIRST, cancel=cancel, on_text=lambda _: cancel.set())
    assert turn.stop_reason == "cancelled" and turn.tool_calls == []
    sent = len(next(r for r in server.requests if r.path == CHAT).raw) // 4
    assert 0.8 * sent <= turn.usage.input_tokens <= 1.2 * sent


def test_a_broken_stream_error_carries_an_estimate_of_the_billed_input(local, server):
    events = chat_events("Reading.", [("call_1", "read_file", {"path": "a-long-file-name.md"})])
    server.push(CHAT, Reply(events=events, cut_after=4))
    with pytest.raises(EngineError) as caught:
        local.turn(SYSTEM, TOOLS, FIRST)
    err = caught.value
    assert err.code == STREAM_BROKEN
    sent = len(next(r for r in server.requests if r.path == CHAT).raw) // 4
    assert 0.8 * sent <= err.usage.input_tokens <= 1.2 * sent


def test_the_budget_output_cap_becomes_max_tokens(server):
    engine = LocalEngine(EngineConfig(model="qwen3:8b", base_url=server.url + "/v1"))
    server.push(CHAT, chat_stream("ok"), chat_stream("ok"))
    engine.turn(SYSTEM, TOOLS, FIRST, max_output_tokens=700)
    engine.turn(SYSTEM, TOOLS, FIRST)
    first, second = server.bodies(CHAT)
    assert first["max_tokens"] == 700
    assert second["max_tokens"] == LOCAL_MAX_OUTPUT_TOKENS  # every step is capped (issue 19)


def test_type_lists_in_tool_schemas_go_to_local_servers_as_any_of():
    # A list of types made llama.cpp refuse every request with tools under Hermes 2 Pro's
    # template (HTTP 400 "Unable to generate parser for this template"), found on a real server.
    from app.core.tools.toolbox import TOOL_SPECS

    sent = json.dumps(LocalEngine._tools(TOOL_SPECS))
    assert '"type": [' not in sent
    cells = next(t for t in LocalEngine._tools(TOOL_SPECS) if t["function"]["name"] == "set_cells")
    values = cells["function"]["parameters"]["properties"]["cells"]["additionalProperties"]
    assert values == {"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"},
                                {"type": "null"}]}
    assert cells["function"]["parameters"]["required"] == ["path", "cells"]


def test_steps_reuse_one_connection(local, server):
    """A Chat Completions stream ends on `data: [DONE]`; the rest of the body (the chunked
    end) is read too, so the connection goes back to the pool instead of a new one (and, to
    a server across the network, a new handshake) for every step."""
    server.push(CHAT, chat_stream("a"), chat_stream("b"), chat_stream("c"))
    for _ in range(3):
        local.turn(SYSTEM, TOOLS, FIRST)
    chats = [r for r in server.requests if r.path == CHAT]
    assert len(chats) == 3 and len({r.client_port for r in chats}) == 1


def test_a_server_that_keeps_the_body_open_after_done_does_not_hold_the_step(local, server):
    import time

    from app.engines.openai.compat import DRAIN_S

    events = chat_events("a")
    server.push(CHAT, Reply(events=events + [(None, "{}")], pause_after=len(events),
                            pause_s=30))  # [DONE], then 30 s of silence with the body open
    started = time.monotonic()
    turn = local.turn(SYSTEM, TOOLS, FIRST)
    assert turn.text == "a" and time.monotonic() - started < DRAIN_S + 3


def test_with_nothing_listening_the_check_says_so_without_loading_the_sdk(tmp_path):
    """Most people have no local server: the window's readiness check says so at once and
    does not load the openai SDK (about 40 MB and a second at start-up) to find out."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    url = f"http://127.0.0.1:{free_port()}/v1"
    code = ("import sys; from app.engines.local.engine import LocalEngine; "
            "from app.core.engine.port import EngineConfig; "
            f"a = LocalEngine(EngineConfig(base_url={url!r})).availability(); "
            "print(a.ready, a.reason, 'openai' in sys.modules); print(a.message)")
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                          timeout=60, env={**os.environ, "HARNESS_DESK_CONFIG_DIR": str(tmp_path)})
    first, message = done.stdout.splitlines()[:2]
    assert first.split() == ["False", "engine_unreachable", "False"], done.stdout + done.stderr
    assert message.startswith(f"Nothing is answering at {url}. Start your local server")
