"""The OpenAI engine through the real openai SDK against a loopback server speaking the Responses API."""

from __future__ import annotations

import json
import threading

import pytest

from app.core.engine.conversation import Message, ToolCall, ToolResult, ToolSpec
from app.engines.openai import engine as openai_engine
from app.core.engine.port import (AUTH_FAILED, ENGINE_UNREACHABLE, MODEL_NOT_FOUND, PROMPT_TOO_LONG,
                              QUOTA_EXHAUSTED, STREAM_BROKEN, TRANSIENT, EngineConfig, EngineError)
from app.engines.openai.engine import OpenAIEngine
from tests.engines.conftest import OPENAI_KEY
from tests.engines.fake_servers import (Reply, free_port, oa_call, oa_error, oa_events, oa_message,
                                        oa_models, oa_reasoning, oa_response, oa_stream, oa_usage)

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
    assert "instructions" not in body  # the system prompt leads the input (cached prefix)
    assert body["input"][0] == {"role": "developer", "content": SYSTEM}
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
    assert items[0] == {"role": "developer", "content": SYSTEM}
    assert items[2] == {"role": "assistant", "content": "Writing."}
    assert items[3]["type"] == "function_call" and items[3]["call_id"] == "call_1"
    assert json.loads(items[3]["arguments"]) == {"path": ".env", "content": "x"}
    assert items[4] == {"type": "function_call_output", "call_id": "call_1",
                        "output": "Error: Refused: .env is off limits."}
    assert items[5] == {"role": "user", "content": "Notice: that path is off limits."}


def test_prompt_cache_key_and_prefix_are_identical_across_rounds(gpt, server):
    server.push(RESPONSES, oa_stream([oa_message("a")]), oa_stream([oa_message("b")]))
    gpt.turn(SYSTEM, TOOLS, FIRST)
    gpt.turn(SYSTEM, list(reversed(TOOLS)), [Message(role="user", text="Task: another one")])
    first, second = (r.json for r in server.requests)
    assert first["prompt_cache_key"] == second["prompt_cache_key"] == "workspace-7f3a"
    assert json.dumps(first["tools"]) == json.dumps(second["tools"])
    assert first["input"][0] == second["input"][0] == {"role": "developer", "content": SYSTEM}


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


# -- reasoning carried between the steps of a round -------------------------------------------
def _after(turn, results: dict[str, str]) -> list[Message]:
    """The round so far: the report, the assistant turn, and the results of its calls."""
    return FIRST + [
        Message(role="assistant", text=turn.text, tool_calls=turn.tool_calls, record=turn.record),
        Message(role="user", tool_results=[ToolResult(call_id=i, name="write_file", content=c)
                                           for i, c in results.items()])]


def _reasoning_in(body: dict) -> list[dict]:
    return [i for i in body["input"] if i.get("type") == "reasoning"]


def test_every_request_asks_for_encrypted_reasoning_and_stays_stateless(gpt, server):
    server.push(RESPONSES, oa_stream([oa_message("ok")]))
    gpt.turn(SYSTEM, TOOLS, FIRST)
    body = server.requests[0].json
    assert body["include"] == ["reasoning.encrypted_content"] and body["store"] is False


