"""The anthropic SDK's private parts, reached from this module and from no other.

The Claude engine sends its requests through the SDK's own request path with a body it
serialized part by part (claude_send, raw_stream), and reads the reply's events itself
(claude_stream). For that it needs four things the SDK does not publish: its serializer,
the request options its `messages.stream()` passes, its SSE decoder and its status-error
factory. The SDK's README ("Versioning") allows changes to "library internals" in a minor
release, so pyproject.toml bounds anthropic to the minor release these parts were tested
with (SUPPORTED). tests/engines/claude/test_claude_sdk.py checks each of them against the
installed SDK; tests/engines/test_sdk_bounds.py that pyproject's bound is SUPPORTED, that
the installed SDK lies in it, and that no other module imports the SDK's private parts.
To move to a newer SDK: install it, run those tests and tests/engines, then raise both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from app.engines import sdk_import

if TYPE_CHECKING:
    import anthropic
    import httpx2
    from anthropic._streaming import SSEBytesDecoder, SSEDecoder
    from anthropic._types import RequestOptions

# The anthropic releases these parts were tested with (see the module's note).
SUPPORTED = ">=2.17,<2.18"


def serializer() -> Callable[[Any], bytes]:
    """The SDK's own JSON serializer (compact, ensure_ascii off), which its request path
    uses for a body."""
    sdk_import.ready("anthropic")  # the package whole, not just this submodule (sdk_import)
    from anthropic._utils._json import openapi_dumps  # noqa: PLC0415 - AI SDK, only for a run

    return openapi_dumps


def stream_options() -> RequestOptions:
    """The request options `client.messages.stream()` posts with: its helper headers and
    its tracing span."""
    sdk_import.ready("anthropic")
    from anthropic._base_client import (  # noqa: PLC0415 - AI SDK, only for a run
        make_request_options)
    from anthropic.lib._stainless_helpers import (HELPER_METHOD_STREAM,  # noqa: PLC0415 - AI SDK, only for a run
                                                  STAINLESS_HELPER_METHOD_HEADER,
                                                  STAINLESS_STREAM_HELPER_HEADER)
    from anthropic.lib._tracing import (  # noqa: PLC0415 - AI SDK, only for a run
        messages_create_request_attributes)

    return make_request_options(
        extra_headers={STAINLESS_HELPER_METHOD_HEADER: HELPER_METHOD_STREAM,
                       STAINLESS_STREAM_HELPER_HEADER: "messages"},
        span_name="anthropic.messages.create", span_route="/v1/messages",
        span_attributes=messages_create_request_attributes)


def sse_decoder(client: anthropic.Anthropic) -> SSEDecoder | SSEBytesDecoder:
    """The decoder the client's own streams split a reply into events with."""
    return client._make_sse_decoder()


def status_error(client: anthropic.Anthropic, message: str, body: object,
                 response: httpx2.Response) -> anthropic.APIStatusError:
    """The SDK's status error for an `event: error` in a stream, as its Stream raises it."""
    return client._make_status_error(message, body=body, response=response)
