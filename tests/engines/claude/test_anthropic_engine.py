"""The Claude engine through the real anthropic SDK against a loopback server speaking the Messages API."""

from __future__ import annotations

import json
import threading
import time

import pytest

from app.core.engine.conversation import Message, ToolCall, ToolResult, ToolSpec
from app.core.records.redact import redact
from app.engines.claude import engine as anthropic_engine
from app.engines.claude.engine import AnthropicEngine
from app.core.engine.port import (AUTH_FAILED, BAD_REQUEST, ENGINE_UNREACHABLE, MODEL_NOT_FOUND,
                              PROMPT_TOO_LONG, QUOTA_EXHAUSTED, STREAM_BROKEN, TRANSIENT,
                              EngineConfig, EngineError)
from tests.engines.conftest import CLAUDE_KEY
from tests.engines.fake_servers import (Reply, claude_error, claude_events, claude_message,
                                        claude_models, claude_stream, claude_usage, free_port,
                                        text_block, thinking_block, tool_use)

MESSAGES = "/v1/messages"
SYSTEM = "You are the agent of Harness Desk. Work only through the tools."
TOOLS = [
    ToolSpec(name="write_file", description="Create or replace a file.",
             parameters={"type": "object", "required": ["path", "content"],
                         "properties": {"path": {"type": "string"}, "content": {"type": "string"}}}),
    ToolSpec(name="complete_task", description="Check the current task.",
             parameters={"type": "object", "required": ["summary", "evidence"],
                         "properties": {"summary": {"type": "string"},
                                        "evidence": {"type": "array", "items": {"type": "string"}}}}),
]
FIRST = [Message(role="user", text="Task: write notes.md")]


