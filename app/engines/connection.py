"""Engine settings' "Test connection": one verdict a person can act on, and the models offered."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from app.core.engine.port import (AUTH_FAILED, ENGINE_UNREACHABLE, MODEL_NOT_FOUND, EngineConfig,
                             EngineError)
from app.core.settings import Settings
from app.engines.deadline import within
from app.engines.keys import STATUS_TIMEOUT_S, lookup_key
from app.engines.local.engine import LOCAL_API_KEY, LOCAL_PRESETS
from app.engines.registry import engine_class
from app.engines.setup import engine_readiness

TEST_TIMEOUT_S = 8.0

# The verdicts, each a different thing for the person to do.
READY, NO_KEY, KEY_REJECTED, NO_MODEL = "ready", "no_key", "key_rejected", "no_model"
NOT_RUNNING, NO_ANSWER, NOT_READY = "not_running", "no_answer", "not_ready"


@dataclass(frozen=True)
class ConnectionCheck:
    verdict: str                 # one of the verdicts above
    detail: str                  # the engine's own sentence (what it saw, where)
    models: list[str] = field(default_factory=list)


def known_models(engine_id: str) -> list[str]:
    """The models offered before the engine has been asked (none for a local server)."""
    if engine_id == "anthropic":
        from app.engines.claude.engine import FALLBACK_MODELS  # noqa: PLC0415 - the engine settings dialog opens on the UI thread without the cloud engines' modules (~20 ms)

        return list(FALLBACK_MODELS)
    if engine_id == "openai":
        from app.engines.openai.engine import OPENAI_FALLBACK_MODELS  # noqa: PLC0415 - the engine settings dialog opens on the UI thread without the cloud engines' modules (~7 ms)

        return list(OPENAI_FALLBACK_MODELS)
    return []


def local_presets() -> dict[str, str]:
    """{"Ollama": its address, "LM Studio": its address}."""
    return dict(LOCAL_PRESETS)


def check_connection(engine_id: str, settings: Settings,
                     timeout_s: float = TEST_TIMEOUT_S) -> ConnectionCheck:
    """Ask the engine, as `settings` configure it, whether it can run; never raises and
    answers within about `timeout_s` (plus a second) whatever the network or the keychain
    does."""

    started = time.monotonic()
    found = engine_readiness(engine_id, settings, timeout_s)
    models = list(found.models) or known_models(engine_id)
    if found.ready:
        return ConnectionCheck(READY, found.message, models)
    # Telling which kind of not-ready it is gets the time left (a server that did not
    # answer the first time gets one more second, not a second full wait).
    left = max(1.0, timeout_s - (time.monotonic() - started))
    return ConnectionCheck(_why(engine_id, settings, left), found.message, models)


def _why(engine_id: str, settings: Settings, timeout_s: float) -> str:
    """Which kind of "not ready" it is: asked once more, by listing the models."""
    saved = settings.engine_settings(engine_id)
    try:
        engine = engine_class(engine_id)(EngineConfig(model=saved.model, base_url=saved.base_url))
    except Exception:
        return NOT_READY

    key = LOCAL_API_KEY
    if engine.needs_key:
        key = lookup_key(engine_id, STATUS_TIMEOUT_S)[0] or ""
        if not key:
            return NO_KEY
    listing = getattr(engine, "_list_models", None) or getattr(engine, "list_models", None)
    if listing is None:
        return NOT_READY
    try:
        ids = within(timeout_s, lambda: listing(key), name=f"test-{engine_id}")
    except EngineError as exc:
        return {AUTH_FAILED: KEY_REJECTED, MODEL_NOT_FOUND: NO_MODEL,
                ENGINE_UNREACHABLE: NO_ANSWER if engine.needs_key else NOT_RUNNING,
                }.get(exc.code or "", NOT_READY)
    except TimeoutError:
        return NO_ANSWER
    except Exception:
        return NOT_READY
    model = engine.model
    if ids and model and not any(i == model or i.startswith(model + "-") for i in ids):
        return NO_MODEL
    return NOT_READY
