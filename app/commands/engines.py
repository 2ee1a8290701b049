"""`harness-desk engines`: each engine, whether it is ready, and why not."""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ThreadPoolExecutor

from app.core.engine import Availability
from app.core.settings import load_settings
from app.engines.setup import READINESS_TIMEOUT_S, engine_choices, engine_readiness


def cmd_engines(args: argparse.Namespace) -> int:
    settings = load_settings().settings
    choices = engine_choices()
    # Checks run side by side so one slow server does not hold up the others; each answers
    # within READINESS_TIMEOUT_S, and the pool's wait is only a backstop.
    with ThreadPoolExecutor(max_workers=len(choices)) as pool:
        futures = {c.id: pool.submit(engine_readiness, c.id, settings) for c in choices}
        results: dict[str, Availability] = {}
        for engine_id, future in futures.items():
            try:
                results[engine_id] = future.result(timeout=READINESS_TIMEOUT_S + 2.0)
            except Exception:
                results[engine_id] = Availability(False, "The check took too long.")
    labels = {c.id: c.label for c in choices}
    if args.json:
        print(json.dumps([{"id": i, "label": labels[i], "ready": r.ready, "message": r.message,
                           "models": r.models} for i, r in results.items()],
                         indent=2, ensure_ascii=False))
        return 0
    for engine_id, r in results.items():
        mark = "ready    " if r.ready else "not ready"
        print(f"{engine_id:<10} {mark}  {labels[engine_id]}: {r.message}")
    return 0
