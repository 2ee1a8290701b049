"""The anthropic SDK's private parts the Claude engine uses (app/engines/claude/sdk.py), each
checked against the installed SDK: these tests (with test_sdk_path.py and
test_stream_events.py, which compare the engine's bytes and events with the SDK's typed
methods) are the ones to pass before claude_sdk.SUPPORTED and pyproject's bound are raised."""

from __future__ import annotations

import anthropic
import httpx2
import pytest

from app.engines.claude import sdk as claude_sdk
from app.engines.raw_stream import RawStream, post_raw

SSE = (b"event: message_start\ndata: {\"type\":\"message_start\"}\n\n"
       b"event: ping\ndata: {\"type\": \"ping\"}\n\n"
       b": a comment line\n\n"
       b"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")


def _client(handler=None) -> anthropic.Anthropic:
    transport = httpx2.MockTransport(handler or (lambda request: httpx2.Response(500)))
    return anthropic.Anthropic(api_key="sk-ant-test", base_url="http://127.0.0.1:9",
                               max_retries=0, http_client=httpx2.Client(transport=transport))


def test_the_serializer_writes_compact_utf8_json():
    dumps = claude_sdk.serializer()
    assert dumps({"text": "café 咖啡", "n": [1, 2.5], "none": None}) == (
        '{"text":"café 咖啡","n":[1,2.5],"none":null}'.encode())


def test_the_stream_options_carry_the_helper_headers_to_the_wire():
    seen = []

    def answer(request):
        seen.append(request)
        return httpx2.Response(200, content=SSE, headers={"content-type": "text/event-stream"})

    client = _client(answer)
    response = post_raw(client, "/v1/messages", b'{"stream":true}', claude_sdk.stream_options())
    response.close()
    (request,) = seen
    assert request.headers["x-stainless-helper-method"] == "stream"
    assert request.headers["x-stainless-stream-helper"] == "messages"
    assert request.content == b'{"stream":true}'


def test_the_decoder_splits_a_reply_into_named_events():
    decoder = claude_sdk.sse_decoder(_client())
    response = httpx2.Response(200, content=SSE)
    events = list(RawStream(decoder, response).events())
    assert events == [("message_start", '{"type":"message_start"}'),
                      ("ping", '{"type": "ping"}'),
                      ("message_stop", '{"type":"message_stop"}')]


@pytest.mark.parametrize("status, kind", [(429, anthropic.RateLimitError),
                                          (529, anthropic.OverloadedError),
                                          (500, anthropic.InternalServerError)])
def test_a_stream_error_becomes_the_sdks_status_error(status, kind):
    request = httpx2.Request("POST", "http://127.0.0.1:9/v1/messages")
    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    err = claude_sdk.status_error(_client(), "Overloaded", body,
                                  httpx2.Response(status, request=request))
    assert isinstance(err, kind)
    assert err.status_code == status and err.body == body and "Overloaded" in err.message
