"""The openai SDK's private parts, reached from this module and from no other.

The OpenAI and local engines send their requests through the SDK's own request path with a
body they serialized part by part, and read the reply's events themselves (openai_compat,
raw_stream). For that they need four things the SDK does not publish: its serializer, the
request options its typed `create` methods pass, its SSE decoder, and the transport errors
its streams turn into APITimeoutError and APIConnectionError. The SDK's README
("Versioning") allows changes to "library internals" in a minor release, so pyproject.toml
bounds openai to the minor release these parts were tested with (SUPPORTED).
tests/engines/openai/test_openai_sdk.py checks each of them against the installed SDK;
tests/engines/test_sdk_bounds.py that pyproject's bound is SUPPORTED, that the installed
SDK lies in it, and that no other module imports the SDK's private parts. To move to a
newer SDK: install it, run those tests and tests/engines, then raise both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from app.engines import sdk_import

if TYPE_CHECKING:
    import httpx2
    import openai
    from openai._streaming import SSEBytesDecoder, SSEDecoder
    from openai._types import RequestOptions

# The openai releases these parts were tested with (see the module's note).
SUPPORTED = ">=3.63,<3.64"


def serializer() -> Callable[[Any], bytes]:
    """The SDK's own JSON serializer (compact, ensure_ascii off), which its request path
    uses for a body."""
    sdk_import.ready("openai")  # the package whole, not just this submodule (sdk_import)
    from openai._utils._json import openapi_dumps  # noqa: PLC0415 - AI SDK, only for a run

    return openapi_dumps


def post_options() -> RequestOptions:
    """The request options the typed `create` methods post with (bearer authentication)."""
    sdk_import.ready("openai")
    from openai._base_client import make_request_options  # noqa: PLC0415 - AI SDK, only for a run

    return make_request_options(security={"bearer_auth": True})


def sse_decoder(client: openai.OpenAI) -> SSEDecoder | SSEBytesDecoder:
    """The decoder the client's own streams split a reply into events with."""
    return client._make_sse_decoder()


def read_failure(exc: Exception, response: httpx2.Response) -> Exception | None:
    """What the SDK's stream raises when reading its reply fails with `exc`: an
    APITimeoutError, an APIConnectionError, or None for a failure it lets through."""
    return send_failure(exc, response.request)


def send_failure(exc: Exception, request: httpx2.Request) -> Exception | None:
    """What the SDK's post raises (its retries off) when sending `request` fails with `exc`:
    an APITimeoutError, an APIConnectionError, or None for a failure it lets through."""
    sdk_import.ready("openai")
    from openai import APIConnectionError, APITimeoutError  # noqa: PLC0415 - AI SDK, only for a run
    from openai._httpx2 import (  # noqa: PLC0415 - AI SDK, only for a run
        request_exceptions, timeout_exceptions)

    if isinstance(exc, timeout_exceptions()):
        return APITimeoutError(request=request)
    if isinstance(exc, request_exceptions()):
        return APIConnectionError(request=request)
    return None


def status_error(client: openai.OpenAI, response: httpx2.Response) -> openai.APIStatusError:
    """The status error the SDK's post raises for `response` (not 2xx, its body read)."""
    return client._make_status_error_from_response(response)