def test_output_goes_back_in_the_order_returned_on_the_next_step(gpt, server):
    server.push(RESPONSES, oa_stream(
        [oa_reasoning("rs_1", ["The notes need a heading."], "gAAAA-enc-1"),
         oa_message("Writing the notes."),
         oa_call("call_A", "write_file", {"path": "notes.md", "content": "# N"})],
        usage=oa_usage(input_tokens=900, output_tokens=300, reasoning=250)),
        oa_stream([oa_message("done")]))
    turn = gpt.turn(SYSTEM, TOOLS, FIRST)
    assert turn.usage.output_tokens == 300  # reasoning tokens are billed as output
    gpt.turn(SYSTEM, TOOLS, _after(turn, {"call_A": "Wrote notes.md"}))
    first, second = server.bodies(RESPONSES)
    assert second["input"][2:] == [
        {"type": "reasoning", "id": "rs_1",
         "summary": [{"type": "summary_text", "text": "The notes need a heading."}],
         "encrypted_content": "gAAAA-enc-1"},
        {"type": "message", "id": "msg_fake", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "Writing the notes.", "annotations": []}]},
        {"type": "function_call", "call_id": "call_A", "name": "write_file",
         "arguments": json.dumps({"path": "notes.md", "content": "# N"})},
        {"type": "function_call_output", "call_id": "call_A", "output": "Wrote notes.md"}]
    assert server.flags == []
    assert first["store"] is second["store"] is False
    assert first["include"] == second["include"] == ["reasoning.encrypted_content"]
    # the cached prefix is untouched by the carried reasoning
    assert json.dumps(first["tools"]) == json.dumps(second["tools"])
    assert first["input"][0] == second["input"][0]


def test_interleaved_reasoning_keeps_its_place_before_each_call(gpt, server):
    server.push(RESPONSES, oa_stream(
        [oa_reasoning("rs_1", ["First a."], "enc-1"),
         oa_call("call_A", "write_file", {"path": "a", "content": "a"}),
         oa_reasoning("rs_2", [], "enc-2"),
         oa_call("call_B", "write_file", {"path": "b", "content": "b"}),
         oa_reasoning("rs_3", ["Trailing, precedes nothing."], "enc-3")]),
        oa_stream([oa_message("done")]))
    turn = gpt.turn(SYSTEM, TOOLS, FIRST)
    gpt.turn(SYSTEM, TOOLS, _after(turn, {"call_A": "ok", "call_B": "ok"}))
    second = server.bodies(RESPONSES)[1]
    order = [i.get("id") or i.get("call_id") for i in second["input"][2:]]
    assert order == ["rs_1", "call_A", "rs_2", "call_B", "rs_3", "call_A", "call_B"]


def test_a_new_round_sends_no_reasoning_from_the_last(gpt, server):
    server.push(RESPONSES, oa_stream(
        [oa_reasoning("rs_1", ["Plan."], "enc-1"),
         oa_call("call_A", "write_file", {"path": "a", "content": "a"})]),
        oa_stream([oa_message("new round")]))
    gpt.turn(SYSTEM, TOOLS, FIRST)
    gpt.turn(SYSTEM, TOOLS, [Message(role="user", text="Task: the next one")])  # fresh round
    first, fresh = server.bodies(RESPONSES)
    assert _reasoning_in(fresh) == []
    assert fresh["store"] is False and fresh["include"] == ["reasoning.encrypted_content"]
    assert json.dumps(first["tools"]) == json.dumps(fresh["tools"])
    assert first["input"][0] == fresh["input"][0]


def test_reasoning_without_encrypted_content_is_not_sent_back(gpt, server):
    # With store false the server could not resolve an item by id alone.
    server.push(RESPONSES, oa_stream(
        [oa_reasoning("rs_1", ["Plan."], encrypted=None),
         oa_call("call_A", "write_file", {"path": "a", "content": "a"})]),
        oa_stream([oa_message("done")]))
    turn = gpt.turn(SYSTEM, TOOLS, FIRST)
    gpt.turn(SYSTEM, TOOLS, _after(turn, {"call_A": "ok"}))
    assert _reasoning_in(server.bodies(RESPONSES)[1]) == []


