"""How much longer `harness-desk status PATH` takes than a bare `python -c pass` (median of N)."""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEMO_WORKSPACE = REPO / "resources" / "demo-workspace"


def _env(config_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HARNESS_DESK_", "ANTHROPIC_", "OPENAI_"))}
    env["HARNESS_DESK_CONFIG_DIR"] = str(config_dir)
    env["PYTHONPATH"] = str(REPO)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # the same either way; only the app's imports differ
    return env


def _time_once(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    return time.perf_counter() - start


def measure(runs: int, workspace: Path, env: dict[str, str]) -> tuple[float, float]:
    """Medians in seconds of `python -c pass` and `python -m app status WS`, run alternately
    so both see the same machine load."""
    bare = [sys.executable, "-c", "pass"]
    status = [sys.executable, "-m", "app", "status", str(workspace)]
    for argv in (bare, status):  # warm the OS file cache and the bytecode cache first
        _time_once(argv, env)
    bare_times, status_times = [], []
    for _ in range(runs):
        bare_times.append(_time_once(bare, env))
        status_times.append(_time_once(status, env))
    return statistics.median(bare_times), statistics.median(status_times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=21, help="runs of each (default 21)")
    parser.add_argument("--workspace", type=Path,
                        help="a workspace to ask (default: a demo copy after one demo run)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="status-latency-") as tmp:
        env = _env(Path(tmp) / "config")
        workspace = args.workspace
        if workspace is None:
            workspace = Path(tmp) / "demo"
            shutil.copytree(DEMO_WORKSPACE, workspace)
            # A real run's records, so status has something to read (it stops at a decision).
            subprocess.run([sys.executable, "-m", "app", "run", str(workspace), "--engine",
                            "demo"], env=env, stdout=subprocess.DEVNULL, check=False)
        bare, status = measure(max(args.runs, 1), workspace, env)
    print(f"python -c pass:        {bare * 1000:7.1f} ms (median of {args.runs})")
    print(f"harness-desk status:   {status * 1000:7.1f} ms (median of {args.runs})")
    print(f"difference:            {(status - bare) * 1000:+7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
