"""Start-up benchmark: the app's window USABLE vs a bare PySide6 window, started the same way.

    python bench/startup.py [--runs 7] [--busy N] [--paths] [--json FILE]

Each sample is a fresh `python` process; the parent clocks from spawning it until the child
reports. The bare sample shows an empty QWidget and reports its first Expose (painted). The
app sample runs `harness-desk open FOLDER` (app.cli.main) on a copy of the demo and reports
when the window is usable: the folder's checklist drawn with Run enabled (the window's
`became_usable`, app/gui/folder/usable.py). Its first paint (an empty frame) and the window
complete (top bar, menus and page) are printed beside it. Prints the median and the worst of
each, their ratio (target: the medians' ratio at most 1.5; the worst pair's ratio is shown
beside it), the processor and the load average before and after, and whether any AI SDK was
imported before the window was usable (it must not be). With --busy N, N busy-loop processes
load the machine on purpose while it measures. Uses QT_QPA_PLATFORM if set, else offscreen;
under xcb it measures offscreen as well (a second row), since the target holds for both.
With --paths, the two other starts a person takes are measured too, interleaved with those
and printed beside them: `harness-desk open --demo` (scripts/demo.sh: a fresh demo copy, the
Demo engine) and `harness-desk` with no folder named (the last folder, from the settings).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Reports the first Expose of a top-level window, with whether an AI SDK is loaded, then
# exits. It watches the window's own QWindow (installed as show() is called), not the whole
# application: an application-wide filter makes PySide wrap every start-up event for Python,
# which would cost the measured program more than its first paint.
PROBE = r"""
import os, sys
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget
class FirstExpose(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Expose:
            obj.removeEventFilter(self)
            sdk = sorted({m.split('.')[0] for m in sys.modules} & {'anthropic', 'openai'})
            print('shown', ','.join(sdk) or '-', flush=True)
            if not STAY:
                os._exit(0)
        return False
_probe = FirstExpose()
_show = QWidget.show
def show(self):
    if self.isWindow():
        self.winId()
        self.windowHandle().installEventFilter(_probe)
    _show(self)
QWidget.show = show
"""

BARE = "STAY = False" + PROBE + r"""
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv)
w = QWidget(); w.resize(1180, 760); w.show()
app.exec()
"""

# The app then also reports when the window is complete (its first paint is the bare frame;
# the top bar, menus and page are built right after it: "complete" is the top bar's first
# paint), and last when it is usable (the checklist drawn with Run enabled), with the AI
# SDKs loaded by then.
APP = "STAY = True" + PROBE + r"""
import app.gui.main_window as mw
class FirstPaint(QObject):
    receivers = 0  # widgets still watched
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            obj.removeEventFilter(self)
            FirstPaint.receivers = 0
            print('complete', flush=True)
        return False
_painted = FirstPaint()
def usable():
    if _painted.receivers:  # usable in the built window's first paint: complete as well
        print('complete', flush=True)
    sdk = sorted({m.split('.')[0] for m in sys.modules} & {'anthropic', 'openai'})
    print('usable', ','.join(sdk) or '-', flush=True)
    os._exit(0)
_build = mw.MainWindow.finish_building
def finish_building(self):
    fresh = self._page is None
    _build(self)
    if fresh:
        self.top_bar.installEventFilter(_painted)
        FirstPaint.receivers = 1
        self.became_usable.connect(usable)
