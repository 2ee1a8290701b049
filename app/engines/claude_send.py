"""A Messages API request streamed through the anthropic SDK's own request path, body as built.

`client.messages.stream(**request)` hands the body to the client, which copies the whole
tree before sending it (`_utils._prepare.copy_tree`, so a retry can send it again). The
conversation grows every step, so that copy grew with the round. Here the body is
serialized once by the SDK's own serializer (`openapi_dumps`) and sent as its content
through `client.post` with the options `stream()` gives (its helper headers, its tracing
span), and the reply read by the SDK's own MessageStream: the same bytes on the wire (keys
in the SDK's order; tests/engines/test_sdk_path.py compares them with `stream()`'s), the
same events and snapshot, the client's retries off as configured.
"""

from __future__ import annotations

from functools import partial
from typing import Any

# The body's keys in the order `messages.stream()` sends them.
MESSAGES_ORDER = ("max_tokens", "messages", "model", "system", "tools", "thinking", "stream")


def stream_messages(client: Any, request: dict) -> Any:
    """A MessageStreamManager for `request`, as `client.messages.stream(**request)` gives."""
    from anthropic import Stream
    from anthropic._base_client import make_request_options
    from anthropic._types import omit
    from anthropic._utils._json import openapi_dumps
    from anthropic.lib._stainless_helpers import (HELPER_METHOD_STREAM,
                                                  STAINLESS_HELPER_METHOD_HEADER,
                                                  STAINLESS_STREAM_HELPER_HEADER)
    from anthropic.lib._tracing import messages_create_request_attributes
    from anthropic.lib.streaming import MessageStreamManager
    from anthropic.types import Message, RawMessageStreamEvent

    unknown = set(request) - set(MESSAGES_ORDER)
    if unknown:
        raise ValueError(f"keys not in the SDK's order: {sorted(unknown)}")
    given = {**request, "stream": True}
    body = {k: given[k] for k in MESSAGES_ORDER if k in given}
    options = make_request_options(
        extra_headers={STAINLESS_HELPER_METHOD_HEADER: HELPER_METHOD_STREAM,
                       STAINLESS_STREAM_HELPER_HEADER: "messages"},
        span_name="anthropic.messages.create", span_route="/v1/messages",
        span_attributes=messages_create_request_attributes)
    send = partial(client.post, "/v1/messages", content=openapi_dumps(body), cast_to=Message,
                   options=options, stream=True, stream_cls=Stream[RawMessageStreamEvent])
    return MessageStreamManager(send, output_format=omit)
