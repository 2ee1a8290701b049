"""Redaction of anything shaped like a secret, applied to everything the app writes."""

from __future__ import annotations

import re
from typing import Any

# A key starts a word (so "risk-assessment-report" is not one) and its body holds a digit
# (so ordinary hyphenated words are not either); real keys always do.
_KEY_START = r"(?<![A-Za-z0-9_\-])"
_HAS_DIGIT = r"(?=[A-Za-z_\-]*[0-9])"

_PATTERNS = [
    re.compile(_KEY_START + r"sk-ant-" + _HAS_DIGIT + r"[A-Za-z0-9_\-]{10,}"),   # Anthropic keys
    re.compile(_KEY_START + r"sk-(?:proj-|svcacct-|admin-)?" + _HAS_DIGIT
               + r"[A-Za-z0-9_\-]{16,}"),                                        # OpenAI keys
    re.compile(r"(?i)(bearer\s+)[A-Za-z0-9._\-]{16,}"),
    re.compile(r"(?i)((?:api[_-]?key|x-api-key|authorization|token|secret)[\"']?\s*[:=]\s*[\"']?)[A-Za-z0-9._\-]{16,}"),
    re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://[^/\s:@]+:)[^@\s/]+(?=@)"),  # user:password@ in URLs
    re.compile(r"AKIA[0-9A-Z]{16}"),                       # cloud access key ids
    re.compile(r"gh[pousr]_[A-Za-z0-9]{20,}"),             # GitHub tokens
]

# A query parameter in an address (`?key=…`, `&access_token=…`). Greedy, so it is linear on
# any text; the punctuation that ends a sentence is handed back in _mask_query_value.
_QUERY = re.compile(r"([?&])([A-Za-z0-9_.\-]{1,64})=([^&#\s\"'<>]+)")
_SENTENCE_END = ".,;:!?)]"
_QUERY_WORDS = re.compile(r"[_.\-]+|(?<=[a-z0-9])(?=[A-Z])")
# The last word of a parameter's name that makes its value a credential: `x-api-key`,
# `apiKey`, `access_token`, `client_secret`, `sig` (signed URLs), `X-Amz-Credential`...
_CREDENTIAL_WORDS = frozenset(["key", "apikey", "token", "secret", "password", "passwd", "pwd",
                               "pass", "auth", "authorization", "sig", "signature",
                               "credential", "credentials", "session", "sessionid", "sid"])

# Secrets known at run time (the key actually in use) are redacted exactly, whatever their
# shape and length: a proxy key like "sk-1234" is as secret as a long one.
_KNOWN: set[str] = set()

MASK = "[redacted]"


# Every pattern above, and _QUERY, begins with one of these (matched here without regard to
# case, a superset of each pattern's own): a text with none of them and no known secret
# has nothing to mask, found in one scan instead of eight substitutions (most of
# what is written, a file's path, a tool's result, holds none).
_MAYBE = re.compile(r"(?i)sk-|bearer|api[_-]?key|authorization|token|secret|://|akia"
                    r"|gh[pousr]_|[?&][A-Za-z0-9_.\-]{1,64}=")
_MAYBE_WORDS = ("sk-", "bearer", "key", "authorization", "token", "secret", "://", "akia",
                "ghp_", "gho_", "ghu_", "ghs_", "ghr_")


def _may_hold_secret(text: str) -> bool:
    """False only for a text none of the patterns can match. Plain ASCII text (nearly all) is
    looked at with str methods, faster than any regular expression; any other text with
    _MAYBE, whose case-blind match knows Unicode's look-alikes (the Kelvin sign for k)."""
    if not text.isascii():
        return _MAYBE.search(text) is not None
    if "=" in text and ("?" in text or "&" in text):
        return True
    low = text.lower()
    return any(word in low for word in _MAYBE_WORDS)


_ordered: tuple[frozenset[str], list[str]] = (frozenset(), [])  # _KNOWN as last sorted, sorted


def _longest_first() -> list[str]:
    """The known secrets, longest first (so a short secret inside a longer one cannot leave
    the rest showing), sorted again only when the set changes."""
    global _ordered
    if _ordered[0] != _KNOWN:
        _ordered = (frozenset(_KNOWN), sorted(_KNOWN, key=len, reverse=True))
    return _ordered[1]


def remember_secret(secret: str) -> None:
    """Register a secret in use so it is masked even if it matches no pattern."""
    secret = (secret or "").strip()
    if secret:
        _KNOWN.add(secret)


def redact(text: str) -> str:
    if not text:
        return text
    masked = False
    for secret in _longest_first():
        if secret in text:
            text = text.replace(secret, MASK)
            masked = True
    if not masked and not _may_hold_secret(text):
        return text
    text = _QUERY.sub(_mask_query_value, text)
    for pattern in _PATTERNS:
        if pattern.groups:
            text = pattern.sub(lambda m: m.group(1) + MASK, text)
        else:
            text = pattern.sub(MASK, text)
    return text


def _mask_query_value(m: re.Match[str]) -> str:
    words = [w for w in _QUERY_WORDS.split(m.group(2)) if w]
    value = m.group(3).rstrip(_SENTENCE_END)
    if not value or value == MASK or not words or words[-1].lower() not in _CREDENTIAL_WORDS:
        return m.group(0)
    # "…?key=abc. Check it." keeps its full stop.
    return f"{m.group(1)}{m.group(2)}={MASK}{m.group(3)[len(value):]}"


def redact_obj(obj: Any) -> Any:
    """Redact every string inside a JSON-like structure (dict keys are left alone)."""
    if isinstance(obj, str):
        return redact(obj)
    if isinstance(obj, dict):
        return {k: redact_obj(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [redact_obj(v) for v in obj]
    return obj
