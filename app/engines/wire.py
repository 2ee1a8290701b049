"""Shared plumbing of the HTTP engines: error diagnosis, retry-after, deadlines, stable tool JSON."""

from __future__ import annotations

import email.utils
import json
import time
import urllib.parse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping

from app.core.engine.conversation import ToolSpec
from app.core.engine.port import (AUTH_FAILED, BAD_ADDRESS, BAD_REQUEST, ENGINE_UNREACHABLE,
                              KEY_FORBIDDEN, KEY_REJECTED, MODEL_NOT_FOUND, NO_TOOLS,
                              PROMPT_TOO_LONG, QUOTA_EXHAUSTED, STREAM_BROKEN, TRANSIENT,
                              EngineError)
from app.core.records.redact import redact
# Re-exported: the window's core_calls imports them from here.
from app.engines.deadline import AVAILABILITY_TIMEOUT_S as AVAILABILITY_TIMEOUT_S
from app.engines.deadline import Overdue as Overdue
from app.engines.deadline import within as within

if TYPE_CHECKING:  # pydantic's models load when a run needs them, not for a quick check
    from app.core.engine.conversation import ToolSpec

MAX_RETRY_AFTER_S = 3600.0  # a header asking for more than an hour is treated as an hour

# Spend limits and exhausted credit, by the structured fields vendors name them with (an
# error's type, code, or Anthropic's error.details.error_code), never by its message, whose
# wording the vendors say can change. Retrying them cannot help.
_QUOTA_CODES = frozenset({
    "billing_error", "insufficient_quota", "billing_hard_limit_reached", "billing_not_active",
    # Anthropic (error.details.error_code)
    "enforced_spend_limit_reached", "contract_spend_limit_reached",
    "linked_organization_spend_limit_reached", "linked_organization_billing_unavailable",
    # OpenAI (error.code)
    "organization_usage_limit_exceeded", "organization_spend_limit_exceeded",
    "project_spend_limit_exceeded", "credit_balance_exhausted",
})
# Anthropic's one spend-limit answer without a code: a 400 whose message begins so (its
# errors page documents this sentence).
_SPEND_LIMIT_400 = "you have reached your specified"
# Requests the service refused for what they are, not for how busy it is: sending the same
# one again gets the same answer (OpenAI's ResponseError codes, and the like).
_DETERMINISTIC = frozenset({
    "invalid_prompt", "data_residency_mismatch", "bio_policy", "misalignment_policy_violation",
    "invalid_image", "invalid_image_format", "invalid_base64_image", "invalid_image_url",
    "image_too_large", "image_too_small", "image_parse_error", "image_content_policy_violation",
    "invalid_image_mode", "image_file_too_large", "unsupported_image_media_type",
    "empty_image_file", "failed_to_download_image", "image_file_not_found",
    "content_policy_violation", "organization_on_hold",
})
_POLICY = ("policy", "bio_")
_TOO_LONG = ("prompt is too long", "context_length_exceeded", "maximum context length",
             "context length", "context window", "too many tokens", "input is too long",
             "request_too_large", "exceeds the context",
             # llama.cpp (type exceed_context_size_error): "request (2205 tokens) exceeds the
             # available context size (2048 tokens)", "input (...) is larger than the max
             # context size"; Ollama: "the input length exceeds the context length"; LM Studio:
             # "Trying to keep the first N tokens when context the overflows", "Cannot
             # truncate prompt with n_keep (N) >= n_ctx (M)"
             "exceed_context_size", "context size", "context the overflows", "n_keep")
_NO_TOOLS = ("does not support tools", "tools are not supported", "tools is not supported",
             "does not support function", "tool use is not supported", "tool_use is not supported")

# Error types and codes that arrive inside a stream (after a 200) mapped to their HTTP meaning.
_TYPE_STATUS = {
    "overloaded_error": 529, "api_error": 500, "server_error": 500, "internal_error": 500,
    "rate_limit_error": 429, "rate_limit_exceeded": 429, "timeout_error": 504,
    "authentication_error": 401, "invalid_api_key": 401, "permission_error": 403,
    "not_found_error": 404, "model_not_found": 404, "request_too_large": 413,
    "invalid_request_error": 400, "invalid_prompt": 400, "billing_error": 402,
    "insufficient_quota": 429, "context_length_exceeded": 400, "exceed_context_size_error": 400,
}


@dataclass(frozen=True)
class Voice:
    """How one engine's failures are worded for the person (already filled with URL and model)."""

    name: str          # "Claude", "OpenAI", "The local server"
    auth: str          # 401
    forbidden: str     # 403
    quota: str         # no credit, spending limit
    model_missing: str  # 404
    unreachable: str   # connection refused, DNS failure
    no_tools: str = ""  # the model cannot call tools
    # Where the person corrects the address: the local server's is in Engine settings; a
    # cloud engine's comes from its SDK's variable or --base-url.
    fix_address: str = "Correct the server address in Engine settings."


