"""A Messages API request streamed through the anthropic SDK's own request path, body as built.

`client.messages.stream(**request)` hands the body to the client, which copies the whole
tree before sending it (`_utils._prepare.copy_tree`, so a retry can send it again), and
reads the reply into typed events and a typed snapshot. The conversation grows every step,
so that copy grew with the round, and the typed reading cost more than the rest of a step.
Here the body arrives as bytes (the engine's, made part by part with the SDK's own
serializer, `openapi_dumps`) and is sent through `client.post` with the options `stream()`
gives (its helper headers, its tracing span): the same bytes on the wire (keys in the
SDK's order; tests/engines/test_sdk_path.py compares them with `stream()`'s), the client's
retries off as configured, its status errors raised. The reply is read by claude_stream.
"""

from __future__ import annotations

from typing import Any

from app.engines.claude_stream import MessageReader
from app.engines.raw_stream import Body, post_raw

# The body's keys in the order `messages.stream()` sends them.
MESSAGES_ORDER = ("max_tokens", "messages", "model", "system", "tools", "thinking", "stream")


def messages_body() -> Body:
    from anthropic._utils._json import openapi_dumps

    return Body(MESSAGES_ORDER, openapi_dumps)


def stream_messages(client: Any, body: bytes) -> MessageReader:
    """The reply to `body` (a request made by messages_body), its status checked by the SDK."""
    from anthropic._base_client import make_request_options
    from anthropic.lib._stainless_helpers import (HELPER_METHOD_STREAM,
                                                  STAINLESS_HELPER_METHOD_HEADER,
                                                  STAINLESS_STREAM_HELPER_HEADER)
    from anthropic.lib._tracing import messages_create_request_attributes

    options = make_request_options(
        extra_headers={STAINLESS_HELPER_METHOD_HEADER: HELPER_METHOD_STREAM,
                       STAINLESS_STREAM_HELPER_HEADER: "messages"},
        span_name="anthropic.messages.create", span_route="/v1/messages",
        span_attributes=messages_create_request_attributes)
    return MessageReader(client, post_raw(client, "/v1/messages", body, options))