mw.MainWindow.finish_building = finish_building
from app.cli import main
sys.exit(main(sys.argv[1:]))
"""

# The starts measured (--paths: all three), each (its name, its arguments to app.cli.main).
OPEN_FOLDER = "open FOLDER"
STARTS = {OPEN_FOLDER: lambda folder: ["open", str(folder)],
          "open --demo": lambda folder: ["open", "--demo"],
          "no folder named (the last one)": lambda folder: []}


def sample(code: str, args: list[str], env: dict[str, str]) -> tuple[float, str, dict]:
    """(seconds to the first window shown, AI SDKs loaded by then, {"complete": seconds to
    the window complete, "usable": seconds to the window usable, "sdk": AI SDKs by then}, as
    far as reported)."""
    began = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env, cwd=REPO)
    line = proc.stdout.readline() if proc.stdout else ""
    shown = time.perf_counter() - began
    if not line.startswith("shown"):
        raise SystemExit(f"the window never showed: {line!r}")
    later: dict = {}
    for more in proc.stdout if proc.stdout else ():
        word, *rest = more.split()
        later[word] = time.perf_counter() - began
        if word == "usable":
            later["sdk"] = rest[0] if rest else "-"
    proc.wait(timeout=60)
    return shown, line.split()[1], later


def start_env(env: dict[str, str], start: str, folder: Path) -> dict[str, str]:
    """The environment of one start: past open FOLDER, a config folder of its own (the demo's
    copies go there too); for the start with no folder named, settings whose last folder is
    `folder`."""
    if start == OPEN_FOLDER:
        return env
    config = Path(env["HARNESS_DESK_CONFIG_DIR"] + "-" + str(list(STARTS).index(start)))
    config.mkdir(parents=True, exist_ok=True)
    if not STARTS[start](folder):
        (config / "settings.json").write_text(json.dumps(
            {"engine": "demo", "recent_workspaces": [str(folder.resolve())]}), encoding="utf-8")
    return dict(env, HARNESS_DESK_CONFIG_DIR=str(config))


def measure(runs: int, folder: Path, env: dict[str, str], starts: list[str]) -> dict:
    """Interleaved bare and app starts on one platform: each sample's seconds; the app's
    starts by name ("app" is the first of them)."""
    envs = {start: start_env(env, start, folder) for start in starts}
    sample(BARE, [], env)  # warm the disk cache (and the bytecode) for both
    for start in starts:
        sample(APP, STARTS[start](folder), envs[start])
    out: dict = {"bare": [], "app": [], "frame": [], "complete": [], "sdks": set(),
                 "starts": {start: [] for start in starts}}
    for _ in range(runs):  # interleaved, so a busy moment hurts both alike
        out["bare"].append(sample(BARE, [], env)[0])
        for start in starts:
            frame, _sdk, later = sample(APP, STARTS[start](folder), envs[start])
            if "usable" not in later:
                raise SystemExit(f"the window never became usable on {start} (checklist "
                                 "drawn, Run enabled)")
            out["starts"][start].append(later["usable"])
            out["sdks"].add(later["sdk"])
            if start != starts[0]:
                continue
            out["app"].append(later["usable"])
            out["frame"].append(frame)
            if "complete" in later:
                out["complete"].append(later["complete"])
    return out


def report(platform: str, got: dict, busy: int, load_before: list, load_after: list,
           line: str) -> dict:
    """Prints one platform's figures and returns its row."""
    from bench.common import item

    bare, app = got["bare"], got["app"]
    b, a = statistics.median(bare), statistics.median(app)
    frame = statistics.median(got["frame"])
    pairs = [x / y for x, y in zip(app, bare)]  # each app start / the bare start before it
    runs = lambda xs: ", ".join(f"{x * 1000:.0f}" for x in xs)  # noqa: E731
    print(f"-- {platform}")
    print(f"bare PySide6 window: median {b * 1000:.0f} ms, worst {max(bare) * 1000:.0f} ms  "
          f"(runs: {runs(bare)})")
    print(f"Harness Desk usable (checklist drawn, Run enabled): median {a * 1000:.0f} ms, worst "
          f"{max(app) * 1000:.0f} ms  (runs: {runs(app)})")
    print(f"Harness Desk first frame: median {frame * 1000:.0f} ms, {frame / b:.2f}x the bare "
          f"window (runs: {runs(got['frame'])})")
    complete = statistics.median(got["complete"]) if got["complete"] else None
    if complete is not None:
        print(f"Harness Desk window complete (top bar, menus and page drawn): median "
              f"{complete * 1000:.0f} ms, {complete / b:.2f}x the bare window")
    print(f"each usable start / the bare start before it: median {statistics.median(pairs):.2f},"
          f" worst {max(pairs):.2f}")
    for start, times in list(got["starts"].items())[1:]:
        t = statistics.median(times)
        print(f"Harness Desk usable on {start}: median {t * 1000:.0f} ms, {t / b:.2f}x the "
              f"bare window, {t / a:.2f}x open FOLDER  (runs: {runs(times)})")
    print(f"AI SDKs imported before the window was usable: {', '.join(sorted(got['sdks']))}")
    print(f"ratio: {a / b:.2f} (target <= 1.5); worst case {max(app) / max(bare):.2f} "
          f"(the slowest app start / the slowest bare one)")
    ok = a / b <= 1.5 and got["sdks"] == {"-"}
    return item(
        "startup_window", "Launch to the usable window (checklist drawn, Run enabled) / a bare "
                          f"PySide6 window, {platform}", "<= 1.5x", round(a / b, 2), "x", ok,
        note=f"{a * 1000:.0f} / {b * 1000:.0f} ms, worst {max(app) * 1000:.0f} / "
             f"{max(bare) * 1000:.0f} ms; first frame {frame / b:.2f}x; load "
             f"{load_before[:1] or '?'}{f', {busy} busy loops' if busy else ''}; AI SDKs by "
             f"then: {', '.join(sorted(got['sdks']))}",
        worst_ratio=round(max(app) / max(bare), 2),
        pair_ratio_median=round(statistics.median(pairs), 2),
        pair_ratio_worst=round(max(pairs), 2), app_worst_ms=round(max(app) * 1000),
        bare_worst_ms=round(max(bare) * 1000), load_average_before=load_before,
        load_average_after=load_after, busy_loops=busy, machine=line,
        app_ms=round(a * 1000), bare_ms=round(b * 1000), first_frame_ms=round(frame * 1000),
        first_frame_ratio=round(frame / b, 2),
        complete_ms=round(complete * 1000) if complete is not None else None,
        app_runs_ms=[round(x * 1000) for x in app], bare_runs_ms=[round(x * 1000) for x in bare],
        platform=platform, starts_ms={start: [round(x * 1000) for x in times]
                                      for start, times in got["starts"].items()})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--busy", type=int, default=0, metavar="N",
                        help="load the machine with N busy-loop processes while measuring")
    parser.add_argument("--paths", action="store_true",
                        help="measure `open --demo` and a start with no folder named too")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="also write the results as JSON to FILE (bench.run_all reads it)")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from bench.common import BusyLoops, hand_back, load_average, machine_line, window_starts

    platform = os.environ.get("QT_QPA_PLATFORM") or "offscreen"
    rows = []
    with tempfile.TemporaryDirectory(prefix="harness-desk-bench-") as tmp, BusyLoops(args.busy):
        folder, starts = window_starts(Path(tmp))
        for name, env in starts:
            load_before = load_average()
            got = measure(args.runs, folder, env,
                          list(STARTS) if args.paths else [OPEN_FOLDER])
            line = machine_line(args.busy)
            row = report(name, got, args.busy, load_before, load_average(), line)
            row["key"] = "startup_window" if name == platform else f"startup_window_{name}"
            rows.append(row)
    print(line)
    return hand_back(args.json, rows) if args.json is not None else \
        (0 if all(r["pass"] for r in rows) else 1)


if __name__ == "__main__":
    sys.exit(main())
