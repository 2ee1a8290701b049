"""How much longer `harness-desk engines` takes than a bare `python -c pass` (medians), when
no server answers at once: no keys, no keychain entry, nothing listening on the local
engine's address (a closed loopback port, so the probe is refused at once).

    python bench/engines_latency.py [--runs 11] [--repo OTHER_CHECKOUT ...] [--json FILE]

Each command runs as a fresh process, alternately, so both see the same machine load
(status_latency.py's way of measuring). Wall time is what a person waits; CPU time (user +
system of the child) is steadier on a busy machine. With --repo, each checkout is measured
in the same loop (for before/after comparisons); the row is the first one's.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))  # bench.*, when run as a script

from bench.status_latency import _env, measure  # noqa: E402

TARGET_MS = 150.0


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="runs of each (default 11)")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="also write the results as JSON to FILE (bench.run_all reads it)")
    parser.add_argument("--repo", type=Path, action="append",
                        help="a checkout to measure (default: this one); repeat to compare")
    args = parser.parse_args()
    repos = [r.resolve() for r in args.repo] if args.repo else [HERE]
    runs = max(args.runs, 1)
    with tempfile.TemporaryDirectory(prefix="engines-latency-") as tmp:
        config = Path(tmp) / "config"
        config.mkdir()
        # The local engine pointed at a closed port: "no server answers" without waiting on
        # whatever this machine may run on Ollama's usual port.
        (config / "settings.json").write_text(json.dumps({"engines": {"local": {
            "base_url": f"http://127.0.0.1:{closed_port()}/v1"}}}), encoding="utf-8")
        commands = {"python -c pass": ([sys.executable, "-c", "pass"], _env(config, None))}
        for repo in repos:
            label = "harness-desk engines" + (f" ({repo})" if len(repos) > 1 else "")
            commands[label] = ([sys.executable, "-m", "app", "engines"], _env(config, repo))
        medians = measure(commands, runs, Path(tmp))
    bare_wall, bare_cpu = medians["python -c pass"]
    wall, cpu = list(medians.values())[1]
    print(f"{f'medians of {runs} runs':<40} {'wall':>9} {'CPU':>9} {'wall - bare':>12}")
    for name, (w, c) in medians.items():
        print(f"{name:<40} {w * 1000:6.1f} ms {c * 1000:6.1f} ms {(w - bare_wall) * 1000:+9.1f} ms")
    if args.json is None:
        return 0
    from bench.common import hand_back, item, load_average

    extra = round((wall - bare_wall) * 1000, 1)
    load = load_average()
    return hand_back(args.json, [item(
        "engines_vs_python", "`harness-desk engines` over `python -c pass`, no server answering",
        f"<= +{TARGET_MS:g} ms", extra, "ms", extra <= TARGET_MS, runs=runs,
        note=f"CPU +{(cpu - bare_cpu) * 1000:.0f} ms; load {load[:1] or '?'}",
        load_average_after=load, bare_ms=round(bare_wall * 1000, 1),
        engines_ms=round(wall * 1000, 1), cpu_over_bare_ms=round((cpu - bare_cpu) * 1000, 1))])


if __name__ == "__main__":
    sys.exit(main())
