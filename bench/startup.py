"""Start-up benchmark: the app's window visible vs a bare PySide6 window, started the same way.

    python bench/startup.py [--runs 7] [--busy N] [--json FILE]

Each sample is a fresh `python` process; the parent clocks from spawning it until the child
reports that its first window was exposed (painted) on screen. The bare sample shows an empty
QWidget; the app sample runs `harness-desk open FOLDER` (app.cli.main) on a copy of the demo.
The app's first paint is its frame; the top bar, menus and page are built right after it,
so the time to the window complete (the top bar's first paint) is printed beside it.
Prints the median and the worst of each, their ratio (target: the medians' ratio at most
1.5; the worst pair's ratio is shown beside it), the processor and the load average before
and after, and whether any AI SDK was imported before the window showed (it must not be).
With --busy N, N busy-loop processes load the machine on purpose while it measures. Uses
QT_QPA_PLATFORM if set, else offscreen.
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
# paint) and when the folder's page is on screen (checklist and run panel).
APP = "STAY = True" + PROBE + r"""
import app.gui.main_window as mw
class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint:
            obj.removeEventFilter(self)
            print('complete', flush=True)
        return False
_painted = FirstPaint()
_build = mw.MainWindow.finish_building
def finish_building(self):
    fresh = self._page is None
    _build(self)
    if fresh:
        self.top_bar.installEventFilter(_painted)
mw.MainWindow.finish_building = finish_building
_opened = mw.MainWindow._on_folder_inspected
def opened(self, info):
    _opened(self, info)
    print('folder', flush=True)
    os._exit(0)
mw.MainWindow._on_folder_inspected = opened
from app.cli import main
sys.exit(main(["open", sys.argv[1]]))
"""


def sample(code: str, args: list[str], env: dict[str, str]) -> tuple[float, str, dict]:
    """(seconds to the first window shown, AI SDKs loaded by then, {"complete": seconds to
    the window complete, "folder": seconds to the folder shown}, as far as reported)."""
    began = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env, cwd=REPO)
    line = proc.stdout.readline() if proc.stdout else ""
    shown = time.perf_counter() - began
    if not line.startswith("shown"):
        raise SystemExit(f"the window never showed: {line!r}")
    later = {}
    for more in proc.stdout if proc.stdout else ():
        later[more.split()[0]] = time.perf_counter() - began
    proc.wait(timeout=30)
    return shown, line.split()[1], later


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--busy", type=int, default=0, metavar="N",
                        help="load the machine with N busy-loop processes while measuring")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="also write the results as JSON to FILE (bench.run_all reads it)")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from bench.common import BusyLoops, load_average, machine_line

    load_before = load_average()
    with tempfile.TemporaryDirectory(prefix="harness-desk-bench-") as tmp, BusyLoops(args.busy):
        folder = Path(tmp) / "Bakery"
        shutil.copytree(REPO / "resources" / "demo-workspace", folder)
        path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
        env = dict(os.environ, PYTHONPATH=path, HARNESS_DESK_CONFIG_DIR=str(Path(tmp) / "c"))
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
        sample(BARE, [], env)  # warm the disk cache for both
        sample(APP, [str(folder)], env)
        bare, app, completes, folders, sdks = [], [], [], [], set()
        for _ in range(args.runs):  # interleaved, so a busy moment hurts both alike
            bare.append(sample(BARE, [], env)[0])
            seconds, sdk, later = sample(APP, [str(folder)], env)
            app.append(seconds)
            sdks.add(sdk)
            if "complete" in later:
                completes.append(later["complete"])
            if "folder" in later:
                folders.append(later["folder"])
        line = machine_line(args.busy)
    load_after = load_average()
    b, a = statistics.median(bare), statistics.median(app)
    # Each app start beside the bare start just before it: the same moment's load.
    pairs = [x / y for x, y in zip(app, bare)]
    worst_pair = max(pairs)
    print(line)
    print(f"load average before {load_before}, after {load_after}")
    print(f"bare PySide6 window: median {b * 1000:.0f} ms, worst {max(bare) * 1000:.0f} ms  "
          f"(runs: {', '.join(f'{x * 1000:.0f}' for x in bare)})")
    print(f"Harness Desk window: median {a * 1000:.0f} ms, worst {max(app) * 1000:.0f} ms  "
          f"(runs: {', '.join(f'{x * 1000:.0f}' for x in app)})")
    print(f"each run / the bare run before it: median {statistics.median(pairs):.2f}, worst "
          f"{worst_pair:.2f}")
    complete = statistics.median(completes) if completes else None
    if complete is not None:
        print(f"Harness Desk window complete (top bar, menus and page drawn): median "
              f"{complete * 1000:.0f} ms, {complete / b:.2f}x the bare window "
              f"(runs: {', '.join(f'{x * 1000:.0f}' for x in completes)})")
    if folders:
        print(f"Harness Desk folder on screen (checklist and run panel): median "
              f"{statistics.median(folders) * 1000:.0f} ms")
    print(f"AI SDKs imported before the window showed: {', '.join(sorted(sdks))}")
    print(f"ratio: {a / b:.2f} (target <= 1.5); worst case {max(app) / max(bare):.2f} "
          f"(the slowest app start / the slowest bare one)")
    if args.json is not None:
        from bench.common import hand_back, item

        folder_ms = round(statistics.median(folders) * 1000) if folders else None
        return hand_back(args.json, [item(
            "startup_window", "Launch to the main window painted / a bare PySide6 window",
            "<= 1.5x", round(a / b, 2), "x", a / b <= 1.5 and sdks == {"-"},
            note=f"{a * 1000:.0f} / {b * 1000:.0f} ms, worst {max(app) * 1000:.0f} / "
                 f"{max(bare) * 1000:.0f} ms; load {load_before[:1] or '?'}"
                 f"{f', {args.busy} busy loops' if args.busy else ''}; AI SDKs by then: "
                 f"{', '.join(sorted(sdks))}",
            worst_ratio=round(max(app) / max(bare), 2),
            pair_ratio_median=round(statistics.median(pairs), 2),
            pair_ratio_worst=round(worst_pair, 2), app_worst_ms=round(max(app) * 1000),
            bare_worst_ms=round(max(bare) * 1000), load_average_before=load_before,
            load_average_after=load_after, busy_loops=args.busy, machine=line,
            app_ms=round(a * 1000), bare_ms=round(b * 1000), folder_on_screen_ms=folder_ms,
            complete_ms=round(complete * 1000) if complete is not None else None,
            complete_ratio=round(complete / b, 2) if complete is not None else None,
            app_runs_ms=[round(x * 1000) for x in app], bare_runs_ms=[round(x * 1000) for x in bare],
            platform=os.environ.get("QT_QPA_PLATFORM", "offscreen"))])
    return 0 if a / b <= 1.5 and sdks == {"-"} else 1


if __name__ == "__main__":
    sys.exit(main())
