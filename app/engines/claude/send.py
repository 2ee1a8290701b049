"""A Messages API request streamed through the anthropic SDK's own request path, body as built.

`client.messages.stream(**request)` hands the body to the client, which copies the whole
tree before sending it (`_utils._prepare.copy_tree`, so a retry can send it again), and
reads the reply into typed events and a typed snapshot. The conversation grows every step,
so that copy grew with the round, and the typed reading cost more than the rest of a step.
Here the body arrives as bytes (the engine's, made part by part with the SDK's own
serializer, `openapi_dumps`) and is sent through `client.post` with the options `stream()`
gives (its helper headers, its tracing span; claude_sdk reaches those SDK parts): the same
bytes on the wire (keys in the SDK's order; tests/engines/test_sdk_path.py compares them
with `stream()`'s), the client's retries off as configured, its status errors raised. The
reply is read by claude_stream.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.engines.claude import sdk as claude_sdk
from app.engines.claude.stream import MessageReader
from app.engines.raw_stream import Body, post_raw

if TYPE_CHECKING:
    import anthropic

# The body's keys in the order `messages.stream()` sends them.
MESSAGES_ORDER = ("max_tokens", "messages", "model", "system", "tools", "thinking", "stream")


def messages_body() -> Body:
    return Body(MESSAGES_ORDER, claude_sdk.serializer())


def stream_messages(client: anthropic.Anthropic, body: bytes) -> MessageReader:
    """The reply to `body` (a request made by messages_body), its status checked by the SDK."""
    return MessageReader(client, post_raw(client, "/v1/messages", body,
                                          claude_sdk.stream_options()))
