"""How low start-up can go: the least a usable window of this app must do, against a bare window.

    python bench/startup_floor.py [--runs 7] [--busy N] [--json FILE]

Start-up's row (bench/startup.py) asks for the usable window (the folder's checklist drawn,
Run enabled) in at most 1.5x the time of a bare PySide6 window. This measures the floor
under that: fresh processes, started the same way as startup.py's, each doing a little more
of what any usable window of this app has to do, up to the app itself. Each stage adds:

    bare                  an empty QWidget shown (startup.py's baseline)
    + Qt namespace        `Qt` read once (every widget module names Qt.AlignmentFlag and
                          the like; PySide6 then makes the namespace's enum classes)
    + the window's look   the palette, the style and the icons (look/theme.py), before it
    + checklist and Run   the folder's TASKS.md read, the real checklist (BoardView) and a
                          plain Run button in a main window: the checklist's first paint
                          with its tasks, as startup.py's "usable" is
    app, open FOLDER      the app itself (startup.py's APP): usable

Each prints its median and worst, its ratio to the bare window's median, and how many of
PySide6's Python enum classes the process made by then and their time (PySide6 6.4+ makes
an enum.Enum class per C++ enum on first use of its class: a Python-level cost the bare
window pays 37 times). Samples are interleaved, so a busy moment hurts every stage alike.
Uses QT_QPA_PLATFORM if set, else offscreen; under xcb it measures offscreen as well.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Counts (and clocks) the enum classes PySide6 makes, from before its import; then reports
# when WATCHED (a window's QWindow, or the checklist's viewport) first gets its event KIND
# while READY() holds, and exits.
HEAD = r"""
import enum, os, sys, time
_made = [0, 0.0]
_create = enum.EnumType._create_
def _counted(cls, *args, **kwargs):
    began = time.perf_counter()
    try:
        return _create(cls, *args, **kwargs)
    finally:
        _made[0] += 1
        _made[1] += time.perf_counter() - began
enum.EnumType._create_ = _counted
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QWidget
class Seen(QObject):
    def __init__(self, kind, ready):
        super().__init__()
        self.kind, self.ready = kind, ready
    def eventFilter(self, obj, event):
        if event.type() == self.kind and self.ready():
            print('shown', _made[0], f'{_made[1] * 1000:.1f}', flush=True)
            os._exit(0)
        return False
def watch_window(window):
    window.winId()
    seen = Seen(QEvent.Type.Expose, lambda: True)
    window.windowHandle().installEventFilter(seen)
    window.show()
    return seen
app = QApplication(sys.argv)
"""

BARE = HEAD + r"""
window = QWidget(); window.resize(1180, 760)
seen = watch_window(window)
app.exec()
"""

QT_NAMESPACE = HEAD + r"""
from PySide6.QtCore import Qt
Qt.AlignmentFlag.AlignLeft
window = QWidget(); window.resize(1180, 760)
seen = watch_window(window)
app.exec()
"""

LOOK = HEAD + r"""
from app.gui.look import theme
theme.apply_scheme(theme.system_scheme(), before_widgets=True)
window = QWidget(); window.resize(1180, 760)
seen = watch_window(window)
app.exec()
"""

CHECKLIST = HEAD + r"""
from pathlib import Path
from app.gui.look import theme
theme.apply_scheme(theme.system_scheme(), before_widgets=True)
from PySide6.QtWidgets import QHBoxLayout, QMainWindow, QPushButton
from app.core.board.board import Board
from app.gui.board.board_view import BoardView
board_path = Path(sys.argv[1]) / "TASKS.md"
board = Board.load(board_path)
window = QMainWindow(); window.resize(1180, 760)
central = QWidget(window)
row = QHBoxLayout(central)
checklist = BoardView(central)
run = QPushButton("Run", central)
row.addWidget(checklist, 1)
row.addWidget(run)
window.setCentralWidget(central)
checklist.set_board(board_path, board)
viewport = checklist.list_view.findChild(QWidget, "qt_scrollarea_viewport")
seen = Seen(QEvent.Type.Paint, lambda: checklist.model.rowCount() > 0 and run.isEnabled())
viewport.installEventFilter(seen)
window.show()
app.exec()
"""

APP = HEAD + r"""
import app.gui.main_window as mw
def usable():
    print('shown', _made[0], f'{_made[1] * 1000:.1f}', flush=True)
    os._exit(0)