def retry_after_s(headers: Mapping[str, str] | None) -> float | None:
    """Seconds to wait from `retry-after-ms` or `retry-after` (seconds or an HTTP date)."""
    if not headers:
        return None
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return min(max(float(raw_ms) / 1000.0, 0.0), MAX_RETRY_AFTER_S)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return min(max(float(raw), 0.0), MAX_RETRY_AFTER_S)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return min(max(when.timestamp() - time.time(), 0.0), MAX_RETRY_AFTER_S)


def _error_fields(body: object) -> tuple[str, str, str, str]:
    """(type, code, message, cause) from the JSON error bodies of Anthropic, OpenAI and Ollama.

    `cause` is Anthropic's error.details.error_code, which names the cause precisely."""
    if not isinstance(body, dict):
        return "", "", str(body or ""), ""
    err = body.get("error", body)
    if isinstance(err, str):  # Ollama: {"error": "model 'x' not found"}
        return "", "", err, ""
    if not isinstance(err, dict):
        return "", "", "", ""
    details = err.get("details")
    cause = details.get("error_code") if isinstance(details, dict) else None
    return (str(err.get("type") or ""), str(err.get("code") or ""), str(err.get("message") or ""),
            cause if isinstance(cause, str) else "")


def from_status(voice: Voice, status: int, body: object = None,
                headers: Mapping[str, str] | None = None, fallback_message: str = "") -> EngineError:
    """Diagnose an HTTP error status (or an error event inside a stream, mapped to a status)."""
    kind, code, api_message, cause = _error_fields(body)
    api_message = api_message or fallback_message
    if status < 400:  # an error event inside a stream that began with 200
        status = _TYPE_STATUS.get(kind, _TYPE_STATUS.get(code, 500))
    names = {kind, code, cause} - {""}
    words = f"{kind} {code} {api_message}".lower()
    details = redact(f"HTTP {status} {cause or kind or code}: {api_message}".strip())[:600]

    def err(message: str, code_: str, action: str = "", retryable: bool = False,
            cause: str = "") -> EngineError:
        return EngineError(redact(message), code=code_, retryable=retryable, action=action,
                           retry_after=retry_after_s(headers) if retryable else None,
                           details=details, cause=cause)

    if "model_not_found" in names:  # the Responses API says so with a 400, Chat with a 404
        return err(voice.model_missing, MODEL_NOT_FOUND,
                   "Open Engine settings and choose another model.")
    if status == 402 or names & _QUOTA_CODES or (
            status == 400 and api_message.lower().startswith(_SPEND_LIMIT_400)):
        return err(voice.quota, QUOTA_EXHAUSTED)
    if names & _DETERMINISTIC:
        return err(_refused_for_content(voice, names, api_message), BAD_REQUEST)
    if status == 413 or (status in (400, 422) and any(w in words for w in _TOO_LONG)):
        return err(f"The conversation is too long for {voice.name}'s model.", PROMPT_TOO_LONG,
                   "The harness shortens old tool output and tries once more.")
    if status in (400, 422) and voice.no_tools and any(w in words for w in _NO_TOOLS):
        return err(voice.no_tools, MODEL_NOT_FOUND, cause=NO_TOOLS)
    if status == 401:
        return err(voice.auth, AUTH_FAILED, "Open Engine settings and paste a new key.",
                   cause=KEY_REJECTED)
    if status == 403:
        return err(voice.forbidden, AUTH_FAILED, cause=KEY_FORBIDDEN)
    if status == 404:
        return err(voice.model_missing, MODEL_NOT_FOUND,
                   "Open Engine settings and choose another model.")
    if status == 429:
        return err(f"{voice.name} is limiting how fast requests can be sent (rate limit).",
                   TRANSIENT, retryable=True)
    if status == 529 or kind == "overloaded_error":
        return err(f"{voice.name} is overloaded right now.", TRANSIENT, retryable=True)
    if status in (408, 409) or status >= 500:
        return err(f"{voice.name} had a temporary problem (HTTP {status}).", TRANSIENT, retryable=True)
    return err(_sentence(f"{voice.name} refused the request (HTTP {status}): {api_message[:200]}"),
               BAD_REQUEST, "This looks like a bug in Harness Desk. Use Copy details and report it.")


def from_stream_error(voice: Voice, kind: str, message: str) -> EngineError:
    """Diagnose an error event that arrived inside a stream after a 200."""
    return from_status(voice, 200, {"error": {"type": kind, "message": message}})


def _sentence(text: str) -> str:
    """The text as one sentence: it ends with a full stop (the person sees it as it is)."""
    text = text.strip().rstrip(":")
    return text if text.endswith((".", "?", "!")) else text + "."


