"""Harness overhead per step, without the model: 200 instant steps on 100 and 5,000 files.

    python bench/step_overhead.py [--runs 3] [--steps 200] [--json FILE]

An engine that answers at once drives the real loop (app.core.run.loop.Harness) with the tool
calls an agent really makes (list_files, read_file, search_files in a folder, write_file,
edit_file; one search of the whole workspace per round; complete_task at the round's end),
rounds of 40 steps, `--steps` steps a run. A step's overhead is the time from the engine's
answer to the next call of the engine: the tools, the undo copies, events.jsonl and
status.json, and starting the next step (or finishing the round and starting the next).
Workspaces are generated in a temp folder: 100 files (2 MB) and 5,000 files (100 MB) of
real text, in folders of 100. Runs alternate between the two sizes so load hits both
alike; each figure is the median of the runs' medians. Measured twice: as shipped, and
with os.fsync made a no-op, which shows what the disk's flushes cost. And once more on
100 files with every fsync made 10 ms slower, as on a busy or slow disk: in a child
process under an LD_PRELOAD shim compiled at run time (bench/slow_fsync.py: fsync and
fdatasync sleep in C, the GIL released, as a slow disk's one long system call), or with a
Python wrapper around os.fsync where no C compiler is found (the output says which): the
gap after a write against the gap after a read shows what a write step's flushes cost
where a person would feel them (issue 36). A write
step waits for no flush of its own: the file is flushed after its replace on the round's
flusher thread (app/core/undo/flush.py), as is the journal's line for a file the round creates;
only the first change of a file that held content before the round waits for its journal
line, before the replace (the bench's writes make new files and then edit them, as an agent
writing a report does; tests/core/undo/test_flush_overlap.py holds the other case). The
flushes are handed to that thread once the step is done, as the next model call starts
(RoundChanges.hand_off): woken inside the step, the thread took the GIL between the step's
own writes and cost a write step 2-5 ms on a loaded machine. The round's end waits for
every flush. The same pass times a write step's phases (pre-image, journal,
temp write, replace, post-image, the hand-off to the flusher) with the delay off and on.

What a write step costs beyond a read step, and where it went (issue 36, row 5): making the
temporary file was 0.2-0.6 ms of kernel time a write on ext4, so a step takes an empty one
made ahead on the flusher thread (app/core/workspace/spare_files.py); the flusher, woken as
the step ends, took the loop's core on a loaded machine (a write step was preempted three
times as often as a read step, and waited a scheduler slice each time), so it runs under
SCHED_BATCH on Linux, and is one thread a process, not one started in each round's first
write. At load 4.5-7 the gap after a write went from 5.2-6.3x the gap after a read to
1.4-1.6x (interleaved runs, the old tree against the new).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import arguments, hand_back, item, median, ms, quantile
from bench.slow_fsync import build, child_env, one_fsync_ms

from app.core.engine.conversation import Message, ModelTurn, ToolCall, ToolSpec, Usage
from app.core.engine.port import Availability, Engine

STEPS_PER_ROUND = 40
FILE_BYTES = 20_000
FOLDER_FILES = 100
TARGET_MS = 5.0
SLOW_FSYNC_S = 0.010  # what each flush is made to cost in the slow-disk pass
SLOW_TARGET_X = 2.0   # the gap after a write, at most this times the gap after a read
WHOLE = "search_files (whole workspace)"
SIZES = {"100 files": 100, "5,000 files": 5000}
WORDS = ("the bakery opens at seven and the ovens need an hour to heat before the first "
         "loaves of sourdough rye and spelt go in while the team checks the orders").split()


def make_workspace(root: Path, files: int, tasks: int) -> list[str]:
    """`files` text files of FILE_BYTES in folders of FOLDER_FILES; returns their paths."""
    root.mkdir(parents=True)
    paths = []
    line_no = 0
    for n in range(files):
        rel = f"area-{n // FOLDER_FILES:02d}/note-{n % FOLDER_FILES:03d}.md"
        lines, size = [f"# Note {n}\n"], 0
        while size < FILE_BYTES:
            line_no += 1
            words = " ".join(WORDS[(line_no + k) % len(WORDS)] for k in range(12))
            lines.append(f"- item {line_no}: {words}\n")
            size += len(lines[-1])
        path = root / rel
        path.parent.mkdir(exist_ok=True)
        path.write_text("".join(lines), encoding="utf-8")
        paths.append(rel)
    write_board(root, tasks)
    return paths


def write_board(root: Path, tasks: int) -> None:
    board = ["# Bench board", ""] + [
        f"- [ ] Summarise area {t:02d} into a short report\n  - Done when: the report exists"
        for t in range(tasks)]
    (root / "TASKS.md").write_text("\n".join(board) + "\n", encoding="utf-8")


def _turn(words: str, *calls: tuple[str, dict]) -> ModelTurn:
    return ModelTurn(text=words, tool_calls=[ToolCall(id=f"call-{time.perf_counter_ns()}-{i}",
                                                     name=n, arguments=a)
                                            for i, (n, a) in enumerate(calls)],
                     usage=Usage(input_tokens=1000, output_tokens=60), model="instant-1",
                     stop_reason="tool_use")


def round_script(files: list[str], run: int, round_no: int) -> list[ModelTurn]:
    """What an agent does in one round: look, read, search a folder, write and edit its
    report, check it, once search the whole workspace, and complete the task."""
    out = f"reports/run-{run}/round-{round_no}"
    turns: list[ModelTurn] = []
    k = 0
    while len(turns) < STEPS_PER_ROUND - 1:
        f = files[(round_no * 37 + k * 13) % len(files)]
        folder = f.split("/")[0]
        draft = f"{out}/part-{k}.md"
        body = "".join(f"- point {i} about {folder}: {' '.join(WORDS[i % 9:i % 9 + 8])}\n"
                       for i in range(40))
        turns += [
            _turn("Let me look at this area.", ("list_files", {"path": folder})),
            _turn("", ("read_file", {"path": f})),
            _turn("", ("search_files", {"query": f"item {k * 7 + 3}:", "path": folder})),
            _turn("Reading further.", ("read_file", {"path": f, "offset": 20 + k, "limit": 40})),
            _turn("Writing the part.", ("write_file", {"path": draft,
                                                       "content": f"# Part {k}\n\n{body}"})),
            _turn("", ("edit_file", {"path": draft, "old_text": f"- point 3 about {folder}",
                                     "new_text": f"- point 3 (checked) about {folder}"})),
            _turn("", ("list_files", {"path": out})),
            _turn("Checking it.", ("read_file", {"path": draft}),
                  ("read_file", {"path": files[(k * 101 + 5) % len(files)], "limit": 30})),
        ]
        if k == 1:  # an agent sometimes looks everywhere: the one scan of the whole workspace
            turns.append(_turn("", ("search_files", {"query": f"# note {round_no * 11}"})))
        k += 1
    turns = turns[:STEPS_PER_ROUND - 1]
    turns.append(_turn("Done.", ("complete_task", {"summary": "Wrote the report.",
                                                   "evidence": [f"{out}/part-0.md"]})))
    return turns


class Calls:
    """Counts calls of a few os functions (still calling them): disk flushes, file
    replacements and folder scans per step are facts no load on the machine can blur."""

    NAMES = ("fsync", "replace", "scandir")

    def __init__(self) -> None:
        self.counts = dict.fromkeys(self.NAMES, 0)
        self.saved = {name: getattr(os, name) for name in self.NAMES}

    def __enter__(self) -> "Calls":
        for name, real in self.saved.items():
            def counted(*args, _real=real, _name=name, **kw):
                self.counts[_name] += 1
                return _real(*args, **kw)
            setattr(os, name, counted)
        return self

    def __exit__(self, *exc) -> None:
        for name, real in self.saved.items():
            setattr(os, name, real)

    def snapshot(self) -> dict[str, int]:
        return dict(self.counts)


class InstantEngine(Engine):
    """Answers every step at once from a script; notes when each answer left and the next
    call came in (the harness's part of the step)."""

    id = "instant"
    label = "Instant scripted engine"
    is_ai = False
    default_model = "instant-1"

    def __init__(self, files: list[str], run: int, calls: Calls):
        super().__init__()
        self.files, self.run, self.calls = files, run, calls
        self.script: list[ModelTurn] = []
        self.round = 0
        self.entered: list[tuple[float, float]] = []  # (wall, CPU) as each call came in
        self.left: list[tuple[float, float]] = []     # (wall, CPU) as each answer went back
        self.kinds: list[str] = []                     # the tools each answer asked for
        self.counted: list[dict[str, int]] = []        # Calls as each call came in

    def availability(self) -> Availability:
        return Availability(True, "Instant.")

    def cost_usd(self, usage: Usage) -> float:
        return 0.0

    def turn(self, system: str, tools: list[ToolSpec], messages: list[Message], *,
             cancel: threading.Event | None = None, on_text=None,
             max_output_tokens: int | None = None) -> ModelTurn:
        self.entered.append((time.perf_counter(), time.thread_time()))
        self.counted.append(self.calls.snapshot())
        if len(messages) == 1:  # a new round: its own script
            self.round += 1
            self.script = round_script(self.files, self.run, self.round)
        turn = self.script.pop(0)
        if on_text is not None and turn.text:
            for i in range(0, len(turn.text), 6):  # streamed, as a real engine does
                on_text(turn.text[i:i + 6])
        self.kinds.append("+".join(WHOLE if c.name == "search_files" and "path" not in c.arguments
                                   else c.name for c in turn.tool_calls))
        self.left.append((time.perf_counter(), time.thread_time()))
        return turn


def one_run(root: Path, files: list[str], run: int, steps: int) -> dict:
    """One run of `steps` steps; per step, the harness's wall and CPU seconds."""
    from app.core.run.loop import Harness
    from app.core.settings import Limits
    from app.core.workspace.workspace import Workspace

    rounds = -(-steps // STEPS_PER_ROUND)
    write_board(root, rounds + 1)
    limits = Limits(max_steps=STEPS_PER_ROUND + 5, max_rounds=rounds)
    with Calls() as calls:
        engine = InstantEngine(files, run, calls)
        began = time.perf_counter()
        result = Harness(Workspace(root), engine, limits).run()
        ended = (time.perf_counter(), time.thread_time())
        total = time.perf_counter() - began
        counted = engine.counted[1:] + [calls.snapshot()]
    if result.exit_reason != "max_rounds":
        raise SystemExit(f"the bench run ended early: {result.exit_reason}: {result.message}")
    walls, cpus, kinds = [], [], []
    nexts = engine.entered[1:] + [ended]
    for (left_wall, left_cpu), (next_wall, next_cpu), kind in zip(engine.left, nexts, engine.kinds):
        walls.append(next_wall - left_wall)
        cpus.append(next_cpu - left_cpu)
        kinds.append(kind)
    # The engine answers instantly, so the calls between two of its turns are the step's.
    per_step = {name: (counted[-1][name] - engine.counted[0][name]) / len(walls)
                for name in Calls.NAMES}
    return {"wall": walls, "cpu": cpus, "kinds": kinds, "total": total, "calls": per_step}


def summarise(runs: list[dict]) -> dict:
    """Median of the runs' medians, and what the slow steps were."""
    def per_run(key: str, pick=lambda k: True) -> list[float]:
        return [median(x for x, k in zip(r[key], r["kinds"]) if pick(k)) for r in runs]

    out = {
        "median_ms": ms(median(per_run("wall"))),
        "median_cpu_ms": ms(median(per_run("cpu"))),
        "p90_ms": ms(median(quantile(r["wall"], 0.9) for r in runs)),
        "steps": len(runs[0]["wall"]),
        "runs": len(runs),
        "run_medians_ms": [ms(x) for x in per_run("wall")],
        "per_step": {name: round(median(r["calls"][name] for r in runs), 2)
                     for name in Calls.NAMES},
    }
    by_tool: dict[str, float] = {}
    for kind in sorted({k for r in runs for k in r["kinds"]}):
        by_tool[kind] = ms(median(per_run("wall", lambda k, kind=kind: k == kind)))
    out["by_tool_ms"] = by_tool
    out["by_tool_cpu_ms"] = {kind: ms(median(per_run("cpu", lambda k, kind=kind: k == kind)))
                             for kind in by_tool}
    return out


def slowed(real):
    """os.fsync as a slow or busy disk has it: every flush takes SLOW_FSYNC_S longer."""
    def fsync(fd):
        time.sleep(SLOW_FSYNC_S)
        return real(fd)
    return fsync


def measure(sizes: dict[str, int], runs: int, steps: int, tmp: Path,
            wrap_fsync=None) -> dict[str, dict]:
    real_fsync = os.fsync
    if wrap_fsync is not None:
        os.fsync = wrap_fsync(real_fsync)
    try:
        return _measure(sizes, runs, steps, tmp)
    finally:
        os.fsync = real_fsync


def _measure(sizes: dict[str, int], runs: int, steps: int, tmp: Path) -> dict[str, dict]:
    made = {}
    for name, count in sizes.items():
        root = tmp / name.replace(",", "").replace(" ", "-")
        made[name] = (root, make_workspace(root, count, 1))
    samples: dict[str, list[dict]] = {name: [] for name in sizes}
    for n in range(runs + 1):
        for name, (root, files) in made.items():  # alternate the sizes: the same load for both
            got = one_run(root, files, n, steps)
            if n:  # the first run of each warms the file cache and the imports
                samples[name].append(got)
    out = {}
    for name, got in samples.items():
        summary = summarise(got)
        summary["whole_workspace_search_ms"] = summary["by_tool_ms"].get(WHOLE, 0.0)
        summary["run_seconds"] = round(median(r["total"] for r in got), 2)
        out[name] = summary
    return out


PERSONS = "write_file (first change of a file of the person's)"
PHASES = ("tool's own work", "pre-image", "journal", "temp write", "replace", "post-image",
          "hand-off to the flusher")


def write_phases(tmp: Path, steps: int = 60, wrap_fsync=None) -> dict[str, dict[str, float]]:
    """Where a write step's time goes (ms a step, exclusive of what it calls, the median of
    `steps`): the real ToolBox, undo recorder and flusher, each phase timed by wrapping the
    function that does it. For write_file of a new file, edit_file of it, and write_file
    over a file that held content before the round (which waits for its journal line)."""
    from app.core.workspace import files
    from app.core.undo import flush
    from app.core.undo import undo
    from app.core.policies.gate import ChangeGate
    from app.core.tools.toolbox import ToolBox

    targets = [(undo.RoundChanges, "before_change", "pre-image"),
               (undo.RoundChanges, "after_change", "post-image"),
               (undo, "journal_append", "journal"),
               (undo, "atomic_write_bytes", "temp write"),
               (files, "_commit", "replace"),
               (flush.Flusher, "kick", "hand-off to the flusher"),
               (ToolBox, "call", "tool's own work")]
    spent: dict[str, float] = {}
    stack: list[list] = []

    def timed(name, fn):
        def wrapper(*args, **kw):
            stack.append([name, 0.0])
            began = time.perf_counter()
            try:
                return fn(*args, **kw)
            finally:
                took = time.perf_counter() - began
                _, inner = stack.pop()
                spent[name] = spent.get(name, 0.0) + took - inner
                if stack:
                    stack[-1][1] += took
        return wrapper

    saved = [(owner, attr, getattr(owner, attr)) for owner, attr, _ in targets]
    real_fsync = os.fsync
    root = tmp / "phases"
    root.mkdir(parents=True)
    (root / "TASKS.md").write_text("# Tasks\n\n- [ ] Write the report\n", encoding="utf-8")
    body = "".join(f"- point {i}: {' '.join(WORDS[i % 9:i % 9 + 8])}\n" for i in range(40))
    out: dict[str, dict[str, float]] = {}
    try:
        for owner, attr, name in targets:
            setattr(owner, attr, timed(name, getattr(owner, attr)))
        if wrap_fsync is not None:
            os.fsync = wrap_fsync(real_fsync)
        changes = undo.RoundChanges(root, undo.BlobStore(root / ".harness"),
                                    root / ".harness" / "undo" / "1.json", 1)
        gate = ChangeGate(root, root / ".harness", root / "TASKS.md", lambda event: None, "r")
        box = ToolBox(root, root / "TASKS.md", "Write the report", changes, gate=gate)
        for k in range(steps):  # the person's own files, for a first change of one
            (root / f"notes-{k}.md").write_text(body, encoding="utf-8")
        for kind in ("write_file", "edit_file", PERSONS):
            per_step: dict[str, list[float]] = {name: [] for name in PHASES}
            for k in range(steps):
                args = {"path": f"reports/part-{k}.md"}
                args.update({"content": body} if kind == "write_file" else
                            {"old_text": "point 3:", "new_text": "point 3 (checked):"})
                if kind == PERSONS:
                    args = {"path": f"notes-{k}.md", "content": body.upper()}
                    if k % 5 == 0:  # a round changes a few of the person's files, not dozens
                        changes.finish()  # (the gate would hold the rest for the person)
                        changes = undo.RoundChanges(root, undo.BlobStore(root / ".harness"),
                                                    root / ".harness" / "undo" / f"{k}.json", k)
                        box = ToolBox(root, root / "TASKS.md", "Write the report", changes,
                                      gate=ChangeGate(root, root / ".harness", root / "TASKS.md",
                                                      lambda event: None, f"r{k}"))
                spent.clear()
                if box.call("write_file" if kind == PERSONS else kind, args).is_error:
                    raise SystemExit(f"the phase bench's {kind} failed")
                changes.hand_off()  # as the loop does before it asks the model again
                for name in PHASES:
                    per_step[name].append(spent.get(name, 0.0))
            out[kind] = {name: ms(median(v)) for name, v in per_step.items()}
        changes.finish()
    finally:
        os.fsync = real_fsync
        for owner, attr, real in saved:
            setattr(owner, attr, real)
    return out


def slow_pass(runs: int, steps: int, tmp: Path, how: str) -> dict:
    """The slow-disk pass, in this process: `how` is "shim" (the process runs under the
    LD_PRELOAD shim, os.fsync untouched) or "wrapper" (os.fsync wrapped in Python here)."""
    wrap = slowed if how == "wrapper" else None
    if wrap is None:
        check = one_fsync_ms(tmp)
    else:
        os.fsync = slowed(real := os.fsync)
        try:
            check = one_fsync_ms(tmp)
        finally:
            os.fsync = real
    slow = measure({"100 files": SIZES["100 files"]}, runs, steps, tmp / "slowdisk",
                   wrap_fsync=wrap)["100 files"]
    return {"how": how, "one_fsync_ms": check, "slow": slow,
            "phases": write_phases(tmp / "phases-slow", wrap_fsync=wrap)}


def run_slow_child(how: str, lib: Path | None, runs: int, steps: int, tmp: Path) -> dict:
    """The slow-disk pass in a child process: under LD_PRELOAD=lib for "shim"."""
    out = tmp / f"slow-{how}-{time.perf_counter_ns()}.json"
    env = child_env(lib) if how == "shim" and lib is not None else dict(os.environ)
    subprocess.run([sys.executable, str(Path(__file__).resolve()), "--slow-child", how,
                    "--child-out", str(out), "--runs", str(runs), "--steps", str(steps)],
                   env=env, check=True)
    got = json.loads(out.read_text(encoding="utf-8"))
    out.unlink()
    return got


def slow_ratio(slow: dict) -> tuple[float, float, float, float]:
    write_gap, edit_gap = slow["by_tool_ms"]["write_file"], slow["by_tool_ms"]["edit_file"]
    read_gap = slow["by_tool_ms"]["read_file"]
    return write_gap / read_gap if read_gap else float("nan"), write_gap, edit_gap, read_gap


def compare_slow(times: int, lib: Path | None, runs: int, steps: int, tmp: Path) -> int:
    """The old Python wrapper against the shim, interleaved in children, the load printed."""
    if lib is None:
        print("no shim to compare with (no C compiler)")
        return 1
    for n in range(times):
        for how in ("wrapper", "shim") if n % 2 == 0 else ("shim", "wrapper"):
            got = run_slow_child(how, lib, runs, steps, tmp)
            x, write_gap, edit_gap, read_gap = slow_ratio(got["slow"])
            print(f"  {how:<7} load {' '.join(f'{v:.2f}' for v in os.getloadavg())}: one fsync "
                  f"{got['one_fsync_ms']:.1f} ms; write {write_gap:.2f} ms, edit {edit_gap:.2f} "
                  f"ms, read {read_gap:.2f} ms: {x:.2f}x; CPU write "
                  f"{got['slow']['by_tool_cpu_ms']['write_file']:.2f} ms, read "
                  f"{got['slow']['by_tool_cpu_ms']['read_file']:.2f} ms", flush=True)
    return 0


def main() -> int:
    parser = arguments(__doc__, runs=3)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--slow-child", choices=("shim", "wrapper"), help=argparse.SUPPRESS)
    parser.add_argument("--child-out", help=argparse.SUPPRESS)
    parser.add_argument("--compare-slow", type=int, default=0, metavar="N",
                        help="only the slow-disk pass, N times each way: the Python wrapper "
                             "against the LD_PRELOAD shim, interleaved")
    parser.add_argument("--no-fsync-variant", action="store_true",
                        help="skip the second pass with os.fsync disabled")
    parser.add_argument("--no-slow-disk-variant", action="store_true",
                        help="skip the pass with every os.fsync 10 ms slower")
    args = parser.parse_args()
    os.environ.setdefault("HARNESS_DESK_CONFIG_DIR", tempfile.mkdtemp(prefix="hd-bench-config-"))
    if args.slow_child:
        with tempfile.TemporaryDirectory(prefix="hd-bench-slow-") as folder:
            got = slow_pass(args.runs, args.steps, Path(folder), args.slow_child)
        Path(args.child_out).write_text(json.dumps(got), encoding="utf-8")
        return 0
    with tempfile.TemporaryDirectory(prefix="hd-bench-steps-") as folder:
        tmp = Path(folder)
        lib, built = build(tmp / "shim", SLOW_FSYNC_S)
        if args.compare_slow:
            return compare_slow(args.compare_slow, lib, args.runs, args.steps, tmp)
        shipped = measure(SIZES, args.runs, args.steps, tmp / "shipped")
        no_fsync = None
        if not args.no_fsync_variant:
            real_fsync = os.fsync
            os.fsync = lambda fd: None
            try:
                no_fsync = measure(SIZES, args.runs, args.steps, tmp / "nofsync")
            finally:
                os.fsync = real_fsync
        slow, phases, how, check = None, {"quiet disk": write_phases(tmp / "phases-quiet")}, "", 0.0
        if not args.no_slow_disk_variant:
            got = run_slow_child("shim" if lib else "wrapper", lib, args.runs, args.steps, tmp)
            slow, check = got["slow"], got["one_fsync_ms"]
            phases["every fsync 10 ms slower"] = got["phases"]
            plain = one_fsync_ms(tmp)
            how = (f"{built}; one os.fsync in the child took {check:.1f} ms, here without it "
                   f"{plain:.1f} ms" if lib else
                   f"{built}: fell back to a Python wrapper around os.fsync; one os.fsync "
                   f"took {check:.1f} ms")
        shutil.rmtree(tmp, ignore_errors=True)

    small, big = shipped["100 files"], shipped["5,000 files"]
    print(f"Harness overhead per step, {args.steps} steps a run, median of {args.runs} runs "
          f"(each the median of its steps):")
    for name, s in shipped.items():
        print(f"  {name:<12} median {s['median_ms']:6.2f} ms wall, {s['median_cpu_ms']:6.2f} ms "
              f"CPU, 90th percentile {s['p90_ms']:7.2f} ms; whole-workspace search "
              f"{s['whole_workspace_search_ms']:8.1f} ms; run {s['run_seconds']} s")
        print("      by tool: " + ", ".join(f"{k} {v:.2f}" for k, v in s["by_tool_ms"].items()))
        print("      per step: " + ", ".join(f"{v:g} os.{k}" for k, v in s["per_step"].items()))
        if no_fsync:
            n = no_fsync[name]
            print(f"      with os.fsync disabled: median {n['median_ms']:6.2f} ms wall, "
                  f"{n['median_cpu_ms']:6.2f} ms CPU (fsync's share: "
                  f"{s['median_ms'] - n['median_ms']:+.2f} ms)")
    if slow:
        slow_x, write_gap, edit_gap, read_gap = slow_ratio(slow)
        print(f"  every fsync {SLOW_FSYNC_S * 1000:g} ms slower ({how}; load "
              f"{' '.join(f'{v:.2f}' for v in os.getloadavg())})")
        print(f"  every fsync {SLOW_FSYNC_S * 1000:g} ms slower (100 files): gap after a write "
              f"{write_gap:.2f} ms (an edit {edit_gap:.2f} ms), after a read {read_gap:.2f} ms: "
              f"{slow_x:.2f}x; {slow['per_step']['fsync']:g} fsync a step; CPU a write "
              f"{slow['by_tool_cpu_ms']['write_file']:.2f} ms, a read "
              f"{slow['by_tool_cpu_ms']['read_file']:.2f} ms")
    for disk, kinds in phases.items():
        for kind, spent in kinds.items():
            print(f"  a {kind} step, {disk}: " + ", ".join(
                f"{name} {v:.2f}" for name, v in spent.items()) +
                f" (ms; total {sum(spent.values()):.2f})")
    ratio = big["median_ms"] / small["median_ms"] if small["median_ms"] else float("nan")
    print(f"  5,000 files / 100 files: {ratio:.2f}x")
    same = ratio <= 1.25 or big["median_ms"] - small["median_ms"] <= 0.5
    def note(s: dict) -> str:
        return (f"CPU {s['median_cpu_ms']:.1f} ms, p90 {s['p90_ms']:.1f} ms, "
                f"{s['per_step']['fsync']:g} fsync a step")

    items = [
        item("step_overhead_100", "Harness overhead per step, 100 files", f"<= {TARGET_MS:g} ms",
             small["median_ms"], "ms", small["median_ms"] <= TARGET_MS, note=note(small), **small,
             without_fsync=no_fsync and no_fsync["100 files"]),
        item("step_overhead_5000", "Harness overhead per step, 5,000 files (100 MB)",
             f"<= {TARGET_MS:g} ms", big["median_ms"], "ms", big["median_ms"] <= TARGET_MS,
             note=note(big), **big, without_fsync=no_fsync and no_fsync["5,000 files"]),
        item("step_overhead_ratio", "Per-step overhead, 5,000 files / 100 files",
             "the same (<= 1.25x)", round(ratio, 2), "x", same,
             note=f"a search of the whole workspace, when asked: "
                  f"{small['whole_workspace_search_ms']:.0f} / "
                  f"{big['whole_workspace_search_ms']:.0f} ms"),
    ]
    if slow:
        items.append(item(
            "step_gap_slow_fsync", f"Gap after a write / after a read, every fsync "
            f"{SLOW_FSYNC_S * 1000:g} ms slower", f"<= {SLOW_TARGET_X:g}x", round(slow_x, 2), "x",
            slow_x <= SLOW_TARGET_X,
            note=f"write {write_gap:.1f} ms, edit {edit_gap:.1f} ms, read {read_gap:.1f} ms; {how}",
            slow_fsync=how, one_fsync_ms=check, write_ms=write_gap, edit_ms=edit_gap,
            read_ms=read_gap, write_phases_ms=phases,
            **slow))
    return hand_back(args.json, items)


if __name__ == "__main__":
    sys.exit(main())
