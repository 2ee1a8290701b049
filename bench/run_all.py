"""Run every benchmark, print one table (target, measured, pass), and write bench/results.json.

    python -m bench.run_all [--quick] [--only NAME ...] [--output FILE] [--readme]

Each benchmark runs as its own process, so every import is cold, and hands back its figures
as JSON. One that needs what this checkout does not have (the window, a frozen build) says
"not available" rather than guessing. The machine is shared and noisy: each benchmark takes
medians of several runs and, where there is one, a baseline measured in the same run.
Exit code 0 when every target that was measured was met.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from datetime import datetime, timezone
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import request_size
from bench.common import REPO, item, machine

# (name, script, arguments, arguments with --quick, what it needs, rows it owes when missing)
BENCHMARKS = [
    ("startup", "startup.py", ["--runs", "7"], ["--runs", "3"], "the window",
     [("startup_window", "Launch to the usable window (checklist drawn, Run enabled) / a "
       "bare PySide6 window", "<= 1.5x"),
      ("startup_window_offscreen", "Launch to the usable window (checklist drawn, Run "
       "enabled) / a bare PySide6 window, offscreen (measured beside xcb)", "<= 1.5x")]),
    ("startup_floor", "startup_floor.py", ["--runs", "7"], ["--runs", "3"], "the window",
     [("startup_floor_xcb", "The least a usable window in this look costs (the real checklist "
       "and a Run button) / a bare PySide6 window", "shown, no target"),
      ("startup_floor_offscreen", "The least a usable window in this look costs (the real "
       "checklist and a Run button) / a bare PySide6 window, offscreen", "shown, no target")]),
    ("status", "status_latency.py", ["--runs", "21"], ["--runs", "7"], None,
     [("status_vs_python", "`harness-desk status` over `python -c pass`", "<= +100 ms")]),
    ("engines", "engines_latency.py", ["--runs", "11"], ["--runs", "5"], None,
     [("engines_vs_python", "`harness-desk engines` over `python -c pass`, no server answering",
       "<= +150 ms")]),
    ("steps", "step_overhead.py", ["--runs", "5"], ["--runs", "1", "--no-fsync-variant"], None,
     [("step_overhead_100", "Harness overhead per step, 100 files", "<= 5 ms"),
      ("step_gap_slow_fsync", "Gap after a write / after a read, every fsync 10 ms slower",
       "<= 2x")]),
    ("engine_steps", "engine_steps.py", ["--runs", "5"], ["--runs", "1", "--steps", "30"], None,
     [(f"engine_step_{k}_ratio", f"{n}: harness CPU per step, step 100 / step 10", "<= 1.3x")
      for k, n in (("claude", "Claude"), ("openai", "OpenAI"), ("local", "Local"))]),
    ("cache", "cache_prefix.py", ["--rounds", "50"], ["--rounds", "50"], None,
     [("cache_kept_claude", "Claude: previous request repeated as the next one's prefix",
       ">= 95%")]),
    ("request_size", "request_size.py", [], [], None,
     [(f"request_fixed_{n.lower()}", f"{n}: tool definitions + system prompt in every "
       f"request", f"<= {b * 2 // 3:,} B") for n, b in request_size.BEFORE_BYTES.items()]),
    ("ui_stall", "ui_stall.py", ["--runs", "3"], ["--runs", "1"], "the window",
     [("ui_stall", "Longest gap between 10 ms UI ticks, full-speed Demo run", "<= 50 ms")]),
    ("ui_stall_cold", "ui_stall_cold.py", ["--runs", "5"], ["--runs", "3"], "the window",
     [("ui_stall_cold", "Longest UI gap, cold start through first Run, decision and evidence "
       "window", "<= 50 ms")]),
    ("rounds_list", "rounds_list.py", ["--runs", "3"], ["--runs", "1"], "the window",
     [("rounds_memory", "Window's memory after 1,000 Demo rounds, over the idle window",
       "<= +30 MB"),
      ("rounds_stall", "Longest UI-thread stall over 1,000 Demo rounds", "<= 50 ms")]),
    ("board", "board_view.py", ["--runs", "7"], ["--runs", "3"], None,
     [("board_2000", "A 2,000-task board read, written back and shown", "<= 200 ms")]),
    ("evidence_diff", "evidence_diff.py", ["--runs", "5"], ["--runs", "1"], None,
     [("evidence_diff_1mb", "Evidence window: before/after of a 1 MB notes file, off the UI "
       "thread", "<= 2 s")]),
    ("documents", "documents.py", ["--runs", "5"], ["--runs", "1"], None,
     [("documents_long_docx", "Reading a 50-page Word document whole / the same text",
       "<= 100x time, <= 3x memory"),
      ("documents_sheet_xlsx", "Reading a 10,000-row sheet whole / the same text",
       "<= 100x time, <= 3x memory"),
      ("documents_long_pdf", "Reading a 200-page PDF whole / the same text",
       "<= 100x time, <= 3x memory")]),
    ("fidelity", "fidelity.py", ["--runs", "3"], ["--runs", "1"], None,
     [("fidelity_checks", "Model's needs kept (footnotes, numbering, tables, lists, number "
       "formats, slide order), ours / markitdown", ">= markitdown's"),
      ("fidelity_tokens", "Tokens (cl100k) of the corpus, ours / markitdown", "<= 1.0x"),
      ("fidelity_time", "Reading the corpus, CPU time, ours / markitdown", "<= 1.0x"),
      ("fidelity_memory", "Reading the corpus, peak memory, ours / markitdown", "<= 1.0x")]),
    ("search_documents", "search_documents.py", ["--runs", "7"], ["--runs", "3"], None,
     [("search_documents_again", "Second search_files over 50 Office files / the same search "
       "over their text", "<= 1.2x")]),
    ("footprint", "footprint.py", ["--runs", "3"], ["--runs", "1"], None,
     [("bundle_size", "Frozen onedir build on disk", "<= 130 MB")]),
]
TIMEOUT_S = 1800


def run_one(name: str, script: str, argv: list[str], needs: str | None,
            owed: list[tuple[str, str, str]], env: dict[str, str]) -> tuple[list[dict], dict]:
    """The benchmark's rows, and how it ran (seconds, exit code, the end of its output)."""
    path = REPO / "bench" / script
    if not path.exists():
        why = f"not available: {needs or script} is not in this checkout yet"
        return [item(k, t, target, None, "", None, why=why) for k, t, target in owed], \
            {"seconds": 0, "status": why}
    with tempfile.NamedTemporaryFile(prefix=f"hd-bench-{name}-", suffix=".json",
                                     delete=False) as out:
        result_path = Path(out.name)
    began = time.monotonic()
    load = _load()
    try:
        proc = subprocess.run([sys.executable, str(path), *argv, "--json", str(result_path)],
                              env=env, cwd=REPO, capture_output=True, text=True,
                              timeout=TIMEOUT_S)
        seconds = round(time.monotonic() - began, 1)
        text = (proc.stdout + proc.stderr).strip()
        print(text + "\n", flush=True)
        got = json.loads(result_path.read_text()) if result_path.stat().st_size else None
    except subprocess.TimeoutExpired:
        got, seconds, text = None, TIMEOUT_S, f"timed out after {TIMEOUT_S} s"
        proc = None
    finally:
        result_path.unlink(missing_ok=True)
    ran = {"seconds": seconds, "exit_code": proc.returncode if proc else None,
           "load_average_before": load, "load_average_after": _load(),
           "output": text.splitlines()[-40:]}
    if got is None:
        why = f"failed: {text.splitlines()[-1] if text else 'no output'}"
        return [item(k, t, target, None, "", None, why=why) for k, t, target in owed], ran
    return got["items"], ran