@pytest.fixture
def claude(server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    return AnthropicEngine(EngineConfig(model="claude-sonnet-5-5", base_url=server.url, timeout_s=5))


def fail(engine, messages=FIRST) -> EngineError:
    with pytest.raises(EngineError) as caught:
        engine.turn(SYSTEM, TOOLS, messages)
    return caught.value


def test_text_tool_calls_and_usage_come_back(claude, server):
    server.push(MESSAGES, claude_stream(
        [text_block("I will write the notes."),
         tool_use("toolu_01", "write_file", {"path": "notes.md", "content": "# Notes\n"})],
        usage=claude_usage(input_tokens=40, output_tokens=25, cache_read=3000, cache_write=500)))
    deltas: list[str] = []
    turn = claude.turn(SYSTEM, TOOLS, FIRST, on_text=deltas.append)
    assert turn.text == "I will write the notes."
    assert "".join(deltas) == turn.text and len(deltas) > 1
    assert [(c.id, c.name, c.arguments) for c in turn.tool_calls] == [
        ("toolu_01", "write_file", {"path": "notes.md", "content": "# Notes\n"})]
    assert turn.usage.model_dump() == {"input_tokens": 40, "output_tokens": 25,
                                       "cache_read_tokens": 3000, "cache_write_tokens": 500}
    assert turn.stop_reason == "tool_use"


def test_max_tokens_fits_the_model(server):
    assert AnthropicEngine(EngineConfig(model="claude-sonnet-5-5")).build_request(
        SYSTEM, TOOLS, FIRST)["max_tokens"] == 32_000
    assert AnthropicEngine(EngineConfig(model="claude-3-5-haiku-20241022")).build_request(
        SYSTEM, TOOLS, FIRST)["max_tokens"] == 8192


def test_one_attempt_per_turn_streamed_with_the_sdk_retries_off(claude, server):
    server.push(MESSAGES, claude_stream([text_block("ok")]))
    claude.turn(SYSTEM, TOOLS, FIRST)
    (request,) = server.requests
    assert request.json["stream"] is True
    assert request.headers["x-stainless-retry-count"] == "0"


def test_steps_reuse_one_connection(claude, server):
    server.push(MESSAGES, claude_stream([text_block("a")]), claude_stream([text_block("b")]))
    claude.turn(SYSTEM, TOOLS, FIRST)
    claude.turn(SYSTEM, TOOLS, FIRST)
    first, second = server.requests
    assert first.client_port == second.client_port


def test_conversation_maps_to_content_blocks_results_first(claude, server):
    server.push(MESSAGES, claude_stream([text_block("done")]))
    messages = FIRST + [
        Message(role="assistant", text="Writing.", tool_calls=[
            ToolCall(id="toolu_01", name="write_file", arguments={"path": "../x", "content": "y"})]),
        Message(role="user", text="Notice: use a path inside the workspace.", tool_results=[
            ToolResult(call_id="toolu_01", name="write_file", content="Refused: outside.",
                       is_error=True)]),
    ]
    claude.turn(SYSTEM, TOOLS, messages)
    sent = server.requests[0].json["messages"]
    assert [m["role"] for m in sent] == ["user", "assistant", "user"]
    assert sent[1]["content"] == [
        {"type": "text", "text": "Writing."},
        {"type": "tool_use", "id": "toolu_01", "name": "write_file",
         "input": {"path": "../x", "content": "y"}}]
    result, notice = sent[2]["content"]
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_01"
    assert result["is_error"] is True and result["content"] == "Refused: outside."
    assert notice["type"] == "text" and notice["text"].startswith("Notice:")


def test_stable_prefix_is_byte_identical_and_marked_for_caching(claude, server):
    server.push(MESSAGES, claude_stream([text_block("a")]), claude_stream([text_block("b")]))
    claude.turn(SYSTEM, TOOLS, FIRST)
    later = FIRST + [Message(role="assistant", text="a"), Message(role="user", text="Nudge: use a tool.")]
    claude.turn(SYSTEM, list(reversed(TOOLS)), later)  # same tools, offered in another order
    first, second = (r.json for r in server.requests)
    for part in ("tools", "system"):
        assert json.dumps(first[part]) == json.dumps(second[part])
    assert first["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert first["system"][-1]["cache_control"] == {"type": "ephemeral"}
    for body in (first, second):
        assert json.dumps(body).count('"cache_control"') <= 4
        assert body["messages"][-1]["content"][-1]["cache_control"] == {"type": "ephemeral"}
    # the breakpoint moved with the conversation; the earlier message no longer carries one
    assert "cache_control" not in second["messages"][0]["content"][-1]


def test_thinking_blocks_are_sent_back_with_their_tool_calls(claude, server):
    server.push(MESSAGES, claude_stream([thinking_block("The notes need a heading.", "sig-xyz"),
                                         tool_use("toolu_07", "write_file", {"path": "n.md", "content": "#"})]),
                claude_stream([text_block("ok")]))
    turn = claude.turn(SYSTEM, TOOLS, FIRST)
    history = FIRST + [Message(role="assistant", tool_calls=turn.tool_calls, record=turn.record),
                       Message(role="user", tool_results=[ToolResult(call_id="toolu_07",
                                                                     name="write_file", content="ok")])]
    claude.turn(SYSTEM, TOOLS, history)
    assistant = server.requests[1].json["messages"][1]["content"]
    assert assistant[0]["type"] == "thinking"
    assert assistant[0]["thinking"] == "The notes need a heading."
    assert assistant[0]["signature"].startswith("bound:")  # as the fake service signed it
    assert assistant[1]["type"] == "tool_use"
    assert server.refusals == []


def test_401_is_final_plain_and_never_shows_the_key(claude, server):
    server.push(MESSAGES, claude_error(401, "authentication_error", f"invalid x-api-key {CLAUDE_KEY}"))
    err = fail(claude)
    assert err.code == AUTH_FAILED and not err.retryable
    assert err.message == "Your Claude API key was rejected. Open Engine settings and paste a new key."
    for text in (err.message, err.details, err.action, str(err)):
        assert CLAUDE_KEY not in text
    assert len(server.requests) == 1  # no retry inside the SDK


def test_unknown_model_is_model_not_found(claude, server):
    server.push(MESSAGES, claude_error(404, "not_found_error", "model: claude-nope"))
    err = fail(claude)
    assert err.code == MODEL_NOT_FOUND and not err.retryable
    assert "claude-sonnet-5-5" in err.message and "choose another model" in err.message


@pytest.mark.parametrize("headers, expected", [({"retry-after": "7"}, 7.0),
                                               ({"retry-after-ms": "1500"}, 1.5)])
def test_rate_limit_is_retryable_with_retry_after(claude, server, headers, expected):
    server.push(MESSAGES, claude_error(429, "rate_limit_error", "Number of requests exceeded",
                                       headers=headers))
    err = fail(claude)
    assert err.code == TRANSIENT and err.retryable and err.retry_after == expected
    assert len(server.requests) == 1


@pytest.mark.parametrize("status, kind", [(529, "overloaded_error"), (503, "api_error"),
                                          (500, "api_error")])
def test_overload_and_server_errors_are_retryable(claude, server, status, kind):
    server.push(MESSAGES, claude_error(status, kind, "Overloaded"))
    err = fail(claude)
    assert err.code == TRANSIENT and err.retryable
    assert len(server.requests) == 1


@pytest.mark.parametrize("status, kind, code, message", [
    # error.details.error_code names the cause; the message's wording may change at any time
    (429, "rate_limit_error", "enforced_spend_limit_reached", "Request refused."),
    (429, "rate_limit_error", "contract_spend_limit_reached", "Request refused."),
    (402, "billing_error", "linked_organization_spend_limit_reached", "Payment required."),
    (402, "billing_error", None, "Payment required."),
    # the one spend limit the errors page documents by its sentence alone
    (400, "invalid_request_error", None,
     "You have reached your specified API usage limits. You will regain access on 2026-12-01."),
])
def test_spend_limits_are_read_from_the_structured_fields_and_are_final(claude, server, status,
                                                                        kind, code, message):
    server.push(MESSAGES, claude_error(status, kind, message, error_code=code))
    err = fail(claude)
    assert err.code == QUOTA_EXHAUSTED and not err.retryable and err.retry_after is None


@pytest.mark.parametrize("code, message", [
    ("ramp_limit_exceeded", "Your usage is growing faster than your spend limit allows."),
    (None, "Rate limit reached; see your usage limits and spend limit in the Console."),
])
def test_a_rate_limit_that_merely_mentions_limits_is_retried(claude, server, code, message):
    server.push(MESSAGES, claude_error(429, "rate_limit_error", message,
                                       headers={"retry-after": "3"}, error_code=code))
    err = fail(claude)
    assert err.code == TRANSIENT and err.retryable and err.retry_after == 3.0


def test_prompt_too_long_asks_for_a_trim(claude, server):
    server.push(MESSAGES, claude_error(400, "invalid_request_error",
                                       "prompt is too long: 1048812 tokens > 1000000 maximum"))
    err = fail(claude)
    assert err.code == PROMPT_TOO_LONG and not err.retryable


def test_other_bad_requests_are_final(claude, server):
    server.push(MESSAGES, claude_error(400, "invalid_request_error", "tools.0.name: bad"))
    err = fail(claude)
    assert err.code == BAD_REQUEST and not err.retryable


def _cut_inside_tool_json(mode: str) -> Reply:
    events = claude_events(claude_message(
        [text_block("Writing it."), tool_use("toolu_9", "write_file",
                                             {"path": "report.md", "content": "a long report"})]))
    names = [name for name, _ in events]
    second_json_delta = [i for i, (n, d) in enumerate(events) if n == "content_block_delta"
                         and d["delta"]["type"] == "input_json_delta"][1]
    assert names[second_json_delta + 1] == "content_block_delta"  # still inside the JSON
    return Reply(events=events, cut_after=second_json_delta + 1, cut_mode=mode)


@pytest.mark.parametrize("mode", ["reset", "eof"])
def test_stream_cut_inside_a_tool_call_returns_no_tool_call(claude, server, mode):
    server.push(MESSAGES, _cut_inside_tool_json(mode))
    seen: list[str] = []
    with pytest.raises(EngineError) as caught:
        claude.turn(SYSTEM, TOOLS, FIRST, on_text=seen.append)
    assert caught.value.code == STREAM_BROKEN and caught.value.retryable
    assert "".join(seen) == "Writing it."  # the text arrived; the tool call did not run


def test_error_event_after_a_200_is_diagnosed(claude, server):
    events = claude_events(claude_message([text_block("Hello")]))[:3]
    events.append(("error", {"type": "error",
                             "error": {"type": "overloaded_error", "message": "Overloaded"}}))
    server.push(MESSAGES, Reply(events=events))
    err = fail(claude)
    assert err.code == TRANSIENT and err.retryable
    assert err.usage.input_tokens > 0  # message_start came: the input was billed


def test_tool_call_cut_by_max_tokens_is_dropped(claude, server):
    server.push(MESSAGES, claude_stream(
        [text_block("Writing."), tool_use("toolu_3", "write_file", {"path": "a", "content": "b"})],
        stop_reason="max_tokens"))
    turn = claude.turn(SYSTEM, TOOLS, FIRST)
    assert turn.tool_calls == [] and turn.stop_reason == "max_tokens"


def test_connection_refused_is_engine_unreachable(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    url = f"http://127.0.0.1:{free_port()}"
    engine = AnthropicEngine(EngineConfig(base_url=url, timeout_s=5))
    err = fail(engine)
    assert err.code == ENGINE_UNREACHABLE and not err.retryable
    assert url in err.message


def test_a_silent_server_times_out_as_transient(server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    server.push(MESSAGES, Reply(delay_s=2.0, events=claude_events(claude_message([text_block("late")]))))
    engine = AnthropicEngine(EngineConfig(base_url=server.url, timeout_s=0.5))
    err = fail(engine)
    assert err.code == TRANSIENT and err.retryable


def test_cancel_stops_between_chunks_without_tool_calls(claude, server):
    server.push(MESSAGES, claude_stream(
        [text_block("A fairly long explanation first."),
         tool_use("toolu_5", "write_file", {"path": "a.md", "content": "x"})]))
    cancel = threading.Event()
    turn = claude.turn(SYSTEM, TOOLS, FIRST, cancel=cancel, on_text=lambda _: cancel.set())
    assert turn.stop_reason == "cancelled" and turn.tool_calls == []


def test_no_key_is_auth_failed_before_any_request(server):
    engine = AnthropicEngine(EngineConfig(base_url=server.url))
    err = fail(engine)
    assert err.code == AUTH_FAILED and "ANTHROPIC_API_KEY" in err.message
    assert server.requests == []


def test_keychain_key_wins_and_is_only_in_the_auth_header(server, memory_keychain, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-api03-FromTheEnvironment000000000000")
    memory_keychain.set_password("harness-desk", "anthropic", CLAUDE_KEY)
    server.push(MESSAGES, claude_stream([text_block("ok")]))
    AnthropicEngine(EngineConfig(base_url=server.url)).turn(SYSTEM, TOOLS, FIRST)
    (request,) = server.requests
    assert CLAUDE_KEY in request.headers.get("authorization", "") + request.headers.get("x-api-key", "")
    assert CLAUDE_KEY.encode() not in request.raw
    assert CLAUDE_KEY not in redact(f"a log line with {CLAUDE_KEY} in it")


def test_base_url_comes_from_the_sdk_variable_when_not_set(server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
    server.push(MESSAGES, claude_stream([text_block("ok")]))
    engine = AnthropicEngine(EngineConfig())
    assert engine.base_url() == server.url
    assert engine.turn(SYSTEM, TOOLS, FIRST).text == "ok"
    assert AnthropicEngine(EngineConfig(base_url="http://elsewhere.invalid")).base_url() == \
        "http://elsewhere.invalid"


# ---- availability -----------------------------------------------------------------------------

def test_availability_lists_models(claude, server):
    server.push("/v1/models", claude_models(["claude-sonnet-5-5", "claude-opus-5-5"]))
    state = claude.availability()
    assert state.ready and state.models == ["claude-sonnet-5-5", "claude-opus-5-5"]


def test_availability_accepts_a_dated_snapshot_of_the_model(server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    server.push("/v1/models", claude_models(["claude-sonnet-4-5-20250929"]))
    engine = AnthropicEngine(EngineConfig(model="claude-sonnet-4-5", base_url=server.url))
    assert engine.availability().ready


def test_availability_says_when_the_model_is_not_offered(claude, server):
    server.push("/v1/models", claude_models(["claude-haiku-5-5"]))
    state = claude.availability()
    assert not state.ready and "claude-sonnet-5-5" in state.message and "claude-haiku-5-5" in state.message


def test_availability_without_a_key_says_what_to_do(server):
    state = AnthropicEngine(EngineConfig(base_url=server.url)).availability()
    assert not state.ready and state.reason == "no_key"
    assert state.message == ("There is no Claude API key yet: paste yours in Engine settings, "
                             "or set ANTHROPIC_API_KEY.")  # one sentence, for this engine
    assert state.models == list(anthropic_engine.FALLBACK_MODELS)
    assert server.requests == []


def test_availability_with_a_rejected_key(claude, server):
    server.push("/v1/models", claude_error(401, "authentication_error", "invalid x-api-key"))
    state = claude.availability()
    assert not state.ready and state.message.startswith("Your Claude API key was rejected")
    assert state.models == list(anthropic_engine.FALLBACK_MODELS)


def test_availability_never_hangs(server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    monkeypatch.setattr(anthropic_engine, "AVAILABILITY_TIMEOUT_S", 0.3)
    server.push("/v1/models", Reply(delay_s=5.0, body={"data": []}))
    started = time.monotonic()
    state = AnthropicEngine(EngineConfig(base_url=server.url)).availability()
    assert time.monotonic() - started < 3.0
    assert not state.ready


def test_availability_when_nothing_listens(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    state = AnthropicEngine(EngineConfig(base_url=f"http://127.0.0.1:{free_port()}")).availability()
    assert not state.ready and "Could not connect to Claude" in state.message


# -- money: what a cut turn was billed, and the budget's output cap ---------------------------
def test_thinking_blocks_are_not_carried_into_a_new_round(claude, server):
    server.push(MESSAGES, claude_stream([thinking_block("Plan.", "sig-1"),
                                         tool_use("toolu_8", "write_file", {"path": "n", "content": "#"})]),
                claude_stream([text_block("new round")]))
    claude.turn(SYSTEM, TOOLS, FIRST)
    claude.turn(SYSTEM, TOOLS, [Message(role="user", text="Task: the next one")])
    assert '"thinking":"' not in server.requests[1].raw.decode().replace(" ", "")


def test_a_turn_cut_by_stop_carries_the_usage_seen_so_far(claude, server):
    server.push(MESSAGES, claude_stream(
        [text_block("A fairly long explanation first."),
         tool_use("toolu_5", "write_file", {"path": "a.md", "content": "x"})],
        usage=claude_usage(input_tokens=1500, output_tokens=80, cache_read=4000)))
    cancel = threading.Event()
    turn = claude.turn(SYSTEM, TOOLS, FIRST, cancel=cancel, on_text=lambda _: cancel.set())
    assert turn.stop_reason == "cancelled"
    assert (turn.usage.input_tokens, turn.usage.cache_read_tokens) == (1500, 4000)


def test_a_broken_stream_error_carries_the_usage_seen_so_far(claude, server):
    events = claude_events(claude_message(
        [text_block("Writing it."), tool_use("toolu_9", "write_file",
                                             {"path": "report.md", "content": "a long report"})],
        usage=claude_usage(input_tokens=2200, output_tokens=90, cache_write=1000)))
    server.push(MESSAGES, Reply(events=events, cut_after=len(events) - 4))
    err = fail(claude)
    assert err.code == STREAM_BROKEN
    assert (err.usage.input_tokens, err.usage.cache_write_tokens) == (2200, 1000)


def test_a_stream_broken_before_message_start_carries_an_input_estimate(claude, server):
    events = claude_events(claude_message([text_block("hi")]))
    server.push(MESSAGES, Reply(events=events, cut_after=0))
    err = fail(claude)
    assert err.code == STREAM_BROKEN
    sent = len(server.requests[0].raw) // 4
    assert 0.8 * sent <= err.usage.input_tokens <= 1.2 * sent


@pytest.mark.parametrize("cap, sent", [(1_000, 1_000), (100_000, 32_000), (None, 32_000)])
def test_the_budget_output_cap_lowers_max_tokens(server, monkeypatch, cap, sent):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    engine = AnthropicEngine(EngineConfig(model="claude-sonnet-5-5", base_url=server.url))
    server.push(MESSAGES, claude_stream([text_block("ok")]))
    engine.turn(SYSTEM, TOOLS, FIRST, max_output_tokens=cap)
    assert server.bodies(MESSAGES)[0]["max_tokens"] == sent
