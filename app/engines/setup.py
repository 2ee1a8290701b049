"""Engines for the window and the CLI: build one from settings, check readiness, list choices."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from app.core.engine.port import NO_ANSWER, Availability, Engine, EngineConfig
from app.core.errors import UsageError
from app.core.records.redact import redact
from app.core.settings import Settings, load_settings
from app.engines.deadline import within
from app.engines.registry import UnknownEngine, engine_class, engine_ids

READINESS_TIMEOUT_S = 8.0


@dataclass(frozen=True)
class EngineChoice:
    """One engine as a chooser lists it; reading these never loads an AI SDK."""

    id: str
    label: str
    is_ai: bool
    needs_key: bool
    default_model: str


def engine_choices() -> list[EngineChoice]:
    """Every engine, in the order the chooser shows them (the Demo engine first)."""
    out = []
    for engine_id in engine_ids():
        cls = engine_class(engine_id)  # engine modules import their SDK only when used
        out.append(EngineChoice(engine_id, cls.label or engine_id, cls.is_ai, cls.needs_key,
                                cls.default_model))
    return out


def cache_key(workspace_root: Path | str) -> str:
    """The same key for every run on one folder, so a provider's prompt cache is shared
    across its runs; nothing about the folder can be read back from it."""
    where = str(Path(workspace_root).expanduser().resolve())
    return "harness-desk-" + hashlib.sha256(where.encode("utf-8")).hexdigest()[:16]


def build_engine(settings: Settings, workspace_root: Path | str, engine_id: str | None = None,
                 *, model: str | None = None, base_url: str | None = None,
                 demo_delay: float | None = None) -> Engine:
    """The engine a run on `workspace_root` uses: `engine_id` (the settings' choice when None)
    with the settings' model and base URL, each overridden when given.

    Raises UsageError, in one sentence, for an engine that does not exist.
    """
    engine_id = engine_id or settings.engine
    saved = settings.engine_settings(engine_id)
    config = EngineConfig(
        model=model or saved.model,
        base_url=base_url or saved.base_url,
        cache_key=cache_key(workspace_root),
        options={"delay_s": demo_delay if demo_delay is not None else settings.demo_delay_s},
    )
    return _create(engine_id, config)


def _create(engine_id: str, config: EngineConfig) -> Engine:
    try:
        return engine_class(engine_id)(config)
    except UnknownEngine as err:
        raise UsageError(str(err)) from None


def engine_readiness(engine_id: str, settings: Settings | None = None,
                     timeout_s: float = READINESS_TIMEOUT_S) -> Availability:
    """Whether `engine_id`, as `settings` configure it, can run now; never raises, and answers
    within `timeout_s` whatever the network or the keychain does. A not-ready answer says
    what to do about it."""
    if settings is None:
        settings = load_settings().settings
    saved = settings.engine_settings(engine_id)
    try:
        engine = _create(engine_id, EngineConfig(model=saved.model, base_url=saved.base_url))
    except UsageError as err:
        return Availability(False, err.message)
    except Exception as exc:  # an engine that cannot even be built is simply not ready
        return Availability(False, _plain(f"{engine_id} cannot be set up: {exc}"))
    try:
        return within(timeout_s, engine.availability, name=f"readiness-{engine_id}")
    except TimeoutError:
        where = engine.base_url() if hasattr(engine, "base_url") else ""
        return Availability(False, _too_slow(engine, timeout_s), reason=NO_ANSWER,
                            facts={"url": where, "seconds": f"{timeout_s:g}"})
    except Exception as exc:  # availability() should never raise; if it does, say so plainly
        return Availability(False, _plain(f"Could not check {engine.label or engine_id}: {exc}"))


def _too_slow(engine: Engine, timeout_s: float) -> str:
    label = engine.label or engine.id
    where = engine.base_url() if hasattr(engine, "base_url") else ""
    head = f"{label} did not answer within {timeout_s:g} second{'' if timeout_s == 1 else 's'}"
    if not engine.needs_key and engine.is_ai:  # a server on this computer or the network
        return (f"{head} at {where}. Check that your local server (Ollama, LM Studio, "
                "llama.cpp's llama-server or another) is running there and has "
                "finished loading, or correct the address in Engine settings.")
    if engine.needs_key:
        return (f"{head}. Check your internet connection, and unlock the keychain if it is "
                "asking for a password, then try again.")
    return f"{head}. Try again."


def _plain(text: str) -> str:
    sentence = " ".join(redact(text).split())[:300].rstrip(".")
    return sentence + "."
