"""What finding a folder's lessons costs over just reading its records: N real runs (a scripted
engine through the real loop: stalls, refusals, undos), then the median of each, as a ratio."""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.core.lessons.lessons import find_lessons
from app.core.run.loop import Harness
from app.core.records.records import read_events, read_rounds, read_run
from app.core.undo.undo import undo_round
from app.core.workspace.workspace import Workspace
from tests.scripted import ScriptedEngine, call, fast_limits, text


def make_records(root: Path, runs: int) -> Workspace:
    root.mkdir()
    (root / "notes.md").write_text("three points\n", encoding="utf-8")
    ws = Workspace(root)
    for i in range(runs):
        (root / "TASKS.md").write_text(f"# Plan\n\n- [ ] Task {i}\n", encoding="utf-8")
        if i % 3 == 0:
            script = [call("read_file", path="notes.md"), text("hm"), text("hm"), text("hm")]
        else:
            script = [call("read_file", path="../secret.txt"),
                      call("write_file", path=f"f{i}.md", content="x\n"),
                      call("complete_task", summary="done", evidence=[f"f{i}.md"])]
        Harness(ws, ScriptedEngine(script * 2, then=text("hm")),
                fast_limits(max_steps=8, stall_limit=1)).run()
        if i % 10 == 1:
            undo_round(root, 1)
    return ws


def read_all(ws: Workspace) -> int:
    n = 0
    for run_id in ws.run_ids():
        files = ws.run_files(run_id)
        read_run(files)
        n += len(read_rounds(files)) + len(read_events(files))
    return n


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=50, help="runs of records to make")
    parser.add_argument("--repeat", type=int, default=9, help="timings of each, median taken")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ws = make_records(Path(tmp) / "ws", args.runs)
        find_lessons(ws.root)  # numbers given once, modules loaded: not part of the timing
        base = median_ms(lambda: read_all(ws), args.repeat)
        lessons = median_ms(lambda: find_lessons(ws.root), args.repeat)
        count = len(find_lessons(ws.root).lessons)
    print(f"{args.runs} runs of records, read back:      median {base:7.1f} ms")
    print(f"the same, with {count} lessons found:     median {lessons:7.1f} ms "
          f"({lessons / base:.2f}x the reading alone)")


if __name__ == "__main__":
    main()