def _load() -> list[float]:
    """The machine's load average over 1, 5 and 15 minutes: how shared it was."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (OSError, AttributeError):
        return []


def shown(row: dict) -> tuple[str, str]:
    """(measured, pass) as the table prints them."""
    if row["measured"] is None:
        return "not available", "-"
    value = row["measured"]
    unit = row["unit"]
    text = f"{value:g}" if isinstance(value, (int, float)) else str(value)
    if unit in ("ms", "MB"):
        text += f" {unit}"
    elif unit:
        text += unit
    if row["key"] in ("status_vs_python", "engines_vs_python"):
        text = "+" + text
    if row["pass"] is None:
        return text, "-"  # shown for what it says, with no target
    return text, "yes" if row["pass"] else "NO"


def table(rows: list[dict]) -> str:
    lines = [("what", "target", "measured", "pass", "note")]
    lines += [(r["title"], r["target"], *shown(r),
               r.get("note") or r["details"].get("why", "")) for r in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(5)]
    out = ["| " + " | ".join(c.ljust(w) for c, w in zip(line, widths)) + " |" for line in lines]
    out.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(out)


class Display:
    """Where the window benchmarks draw: the desktop's own display when there is one (DISPLAY
    set), else a virtual X server (Xvfb) started for the run when it is installed, since a
    real X server costs what a desktop costs, else Qt's offscreen platform."""

    def __init__(self, choice: str):
        self.choice, self.proc, self.env = choice, None, {}

    def __enter__(self) -> "Display":
        if self.choice == "offscreen" or (self.choice == "auto" and not os.environ.get("DISPLAY")
                                          and not shutil.which("Xvfb")):
            self.env = {"QT_QPA_PLATFORM": "offscreen"}
        elif os.environ.get("DISPLAY") and self.choice != "xvfb":
            self.env = {"QT_QPA_PLATFORM": "xcb"}
        else:
            for number in range(90, 140):  # a display number nobody holds
                if not Path(f"/tmp/.X11-unix/X{number}").exists() and \
                        not Path(f"/tmp/.X{number}-lock").exists():
                    break
            self.proc = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1600x1000x24",
                                          "-nolisten", "tcp"], stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 10
            while not Path(f"/tmp/.X11-unix/X{number}").exists():
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise SystemExit("Xvfb did not start; try --platform offscreen")
                time.sleep(0.05)
            self.env = {"QT_QPA_PLATFORM": "xcb", "DISPLAY": f":{number}"}
        return self

    @property
    def name(self) -> str:
        if self.proc is not None:
            return "xcb on Xvfb"
        return self.env["QT_QPA_PLATFORM"]

    def __exit__(self, *exc) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)