_build = mw.MainWindow.finish_building
def finish_building(self):
    fresh = self._page is None
    _build(self)
    if fresh:
        self.became_usable.connect(usable)
mw.MainWindow.finish_building = finish_building
from app.cli import main
sys.exit(main(['open', sys.argv[1]]))
""".replace("app = QApplication(sys.argv)\n", "")  # the app makes its own

STAGES = {"bare": BARE, "+ Qt namespace": QT_NAMESPACE, "+ the window's look": LOOK,
          "+ checklist and Run": CHECKLIST, "app, open FOLDER": APP}


def sample(code: str, folder: Path, env: dict[str, str]) -> tuple[float, int, float]:
    """(seconds from spawn to the stage's report, enum classes made by then, their ms)."""
    began = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code, str(folder)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env, cwd=REPO)
    line = proc.stdout.readline() if proc.stdout else ""
    took = time.perf_counter() - began
    proc.kill()
    proc.wait(timeout=60)
    if not line.startswith("shown"):
        raise SystemExit(f"a stage never showed: {line!r}")
    _word, made, made_ms = line.split()
    return took, int(made), float(made_ms)


def measure(runs: int, folder: Path, env: dict[str, str]) -> dict[str, list]:
    for code in STAGES.values():  # warm the disk cache and the bytecode for all
        sample(code, folder, env)
    got: dict[str, list] = {name: [] for name in STAGES}
    for turn in range(runs):  # interleaved, each turn in another order
        names = list(STAGES)
        names = names[turn % len(names):] + names[:turn % len(names)]
        for name in names:
            got[name].append(sample(STAGES[name], folder, env))
    return got


def report(platform: str, got: dict[str, list], line: str) -> dict:
    from bench.common import item

    bare = statistics.median(t for t, _, _ in got["bare"])
    print(f"-- {platform}")
    stages = {}
    for name, samples in got.items():
        times = [t for t, _, _ in samples]
        median, worst = statistics.median(times), max(times)
        made = statistics.median(n for _, n, _ in samples)
        made_ms = statistics.median(m for _, _, m in samples)
        stages[name] = {"median_ms": round(median * 1000), "worst_ms": round(worst * 1000),
                        "ratio": round(median / bare, 2), "enum_classes": made,
                        "enum_ms": round(made_ms, 1)}
        print(f"{name:22s} median {median * 1000:4.0f} ms  worst {worst * 1000:4.0f} ms  "
              f"{median / bare:4.2f}x bare  enum classes made {made:4.0f} ({made_ms:5.1f} ms)")
    floor = stages["+ checklist and Run"]["ratio"]
    print(f"floor of a usable window in this look: {floor:.2f}x the bare window "
          f"(startup.py's target: 1.5x)")
    return item(f"startup_floor_{platform}", "The least a usable window in this look costs "
                f"(the real checklist and a Run button) / a bare PySide6 window, {platform}",
                "shown, no target", floor, "x", None,
                note="; ".join(f"{n} {s['ratio']}x ({s['enum_classes']:.0f} enum classes, "
                               f"{s['enum_ms']} ms)" for n, s in stages.items()),
                stages=stages, machine=line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--busy", type=int, default=0, metavar="N",
                        help="load the machine with N busy-loop processes while measuring")
    parser.add_argument("--json", type=Path, metavar="FILE")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from bench.common import BusyLoops, hand_back, machine_line, window_starts

    rows = []
    with tempfile.TemporaryDirectory(prefix="harness-desk-floor-") as tmp, BusyLoops(args.busy):
        folder, starts = window_starts(Path(tmp))
        for name, env in starts:
            got = measure(args.runs, folder, env)
            rows.append(report(name, got, machine_line(args.busy)))
    print(rows[-1]["details"]["machine"])
    return hand_back(args.json, rows) if args.json is not None else 0


if __name__ == "__main__":
    sys.exit(main())
