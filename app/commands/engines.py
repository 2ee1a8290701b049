"""`harness-desk engines`: each engine, whether it is ready, and why not.

Answers that need no engine module (the Demo engine, a cloud engine without a key, a local
server that is not running) come from app.engines.quick_ready, which loads neither pydantic
nor an engine's module, so the usual answer takes little more than Python's own start
(bench/engines_latency.py measures it). Every other engine gets its own full check; all of
them run side by side.
"""

from __future__ import annotations

import argparse
import json
import threading

from app.core.engine.port import Availability
from app.core.places import config_dir
from app.engines.quick_ready import quick_readiness
from app.engines.registry import ENGINES, engine_class, engine_ids

# How long the command waits for a check: engine_readiness answers within its
# READINESS_TIMEOUT_S (8 s), and this leaves it 2 s more (tests/engines hold the two so).
WAIT_S = 10.0
_settings_lock = threading.Lock()
_settings: list = []  # the settings, read once, by the first check that needs them


def cmd_engines(args: argparse.Namespace) -> int:
    ids = engine_ids()
    saved = _saved_engines()
    results: dict[str, Availability] = {}
    workers = [threading.Thread(target=_check, args=(i, saved, results), daemon=True,
                                name=f"readiness-{i}") for i in ids]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(WAIT_S)
    results = {i: results.get(i) or Availability(False, "The check took too long.") for i in ids}
    labels = {i: ENGINES[i].label if i in ENGINES else _label(i) for i in ids}
    if args.json:
        print(json.dumps([{"id": i, "label": labels[i], "ready": r.ready, "message": r.message,
                           "models": r.models} for i, r in results.items()],
                         indent=2, ensure_ascii=False))
        return 0
    for engine_id, r in results.items():
        mark = "ready    " if r.ready else "not ready"
        print(f"{engine_id:<10} {mark}  {labels[engine_id]}: {r.message}")
    return 0


def _check(engine_id: str, saved: dict[str, dict[str, str]] | None,
           results: dict[str, Availability]) -> None:
    """One engine's answer: the quick one where it settles it, else the engine's own."""
    if saved is not None:
        mine = saved.get(engine_id, {})
        quick = quick_readiness(engine_id, mine.get("model", ""), mine.get("base_url", ""))
        if quick is not None:
            results[engine_id] = quick
            return
    from app.engines.setup import engine_readiness  # noqa: PLC0415 - `engines` stays light

    try:
        results[engine_id] = engine_readiness(engine_id, _full_settings())
    except Exception:  # engine_readiness never raises; a damaged install might
        results[engine_id] = Availability(False, "The check could not run.")


def _saved_engines() -> dict[str, dict[str, str]] | None:
    """Each engine's saved model and server address, read without the settings model; None
    when the file is not plainly valid (app.core.settings then reads it, and resets it if it
    is damaged, exactly as everywhere else)."""
    path = config_dir() / "settings.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, RecursionError):
        return None
    engines = data.get("engines", {}) if isinstance(data, dict) else None
    if not isinstance(engines, dict):
        return None
    out: dict[str, dict[str, str]] = {}
    for engine_id, saved in engines.items():
        if not isinstance(saved, dict) or not all(
                isinstance(saved.get(k, ""), str) for k in ("model", "base_url")):
            return None
        out[engine_id] = {k: saved.get(k, "") for k in ("model", "base_url")}
    return out


def _full_settings():
    from app.core.settings import load_settings  # noqa: PLC0415 - `engines` stays light

    with _settings_lock:
        if not _settings:
            _settings.append(load_settings().settings)
        return _settings[0]


def _label(engine_id: str) -> str:
    cls = engine_class(engine_id)
    return cls.label or engine_id
