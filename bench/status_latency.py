"""How much longer `harness-desk status PATH` takes than a bare `python -c pass` (medians).

Each command runs as a fresh process, alternately, so all see the same machine load. Wall
time is what a person waits; CPU time (user + system of the child) is steadier on a busy
machine. The pydantic line is the floor any command that reads a record pays: importing
pydantic and validating one small model, nothing of the app.

    python bench/status_latency.py [--runs 21] [--repo OTHER_CHECKOUT ...]

With --repo, each checkout is measured in the same loop (for before/after comparisons).
"""

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

try:
    import resource  # CPU times of children; not on Windows, where CPU shows as 0
except ImportError:
    resource = None

HERE = Path(__file__).resolve().parent.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))  # bench.common, when run as a script
DEMO_WORKSPACE = HERE / "resources" / "demo-workspace"
PYDANTIC_FLOOR = ("from pydantic import BaseModel\n"
                  "class Usage(BaseModel):\n    tokens: int = 0\n"
                  "class Status(BaseModel):\n    state: str = 'idle'\n    usage: Usage = Usage()\n"
                  "Status.model_validate({'state': 'done', 'usage': {'tokens': 1}})\n")


def _env(config_dir: Path, repo: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HARNESS_DESK_", "ANTHROPIC_", "OPENAI_"))}
    env["HARNESS_DESK_CONFIG_DIR"] = str(config_dir)
    if repo is not None:
        env["PYTHONPATH"] = str(repo)
    # Bytecode caches as an installed app has them: the warm-up run writes any that are stale.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _time_once(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of argv in `cwd`."""
    before = _children_cpu()
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, cwd=cwd)
    wall = time.perf_counter() - start
    return wall, _children_cpu() - before


def _children_cpu() -> float:
    if resource is None:
        return 0.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(commands: dict[str, tuple[list[str], dict[str, str]]], runs: int,
            cwd: Path) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) seconds of each command, run round-robin `runs` times in `cwd`, a
    folder with no `app` in it (`-m` and `-c` put the current folder first on the path)."""
    for argv, env in commands.values():  # warm the file cache and write bytecode caches
        _time_once(argv, env, cwd)
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, (argv, env) in commands.items():
            samples[name].append(_time_once(argv, env, cwd))
    return {name: (statistics.median(s[0] for s in got), statistics.median(s[1] for s in got))
            for name, got in samples.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each (default 21)")
    parser.add_argument("--repo", type=Path, action="append",
                        help="a checkout to measure (default: this one); repeat to compare")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="also write the results as JSON to FILE (bench.run_all reads it)")
    args = parser.parse_args()
    repos = [r.resolve() for r in args.repo] if args.repo else [HERE]
    runs = max(args.runs, 1)
    with tempfile.TemporaryDirectory(prefix="status-latency-") as tmp:
        base_env = _env(Path(tmp) / "config", None)
        workspace = Path(tmp) / "demo"
        shutil.copytree(DEMO_WORKSPACE, workspace)
        # A real run's records, so status has something to read (it stops at a decision).
        subprocess.run([sys.executable, "-m", "app", "run", str(workspace), "--engine", "demo"],
                       env=_env(Path(tmp) / "config", repos[0]), stdout=subprocess.DEVNULL,
                       cwd=tmp, check=False)
        commands = {"python -c pass": ([sys.executable, "-c", "pass"], base_env),
                    "pydantic floor": ([sys.executable, "-c", PYDANTIC_FLOOR], base_env)}
        for repo in repos:
            label = "harness-desk status" + (f" ({repo})" if len(repos) > 1 else "")
            commands[label] = ([sys.executable, "-m", "app", "status", str(workspace)],
                               _env(Path(tmp) / "config", repo))
        medians = measure(commands, runs, Path(tmp))
    bare_wall, bare_cpu = medians["python -c pass"]
    print(f"{f'medians of {runs} runs':<40} {'wall':>9} {'CPU':>9} {'wall - bare':>12} "
          f"{'CPU - bare':>12}")
    for name, (wall, cpu) in medians.items():
        print(f"{name:<40} {wall * 1000:6.1f} ms {cpu * 1000:6.1f} ms "
              f"{(wall - bare_wall) * 1000:+9.1f} ms {(cpu - bare_cpu) * 1000:+9.1f} ms")
    if args.json is None:
        return 0
    from bench.common import hand_back, item

    wall, cpu = medians["harness-desk status" + (f" ({repos[0]})" if len(repos) > 1 else "")]
    floor_wall, floor_cpu = medians["pydantic floor"]
    extra = round((wall - bare_wall) * 1000, 1)
    return hand_back(args.json, [item(
        "status_vs_python", "`harness-desk status` over `python -c pass`", "<= +100 ms", extra,
        "ms", extra <= 100, runs=runs,
        note=f"pydantic alone (import, one model) costs +{(floor_wall - bare_wall) * 1000:.0f} ms",
        bare_ms=round(bare_wall * 1000, 1),
        status_ms=round(wall * 1000, 1), cpu_over_bare_ms=round((cpu - bare_cpu) * 1000, 1),
        pydantic_floor_over_bare_ms=round((floor_wall - bare_wall) * 1000, 1),
        pydantic_floor_cpu_over_bare_ms=round((floor_cpu - bare_cpu) * 1000, 1))])


if __name__ == "__main__":
    sys.exit(main())
