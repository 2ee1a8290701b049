"""Readiness answers given without loading an engine's module, so they come fast.

An engine's module loads its conversation models, and pydantic with them: more than the
whole of `harness-desk engines` may take beside bare Python. Most answers need none of it:
the Demo engine is always ready, a cloud engine without a key says where to put one, and a
local server whose port refuses the connection is not running. Those are answered here, with
the engines' own sentences (keyed.no_key_answer, the local server's `unreachable`); anything
else (a key was found, a server answered) returns None and is left to the engine's own
check. tests/engines/test_quick_ready.py holds each answer to the engine's own.
"""

from __future__ import annotations

import os
import socket
import urllib.parse
from dataclasses import dataclass

from app.core.engine.port import ENGINE_UNREACHABLE, Availability
from app.engines.keys import STATUS_TIMEOUT_S, lookup_key

DEMO_READY = "Ready. The Demo engine runs offline and uses no AI."
OLLAMA_BASE_URL = "http://localhost:11434/v1"


@dataclass(frozen=True)
class Keyed:
    """What a keyed cloud engine's no-key answer needs (the engine module holds the same)."""

    vendor: str
    env_var: str
    base_url_env: str
    default_base_url: str
    default_model: str
    fallback: tuple[str, ...]


KEYED = {
    "anthropic": Keyed("Claude", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL",
                       "https://api.anthropic.com", "claude-sonnet-5-5",
                       ("claude-sonnet-5-5", "claude-opus-5-5", "claude-haiku-5-5",
                        "claude-opus-5", "claude-sonnet-5", "claude-haiku-4-5")),
    "openai": Keyed("OpenAI", "OPENAI_API_KEY", "OPENAI_BASE_URL", "https://api.openai.com/v1",
                    "gpt-6.2-sol", ("gpt-6.2-sol", "gpt-6.2-astra", "gpt-6.1-terra",
                                    "gpt-6-luna", "gpt-6.1-sol", "gpt-5.5", "gpt-5.4-mini")),
}


def quick_readiness(engine_id: str, model: str = "", base_url: str = "") -> Availability | None:
    """The engine's readiness if it can be told without its module, else None. `model` and
    `base_url` are the saved settings' ("" for the defaults). Never raises."""
    try:
        if engine_id == "demo":
            return Availability(True, DEMO_READY, ["scripted"])
        if engine_id in KEYED:
            return _keyed(engine_id, KEYED[engine_id], model, base_url)
        if engine_id == "local":
            url = (base_url or OLLAMA_BASE_URL).rstrip("/")
            if refused(url):
                return Availability(False, local_unreachable(url), [], ENGINE_UNREACHABLE,
                                    {"url": url})
    except Exception:  # the engine's own check says it better
        return None
    return None


def _keyed(engine_id: str, facts: Keyed, model: str, base_url: str) -> Availability | None:
    from app.engines.keyed import (  # noqa: PLC0415 - a local readiness check stays light
        no_key, no_key_answer)

    if lookup_key(engine_id, STATUS_TIMEOUT_S)[0]:
        return None  # a key: whether it works is the vendor's to say
    url = (base_url or os.environ.get(facts.base_url_env) or facts.default_base_url).rstrip("/")
    return no_key_answer(facts.vendor, facts.env_var, no_key(facts.vendor, facts.env_var),
                         list(facts.fallback), {"url": url, "model": model or facts.default_model})


def local_unreachable(url: str) -> str:
    return (f"Nothing is answering at {url}. Start your local server (Ollama, LM Studio, "
            "llama.cpp's llama-server or another that speaks the same API) and try again.")


def refused(url: str) -> bool:
    """Whether the server's port refuses a connection at once (nothing listens there). Any
    other answer, a timeout or a name not found is left to the SDK's request, which says it
    in its own words."""
    try:
        parts = urllib.parse.urlsplit(url)
        host = parts.hostname
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return False
    if not host:
        return False
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return False
    except ConnectionRefusedError:
        return True
    except OSError:
        return False
