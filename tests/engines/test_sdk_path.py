"""The engines send through the SDKs' lower-level request path (no per-request walk of the
whole body) with the same bytes as the SDKs' typed methods, and build each message once."""

from __future__ import annotations

import json

import anthropic
import openai
import pytest

from app.core.conversation import Message, ToolResult
from app.core.engine import EngineConfig
from app.core.engine_calls import TRIMMED, _trim_oldest_tool_output
from app.core.reports import SYSTEM_PROMPT
from app.core.tools import TOOL_SPECS
from app.engines.anthropic_engine import AnthropicEngine
from app.engines.claude_send import stream_messages
from app.engines.local_engine import LocalEngine
from app.engines.openai_compat import CHAT_ORDER, RESPONSES_ORDER, post_stream
from app.engines.openai_engine import OpenAIEngine
from tests.engines.conftest import CLAUDE_KEY, OPENAI_KEY
from tests.engines.fake_servers import (chat_stream, claude_stream, oa_call, oa_message,
                                        oa_models, oa_reasoning, oa_stream, ollama_ps,
                                        ollama_show, text_block, thinking_block, tool_use)

RESULT = "- line: the bakery opens at seven\n" * 20
# Headers that differ from one request to the next whichever path sends it.
VARYING = {"x-stainless-retry-count", "x-stainless-read-timeout", "content-length"}


def _replies(kind: str, step: int):
    call, args = f"call_{step}", {"path": f"notes/{step}.md"}
    if kind == "claude":
        return "/v1/messages", claude_stream([thinking_block(f"part {step} next"),
                                              text_block(f"Reading {step}."),
                                              tool_use(call, "read_file", args)])
    if kind == "openai":
        return "/v1/responses", oa_stream([oa_reasoning(f"rs_{step}", [f"part {step}"]),
                                           oa_message(f"Reading {step}.", phase="commentary",
                                                      item_id=f"msg_{step}"),
                                           oa_call(call, "read_file", args)])
    return "/v1/chat/completions", chat_stream(f"Reading {step}.", [(call, "read_file", args)])


def _engine(kind: str, server, memory_keychain):
    if kind == "claude":
        memory_keychain.set_password("harness-desk", "anthropic", CLAUDE_KEY)
        return AnthropicEngine(EngineConfig(model="claude-sonnet-5-5", base_url=server.url))
    if kind == "openai":
        memory_keychain.set_password("harness-desk", "openai", OPENAI_KEY)
        return OpenAIEngine(EngineConfig(model="gpt-6.2-sol", base_url=server.url + "/v1"))
    server.default("/v1/models", oa_models(["qwen3:8b"]))
    server.default("/api/show", ollama_show(["completion", "tools"]))
    server.default("/api/ps", ollama_ps("qwen3:8b", 131072))
    return LocalEngine(EngineConfig(model="qwen3:8b", base_url=server.url + "/v1"))


def _conversation(engine, server, kind: str, steps: int) -> list[Message]:
    messages = [Message(role="user", text="Task: summarise the notes.")]
    for step in range(steps):
        server.push(*_replies(kind, step))
        turn = engine.turn(SYSTEM_PROMPT, TOOL_SPECS, messages)
        messages.append(Message(role="assistant", text=turn.text, tool_calls=turn.tool_calls,
                                record=turn.record))
        messages.append(Message(role="user", tool_results=[
            ToolResult(call_id=c.id, name=c.name, content=RESULT) for c in turn.tool_calls]))
    return messages


def _typed(kind: str, client, request: dict):
    """The request sent by the SDK's typed method, and the parsed reply it gives."""
    if kind == "claude":
        with client.messages.stream(**request) as stream:
            return stream.get_final_message()
    if kind == "openai":
        with client.responses.create(**request, stream=True) as stream:
            return [event for event in stream]
    with client.chat.completions.create(**request, stream=True) as stream:
        return [chunk for chunk in stream]


