"""The engines read a streamed reply as plain JSON from the SDK's raw response (raw_stream,
claude_stream); here the same bytes go through the SDKs' own typed streams as well, and
what the engines read is validated against the SDKs' types and compared with theirs:
Claude's accumulated message, every Responses event and every Chat Completions chunk, and
the errors raised for an error inside the stream."""

from __future__ import annotations

import anthropic
import openai
import pytest
from pydantic import TypeAdapter

from app.engines.claude.send import messages_body, stream_messages
from app.engines.openai.compat import CHAT_ORDER, RESPONSES_ORDER, openai_body, post_stream, \
    stream_events
from tests.engines.fake_servers import (Reply, chat_events, claude_events, claude_message,
                                        claude_stream, oa_call, oa_message, oa_reasoning,
                                        oa_stream, oa_usage, text_block, thinking_block,
                                        tool_use)

CLAUDE_REQUEST = {"model": "claude-sonnet-5-5", "max_tokens": 100,
                  "messages": [{"role": "user", "content": "Read the notes."}]}
RESPONSES_REQUEST = {"model": "gpt-6.2-sol", "input": [{"role": "user", "content": "Read."}],
                     "store": False}
CHAT_REQUEST = {"model": "qwen3:8b", "messages": [{"role": "user", "content": "Read."}],
                "stream_options": {"include_usage": True}}


def _claude_client(server) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key="sk-ant-api03-TestKey", base_url=server.url, max_retries=0)


def _openai_client(server) -> openai.OpenAI:
    return openai.OpenAI(api_key="sk-proj-TestKey", base_url=server.url + "/v1", max_retries=0)


def _cited() -> Reply:
    """A text block that grows citations, then a server tool call and its result."""
    message = claude_message([text_block("The bakery opens at seven.")])
    events = claude_events(message)
    citation = {"type": "char_location", "cited_text": "opens at seven", "document_index": 0,
                "document_title": "notes", "start_char_index": 4, "end_char_index": 18,
                "file_id": None}
    stop = next(i for i, (name, _) in enumerate(events) if name == "content_block_stop")
    events[stop:stop] = [("content_block_delta", {
        "type": "content_block_delta", "index": 0,
        "delta": {"type": "citations_delta", "citation": citation}})]
    search = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
    found = {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": [
        {"type": "web_search_result", "url": "https://example.com", "title": "Bakery",
         "encrypted_content": "enc", "page_age": None}]}
    tail = events[-2:]
    events = events[:-2] + [
        ("content_block_start", {"type": "content_block_start", "index": 1,
                                 "content_block": search}),
        ("content_block_delta", {"type": "content_block_delta", "index": 1,
                                 "delta": {"type": "input_json_delta", "partial_json": '{"que'}}),
        ("ping", {"type": "ping"}),
        ("content_block_delta", {"type": "content_block_delta", "index": 1,
                                 "delta": {"type": "input_json_delta",
                                           "partial_json": 'ry": "bakery hours"}'}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 1}),
        ("content_block_start", {"type": "content_block_start", "index": 2,
                                 "content_block": found}),
        ("content_block_stop", {"type": "content_block_stop", "index": 2})] + tail
    name, delta = tail[0]
    delta["usage"].update(input_tokens=900, cache_read_input_tokens=40,
                          server_tool_use={"web_search_requests": 1, "web_fetch_requests": 0})
    return Reply(events=events)


