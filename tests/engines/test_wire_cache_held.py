"""Prefix.held at step 100 visits the messages' identities and lists, not every field of every
message, when no message, call or result had a field assigned since (issue 36, point 8);
any change of an earlier message is still found."""

from __future__ import annotations

from app.core.engine.conversation import Message, ToolCall, ToolResult
from app.engines import wire_cache
from app.engines.wire_cache import Prefix


def _conversation(steps: int) -> list[Message]:
    messages = [Message(role="user", text="Task: summarise the notes.")]
    for n in range(steps):
        messages += [
            Message(role="assistant", text=f"Reading part {n}.", tool_calls=[
                ToolCall(id=f"call_{n}", name="read_file", arguments={"path": f"p{n}.md"})]),
            Message(role="user", tool_results=[
                ToolResult(call_id=f"call_{n}", name="read_file", content=f"part {n}")])]
    return messages


def _kept(messages: list[Message]) -> Prefix:
    prefix = Prefix()
    assert prefix.held(messages, "context", set()) == 0  # a new context: from scratch
    prefix.keep(0, [(m, i) for i, m in enumerate(messages)], set())
    return prefix


def test_an_unchanged_conversation_is_held_without_visiting_every_message(monkeypatch):
    messages = _conversation(100)
    prefix = _kept(messages)
    visited = []
    monkeypatch.setattr(wire_cache, "_DICT", lambda m: visited.append(m) or m.__dict__)
    messages.append(Message(role="assistant", text="One more."))
    assert prefix.held(messages, "context", set()) == 201
    assert visited == []  # before: every message's and result's and call's fields compared


def test_a_field_assigned_or_a_list_changed_in_place_is_still_found():
    for change, at in [
            (lambda m: setattr(m[4].tool_results[0], "content", "(trimmed)"), 4),
            (lambda m: setattr(m[7], "text", "Reading it again."), 7),
            (lambda m: m[9].tool_calls.append(ToolCall(id="x", name="list_files")), 9),
            (lambda m: m[6].tool_results.__setitem__(0, ToolResult(
                call_id="call_2", name="read_file", content="part 2, again")), 6)]:
        messages = _conversation(10)
        prefix = _kept(messages)
        change(messages)
        assert prefix.held(messages, "context", set()) == at