def test_the_fake_json_response_with_reasoning_reads_in_the_sdk(server):
    """The non-streamed wire format of the fake server, as the real SDK parses it."""
    import openai

    server.push(RESPONSES, Reply(body=oa_response(
        [oa_reasoning("rs_9", ["Think."], "enc-9"), oa_call("call_9", "give_up", {"reason": "r"})],
        usage=oa_usage(output_tokens=120, reasoning=100))))
    client = openai.OpenAI(api_key=OPENAI_KEY, base_url=server.url + "/v1", max_retries=0)
    response = client.responses.create(model="gpt-6.1-sol", input="hi", store=False,
                                       include=["reasoning.encrypted_content"])
    item = response.output[0]
    assert (item.type, item.id, item.encrypted_content, item.summary[0].text) == (
        "reasoning", "rs_9", "enc-9", "Think.")
    assert response.usage.output_tokens_details.reasoning_tokens == 100
    assert server.bodies(RESPONSES)[0]["include"] == ["reasoning.encrypted_content"]


def test_a_server_refusing_include_gets_the_request_once_more_without_it(gpt, server):
    server.push(RESPONSES,
                oa_error(400, "Unrecognized request argument supplied: include"),
                oa_stream([oa_message("ok")]), oa_stream([oa_message("ok again")]))
    assert gpt.turn(SYSTEM, TOOLS, FIRST).text == "ok"
    gpt.turn(SYSTEM, TOOLS, FIRST)
    refused, resent, later = server.bodies(RESPONSES)
    assert "include" in refused and "include" not in resent and "include" not in later
    assert {k: v for k, v in refused.items() if k != "include"} == resent
    assert gpt.include_refused


def test_a_proxy_refusing_include_with_a_422_is_understood(gpt, server):
    server.push(RESPONSES, Reply(status=422, body={"detail": [
        {"loc": ["body", "include"], "msg": "Extra inputs are not permitted",
         "type": "extra_forbidden"}]}), oa_stream([oa_message("ok")]))
    assert gpt.turn(SYSTEM, TOOLS, FIRST).text == "ok"
    assert len(server.requests) == 2


def test_other_bad_requests_are_not_sent_again(gpt, server):
    server.push(RESPONSES, oa_error(400, "Invalid schema for function 'write_file'."))
    assert fail(gpt).code == "bad_request"
    assert len(server.requests) == 1 and not gpt.include_refused


# -- money: what a cut turn was billed, and the budget's output cap ---------------------------
def _sent_tokens(recorded) -> int:
    return len(recorded.raw) // 4


def test_a_turn_cut_by_stop_carries_an_estimate_of_the_billed_input(gpt, server):
    server.push(RESPONSES, oa_stream([oa_message("A long preamble."),
                                      oa_call("call_5", "give_up", {"reason": "x"})]))
    cancel = threading.Event()
    turn = gpt.turn(SYSTEM, TOOLS, FIRST, cancel=cancel, on_text=lambda _: cancel.set())
    assert turn.stop_reason == "cancelled" and turn.tool_calls == []
    sent = _sent_tokens(server.requests[0])
    assert 0.8 * sent <= turn.usage.input_tokens <= 1.2 * sent
    assert turn.usage.output_tokens >= 1  # the text that had arrived


def test_a_broken_stream_error_carries_what_the_attempt_was_billed(gpt, server):
    events = oa_events(oa_response([oa_message("Writing a long report now."),
                                    oa_call("call_9", "write_file",
                                            {"path": "report.md", "content": "a long report"})]))
    first_delta = next(i for i, (n, _) in enumerate(events)
                       if n == "response.function_call_arguments.delta")
    server.push(RESPONSES, Reply(events=events, cut_after=first_delta + 2))
    err = fail(gpt)
    assert err.code == STREAM_BROKEN
    sent = _sent_tokens(server.requests[0])
    assert 0.8 * sent <= err.usage.input_tokens <= 1.2 * sent
    assert err.usage.output_tokens >= len("Writing a long report now.") // 4


def test_a_failed_response_that_reports_usage_carries_it(gpt, server):
    events = oa_events(oa_response([oa_message("hi")]))[:2]
    failed = dict(oa_response([], status="failed", usage=oa_usage(input_tokens=700,
                                                                   output_tokens=5)),
                  error={"code": "server_error", "message": "The model had an error."})
    events.append(("response.failed", {"type": "response.failed", "sequence_number": 2,
                                       "response": failed}))
    server.push(RESPONSES, Reply(events=events))
    err = fail(gpt)
    assert err.retryable and (err.usage.input_tokens, err.usage.output_tokens) == (700, 5)


