"""The OpenAI engine through the real openai SDK against a loopback server speaking the Responses API."""

from __future__ import annotations

import json
import threading

import pytest

from app.core.conversation import Message, ToolCall, ToolResult, ToolSpec
from app.engines import openai_engine
from app.engines.base import (AUTH_FAILED, ENGINE_UNREACHABLE, MODEL_NOT_FOUND, PROMPT_TOO_LONG,
                              QUOTA_EXHAUSTED, STREAM_BROKEN, TRANSIENT, EngineConfig, EngineError)
from app.engines.openai_engine import OpenAIEngine
from tests.engines.conftest import OPENAI_KEY
from tests.engines.fake_servers import (Reply, free_port, oa_call, oa_error, oa_events, oa_message,
                                        oa_models, oa_response, oa_stream, oa_usage)

RESPONSES = "/v1/responses"
SYSTEM = "You are the agent of Harness Desk. Work only through the tools."
TOOLS = [
    ToolSpec(name="write_file", description="Create or replace a file.",
             parameters={"type": "object", "required": ["path", "content"],
                         "properties": {"path": {"type": "string"}, "content": {"type": "string"}}}),
    ToolSpec(name="give_up", description="End the round honestly.",
             parameters={"type": "object", "required": ["reason"],
                         "properties": {"reason": {"type": "string"}}}),
]
FIRST = [Message(role="user", text="Task: write notes.md")]


