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

# Secrets known at run time (the key actually in use) are redacted exactly, whatever their shape.
_KNOWN: set[str] = set()

MASK = "[redacted]"


def remember_secret(secret: str) -> None:
    """Register a secret in use so it is masked even if it matches no pattern."""
    if secret and len(secret) >= 8:
        _KNOWN.add(secret)


def redact(text: str) -> str:
    if not text:
        return text
    for secret in _KNOWN:
        if secret in text:
            text = text.replace(secret, MASK)
    for pattern in _PATTERNS:
        if pattern.groups:
            text = pattern.sub(lambda m: m.group(1) + MASK, text)
        else:
            text = pattern.sub(MASK, text)
    return text


def redact_obj(obj: Any) -> Any:
    """Redact every string inside a JSON-like structure (dict keys are left alone)."""
    if isinstance(obj, str):
        return redact(obj)
    if isinstance(obj, dict):
        return {k: redact_obj(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [redact_obj(v) for v in obj]
    return obj