def test_errors_before_the_reply_carry_no_usage(gpt, server):
    server.push(RESPONSES, oa_error(503, "busy", "server_error"))
    assert getattr(fail(gpt), "usage", None) is None


@pytest.mark.parametrize("model, cap, person, sent", [
    ("gpt-6.1-sol", 5_000, None, 5_000),        # the budget's cap, under the model's limit
    ("gpt-6.1-sol", 300_000, None, None),       # above the model's own limit: not sent
    ("gpt-6.1-sol", 5_000, 3_000, 3_000),       # the person's own cap is smaller
    ("gpt-6.1-sol", None, 3_000, 3_000),
    ("proxy-model-x", 20_000, None, None),      # unknown model: only below 16,384
    ("proxy-model-x", 9_000, None, 9_000),
])
def test_the_budget_output_cap_becomes_max_output_tokens(server, monkeypatch, model, cap,
                                                         person, sent):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    options = {"max_tokens": person} if person else {}
    engine = OpenAIEngine(EngineConfig(model=model, base_url=server.url + "/v1", options=options))
    server.push(RESPONSES, oa_stream([oa_message("ok")]))
    engine.turn(SYSTEM, TOOLS, FIRST, max_output_tokens=cap)
    assert server.bodies(RESPONSES)[0].get("max_output_tokens") == sent


def test_an_error_event_after_the_200_carries_an_estimate_of_the_billed_input(gpt, server):
    events = oa_events(oa_response([oa_message("hi")]))[:2]
    events.append(("error", {"type": "error", "sequence_number": 2, "code": "server_error",
                             "message": "The server had an error.", "param": None}))
    server.push(RESPONSES, Reply(events=events))
    err = fail(gpt)
    assert err.retryable and err.usage.input_tokens > 0


def test_reasoning_openai_no_longer_accepts_is_dropped_and_the_step_sent_once_more(gpt, server):
    server.push(RESPONSES, oa_stream(
        [oa_reasoning("rs_1", ["Plan."], "gAAAA-enc-1"),
         oa_call("call_A", "write_file", {"path": "notes.md", "content": "# N"})]),
        oa_error(400, "The encrypted content gAAA-enc-1 could not be verified.",
                 code="invalid_encrypted_content"),
        oa_stream([oa_message("done")]))
    turn = gpt.turn(SYSTEM, TOOLS, FIRST)
    assert gpt.turn(SYSTEM, TOOLS, _after(turn, {"call_A": "Wrote notes.md"})).text == "done"
    _, rejected, resent = server.bodies(RESPONSES)
    assert _reasoning_in(rejected) and not _reasoning_in(resent)
    assert resent["include"] == ["reasoning.encrypted_content"]  # still asked for new ones
    assert not gpt.include_refused


@pytest.mark.parametrize("model", ["gpt-4o", "gpt-4.1-mini", "gpt-5-chat-latest"])
def test_models_that_do_not_reason_are_not_asked_for_encrypted_reasoning(server, monkeypatch,
                                                                        model):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    engine = OpenAIEngine(EngineConfig(model=model, base_url=server.url + "/v1"))
    server.push(RESPONSES, oa_stream([oa_message("ok")]))
    engine.turn(SYSTEM, TOOLS, FIRST)
    assert "include" not in server.bodies(RESPONSES)[0]


@pytest.mark.parametrize("model, limit", [("gpt-5-chat-latest", 16_384), ("o1-mini", 65_536),
                                          ("gpt-4-turbo", 4_096), ("gpt-5.5", 128_000)])
def test_output_limits_match_the_most_specific_family(model, limit):
    assert openai_engine._output_limit(model) == limit
