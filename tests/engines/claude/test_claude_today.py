"""Claude as the Messages API behaves today: interleaved thinking bound to its conversation,
narration between tool calls arriving as thinking, replies cut by the context window."""

from __future__ import annotations

import pytest

from app.core.engine.conversation import Message, ToolResult
from app.core.engine.port import EngineConfig, EngineError
from app.core.engine.calls import _trim_oldest_tool_output
from app.engines.claude.engine import AnthropicEngine
from tests.engines.conftest import CLAUDE_KEY
from tests.engines.fake_servers import (BOUND_TO_ANOTHER, claude_stream, text_block,
                                        thinking_block, tool_use)
from tests.engines.claude.test_anthropic_engine import FIRST, MESSAGES, SYSTEM, TOOLS

# What the newest models send for one step: thinking (some of it empty) between the calls,
# a note before the first, two calls in one reply.
NEWEST = [thinking_block("", "s1"),
          text_block("I'll write the notes first."),
          thinking_block("The notes need a heading, then the list.", "s2"),
          tool_use("toolu_a", "write_file", {"path": "notes.md", "content": "# Notes\n"}),
          thinking_block("", "s3"),
          tool_use("toolu_b", "write_file", {"path": "list.md", "content": "- one\n"})]


@pytest.fixture
def claude(server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    return AnthropicEngine(EngineConfig(model="claude-sonnet-5-5", base_url=server.url, timeout_s=5))


def step(history: list[Message], turn, *results: str) -> list[Message]:
    """The conversation after `turn`: its reply as the loop keeps it, then its results."""
    calls = turn.tool_calls
    reply = Message(role="assistant", text=turn.text, tool_calls=calls, record=turn.record)
    if not calls:
        return history + [reply, Message(role="user", text="Nudge: use a tool.")]
    return history + [reply, Message(role="user", tool_results=[
        ToolResult(call_id=c.id, name=c.name, content=r) for c, r in zip(calls, results)])]


def assistant_content(server, request: int, message: int = 1) -> list[dict]:
    return server.requests[request].json["messages"][message]["content"]


def test_a_reply_goes_back_block_for_block_in_its_original_order(claude, server):
    server.push(MESSAGES, claude_stream(NEWEST), claude_stream([text_block("Done.")]))
    turn = claude.turn(SYSTEM, TOOLS, FIRST)
    assert [c.id for c in turn.tool_calls] == ["toolu_a", "toolu_b"]
    assert turn.text == "I'll write the notes first."
    claude.turn(SYSTEM, TOOLS, step(FIRST, turn, "ok", "ok"))
    sent = assistant_content(server, 1)
    assert [b["type"] for b in sent] == ["thinking", "text", "thinking", "tool_use", "thinking",
                                         "tool_use"]
    assert [b.get("thinking") for b in sent if b["type"] == "thinking"] == [
        "", "The notes need a heading, then the list.", ""]
    assert server.refusals == []  # every thinking block sat where it was written


def test_the_fake_service_refuses_a_thinking_block_that_moved(claude, server):
    """What today's service does to a reply sent back rearranged (thinking first, text merged):
    the same 400 the engine used to get on the default model."""
    server.push(MESSAGES, claude_stream(NEWEST), claude_stream([text_block("Done.")]))
    turn = claude.turn(SYSTEM, TOOLS, FIRST)
    blocks = turn.record["content"]
    thinking = [b for b in blocks if b["type"] == "thinking"]
    rearranged = dict(turn.record, content=thinking + [b for b in blocks if b not in thinking])
    history = step(FIRST, turn, "ok", "ok")
    history[1] = history[1].model_copy(update={"record": rearranged})
    with pytest.raises(EngineError):
        claude.turn(SYSTEM, TOOLS, history)
    body = server.refusals[0].body
    assert body["error"]["type"] == "invalid_request_error"
    assert BOUND_TO_ANOTHER in body["error"]["message"]


def test_a_text_only_reply_keeps_its_thinking_through_the_nudge(claude, server):
    server.push(MESSAGES,
                claude_stream([thinking_block("Which file first?", "t1"), text_block("Let me see.")]),
                claude_stream([thinking_block("", "t2"),
                               tool_use("toolu_c", "write_file", {"path": "a.md", "content": "a"})]),
                claude_stream([text_block("ok")]))
    first = claude.turn(SYSTEM, TOOLS, FIRST)
    history = step(FIRST, first)
    second = claude.turn(SYSTEM, TOOLS, history)
    claude.turn(SYSTEM, TOOLS, step(history, second, "ok"))
    assert [b["type"] for b in assistant_content(server, 2, 1)] == ["thinking", "text"]
    assert [b["type"] for b in assistant_content(server, 2, 3)] == ["thinking", "tool_use"]
    assert server.refusals == []


def test_shortened_tool_output_drops_the_thinking_after_it_instead_of_a_400(claude, server):
    """The retry layer trims old tool output when the prompt grows too long; the thinking
    written after that output is then bound to a conversation that no longer exists, so the
    engine leaves it out (text and calls still go back) rather than be refused."""
    server.push(MESSAGES,
                claude_stream([thinking_block("Plan.", "p1"),
                               tool_use("toolu_1", "write_file", {"path": "a", "content": "a"})]),
                claude_stream([thinking_block("Next.", "p2"), text_block("Now the list."),
                               tool_use("toolu_2", "write_file", {"path": "b", "content": "b"})]),
                claude_stream([text_block("Done.")]))
    one = claude.turn(SYSTEM, TOOLS, FIRST)
    history = step(FIRST, one, "x" * 5000)
    two = claude.turn(SYSTEM, TOOLS, history)
    history = step(history, two, "ok")
    assert _trim_oldest_tool_output(history)  # what the retry layer does on prompt_too_long
    claude.turn(SYSTEM, TOOLS, history)
    assert server.refusals == []
    untouched, after_trim = assistant_content(server, 2, 1), assistant_content(server, 2, 3)
    assert [b["type"] for b in untouched] == ["thinking", "tool_use"]  # its prefix is the same
    assert [b["type"] for b in after_trim] == ["text", "tool_use"]


def test_summarized_thinking_is_asked_for_and_narrated_live(claude, server):
    server.push(MESSAGES, claude_stream(NEWEST))
    live: list[str] = []
    turn = claude.turn(SYSTEM, TOOLS, FIRST, on_text=live.append)
    assert server.requests[0].json["thinking"] == {"type": "adaptive", "display": "summarized"}
    narration = "".join(live)
    assert "I'll write the notes first." in narration
    assert "The notes need a heading, then the list." in narration
    assert narration.index("I'll write") < narration.index("The notes need")
    assert turn.text == "I'll write the notes first."  # what it said, not what it thought


@pytest.mark.parametrize("model", ["claude-haiku-4-5", "claude-opus-4-8", "claude-3-5-haiku"])
def test_older_models_are_not_sent_a_thinking_setting(server, monkeypatch, model):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    request = AnthropicEngine(EngineConfig(model=model)).build_request(SYSTEM, TOOLS, FIRST)
    assert "thinking" not in request


@pytest.mark.parametrize("model", ["claude-sonnet-5-5", "claude-opus-5-5", "claude-haiku-5-5",
                                   "claude-fable-5-1", "claude-sonnet-5-20260630"])
def test_claude_5_models_get_summarized_thinking(model):
    request = AnthropicEngine(EngineConfig(model=model)).build_request(SYSTEM, TOOLS, FIRST)
    assert request["thinking"] == {"type": "adaptive", "display": "summarized"}


def test_a_reply_cut_by_the_context_window_runs_no_last_call(claude, server):
    server.push(MESSAGES, claude_stream(
        [text_block("Writing both."),
         tool_use("toolu_x", "write_file", {"path": "a.md", "content": "a"}),
         tool_use("toolu_y", "write_file", {"path": "b.md", "content": "half"})],
        stop_reason="model_context_window_exceeded"))
    turn = claude.turn(SYSTEM, TOOLS, FIRST)
    assert [c.id for c in turn.tool_calls] == ["toolu_x"]
    assert turn.stop_reason == "model_context_window_exceeded"