CLAUDE_REPLIES = {
    "thinking, words and a call": lambda: claude_stream([
        thinking_block("I should read the notes."), text_block("Reading them."),
        tool_use("toolu_1", "read_file", {"path": "notes/a.md"})]),
    "redacted thinking and two calls": lambda: claude_stream([
        {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"},
        tool_use("toolu_1", "read_file", {"path": "a.md"}),
        tool_use("toolu_2", "list_files", {})]),
    "Chinese words cut off by max_tokens": lambda: claude_stream(
        [text_block("面包店七点开门，烤箱需要一个小时预热。"),
         tool_use("toolu_3", "write_file", {"path": "说明.md", "content": "开门"})],
        stop_reason="max_tokens"),
    "citations and a server tool": _cited,
}


@pytest.mark.parametrize("name", list(CLAUDE_REPLIES))
def test_claude_replies_read_as_json_are_the_sdks_message(name, server):
    client = _claude_client(server)
    server.push("/v1/messages", CLAUDE_REPLIES[name](), CLAUDE_REPLIES[name]())
    with client.messages.stream(**CLAUDE_REQUEST) as typed:
        typed_events = list(typed)
        final = typed.get_final_message()
    with stream_messages(client, messages_body().encode(CLAUDE_REQUEST)) as reader:
        read = list(reader)
    sent = [r for r in server.requests if r.method == "POST"]
    assert sent[0].raw == sent[1].raw  # the same request both ways
    assert anthropic.types.Message.model_validate(reader.snapshot).model_dump() \
        == final.model_dump()
    assert [text for kind, text in read if kind in ("text", "thinking")] == [
        e.text if e.type == "text" else e.thinking for e in typed_events
        if e.type in ("text", "thinking")]
    assert [kind for kind, _ in read if kind.startswith(("content_block_s", "message_"))] == [
        e.type for e in typed_events if e.type.startswith(("content_block_s", "message_"))]
    assert reader.closed == {e.index for e in typed_events if e.type == "content_block_stop"}
    assert reader.finished


def test_claude_error_inside_the_stream_is_the_sdks_status_error(server):
    client = _claude_client(server)
    events = claude_events(claude_message([text_block("Half a sent")]))[:4] + [
        ("error", {"type": "error", "error": {"type": "overloaded_error",
                                              "message": "Overloaded"}})]
    server.push("/v1/messages", Reply(events=events), Reply(events=events))
    with pytest.raises(anthropic.APIStatusError) as typed:
        with client.messages.stream(**CLAUDE_REQUEST) as stream:
            list(stream)
    with pytest.raises(anthropic.APIStatusError) as ours:
        with stream_messages(client, messages_body().encode(CLAUDE_REQUEST)) as reader:
            list(reader)
    assert type(ours.value) is type(typed.value)
    assert (ours.value.message, ours.value.body, ours.value.status_code) \
        == (typed.value.message, typed.value.body, typed.value.status_code)
    assert reader.snapshot["content"][0]["text"] == "Half a sent"[:len(
        reader.snapshot["content"][0]["text"])]


RESPONSES = {
    "reasoning, commentary and a call": lambda: oa_stream([
        oa_reasoning("rs_1", ["Part one next."]),
        oa_message("Reading part one.", phase="commentary", item_id="msg_1"),
        oa_call("call_1", "read_file", {"path": "notes/1.md"})],
        usage=oa_usage(cached=120, cache_write=30, reasoning=12)),
    "cut off by the output limit": lambda: oa_stream(
        [oa_message("面包店七点开门", item_id="msg_2")], status="incomplete"),
}


@pytest.mark.parametrize("name", list(RESPONSES))
def test_responses_events_read_as_json_are_the_sdks_events(name, server):
    from openai.types.responses import Response, ResponseStreamEvent

    client = _openai_client(server)
    server.push("/v1/responses", RESPONSES[name](), RESPONSES[name]())
    with client.responses.create(**RESPONSES_REQUEST, stream=True) as typed:
        typed_events = list(typed)
    with post_stream(client, "/responses", openai_body(RESPONSES_ORDER).encode(
            RESPONSES_REQUEST)) as raw:
        events = list(stream_events(raw))
    sent = [r for r in server.requests if r.method == "POST"]
    assert sent[0].raw == sent[1].raw
    adapter = TypeAdapter(ResponseStreamEvent)
    assert [adapter.validate_python(e).model_dump() for e in events] \
        == [e.model_dump() for e in typed_events]
    final = Response.model_validate(events[-1]["response"])
    assert final.model_dump() == typed_events[-1].response.model_dump()


def test_a_chat_stream_read_as_json_is_the_sdks_chunks(server):
    from openai.types.chat import ChatCompletionChunk

    client = _openai_client(server)
    chunks = chat_events("Reading both.", [("call_1", "read_file", {"path": "a.md"}),
                                           ("call_2", "read_file", {"path": "b.md"})],
                         usage={"prompt_tokens": 900, "completion_tokens": 20,
                                "total_tokens": 920,
                                "prompt_tokens_details": {"cached_tokens": 512}})
    server.push("/v1/chat/completions", Reply(events=chunks), Reply(events=chunks))
    with client.chat.completions.create(**CHAT_REQUEST, stream=True) as typed:
        typed_chunks = list(typed)
    with post_stream(client, "/chat/completions",
                     openai_body(CHAT_ORDER).encode(CHAT_REQUEST)) as raw:
        read = list(stream_events(raw))
    adapter = TypeAdapter(ChatCompletionChunk)
    assert [adapter.validate_python(c).model_dump() for c in read] \
        == [c.model_dump() for c in typed_chunks]
    assert len(read) == len(chunks) - 1  # all but [DONE]


@pytest.mark.parametrize("path,error", [
    ("/v1/responses", {"type": "error", "error": {"type": "server_error", "code": "server_error",
                                                  "message": "The server had an error."}}),
    ("/v1/chat/completions", {"error": {"message": "the request exceeds the available context "
                                        "size (4096 tokens)", "type": "exceed_context_size_error",
                                        "n_ctx": 4096}}),
])
def test_an_error_object_inside_an_openai_stream_is_the_sdks_api_error(path, error, server):
    client = _openai_client(server)
    if path.endswith("responses"):
        first = oa_stream([oa_message("Half")]).events[:3]
        request, order = RESPONSES_REQUEST, RESPONSES_ORDER
        events = first + [("error", error)]
    else:
        events = chat_events("Half")[:2] + [(None, error)]
        request, order = CHAT_REQUEST, CHAT_ORDER
    server.push(path, Reply(events=events), Reply(events=events))
    typed_call = client.responses.create if path.endswith("responses") \
        else client.chat.completions.create
    with pytest.raises(openai.APIError) as typed:
        with typed_call(**request, stream=True) as stream:
            list(stream)
    with pytest.raises(openai.APIError) as ours:
        with post_stream(client, path.removeprefix("/v1"),
                         openai_body(order).encode(request)) as raw:
            list(stream_events(raw))
    assert type(ours.value) is type(typed.value)
    assert (ours.value.message, ours.value.body) == (typed.value.message, typed.value.body)
