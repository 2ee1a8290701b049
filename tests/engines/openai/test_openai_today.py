"""OpenAI as the Responses API behaves today: reasoning and commentary with `phase` sent back in
order, model_not_found as a 400, errors nested inside the stream, refusals that never change."""

from __future__ import annotations

import pytest

from app.core.engine.conversation import Message, ToolResult
from app.core.engine.port import BAD_REQUEST, MODEL_NOT_FOUND, TRANSIENT
from tests.engines.fake_servers import (Reply, oa_call, oa_error, oa_events, oa_message,
                                        oa_reasoning, oa_response, oa_stream, oa_usage)
from tests.engines.openai.test_openai_engine import FIRST, RESPONSES, SYSTEM, TOOLS, fail, gpt  # noqa: F401

# One step as the newest models send it: reasoning, a commentary note, reasoning, two calls.
NEWEST = [oa_reasoning("rs_1", ["Two files are needed."], "enc-1"),
          oa_message("Writing both files now.", phase="commentary", item_id="msg_c1"),
          oa_reasoning("rs_2", [], "enc-2"),
          oa_call("call_A", "write_file", {"path": "a.md", "content": "a"}),
          oa_call("call_B", "write_file", {"path": "b.md", "content": "b"})]


def step(history: list[Message], turn) -> list[Message]:
    return history + [
        Message(role="assistant", text=turn.text, tool_calls=turn.tool_calls, record=turn.record),
        Message(role="user", tool_results=[ToolResult(call_id=c.id, name=c.name, content="ok")
                                           for c in turn.tool_calls])]


def test_output_items_go_back_in_order_with_the_commentary_phase(gpt, server):  # noqa: F811
    server.push(RESPONSES, oa_stream(NEWEST), oa_stream([oa_message("Done.", phase="final_answer")]))
    live: list[str] = []
    turn = gpt.turn(SYSTEM, TOOLS, FIRST, on_text=live.append)
    assert "".join(live) == "Writing both files now."  # commentary is the live narration
    gpt.turn(SYSTEM, TOOLS, step(FIRST, turn))
    sent = server.bodies(RESPONSES)[1]["input"]
    replayed = sent[2:7]
    assert [i.get("id") or i.get("call_id") for i in replayed] == [
        "rs_1", "msg_c1", "rs_2", "call_A", "call_B"]
    assert replayed[1]["phase"] == "commentary"
    assert server.flags == []


def test_the_fake_service_notices_a_message_moved_ahead_or_its_phase_lost(gpt, server):  # noqa: F811
    """How the engine used to send this reply back: message first, without its phase."""
    server.push(RESPONSES, oa_stream(NEWEST), oa_stream([oa_message("Done.")]))
    turn = gpt.turn(SYSTEM, TOOLS, FIRST)
    history = step(FIRST, turn)
    history[1] = history[1].model_copy(update={"record": None})  # the neutral rendering
    gpt.turn(SYSTEM, TOOLS, history)
    assert any("lost its phase" in f for f in server.flags)


@pytest.mark.parametrize("status", [400, 404])
def test_an_unknown_model_stops_at_once_naming_it(gpt, server, status):  # noqa: F811
    server.push(RESPONSES, oa_error(status, "The model `gpt-6.1-sol` does not exist or you do "
                                    "not have access to it.", code="model_not_found"))
    err = fail(gpt)
    assert err.code == MODEL_NOT_FOUND and not err.retryable
    assert "gpt-6.1-sol" in err.message and "bug" not in err.message.lower()


def _nested_error(code: str, message: str) -> Reply:
    events = oa_events(oa_response([oa_message("hi")]))[:3]
    events.append(("error", {"type": "error", "sequence_number": 3, "error": {
        "type": "server_error" if code == "server_error" else "invalid_request_error",
        "code": code, "message": message, "param": None}}))
    return Reply(events=events)


def test_a_nested_stream_error_is_diagnosed_and_keeps_the_billed_input(gpt, server):  # noqa: F811
    server.push(RESPONSES, _nested_error("server_error", "The server had an error."))
    err = fail(gpt)
    assert err.code == TRANSIENT and err.retryable
    assert err.usage is not None and err.usage.input_tokens > 0


def test_a_nested_stream_error_about_the_request_is_final(gpt, server):  # noqa: F811
    server.push(RESPONSES, _nested_error("invalid_prompt", "Your prompt was flagged."))
    err = fail(gpt)
    assert err.code == BAD_REQUEST and not err.retryable
    assert err.usage is not None and err.usage.input_tokens > 0


@pytest.mark.parametrize("code, words", [
    ("data_residency_mismatch", "data region"),
    ("bio_policy", "usage policies"),
    ("misalignment_policy_violation", "usage policies"),
    ("invalid_image", "image"),
    ("image_content_policy_violation", "usage policies"),
])
def test_deterministic_failures_are_not_retried(gpt, server, code, words):  # noqa: F811
    failed = oa_response([], usage=oa_usage(input_tokens=300, output_tokens=0), status="failed")
    failed["error"] = {"code": code, "message": "Refused."}
    events = oa_events(oa_response([oa_message("x")]))[:2]
    events.append(("response.failed", {"type": "response.failed", "sequence_number": 2,
                                       "response": failed}))
    server.push(RESPONSES, Reply(events=events))
    err = fail(gpt)
    assert err.code == BAD_REQUEST and not err.retryable
    assert words in err.message
    assert err.usage is not None and err.usage.input_tokens == 300


def test_a_new_round_reads_the_system_prompt_from_the_cache(gpt, server):  # noqa: F811
    """The system prompt leads the input as a developer message, so a new round's first step
    reads it from the cache (the fake renders top-level instructions after the input)."""
    long_system = SYSTEM + " Rules follow." + " Keep every change small and say why." * 200
    server.responses.count_cache = True
    server.push(RESPONSES, oa_stream([oa_message("a")]), oa_stream([oa_message("b")]))
    gpt.turn(long_system, TOOLS, FIRST)
    second = gpt.turn(long_system, TOOLS, [Message(role="user", text="Task: the next one")])
    assert second.usage.cache_read_tokens >= len(long_system) // 4
