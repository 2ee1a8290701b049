"""Harness Desk side by side with three peer harnesses, against one loopback model server.

    python -m bench.peers [--runs 5] [--full] [--quick] [--busy N] [--only hd smol ...]
                          [--json FILE] [--readme]

The peers: mini-swe-agent 2.4.6 (litellm; its tool-call mode and its text mode),
smolagents 1.26.0 (openai SDK; ToolCallingAgent) and openai-agents 0.24.0 (openai SDK; an
Agent on its Chat Completions model), installed on first use into their own virtual
environments (bench/peers_harnesses.py). Harness Desk runs through its command line with its
Local engine. All five talk to ONE Chat Completions server on 127.0.0.1 that
answers at once (bench/peers_server.py): each step one tool call that writes a 1 KB note
or reads a 1 KB file, in each harness's own shape, then each harness's own finish.

Workloads: 10, 30 and 100 tool steps on a workspace of 100 files; 30 steps on 5,000 files
(100 MB) by default, all three lengths there too with --full. A warm-up run of each harness
comes first (not counted); then every repetition runs every workload, the workloads and the
harnesses in an order rotated each time, so the load of a shared machine falls on all alike.

Per harness and workload, the median of the runs (and the worst run):
- loop gap: from the server's last byte of a reply to the next request, the median over the
  round's steps, and over steps k-4..k at k = 10, 30, 100 (flat or growing with the round);
- start-up: from spawning the process to its first model request, and to its second (a
  harness that sends its first request before it has loaded all it needs, as Harness Desk
  does with its AI SDK, loads the rest while the model reads it: on this server, which
  answers at once, that time falls in the first step; the second request shows it);
- CPU: user + system seconds of the process and the children it waited for (os.wait4);
- peak memory: the process's ru_maxrss;
- request bytes at steps 1, 10, 30 and 100.
Ratios are peer / Harness Desk: above 1 means Harness Desk is ahead.
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import BusyLoops, machine, median
from bench.peers_harnesses import (HARNESSES, PEERS, Harness, ensure_peer, launch,
                                   package_version, run)
from bench.peers_report import put_in_readme, render, render_runs, stamp, summarise
from bench.peers_server import (OUT_DIR, PeerServer, Session, action, make_reads,
                                note_path)

AT = (1, 10, 30, 100)
BOARD = "# Bench\n\n- [ ] Write and read the notes\n  - Done when: the notes exist\n"


def workloads(full: bool, quick: bool) -> list[tuple[int, int]]:
    """(files, steps) pairs."""
    if quick:
        return [(100, 10), (100, 30)]
    big = [10, 30, 100] if full else [30]
    return [(100, s) for s in (10, 30, 100)] + [(5000, s) for s in big]


def make_workspaces(tmp: Path, sizes: set[int], steps: int, salt: str) -> dict[int, Path]:
    from bench.step_overhead import make_workspace

    made = {}
    for files in sorted(sizes):
        root = tmp / f"ws-{files}"
        make_workspace(root, files, 1)
        make_reads(root, steps, salt)
        made[files] = root
    return made


def reset(ws: Path) -> None:
    """The workspace as before any run: no run records, no notes, the one-task board."""
    for name in (".harness", OUT_DIR):
        shutil.rmtree(ws / name, ignore_errors=True)
    (ws / "TASKS.md").write_text(BOARD, encoding="utf-8")


def window(gaps: list[float], k: int) -> float | None:
    """Median (ms) of the gaps after steps k-4..k (gaps[0] follows step 1)."""
    picked = gaps[max(0, k - 5):k]
    return round(median(picked) * 1000, 2) if len(gaps) >= k else None


def one_run(server: PeerServer, h: Harness, ws: Path, files: int, steps: int, rep: int,
            salt: str, tmp: Path) -> dict:
    reset(ws)
    tag = f"{h.key}-{rep}"
    session = Session(h.key, steps, tag, salt)
    server.begin(session)
    try:
        ran = run(launch(h, ws, server.base_url(h.key), steps, tmp), tmp / f"{tag}.log")
    finally:
        server.end()
    trouble = list(session.trouble)
    if ran.code != 0:
        trouble.append(f"exit code {ran.code}: {ran.stderr.strip()[-300:]}")
    if not session.finished:
        trouble.append(f"stopped after {len(session.arrived)} of {steps + 1} requests")
    for k in range(1, steps + 1, 2):  # the notes the write steps asked for, word for word
        act = action(tag, k, steps)
        path = ws / note_path(tag, k)
        if not path.exists() or path.read_text(encoding="utf-8") != act.text:
            trouble.append(f"step {k}: {note_path(tag, k)} was not written as asked")
            break
    gaps = session.gaps()[:steps]
    return {"harness": h.key, "files": files, "steps": steps, "rep": rep, "code": ran.code,
            "trouble": trouble,
            "startup_s": round(session.arrived[0] - ran.spawned, 3) if session.arrived else None,
            "second_s": round(session.arrived[1] - ran.spawned, 3)
            if len(session.arrived) > 1 else None,
            "first_any_s": round(session.first_any - ran.spawned, 3)
            if session.first_any else None,
            "gap_ms": round(median(gaps) * 1000, 2) if gaps else None,
            "gap_at_ms": {k: window(gaps, k) for k in AT[1:] if k <= steps},
            "cpu_s": round(ran.cpu_s, 3), "peak_mb": round(ran.peak_mb, 1),
            "bytes_at": {k: session.sizes[k - 1] for k in AT if k <= len(session.sizes)},
            "wall_s": round(ran.ended - ran.spawned, 3), "connections": len(session.ports)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="repetitions (default 5)")
    parser.add_argument("--full", action="store_true",
                        help="all three lengths on 5,000 files too (about twice as long)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 2 repetitions of 10 and 30 steps on 100 files")
    parser.add_argument("--only", nargs="+", choices=[h.key for h in HARNESSES],
                        metavar="HARNESS", help="only these (hd always runs: the baseline)")
    parser.add_argument("--busy", type=int, default=0, metavar="N",
                        help="load the machine with N busy-loop processes while measuring")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write every figure here")
    parser.add_argument("--readme", action="store_true",
                        help="put the table in README.md (Performance, between its markers)")
    parser.add_argument("--from-json", type=Path, nargs="+", metavar="FILE",
                        help="measure nothing: show (and with --readme, put in the README) "
                             "the tables of runs written earlier with --json, one after another")
    args = parser.parse_args()
    if args.from_json:
        text = render_runs([json.loads(f.read_text(encoding="utf-8")) for f in args.from_json])
        print(text)
        if args.readme:
            put_in_readme(Path(__file__).resolve().parent.parent / "README.md", text)
        return 0
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # clean up as Ctrl+C does
    runs = 2 if args.quick and args.runs == 5 else args.runs
    chosen = [h for h in HARNESSES if h.key == "hd" or not args.only or h.key in args.only]
    versions = {}
    for name in sorted({h.peer for h in chosen if h.peer}):
        venv, versions[name] = ensure_peer(name)
        under = "litellm" if name == "mini-swe-agent" else "openai"
        versions[name] += f" (on {under} {package_version(venv, under)})"
        if not versions[name].startswith(PEERS[name][0] + " "):
            print(f"Note: {name} {PEERS[name][0]} is not on PyPI; measured {versions[name]}.")
    loads = machine()["load_average"]
    plan = workloads(args.full, args.quick)
    salt = tempfile.mktemp(prefix="", dir="")[-8:]
    records: list[dict] = []
    server = PeerServer()
    tmp = Path(tempfile.mkdtemp(prefix="hd-bench-peers-"))
    busy = BusyLoops(args.busy)
    try:
        spaces = make_workspaces(tmp, {f for f, _ in plan}, max(s for _, s in plan), salt)
        print(f"{len(chosen)} harnesses x {len(plan)} workloads x {runs} runs, "
              f"load average {loads} before", flush=True)
        busy.__enter__()
        for h in chosen:  # warm-up: the disk cache and bytecode, for every harness alike
            one_run(server, h, spaces[min(spaces)], min(spaces), 10, -1, salt, tmp)
        for rep in range(runs):
            order = plan[rep % len(plan):] + plan[:rep % len(plan)]
            for w, (files, steps) in enumerate(order):
                turn = (rep + w) % len(chosen)
                for h in chosen[turn:] + chosen[:turn]:
                    got = one_run(server, h, spaces[files], files, steps, rep, salt, tmp)
                    records.append(got)
                    mark = "FAILED " + "; ".join(got["trouble"]) if got["trouble"] else ""
                    print(f"  run {rep + 1}: {h.label:30} {files:>5} files {steps:>3} steps "
                          f"gap {got['gap_ms']} ms, start {got['startup_s']} s {mark}",
                          flush=True)
    finally:
        after = machine()  # the load with the busy loops still running
        busy.__exit__()
        server.close()
        shutil.rmtree(tmp, ignore_errors=True)
    summary = summarise(records, chosen, plan)
    report = {**stamp(), "machine": after, "load_before": loads, "load_after": after["load_average"],
              "runs": runs, "workloads": plan, "versions": versions,
              "harnesses": {h.key: h.label for h in chosen}, "summary": summary,
              "records": records, "full": args.full, "quick": args.quick, "busy": args.busy}
    text = render(report)
    print(text)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    if args.readme:
        put_in_readme(Path(__file__).resolve().parent.parent / "README.md", text)
    return 1 if any(r["trouble"] for r in records) else 0


if __name__ == "__main__":
    sys.exit(main())
