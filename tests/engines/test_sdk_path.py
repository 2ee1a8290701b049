"""The engines send through the SDKs' lower-level request path (no per-request walk of the
whole body) with the same bytes as the SDKs' typed methods, and build each message once."""

from __future__ import annotations

import json

import anthropic
import pytest
from pydantic import TypeAdapter

from app.core.engine.conversation import Message, ToolCall, ToolResult
from app.core.tools.pictures import PICTURES_PER_REQUEST, Picture, read_picture
from app.core.engine.port import EngineConfig
from app.core.engine.calls import TRIMMED, _trim_oldest_tool_output
from app.core.run.reports import SYSTEM_PROMPT
from app.core.tools.toolbox import TOOL_SPECS
from app.engines.claude import sdk as claude_sdk
from app.engines.openai import sdk as openai_sdk
from app.engines.claude.engine import AnthropicEngine
from app.engines.claude.send import MESSAGES_ORDER, stream_messages
from app.engines.local.engine import LocalEngine
from app.engines.openai.compat import CHAT_ORDER, RESPONSES_ORDER, post_stream, stream_events
from app.engines.openai.engine import OpenAIEngine
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


def _lower(kind: str, engine, client, request: dict):
    """The engine's own path: its bytes for the request, its reading of the reply,
    validated against the SDK's types."""
    from openai.types.chat import ChatCompletionChunk
    from openai.types.responses import ResponseStreamEvent

    body = engine.encoded(request)
    if kind == "claude":
        with stream_messages(client, body) as reader:
            list(reader)
        return anthropic.types.Message.model_validate(reader.snapshot)
    path, event = (("/responses", ResponseStreamEvent) if kind == "openai"
                   else ("/chat/completions", ChatCompletionChunk))
    with post_stream(client, path, body) as raw:
        return [TypeAdapter(event).validate_python(e) for e in stream_events(raw)]


def _sdk_bytes(kind: str, request: dict) -> bytes:
    """`request` as the SDK's serializer writes it, keys in the typed method's order."""
    order = {"claude": MESSAGES_ORDER, "openai": RESPONSES_ORDER, "local": CHAT_ORDER}[kind]
    given = {**request, "stream": True}
    body = {k: given[k] for k in order if k in given}
    return (claude_sdk if kind == "claude" else openai_sdk).serializer()(body)


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
    server.push(*_replies(kind, 9))
    typed = _typed(kind, client, request)
    server.push(*_replies(kind, 9))
    lower = _lower(kind, engine, client, request)
    sent_typed, sent_lower = [r for r in server.requests if r.method == "POST"]
    assert sent_lower.raw == sent_typed.raw == _sdk_bytes(kind, request)
    assert b"reasoning" in sent_typed.raw or b"thinking" in sent_typed.raw or kind == "local"
    assert ({k: v for k, v in sent_lower.headers.items() if k not in VARYING}
            == {k: v for k, v in sent_typed.headers.items() if k not in VARYING})
    if kind == "claude":
        assert lower.model_dump() == typed.model_dump()
    else:
        assert [e.model_dump() for e in lower] == [e.model_dump() for e in typed]
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


def _photo(tmp_path, n: int) -> Picture:
    from PIL import Image

    path = tmp_path / f"p{n}.png"
    Image.new("RGB", (40 + n, 30), (10 * n % 255, 90, 200)).save(path, "PNG")
    return read_picture(path, f"photos/p{n}.png")


def _shorten(messages):
    assert _trim_oldest_tool_output(messages)


def _rewrite_one(messages):
    messages[4].tool_results[0].content = "Error: the file moved."
    messages[4].tool_results[0].is_error = True


def _two_user_messages(messages):
    messages.append(Message(role="user", text="A note from the harness: two minutes left."))


def _an_empty_reply_between(messages):
    messages += [Message(role="assistant"), Message(role="user", text="Go on.")]


def _two_replies_in_a_row(messages):
    calls = [ToolCall(id="call_x", name="read_file", arguments={"path": "x.md"})]
    messages += [Message(role="assistant", text="One more."), Message(
        role="assistant", tool_calls=calls), Message(role="user", tool_results=[
            ToolResult(call_id="call_x", name="read_file", content=RESULT)])]


def _pictures(tmp_path, first: int):
    def add(messages):  # three more: the oldest drop out of those shown, in earlier messages
        for n in range(first, first + 3):
            calls = [ToolCall(id=f"call_p{n}", name="read_file", arguments={"path": f"p{n}"})]
            messages += [Message(role="assistant", tool_calls=calls), Message(
                role="user", tool_results=[ToolResult(
                    call_id=f"call_p{n}", name="read_file", content=f"picture {n}",
                    pictures=[_photo(tmp_path, n)])])]
    return add


def _picture_added_in_place(tmp_path):
    def add(messages):
        messages[2].tool_results[0].pictures.append(_photo(tmp_path, 40))
    return add


def _text_changed(messages):
    messages[3].text = "Reading part one again."


def _shortened_conversation(messages):
    del messages[-3:]


def _grown_in_place(messages):
    messages[2].tool_results.append(ToolResult(call_id="call_0b", name="read_file",
                                               content="A second result, added in place."))


@pytest.mark.parametrize("kind", ["claude", "openai", "local"])
def test_a_request_begun_from_the_last_one_is_what_building_it_afresh_gives(
        kind, server, memory_keychain, tmp_path):
    engine = _engine(kind, server, memory_keychain)
    engine.config.options["vision"] = True
    messages = _conversation(engine, server, kind, 5)
    # A picture added in place to an old result while none was shown first: the request
    # before showed no picture, so only its new messages are looked at for pictures
    # (Prefix.shown_and_held), and the held check is what finds this one.
    changes = [lambda m: None, _two_user_messages, _an_empty_reply_between,
               _two_replies_in_a_row, _rewrite_one, _picture_added_in_place(tmp_path)] + [
        _pictures(tmp_path, n) for n in range(0, PICTURES_PER_REQUEST + 4, 3)] + [
        _picture_added_in_place(tmp_path), _text_changed, _grown_in_place, _shorten,
        _shortened_conversation, "no pictures seen"]
    shown = []
    for change in changes:
        if change == "no pictures seen":  # a change besides the messages: all made again
            engine.config.options["vision"] = False
        else:
            change(messages)
        built = engine.build_request(SYSTEM_PROMPT, TOOL_SPECS, messages)
        fresh = type(engine)(engine.config)
        fresh._facts = getattr(engine, "_facts", None)
        afresh = fresh.build_request(SYSTEM_PROMPT, TOOL_SPECS, messages)
        assert built == afresh, change
        assert engine.encoded(built) == _sdk_bytes(kind, built) == fresh.encoded(afresh)
        if kind == "claude":
            assert engine._sent[1] == fresh._sent[1]  # the prefix its reply is bound to
        shown.append(json.dumps(built).count("base64,") + json.dumps(built).count('"base64"'))
    assert max(shown) == PICTURES_PER_REQUEST and shown[-1] == 0


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
