"""What the keyed cloud engines (Claude, OpenAI) share: finding the key, checking readiness."""

from __future__ import annotations

from typing import Callable

from app.core.records.redact import redact
from app.core.engine.port import (AUTH_FAILED, MODEL_NOT_FOUND, NO_ANSWER, NO_KEY, NO_KEYCHAIN, Availability,
                             EngineError)
from app.engines.keys import CALL_TIMEOUT_S, STATUS_TIMEOUT_S, keychain_status, lookup_key
from app.engines.deadline import AVAILABILITY_TIMEOUT_S, within


def require_key(engine_id: str, vendor: str, env_var: str,
                timeout: float = CALL_TIMEOUT_S) -> str:
    """The engine's key from the keychain or the SDK's variable; EngineError if there is none."""
    key = lookup_key(engine_id, timeout)[0]
    if not key:
        raise no_key(vendor, env_var)
    return key


def no_key(vendor: str, env_var: str) -> EngineError:
    return EngineError(f"There is no {vendor} API key yet: paste yours in Engine settings, "
                       f"or set {env_var}.", code=AUTH_FAILED, cause=NO_KEY,
                       action="Open Engine settings and paste your key.")


def no_key_answer(vendor: str, env_var: str, exc: EngineError, fallback: list[str],
                  facts: dict[str, str]) -> Availability:
    """The answer when no key was found: where to put one (the keychain, if there is one)."""
    usable, _why = keychain_status()
    if usable:
        return Availability(False, exc.message, fallback, exc.cause, facts)
    return Availability(False, f"There is no {vendor} API key yet, and this computer "
                        f"has no keychain to keep one in: set {env_var}, or keep a key "
                        "for this session in Engine settings.", fallback, NO_KEYCHAIN, facts)


def check_keyed(vendor: str, env_var: str, base_url: str, model: str, fallback: list[str],
                find_key: Callable[[float], str],
                list_models: Callable[[str], list[str]],
                offered: Callable[[list[str]], list[str]],
                has_model: Callable[[list[str], str], bool],
                prepare: Callable[[], object] = lambda: None) -> Availability:
    """Key present? Models listable within a few seconds? The chosen one among them? Never
    raises. `prepare` (the SDK's import) runs once a key is found and outside the seconds the
    vendor is given: without a key nothing is imported, so "no key" is said at once even on a
    loaded computer."""
    facts = {"url": base_url, "model": model}
    try:
        try:
            key = find_key(STATUS_TIMEOUT_S)
        except EngineError as exc:
            return no_key_answer(vendor, env_var, exc, fallback, facts)
        prepare()
        ids = within(AVAILABILITY_TIMEOUT_S + 1.0, lambda: list_models(key))
    except EngineError as exc:
        return Availability(False, exc.message, fallback, exc.cause, facts)
    except TimeoutError:
        return Availability(False, f"{vendor} did not answer within {AVAILABILITY_TIMEOUT_S:g} "
                            f"seconds at {base_url}. Check your internet connection and try "
                            "again.", fallback, NO_ANSWER,
                            {**facts, "seconds": f"{AVAILABILITY_TIMEOUT_S:g}"})
    except Exception as exc:  # availability never raises
        return Availability(False, redact(f"Could not check {vendor}: {exc}"), fallback, "",
                            facts)
    models = offered(ids) or fallback
    if not ids:
        return Availability(True, f"Ready. The model list is empty, so {model} is assumed.",
                            fallback)
    if not has_model(ids, model):
        return Availability(False, f"Your {vendor} key cannot use the model '{model}'. Choose "
                            f"one of: {', '.join(models[:8])}.", models, MODEL_NOT_FOUND, facts)
    return Availability(True, f"Ready: {model}, one of {len(models)} models your key can use.",
                        models)