def kept_rows(previous: Path, produced: dict[str, list[dict]]) -> list[dict]:
    """The rows of the benchmarks this run ran (`produced`, by name) and every row of the
    others from the last results, in BENCHMARKS order; a kept row's note says when it was
    measured. An old row is the benchmark's whose row keys it shares the longest start with
    (a row of a benchmark that ran this time is replaced by what it gave)."""
    fresh = [row for got in produced.values() for row in got]
    try:
        last = json.loads(previous.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return fresh
    when = str(last.get("started_at", ""))[:16].replace("T", " ")
    names = [b[0] for b in BENCHMARKS]

    def owner(key: str, before: int) -> int:
        best, at = 3, before  # a row sharing too little stays with the row before it
        for i, (_name, *_rest, owed) in enumerate(BENCHMARKS):
            for k, _title, _target in owed:
                common = len(os.path.commonprefix([k, key]))  # noqa: RUF071 - row keys, not paths
                if common > best:
                    best, at = common, i
        return at

    placed, at = [], 0
    for row in last.get("results", []):
        at = owner(row["key"], at)
        if names[at] in produced:
            continue
        row = dict(row)
        note = row.get("note") or ""
        if "(measured " not in note:
            row["note"] = f"{note} (measured {when} UTC)".strip()
        placed.append((at, row))
    placed += [(names.index(name), row) for name, got in produced.items() for row in got]
    return [row for _at, row in sorted(placed, key=lambda pair: pair[0])]


README_START, README_END = "<!-- bench:table -->", "<!-- /bench:table -->"


def put_in_readme(readme: Path, text: str, report: dict) -> None:
    """Replace what stands between the README's bench markers with this run's table."""
    m = report["machine"]
    when = report["started_at"][:16].replace("T", " ")
    load = ", ".join(f"{x:g}" for x in m["load_average"])
    about = (f"Measured {when} UTC at commit {report['commit']} on {m['os']}, {m['cpu']}, "
             f"{m['cores']} cores, {m['memory_gb']} GB, Python {m['python']}, windows drawn on "
             f"{report['platform']}; load average {load} when it ended (a shared machine).")
    page = readme.read_text(encoding="utf-8")
    head, rest = page.split(README_START, 1)
    tail = rest.split(README_END, 1)[1]
    about = textwrap.fill(about, 92, break_on_hyphens=False)
    readme.write_text(f"{head}{README_START}\n{text}\n\n{about}\n{README_END}{tail}",
                      encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs of each (a rough look)")
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        help=f"only these: {', '.join(b[0] for b in BENCHMARKS)}")
    parser.add_argument("--output", type=Path, default=REPO / "bench" / "results.json")
    parser.add_argument("--readme", action="store_true",
                        help="put the table and the machine in README.md (Performance)")
    parser.add_argument("--platform", choices=("auto", "xvfb", "offscreen"), default="auto",
                        help="where windows draw (default: the desktop, else Xvfb, else offscreen)")
    parser.add_argument("--keep", action="store_true",
                        help="with --only: keep the other rows from the last results (--output), "
                             "each marked with when it was measured")
    args = parser.parse_args()
    # Bytecode caches as an installed app has them; the source checkout first on the path.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(REPO)
    rows, runs, produced = [], {}, {}
    began = datetime.now(timezone.utc)
    with Display(args.platform) as display:
        env.update(display.env)
        print(f"Windows draw on: {display.name}", flush=True)
        for name, script, full, quick, needs, owed in BENCHMARKS:
            if args.only and name not in args.only:
                continue
            print(f"== {name} ({script})", flush=True)
            got, ran = run_one(name, script, quick if args.quick else full, needs, owed, env)
            rows += got
            produced[name] = got
            runs[name] = ran
    if args.keep and args.only:
        rows = kept_rows(args.output, produced)
    print(table(rows))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                            capture_output=True, text=True).stdout.strip()
    report = {"started_at": began.isoformat(timespec="seconds"), "commit": commit,
              "quick": args.quick, "platform": display.name, "machine": machine(),
              "results": rows, "runs": runs}
    args.output.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    if args.readme:
        put_in_readme(REPO / "README.md", table(rows), report)
    print(f"\nWritten to {args.output}. Machine: {report['machine']['cpu']}, "
          f"{report['machine']['cores']} cores, load {report['machine']['load_average']}.")
    return 0 if all(r["pass"] is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
