"""The openai SDK's private parts the OpenAI and local engines use (app/engines/openai/sdk.py),
each checked against the installed SDK: these tests (with test_sdk_path.py and
test_stream_events.py, which compare the engines' bytes and events with the SDK's typed
methods) are the ones to pass before openai_sdk.SUPPORTED and pyproject's bound are raised."""

from __future__ import annotations

import httpx2
import openai
import pytest

from app.engines.openai import sdk as openai_sdk
from app.engines.raw_stream import RawStream, post_raw

SSE = (b"data: {\"type\":\"response.created\"}\n\n"
       b"event: response.completed\ndata: {\"type\":\"response.completed\"}\n\n"
       b"data: [DONE]\n\n")


def _client(handler=None) -> openai.OpenAI:
    transport = httpx2.MockTransport(handler or (lambda request: httpx2.Response(500)))
    return openai.OpenAI(api_key="sk-test", base_url="http://127.0.0.1:9/v1", max_retries=0,
                         http_client=httpx2.Client(transport=transport))


def test_the_serializer_writes_compact_utf8_json():
    dumps = openai_sdk.serializer()
    assert dumps({"text": "café 咖啡", "n": [1, 2.5], "none": None}) == (
        '{"text":"café 咖啡","n":[1,2.5],"none":null}'.encode())


def test_the_post_options_authenticate_the_request():
    seen = []

    def answer(request):
        seen.append(request)
        return httpx2.Response(200, content=SSE, headers={"content-type": "text/event-stream"})

    response = post_raw(_client(answer), "/responses", b'{"stream":true}',
                        openai_sdk.post_options())
    response.close()
    (request,) = seen
    assert request.headers["authorization"] == "Bearer sk-test"
    assert request.url.path == "/v1/responses" and request.content == b'{"stream":true}'


def test_the_decoder_splits_a_reply_into_events():
    response = httpx2.Response(200, content=SSE)
    events = list(RawStream(openai_sdk.sse_decoder(_client()), response).events())
    assert events == [(None, '{"type":"response.created"}'),
                      ("response.completed", '{"type":"response.completed"}'),
                      (None, "[DONE]")]


@pytest.mark.parametrize("exc, kind", [(httpx2.ReadTimeout("slow"), openai.APITimeoutError),
                                       (httpx2.RemoteProtocolError("cut"),
                                        openai.APIConnectionError),
                                       (httpx2.ConnectError("refused"),
                                        openai.APIConnectionError)])
def test_a_failed_read_becomes_the_error_the_sdks_stream_raises(exc, kind):
    response = httpx2.Response(200, request=httpx2.Request("POST", "http://127.0.0.1:9/v1/x"))
    err = openai_sdk.read_failure(exc, response)
    assert isinstance(err, kind) and err.request is response.request


def test_other_failures_are_let_through():
    response = httpx2.Response(200, request=httpx2.Request("POST", "http://127.0.0.1:9/v1/x"))
    assert openai_sdk.read_failure(ValueError("bad JSON"), response) is None
