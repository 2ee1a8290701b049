"""UI stall benchmark: the longest gap of a 10 ms UI-thread timer during full-speed Demo runs.

    python bench/ui_stall.py [--runs 3] [--busy N] [--json FILE]

Opens the window on a copy of the demo workspace (offscreen unless QT_QPA_PLATFORM is set),
runs the Demo engine with no pause between steps to its decision, answers it through the
dialog (which carries on), and runs on to Done, while a 10 ms timer on the UI thread records
when it fires. A stall is a gap beyond the timer's own 10 ms. Before each run the same timer runs with
nothing to do for as long (the idle baseline, interleaved with the runs so both see the
same load). Prints, per run and over all, the longest gap and the 99th percentile beside the
idle baseline's, the median and the worst of the runs' longest gaps (target: the median
within 50 ms), the processor and the load average. With --busy N, N busy-loop processes
load the machine on purpose while it measures.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
TICK_MS = 10


def one_run(app, tmp: Path) -> tuple[list[float], int, float]:
    from PySide6.QtCore import QTimer

    from app.core.settings import Settings
    from app.gui.main_window import MainWindow

    folder = tmp / f"Bakery {time.monotonic_ns()}"
    shutil.copytree(REPO / "resources" / "demo-workspace", folder)
    window = MainWindow(Settings(), demo_delay=0.0, check_engines=False)
    window.show()
    opened, ended, dialogs, events = [], [], [], []
    window.workspace_opened.connect(opened.append)
    window.run_ended.connect(ended.append)
    window.decision_shown.connect(dialogs.append)
    window.runner.event_received.connect(events.append)
    window.open_workspace(folder)
    wait(app, lambda: bool(opened), 10)

    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        if window.runner.running:
            gaps.append((now - last[0]) * 1000)
        last[0] = now

    timer = QTimer()
    timer.setInterval(TICK_MS)
    timer.timeout.connect(tick)
    timer.start()
    began = time.perf_counter()
    window.run_panel.primary.click()
    wait(app, lambda: bool(dialogs) and bool(ended), 60)
    dialog = dialogs[0]
    ended.clear()
    dialog.recommended_button.click()  # answering carries on at once: no second click
    wait(app, lambda: bool(ended), 60)
    seconds = time.perf_counter() - began
    timer.stop()
    if not ended or ended[0].state != "done":
        raise SystemExit(f"the run did not reach Done: {ended}")
    window.close()
    window.deleteLater()
    return gaps, len(events), seconds


def idle_gaps(app, seconds: float = 1.0) -> list[float]:
    """The same timer with nothing running: what this machine's load alone costs."""
    from PySide6.QtCore import QTimer

    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append((now - last[0]) * 1000)
        last[0] = now

    timer = QTimer()
    timer.setInterval(TICK_MS)
    timer.timeout.connect(tick)
    timer.start()
    wait(app, lambda: False, seconds)
    timer.stop()
    return gaps[1:]


def wait(app, done, seconds: float) -> bool:
    """Run the event loop as the app does (app.exec(): asleep until an event comes) until
    done() or `seconds` pass. Polling processEvents() with a 1 ms sleep instead would take
    the GIL back from the run thread a thousand times a second, a load the app never has."""
    from PySide6.QtCore import QEventLoop, QTimer

    if done():
        return True
    loop = QEventLoop()
    check, deadline = QTimer(), QTimer()
    check.setInterval(20)
    check.timeout.connect(lambda: loop.quit() if done() else None)
    deadline.setSingleShot(True)
    deadline.timeout.connect(loop.quit)
    check.start()
    deadline.start(round(seconds * 1000))
    loop.exec()
    check.stop()
    deadline.stop()
    return done()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--busy", type=int, default=0, metavar="N",
                        help="load the machine with N busy-loop processes while measuring")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="also write the results as JSON to FILE (bench.run_all reads it)")
    args = parser.parse_args()
    from PySide6.QtCore import qInstallMessageHandler

    from app.gui.app import make_application

    qInstallMessageHandler(lambda *_: None)
    from bench.common import BusyLoops, load_average, machine_line

    app = make_application()
    longest, p99s, counts, idle_longest = [], [], [], []
    load_before = load_average()
    with tempfile.TemporaryDirectory(prefix="harness-desk-stall-") as tmp, BusyLoops(args.busy):
        os.environ["HARNESS_DESK_CONFIG_DIR"] = str(Path(tmp) / "config")
        for n in range(args.runs):
            idle = idle_gaps(app)  # the baseline, just before the run: the same moment's load
            gaps, events, seconds = one_run(app, Path(tmp))
            p99 = statistics.quantiles(gaps, n=100)[98] if len(gaps) > 2 else 0.0
            longest.append(max(gaps) if gaps else 0.0)
            idle_longest.append(max(idle) if idle else 0.0)
            p99s.append(p99)
            counts.append(events)
            print(f"run {n + 1}: {events} events in {seconds:.2f} s, {len(gaps)} ticks; longest "
                  f"gap {longest[-1]:.1f} ms, 99th percentile {p99:.1f} ms; idle just before: "
                  f"longest {idle_longest[-1]:.1f} ms", flush=True)
        line = machine_line(args.busy)
    load_after = load_average()
    gap = statistics.median(longest)
    print(line)
    print(f"load average before {load_before}, after {load_after}")
    print(f"longest gap between 10 ms ticks over {args.runs} full-speed Demo runs: median "
          f"{gap:.1f} ms, worst {max(longest):.1f} ms (target: median <= 50 ms); idle baseline: "
          f"median {statistics.median(idle_longest):.1f} ms, worst {max(idle_longest):.1f} ms")
    if args.json is not None:
        from bench.common import hand_back, item

        return hand_back(args.json, [item(
            "ui_stall", "Longest gap between 10 ms UI ticks, full-speed Demo run", "<= 50 ms",
            round(gap, 1), "ms", gap <= 50,
            note=f"median of {args.runs} runs' longest; worst {max(longest):.1f} ms; idle "
                 f"baseline {statistics.median(idle_longest):.1f} / worst "
                 f"{max(idle_longest):.1f} ms; load {load_before[:1] or '?'}"
                 f"{f', {args.busy} busy loops' if args.busy else ''}",
            runs_longest_gap_ms=[round(x, 1) for x in longest], worst_gap_ms=round(max(longest), 1),
            runs_p99_gap_ms=[round(x, 1) for x in p99s], events=counts,
            idle_longest_gap_ms=[round(x, 1) for x in idle_longest],
            load_average_before=load_before, load_average_after=load_after,
            busy_loops=args.busy, machine=line)])
    return 0 if gap <= 50 else 1


if __name__ == "__main__":
    sys.exit(main())
