"""`harness-desk engines`: each engine, whether it is ready, and why not."""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ThreadPoolExecutor

from app.core.settings import load_settings
from app.core.engine import Availability, EngineConfig
from app.engines.registry import ENGINES, create_engine, engine_ids

CHECK_TIMEOUT_S = 15.0


def check_engine(engine_id: str) -> Availability:
    """Availability of one engine as configured in settings; never raises."""
    settings = load_settings().settings.engine_settings(engine_id)
    try:
        engine = create_engine(engine_id, EngineConfig(model=settings.model,
                                                       base_url=settings.base_url))
        return engine.availability()
    except Exception as exc:  # an engine that cannot even be built is simply not ready
        return Availability(False, f"Not available: {' '.join(str(exc).split())[:200]}")


def cmd_engines(args: argparse.Namespace) -> int:
    ids = engine_ids()
    # Checks run side by side so one slow server does not hold up the others.
    with ThreadPoolExecutor(max_workers=len(ids)) as pool:
        futures = {i: pool.submit(check_engine, i) for i in ids}
        results = {}
        for engine_id, future in futures.items():
            try:
                results[engine_id] = future.result(timeout=CHECK_TIMEOUT_S)
            except Exception:
                results[engine_id] = Availability(False, "The check took too long.")
    if args.json:
        print(json.dumps([{"id": i, "label": ENGINES[i].label if i in ENGINES else i,
                           "ready": r.ready, "message": r.message, "models": r.models}
                          for i, r in results.items()], indent=2, ensure_ascii=False))
        return 0
    for engine_id, r in results.items():
        label = ENGINES[engine_id].label if engine_id in ENGINES else engine_id
        mark = "ready    " if r.ready else "not ready"
        print(f"{engine_id:<10} {mark}  {label}: {r.message}")
    return 0