@pytest.fixture
def gpt(server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    return OpenAIEngine(EngineConfig(model="gpt-6.1-sol", base_url=server.url + "/v1",
                                     cache_key="workspace-7f3a", timeout_s=5))


def fail(engine, messages=FIRST) -> EngineError:
    with pytest.raises(EngineError) as caught:
        engine.turn(SYSTEM, TOOLS, messages)
    return caught.value


def test_text_function_calls_and_cached_usage_come_back(gpt, server):
    server.push(RESPONSES, oa_stream(
        [oa_message("Writing the notes."), oa_call("call_A1", "write_file", {"path": "notes.md",
                                                                             "content": "# N"})],
        usage=oa_usage(input_tokens=5000, output_tokens=60, cached=4096, cache_write=0)))
    deltas: list[str] = []
    turn = gpt.turn(SYSTEM, TOOLS, FIRST, on_text=deltas.append)
    assert turn.text == "Writing the notes." == "".join(deltas)
    assert [(c.id, c.name, c.arguments) for c in turn.tool_calls] == [
        ("call_A1", "write_file", {"path": "notes.md", "content": "# N"})]
    # Input is split like Anthropic's: uncached input, cache reads, cache writes.
    assert turn.usage.model_dump() == {"input_tokens": 904, "output_tokens": 60,
                                       "cache_read_tokens": 4096, "cache_write_tokens": 0}


def test_request_is_stateless_streamed_and_uses_function_tools(gpt, server):
    server.push(RESPONSES, oa_stream([oa_message("ok")]))
    gpt.turn(SYSTEM, TOOLS, FIRST)
    (request,) = server.requests
    body = request.json
    assert body["stream"] is True and body["store"] is False
    assert body["instructions"] == SYSTEM
    assert [t["name"] for t in body["tools"]] == ["give_up", "write_file"]
    assert all(t["type"] == "function" for t in body["tools"])
    assert request.headers["x-stainless-retry-count"] == "0"


def test_steps_reuse_one_connection(gpt, server):
    server.push(RESPONSES, oa_stream([oa_message("a")]), oa_stream([oa_message("b")]))
    gpt.turn(SYSTEM, TOOLS, FIRST)
    gpt.turn(SYSTEM, TOOLS, FIRST)
    first, second = server.requests
    assert first.client_port == second.client_port


def test_conversation_maps_to_items_outputs_first(gpt, server):
    server.push(RESPONSES, oa_stream([oa_message("ok")]))
    history = FIRST + [
        Message(role="assistant", text="Writing.", tool_calls=[
            ToolCall(id="call_1", name="write_file", arguments={"path": ".env", "content": "x"})]),
        Message(role="user", text="Notice: that path is off limits.", tool_results=[
            ToolResult(call_id="call_1", name="write_file", content="Refused: .env is off limits.",
                       is_error=True)]),
    ]
    gpt.turn(SYSTEM, TOOLS, history)
    items = server.requests[0].json["input"]
    assert items[1] == {"role": "assistant", "content": "Writing."}
    assert items[2]["type"] == "function_call" and items[2]["call_id"] == "call_1"
    assert json.loads(items[2]["arguments"]) == {"path": ".env", "content": "x"}
    assert items[3] == {"type": "function_call_output", "call_id": "call_1",
                        "output": "Error: Refused: .env is off limits."}
    assert items[4] == {"role": "user", "content": "Notice: that path is off limits."}


def test_prompt_cache_key_and_prefix_are_identical_across_rounds(gpt, server):
    server.push(RESPONSES, oa_stream([oa_message("a")]), oa_stream([oa_message("b")]))
    gpt.turn(SYSTEM, TOOLS, FIRST)
    gpt.turn(SYSTEM, list(reversed(TOOLS)), [Message(role="user", text="Task: another one")])
    first, second = (r.json for r in server.requests)
    assert first["prompt_cache_key"] == second["prompt_cache_key"] == "workspace-7f3a"
    assert json.dumps(first["tools"]) == json.dumps(second["tools"])
    assert first["instructions"] == second["instructions"]


def test_without_a_workspace_key_the_cache_key_is_still_stable(server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    engine = OpenAIEngine(EngineConfig(base_url=server.url + "/v1"))
    assert engine.cache_key(SYSTEM) == OpenAIEngine(EngineConfig()).cache_key(SYSTEM)
    assert engine.cache_key(SYSTEM).startswith("hd-")


def test_401_is_final_plain_and_never_shows_the_key(gpt, server):
    server.push(RESPONSES, oa_error(401, f"Incorrect API key provided: {OPENAI_KEY}.",
                                    code="invalid_api_key"))
    err = fail(gpt)
    assert err.code == AUTH_FAILED and not err.retryable
    assert err.message == "Your OpenAI API key was rejected. Open Engine settings and paste a new key."
    for text in (err.message, err.details, str(err)):
        assert OPENAI_KEY not in text
    assert len(server.requests) == 1


def test_unknown_model_is_model_not_found(gpt, server):
    server.push(RESPONSES, oa_error(404, "The model `gpt-6.1-sol` does not exist.",
                                    code="model_not_found"))
    err = fail(gpt)
    assert err.code == MODEL_NOT_FOUND and "gpt-6.1-sol" in err.message


def test_rate_limit_is_retryable_with_retry_after(gpt, server):
    server.push(RESPONSES, oa_error(429, "Rate limit reached for requests", "requests",
                                    "rate_limit_exceeded", headers={"retry-after": "12"}))
    err = fail(gpt)
    assert err.code == TRANSIENT and err.retryable and err.retry_after == 12.0
    assert len(server.requests) == 1


def test_quota_exhausted_is_final(gpt, server):
    server.push(RESPONSES, oa_error(429, "You exceeded your current quota, please check your plan "
                                    "and billing details.", "insufficient_quota", "insufficient_quota"))
    err = fail(gpt)
    assert err.code == QUOTA_EXHAUSTED and not err.retryable


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_server_errors_are_retryable(gpt, server, status):
    server.push(RESPONSES, oa_error(status, "The server had an error", "server_error"))
    err = fail(gpt)
    assert err.code == TRANSIENT and err.retryable
    assert len(server.requests) == 1


def test_context_length_exceeded_asks_for_a_trim(gpt, server):
    server.push(RESPONSES, oa_error(400, "Your input exceeds the context window of this model.",
                                    code="context_length_exceeded"))
    assert fail(gpt).code == PROMPT_TOO_LONG


@pytest.mark.parametrize("mode", ["reset", "eof"])
def test_stream_cut_inside_function_arguments_returns_no_tool_call(gpt, server, mode):
    events = oa_events(oa_response([oa_call("call_9", "write_file",
                                            {"path": "report.md", "content": "a long report"})]))
    first_delta = next(i for i, (n, _) in enumerate(events)
                       if n == "response.function_call_arguments.delta")
    server.push(RESPONSES, Reply(events=events, cut_after=first_delta + 2, cut_mode=mode))
    err = fail(gpt)
    assert err.code == STREAM_BROKEN and err.retryable


def test_failed_response_event_is_diagnosed(gpt, server):
    events = oa_events(oa_response([oa_message("hi")]))[:2]
    failed = dict(oa_response([], status="failed"),
                  error={"code": "server_error", "message": "The model had an error."})
    events.append(("response.failed", {"type": "response.failed", "sequence_number": 2,
                                       "response": failed}))
    server.push(RESPONSES, Reply(events=events))
    err = fail(gpt)
    assert err.code == TRANSIENT and err.retryable


def test_incomplete_response_drops_a_half_written_call(gpt, server):
    cut = oa_call("call_4", "write_file", {"path": "a", "content": "b"})
    cut["arguments"] = cut["arguments"][:12]
    response = oa_response([oa_message("Writing"), cut], status="incomplete")
    response["incomplete_details"] = {"reason": "max_output_tokens"}
    server.push(RESPONSES, Reply(events=oa_events(response)))
    turn = gpt.turn(SYSTEM, TOOLS, FIRST)
    assert turn.tool_calls == [] and turn.stop_reason == "max_output_tokens"


def test_cancel_stops_between_chunks(gpt, server):
    server.push(RESPONSES, oa_stream([oa_message("A long preamble."),
                                      oa_call("call_5", "give_up", {"reason": "x"})]))
    cancel = threading.Event()
    turn = gpt.turn(SYSTEM, TOOLS, FIRST, cancel=cancel, on_text=lambda _: cancel.set())
    assert turn.stop_reason == "cancelled" and turn.tool_calls == []


def test_connection_refused_is_engine_unreachable(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    engine = OpenAIEngine(EngineConfig(base_url=f"http://127.0.0.1:{free_port()}/v1"))
    err = fail(engine)
    assert err.code == ENGINE_UNREACHABLE and not err.retryable


def test_base_url_comes_from_the_sdk_variable_when_not_set(server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    server.push(RESPONSES, oa_stream([oa_message("ok")]))
    assert OpenAIEngine(EngineConfig()).turn(SYSTEM, TOOLS, FIRST).text == "ok"


def test_no_key_is_auth_failed_before_any_request(server):
    err = fail(OpenAIEngine(EngineConfig(base_url=server.url + "/v1")))
    assert err.code == AUTH_FAILED and "OPENAI_API_KEY" in err.message
    assert server.requests == []


def test_availability_lists_chat_models(gpt, server):
    server.push("/v1/models", oa_models(["gpt-6.1-sol", "text-embedding-3-large", "gpt-6-luna",
                                         "gpt-realtime"]))
    state = gpt.availability()
    assert state.ready and state.models == ["gpt-6-luna", "gpt-6.1-sol"]


def test_availability_with_a_rejected_key(gpt, server):
    server.push("/v1/models", oa_error(401, "Incorrect API key provided.", code="invalid_api_key"))
    state = gpt.availability()
    assert not state.ready and state.message.startswith("Your OpenAI API key was rejected")
    assert state.models == list(openai_engine.OPENAI_FALLBACK_MODELS)


def test_availability_without_a_key(server):
    state = OpenAIEngine(EngineConfig(base_url=server.url + "/v1")).availability()
    assert not state.ready and "OPENAI_API_KEY" in state.message
    assert server.requests == []
