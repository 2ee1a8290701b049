"""What the OpenAI and local engines share: the openai SDK client, error diagnosis, usage.

Also the money helpers every HTTP engine uses (the Claude engine too): the run's budget
output cap, the estimate of what a cut-off attempt was billed, and attaching it to an error.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

from app.core.engine.conversation import Usage
from app.core.engine.port import EngineError
from app.engines.openai import sdk as openai_sdk
from app.engines.deadline import AVAILABILITY_TIMEOUT_S
from app.engines.keys import CALL_TIMEOUT_S
from app.engines.local.stream import unwatch, watch  # one watcher thread for all streams
from app.engines.prices import PricedEngine
from app.engines import sdk_import
from app.engines.raw_stream import Body, RawStream, post_raw
from app.engines.wire import Voice, check_base_url, from_status, from_transport

if TYPE_CHECKING:
    import openai

T = TypeVar("T")
OPENAI_BASE_URL = "https://api.openai.com/v1"
# The body's keys in the order the SDK's typed `create` methods send them (its bytes are
# checked against theirs in tests/engines/test_sdk_path.py).
RESPONSES_ORDER = ("model", "stream", "include", "input", "max_output_tokens",
                   "prompt_cache_key", "store", "tools")
CHAT_ORDER = ("model", "stream", "messages", "max_tokens", "stream_options", "tool_choice",
              "tools")
CHARS_PER_TOKEN = 4  # the rough rule used wherever tokens are estimated from text


def result_text(content: str, is_error: bool) -> str:
    # Neither OpenAI API has an error flag on tool output, so the text carries it.
    if is_error and not content.lower().startswith("error"):
        return f"Error: {content}"
    return content or "(no output)"


def split_usage(total_in: int | None, out: int | None, details: dict[str, Any] | None) -> Usage:
    """Usage with input split like Anthropic's: uncached input, cache reads, cache writes
    (`details`: the usage's input or prompt token details, as JSON)."""
    details = details if isinstance(details, dict) else {}
    cached, written = details.get("cached_tokens") or 0, details.get("cache_write_tokens") or 0
    return Usage(input_tokens=max((total_in or 0) - cached - written, 0), output_tokens=out or 0,
                 cache_read_tokens=cached, cache_write_tokens=written)


def estimated_usage(request: dict[str, Any], out_chars: int = 0) -> Usage:
    """A stand-in for usage the server never reported (a cancelled or broken stream): about
    4 characters a token of the request sent, counted as uncached input, plus what had
    arrived of the reply. It errs high on input (cache reads are cheaper), low on output
    (hidden reasoning is not seen), so a budget is charged rather than spared."""
    sent = len(json.dumps(request, ensure_ascii=False, default=str))
    return Usage(input_tokens=max(1, sent // CHARS_PER_TOKEN),
                 output_tokens=out_chars // CHARS_PER_TOKEN)


def with_usage(err: EngineError, usage: Usage) -> EngineError:
    """Attach what an attempt that failed after its 200 was billed, for the retry layer to
    count (EngineError.usage)."""
    err.usage = usage
    return err


def openai_body(order: tuple[str, ...]) -> Body:
    """A body for the openai SDK's post path, serialized as the SDK does (`openapi_dumps`)."""
    return Body(order, openai_sdk.serializer())


def post_stream(client: openai.OpenAI, path: str, body: bytes) -> RawStream:
    """Send `body` streamed through the SDK's own request path (`client.post`, the one its
    typed `create` methods end in) and hand back the reply's events unparsed (raw_stream).

    Why not `create(**request)`: its `maybe_transform` walks the whole body on every call
    to rename aliased keys, of which these requests have none; the conversation grows each
    step, so that walk grew with the round (0.65 ms at 2 messages, 28 ms at 200), and its
    stream builds a typed object per event. The bytes sent are the same (keys in the SDK's
    order, serialized by the SDK's serializer), the client's retries stay off, its status
    errors are raised as `create` raises them, and a read that fails is the same
    APITimeoutError or APIConnectionError its stream raises."""
    response = post_raw(client, path, body, openai_sdk.post_options())
    return RawStream(openai_sdk.sse_decoder(client), response, wrap=openai_sdk.read_failure)


def post_early(url: str, key: str, body: bytes, timeout_s: float,
               client: Callable[[], openai.OpenAI]) -> tuple[RawStream, Any]:
    """`body` posted to `url` on a plain httpx2 client at once, before the openai SDK is
    loaded: a run's first request need not wait half a second for it. The headers are those
    a server reads (the key, JSON both ways), the timeouts the SDK client's. Then `client()`
    (which loads the SDK) reads the reply as post_stream's is read, and a failure is the
    error the SDK's post raises for it (openai_sdk.send_failure, status_error), so it is
    diagnosed alike. Hands back the stream, and the httpx2 client to close once the stream
    is read."""
    import httpx2  # noqa: PLC0415 - listing the engines stays light

    http = httpx2.Client(timeout=httpx2.Timeout(timeout_s, connect=min(10.0, timeout_s)),
                         follow_redirects=True)
    try:
        request = http.build_request("POST", url, content=body, headers={
            "Authorization": f"Bearer {key}", "Content-Type": "application/json",
            "Accept": "application/json"})
        try:
            response = http.send(request, stream=True)
        except Exception as exc:
            raise (openai_sdk.send_failure(exc, request) or exc) from exc
        sdk = client()
        if not response.is_success:
            response.read()
            raise openai_sdk.status_error(sdk, response)
        return RawStream(openai_sdk.sse_decoder(sdk), response, wrap=openai_sdk.read_failure), http
    except BaseException:
        http.close()
        raise


def stream_events(stream: RawStream) -> Iterator[dict[str, Any]]:
    """Each event's data as JSON, by the openai SDK's Stream rules: `[DONE]` ends it, and an
    event whose data holds an `error` raises the SDK's APIError with it."""
    import openai  # noqa: PLC0415 - AI SDK, only for a run

    events = stream.events()
    for _, data in events:
        if data.startswith("[DONE]"):
            _drain(stream, events)
            return
        event = json.loads(data)
        if isinstance(event, dict) and event.get("error"):
            error = event["error"]
            message = error.get("message") if isinstance(error, dict) else None
            if not message or not isinstance(message, str):
                message = "An error occurred during streaming"
            raise openai.APIError(message=message, request=stream.response.request, body=error)
        yield event


DRAIN_S = 2.0  # a server that keeps the body open after [DONE] is cut off after this


def _drain(stream: RawStream, events: Iterator[tuple[str | None, str]]) -> None:
    """Read what follows `[DONE]` (the chunked body's end) so the connection goes back to the
    pool; closing an unread body drops it, and every step then opened a new one. Nothing
    after `[DONE]` is an event, so a failure there loses nothing, and a server that keeps
    the body open is cut off after DRAIN_S (local_stream's watcher closes it)."""
    watched = watch(stream, until=time.monotonic() + DRAIN_S)
    try:
        for _ in events:
            pass
    except Exception:
        pass
    finally:
        unwatch(watched)


class OpenAICompatibleEngine(PricedEngine):
    """What the OpenAI and the local engine share: client, base URL and error diagnosis."""

    default_base_url = OPENAI_BASE_URL
    _kept: tuple[tuple[str, float], openai.OpenAI] | None = None  # see _turn_client

    def base_url(self) -> str:
        return (self.config.base_url or self.default_base_url).rstrip("/")

    def voice(self) -> Voice:
        raise NotImplementedError

    def _api_key(self, timeout: float = CALL_TIMEOUT_S) -> str:
        raise NotImplementedError

    def _timeout_s(self) -> float:
        return self.config.timeout_s

    def start_loading(self) -> None:
        sdk_import.start("openai")

    def _client(self, timeout_s: float, key: str) -> openai.OpenAI:
        import httpx2  # noqa: PLC0415 - listing the engines stays light
        import openai  # noqa: PLC0415 - AI SDK, only for a run

        # max_retries=0: the loop is the only retry layer (docs/architecture.md, "The one retry layer").
        base_url = check_base_url(self.voice(), self.base_url())
        return openai.OpenAI(api_key=key, base_url=base_url, max_retries=0,
                             timeout=httpx2.Timeout(timeout_s, connect=min(10.0, timeout_s)))

    def _diagnose(self, exc: Exception) -> EngineError:
        import openai  # noqa: PLC0415 - AI SDK, only for a run

        if isinstance(exc, EngineError):
            return exc
        if isinstance(exc, openai.APIStatusError):
            return from_status(self.voice(), exc.status_code, exc.body, exc.response.headers,
                               exc.message)
        if isinstance(exc, openai.APIConnectionError):
            return from_transport(self.voice(), exc)
        if isinstance(exc, openai.APIError):  # an error object inside a stream
            return from_status(self.voice(), 200, {"error": exc.body}, None, exc.message)
        raise exc

    def list_models(self, key: str) -> list[str]:
        client = self._client(AVAILABILITY_TIMEOUT_S, key)
        try:
            return [m.id for m in client.models.list().data]
        except Exception as exc:
            raise self._diagnose(exc) from None
        finally:
            client.close()

    def _turn_client(self) -> openai.OpenAI:
        """The client for model turns, kept for the engine's life so connections are reused
        (no new TLS handshake, and no keychain lookup, on every step)."""
        where = (self.base_url(), self._timeout_s())
        if self._kept is None or self._kept[0] != where:
            self._kept = (where, self._client(self._timeout_s(), self._api_key()))
        return self._kept[1]

    def _run(self, request: Callable[[openai.OpenAI], T]) -> T:
        """Make one request with the kept client and read it, errors diagnosed."""
        try:
            return request(self._turn_client())
        except Exception as exc:
            raise self._diagnose(exc) from None

    @staticmethod
    def _stream_cuts() -> tuple[type[Exception], ...]:
        """What a stream that breaks off after its 200 raises while it is being read."""
        import httpx2  # noqa: PLC0415 - listing the engines stays light
        import openai  # noqa: PLC0415 - AI SDK, only for a run

        return (openai.APIConnectionError, httpx2.TransportError, ValueError)

    @staticmethod
    def _stream_errors() -> tuple[type[openai.APIError], ...]:
        """What the SDK raises for an error object inside a stream after its 200 (an
        APIError; caught after _stream_cuts, whose connection errors are APIErrors too)."""
        import openai  # noqa: PLC0415 - AI SDK, only for a run

        return (openai.APIError,)
