"""What every benchmark shares: medians, children's CPU time, the machine, the JSON handed back."""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
from pathlib import Path
from typing import Any, Iterable

try:
    import resource  # CPU time of child processes; not on Windows
except ImportError:  # pragma: no cover - Windows
    resource = None

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # `python bench/x.py` as well as `python -m bench.x`


def median(values: Iterable[float]) -> float:
    values = list(values)
    return statistics.median(values) if values else float("nan")


def quantile(values: Iterable[float], q: float) -> float:
    """The q-quantile (0..1) by nearest rank: a value that was really measured."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def children_cpu() -> float:
    """User + system seconds of every child process waited for so far (0 where unknown)."""
    if resource is None:
        return 0.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def machine() -> dict[str, Any]:
    """The machine a result was measured on, as the README names it."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except (OSError, AttributeError):
        load = []
    memory_gb = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory_gb = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return {"os": f"{platform.system()} {platform.release()}", "cpu": cpu,
            "cores": os.cpu_count(), "memory_gb": memory_gb, "load_average": load,
            "python": platform.python_version()}


def item(key: str, title: str, target: str, measured: float | None, unit: str,
         passed: bool | None, note: str = "", **details: Any) -> dict[str, Any]:
    """One row of the table: `measured` in `unit`, whether it meets `target` (None: not
    measured), a short note for the table, and whatever figures explain it."""
    return {"key": key, "title": title, "target": target, "measured": measured, "unit": unit,
            "pass": passed, "note": note, "details": details}


def arguments(doc: str, runs: int) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=doc.strip().splitlines()[0])
    parser.add_argument("--runs", type=int, default=runs, help=f"runs of each (default {runs})")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="also write the results as JSON to FILE (bench.run_all reads it)")
    return parser


def hand_back(path: Path | None, items: list[dict[str, Any]], **extra: Any) -> int:
    """Write the items for bench.run_all; the exit code says whether every target was met."""
    if path is not None:
        path.write_text(json.dumps({"items": items, **extra}, indent=2, ensure_ascii=False))
    return 0 if all(i["pass"] is not False for i in items) else 1


def load_average() -> list[float]:
    """The machine's load average over 1, 5 and 15 minutes ([] where unknown)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (OSError, AttributeError):
        return []


def machine_line(busy: int = 0) -> str:
    """One line for beside a benchmark's figures: the processor, its cores, the load now, and
    the busy loops the benchmark added itself."""
    m = machine()
    load = ", ".join(f"{x:g}" for x in load_average()) or "unknown"
    added = f"; {busy} busy-loop process{'es' if busy != 1 else ''} added" if busy else ""
    return f"Machine: {m['cpu']}, {m['cores']} cores; load average {load}{added}"


class BusyLoops:
    """`count` processes that spin on a core each for as long as the block runs: a loaded
    machine on purpose, to see the figures as a person's busy laptop would give them."""

    def __init__(self, count: int):
        self.count, self.procs = max(count, 0), []

    def __enter__(self) -> "BusyLoops":
        import subprocess

        self.procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                      for _ in range(self.count)]
        return self

    def __exit__(self, *exc) -> None:
        for proc in self.procs:
            proc.kill()
            proc.wait()


def window_starts(tmp: Path) -> tuple[Path, list[tuple[str, dict[str, str]]]]:
    """For the start-up benchmarks: a demo copy in `tmp`, and each platform to start on with
    its children's environment (QT_QPA_PLATFORM if set, else offscreen; under xcb offscreen
    as well, since start-up's target holds for both). The source checkout first on the path,
    and bytecode caches kept, as an installed app has them (bench/run_all.py does the same)."""
    import shutil

    folder = tmp / "Bakery"
    shutil.copytree(REPO / "resources" / "demo-workspace", folder)
    platform = os.environ.get("QT_QPA_PLATFORM") or "offscreen"
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return folder, [(name, dict(base, PYTHONPATH=path, HARNESS_DESK_CONFIG_DIR=str(tmp / "c"),
                                QT_QPA_PLATFORM=name))
                    for name in [platform] + (["offscreen"] if platform == "xcb" else [])]