def _refused_for_content(voice: Voice, names: set[str], api_message: str) -> str:
    """A sentence for a request refused for what it holds, which sending again cannot fix."""
    if "data_residency_mismatch" in names:
        return (f"{voice.name} refused the request: this model is not available in the data "
                "region your account or project requires. Choose another model in Engine "
                "settings, or change the project's data residency.")
    if any(p in n for n in names for p in _POLICY) or "organization_on_hold" in names:
        return _sentence(f"{voice.name} refused the request under its usage policies: "
                         f"{api_message[:200]}")
    if any("image" in n for n in names):
        return _sentence(f"{voice.name} could not read an image in the request: "
                         f"{api_message[:200]}")
    return _sentence(f"{voice.name} refused the request as it stands: {api_message[:200]}")


def _causes(exc: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        chain.append(link)
        link = link.__cause__ or link.__context__
    return chain


def from_transport(voice: Voice, exc: BaseException, in_stream: bool = False) -> EngineError:
    """Diagnose a failure below HTTP: refused, unresolvable, timed out, or dropped."""
    import httpx2  # noqa: PLC0415 - listing the engines stays light

    chain = _causes(exc)
    details = redact(" <- ".join(f"{type(e).__name__}: {e}" for e in chain))[:600]
    if in_stream:
        return stream_broken(voice, details)
    if any(isinstance(e, (httpx2.UnsupportedProtocol, httpx2.InvalidURL)) for e in chain):
        return EngineError(f"The address set for {voice.name} is not a web address: it must "
                           "start with http:// or https:// (for example "
                           f"http://localhost:11434/v1). {voice.fix_address}",
                           code=ENGINE_UNREACHABLE, details=details, cause=BAD_ADDRESS,
                           action=voice.fix_address)
    if any(isinstance(e, httpx2.ConnectTimeout) for e in chain):
        # Nothing answered the connection at all (a wrong or firewalled address): retrying
        # the same address only makes the person wait longer.
        return EngineError(redact(voice.unreachable), code=ENGINE_UNREACHABLE, details=details,
                           action="Check that the server is running and the address is right.")
    if any(isinstance(e, httpx2.TimeoutException) or type(e).__name__ == "APITimeoutError"
           for e in chain):
        return EngineError(f"{voice.name} took too long to answer.", code=TRANSIENT,
                           retryable=True, details=details)
    if any(isinstance(e, (httpx2.ConnectError, ConnectionRefusedError)) for e in chain):
        return EngineError(redact(voice.unreachable), code=ENGINE_UNREACHABLE, details=details,
                           action="Check that the server is running and the address is right.")
    return EngineError(f"The connection to {voice.name} dropped before the reply arrived.",
                       code=TRANSIENT, retryable=True, details=details)


def check_base_url(voice: Voice, url: str) -> str:
    """The base URL when it is a usable web address; else an EngineError with one sentence
    (a port that is not a number, an unclosed IPv6 bracket, no http:// or https://), raised
    before any client is built, so a typo never reaches the person as a crash."""
    import httpx2  # noqa: PLC0415 - listing the engines stays light

    problem = ""
    try:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            problem = "it must start with http:// or https:// and name a computer"
        else:
            _ = parts.port  # raises ValueError for a port that is not a number in range
            httpx2.URL(url)
    except ValueError as exc:
        problem = ("its port must be a number from 1 to 65535" if "port" in str(exc).lower()
                   else "it is not written as a web address")
    except httpx2.InvalidURL:
        problem = "it is not written as a web address"
    if problem:
        shown = redact(url)[:120]
        who = voice.name[0].lower() + voice.name[1:] if voice.name.startswith("The ") else voice.name
        raise EngineError(f"The address set for {who}, '{shown}', cannot be used: "
                          f"{problem} (for example http://localhost:11434/v1). "
                          f"{voice.fix_address}", code=ENGINE_UNREACHABLE, cause=BAD_ADDRESS,
                          action=voice.fix_address)
    return url


def stream_broken(voice: Voice, details: str = "") -> EngineError:
    return EngineError(f"{voice.name}'s reply was cut off before it finished; nothing from it "
                       "was used.", code=STREAM_BROKEN, retryable=True, details=redact(details))


def canonical(value: Any) -> Any:
    """The same JSON value with every object's keys sorted, so it serialises byte-identically."""
    return json.loads(json.dumps(value, sort_keys=True, ensure_ascii=False))


def stable_tools(tools: list[ToolSpec]) -> list[ToolSpec]:
    """Tools in name order with canonical schemas: a varying order would bust the prompt cache."""
    return [ToolSpec(name=t.name, description=t.description, parameters=canonical(t.parameters))
            for t in sorted(tools, key=lambda t: t.name)]


def arguments_json(arguments: dict[str, Any]) -> str:
    """Tool-call arguments as the same string every time they are sent back."""
    return json.dumps(arguments, ensure_ascii=False, sort_keys=True)


def parse_arguments(raw: str | None) -> dict[str, Any]:
    """A model's tool-call argument string as a dict ({} when it is empty or not an object)."""
    try:
        value = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def emit(on_text: Callable[[str], None] | None, text: str) -> None:
    """Pass a text delta to the listener; a failing listener must not break the model call."""
    if on_text and text:
        try:
            on_text(text)
        except Exception:
            pass