def _lower(kind: str, client, request: dict):
    if kind == "claude":
        with stream_messages(client, request) as stream:
            return stream.get_final_message()
    from openai.types.chat import ChatCompletion, ChatCompletionChunk
    from openai.types.responses import Response, ResponseStreamEvent

    if kind == "openai":
        with post_stream(client, "/responses", request, RESPONSES_ORDER, Response,
                         ResponseStreamEvent) as stream:
            return [event for event in stream]
    with post_stream(client, "/chat/completions", request, CHAT_ORDER, ChatCompletion,
                     ChatCompletionChunk) as stream:
        return [chunk for chunk in stream]


@pytest.mark.parametrize("kind", ["claude", "openai", "local"])
def test_the_lower_path_sends_the_typed_methods_bytes_and_parses_the_same(kind, server,
                                                                          memory_keychain):
    engine = _engine(kind, server, memory_keychain)
    messages = _conversation(engine, server, kind, 3)
    request = engine.build_request(SYSTEM_PROMPT, TOOL_SPECS, messages)
    if kind == "local":
        engine._fit(request, engine.facts())
    client = engine._turn_client()
    server.requests.clear()
    got = []
    for send in (_typed, _lower):
        server.push(*_replies(kind, 9))
        got.append(send(kind, client, request))
    typed, lower = [r for r in server.requests if r.method == "POST"]
    assert lower.raw == typed.raw
    assert b"reasoning" in typed.raw or b"thinking" in typed.raw or kind == "local"
    assert ({k: v for k, v in lower.headers.items() if k not in VARYING}
            == {k: v for k, v in typed.headers.items() if k not in VARYING})
    if kind == "claude":
        assert isinstance(got[1], anthropic.types.Message)
        assert got[1].model_dump() == got[0].model_dump()
    else:
        assert [type(e) for e in got[1]] == [type(e) for e in got[0]]
        assert got[1][-1].model_dump() == got[0][-1].model_dump()
        assert all(isinstance(e, openai.BaseModel) for e in got[1])
    assert not server.refusals and not server.flags


@pytest.mark.parametrize("kind", ["claude", "openai", "local"])
def test_each_message_is_built_once_and_again_when_changed_in_place(kind, server,
                                                                    memory_keychain):
    engine = _engine(kind, server, memory_keychain)
    messages = _conversation(engine, server, kind, 6)
    engine.build_request(SYSTEM_PROMPT, TOOL_SPECS, messages)
    built = engine._wire.built
    engine.build_request(SYSTEM_PROMPT, TOOL_SPECS, messages)
    assert engine._wire.built == built  # nothing new: nothing built
    messages.append(Message(role="assistant", text="More.", tool_calls=messages[-2].tool_calls))
    messages.append(Message(role="user", text="A note from the harness."))
    engine.build_request(SYSTEM_PROMPT, TOOL_SPECS, messages)
    assert engine._wire.built == built + 2  # only the two new messages
    assert _trim_oldest_tool_output(messages)  # what the retry layer does: in place
    request = engine.build_request(SYSTEM_PROMPT, TOOL_SPECS, messages)
    sent = json.dumps(request)
    assert sent.count(TRIMMED) == 3 and sent.count(json.dumps(RESULT)[1:-1]) == 3
    assert engine._wire.built > built + 2


def test_a_local_prompt_is_sized_from_its_messages_as_the_whole_request_would_be(
        server, memory_keychain):
    engine = _engine("local", server, memory_keychain)
    messages = _conversation(engine, server, "local", 8)
    facts = engine.facts()
    request = engine.build_request(SYSTEM_PROMPT, TOOL_SPECS, messages)
    whole = engine._tokens(request)
    facts.n_ctx = whole + 600  # room for 600 tokens of reply: max_tokens is that room
    engine._fit(request, facts)
    assert abs(request["max_tokens"] - 600) <= whole * 0.01
    copied = dict(request, messages=list(request["messages"]))  # not sized when built
    engine._fit(copied, facts)
    # Counted whole now, with max_tokens' own digits in the JSON (4096 then, ~600 now): the
    # estimate may round one token the other way.
    assert abs(copied["max_tokens"] - 600) <= 1
