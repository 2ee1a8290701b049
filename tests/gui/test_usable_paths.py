"""The two starts a person takes most, as the README's first command and a double-click start
them: `harness-desk open --demo` (scripts/demo.sh) and `harness-desk` with no folder named
(the last folder, or a demo copy on the very first start). Each opens its folder in the
window's build turn, as `harness-desk open FOLDER` does: the window never shows the welcome
page on the way (it flashed there while the settings loaded), Ctrl+R pressed as it becomes
usable runs, and on --demo the Demo engine is the one that runs, whatever the settings say.

Each start is a fresh process (app.cli.main, offscreen), watched from the window's build to
the run Ctrl+R started."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Records each page of the window as it is painted, from the frame's first paint on ("frame":
# the bare frame, before it is built; "empty": the built window with no page to show yet, before
# a folder or the settings say what to show; "welcome"; "folder"), presses Ctrl+R at
# became_usable (PRESS=usable) or right after the built window's first paint (PRESS=painted:
# the first the person sees of it), and prints the pages, the folder and the engine of the
# run that started.
WATCH = r"""
import os, sys
from PySide6.QtCore import QEvent, QObject, QTimer, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget
import app.gui.main_window as mw
seen = []
PRESS = os.environ['PRESS']
class Painted(QObject):
    # Every paint in the window (an application-wide filter: slower, but sees them all)
    # records the page shown then.
    def __init__(self, window):
        super().__init__(window)
        self.window, self.pressed = window, False
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and isinstance(obj, QWidget) \
                and obj.window() is self.window:
            window = self.window
            current = window.pages.currentWidget()
            page = ('frame' if window._page is None else 'welcome' if current is window._welcome
                    else 'folder' if current is window._page else 'empty')
            if (not seen or seen[-1] != page) and 'usable' not in seen:
                seen.append(page)
            if page in ('welcome', 'folder') and not self.pressed:
                self.pressed = True  # the first page the built window shows
                if PRESS == 'painted':
                    QTimer.singleShot(0, lambda: press(window))
        return False
def report(window, what):
    engine = window.run_flow.run_engine
    print('pages', ','.join(seen), flush=True)
    print('folder', window.workspace.name if window.workspace else '-', flush=True)
    print(what, engine[0] if engine else '-', flush=True)
    os._exit(0)
def press(window):
    QTest.keyClick(window, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    waited = []
    def check():
        if window.runner.running:
            report(window, 'ran')
        waited.append(1)
        if len(waited) > 150:  # 15 s: the demo is usable in well under that
            report(window, 'never-ran')
        QTimer.singleShot(100, check)
    check()
def usable(window):
    seen.append('usable')
    if PRESS == 'usable':
        press(window)
_init = mw.MainWindow.__init__
def __init__(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    self._painted = Painted(self)
    QApplication.instance().installEventFilter(self._painted)
mw.MainWindow.__init__ = __init__
_build = mw.MainWindow.finish_building
def finish_building(self):
    fresh = self._page is None
    _build(self)
    if fresh:
        self.activateWindow()  # as a person's window is when it shows: its shortcuts work
        self.became_usable.connect(lambda: usable(self))
mw.MainWindow.finish_building = finish_building
QTimer.singleShot(60_000, lambda: (print('timeout', ','.join(seen), flush=True), os._exit(3)))
from app.cli import main
sys.exit(main(sys.argv[1:]))
"""


def start(tmp_path: Path, args: list[str], settings: dict | None = None,
          press: str = "usable") -> dict[str, str]:
    """Start the window with `args` on a config folder of its own (the demo copies go there
    too), with `settings` saved first, Ctrl+R pressed at `press`; what WATCH printed, by its
    first word."""
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    if settings is not None:
        (config / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HARNESS_DESK_")}
    env.update(HARNESS_DESK_CONFIG_DIR=str(config), PYTHONPATH=str(REPO),
               QT_QPA_PLATFORM="offscreen", LANG="en_US.UTF-8", LANGUAGE="en_US",
               HARNESS_DESK_DEMO_DELAY="0", PRESS=press)
    done = subprocess.run([sys.executable, "-c", WATCH, *args], env=env, capture_output=True,
                          text=True, timeout=120, cwd=REPO)
    said = dict(line.split(" ", 1) for line in done.stdout.splitlines() if " " in line)
    assert "ran" in said or "never-ran" in said, done.stdout + done.stderr[-3000:]
    return said


def shown_straight(said: dict[str, str]) -> bool:
    """The frame, then the folder, then usable: no welcome page on the way. (The built window
    is drawn once before the folder is in it, with an empty page, on every start: open
    FOLDER too; that is not the welcome page.)"""
    return [page for page in said["pages"].split(",") if page != "empty"] == [
        "frame", "folder", "usable"]


def test_the_demo_opens_in_the_build_turn_and_ctrl_r_runs_the_demo_engine(tmp_path):
    """scripts/demo.sh: the welcome page ("no folder open") showed first, until the settings
    had loaded; the person's own engine (here Claude, with no key) must not be the one that
    runs on --demo."""
    said = start(tmp_path, ["open", "--demo"], {"engine": "anthropic", "language": "en"})
    assert shown_straight(said), said  # the frame, then the folder: nothing between
    assert said["folder"] == "Demo workspace"
    assert said.get("ran") == "demo"


def test_the_chinese_demo_opens_its_own_copy_in_the_build_turn(tmp_path):
    said = start(tmp_path, ["open", "--demo", "--lang", "zh_CN"], {"engine": "openai"})
    assert shown_straight(said), said
    assert said["folder"] == "演示工作区"
    assert said.get("ran") == "demo"


def test_the_last_folder_reopens_in_the_build_turn(tmp_path):
    """A double-click on the installed app (no folder named): the last folder reopened after
    the welcome page, once the settings had loaded."""
    from tests.gui.helpers import demo_copy

    folder = demo_copy(tmp_path)
    said = start(tmp_path, [], {"engine": "demo", "recent_workspaces": [
        str(tmp_path / "gone since"), str(folder.resolve())]})
    assert shown_straight(said), said
    assert said["folder"] == folder.name
    assert said.get("ran") == "demo"


def test_the_very_first_start_opens_a_demo_copy_in_the_build_turn(tmp_path):
    said = start(tmp_path, [])  # no settings file yet
    assert shown_straight(said), said
    assert said["folder"] == "Demo workspace"
    assert said.get("ran") == "demo"


@pytest.mark.parametrize("path", ["demo", "last folder"])
def test_ctrl_r_pressed_as_the_built_window_first_shows_runs(tmp_path, path):
    """Pressed as the built window first showed, Ctrl+R was lost: it showed the welcome page
    ("no folder open"), and the folder only later, with no run."""
    from tests.gui.helpers import demo_copy

    if path == "demo":
        said = start(tmp_path, ["open", "--demo"], {"engine": "anthropic"}, press="painted")
    else:
        folder = demo_copy(tmp_path)
        said = start(tmp_path, [], {"recent_workspaces": [str(folder)]}, press="painted")
    assert said.get("ran") == "demo", said
    assert "welcome" not in said["pages"]


# -- in the window's own process: what the early choice must not change --------------------

def _frame(qtbot, monkeypatch, tmp_path: Path):
    """A window as main() shows it: the frame, its pages watched from then on."""
    import app.gui.main_window as main_window

    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setattr(main_window, "_load_the_rest", lambda: None)  # no warm-up thread
    window = main_window.MainWindow(defer_pages=True, check_engines=False)
    qtbot.addWidget(window)
    window.show()
    return window


def test_a_demo_not_chosen_by_the_build_turn_is_opened_once_the_settings_load(
        qtbot, tmp_path, monkeypatch):
    """The early choice late (a slow disk): the window goes the old way, and the settings'
    load takes the copy the early choice made, never a second one beside it."""
    from app.gui import app as gui_app
    from app.gui.folder import early_read, first_start

    gate = threading.Event()
    real = first_start.early_folder
    monkeypatch.setattr(first_start, "early_folder",
                        lambda demo, lang: (gate.wait(20), real(demo, lang))[1])
    window = _frame(qtbot, monkeypatch, tmp_path)
    start = early_read.EarlyStart(demo=True, lang="en")
    gui_app._after_first_paint(window, None, True, start, None)
    assert not start.decided
    gate.set()
    qtbot.waitUntil(lambda: window.workspace is not None, timeout=20_000)
    assert window.workspace.name == "Demo workspace"
    assert sorted(p.name for p in first_start.demo_copies()) == ["Demo workspace"]
    qtbot.waitUntil(lambda: window.picker.engine_id == "demo", timeout=10_000)


def test_a_folder_dropped_on_the_app_while_it_starts_wins_over_the_last_one(
        qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QApplication

    from app.gui import app as gui_app
    from app.gui.folder import early_read
    from tests.gui.helpers import demo_copy

    last = demo_copy(tmp_path / "last")
    dropped = tmp_path / "Dropped"
    shutil.copytree(last, dropped)
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.json").write_text(json.dumps(
        {"recent_workspaces": [str(last)]}), encoding="utf-8")
    window = _frame(qtbot, monkeypatch, tmp_path)
    start = early_read.EarlyStart(demo=False, lang="en")
    qtbot.waitUntil(lambda: start.done, timeout=10_000)
    assert start.path == last
    monkeypatch.setattr(QApplication.instance(), "last_opened", str(dropped), raising=False)
    gui_app._after_first_paint(window, None, False, start, None)
    qtbot.waitUntil(lambda: window.settings is not None, timeout=20_000)
    qtbot.wait(200)
    assert window.workspace == dropped.resolve()


def test_the_choice_from_the_settings_file_without_its_model(tmp_path, monkeypatch):
    """first_start.early_folder reads the settings file as plain JSON: the last folder still
    there, a demo copy on the first start; None where the settings' load decides (none of the
    recent folders is there: the welcome page; a file it cannot read)."""
    from app.gui.folder import first_start

    config = tmp_path / "config"
    config.mkdir()
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(config))
    saved = config / "settings.json"
    kept = tmp_path / "kept"
    kept.mkdir()
    saved.write_text(json.dumps({"recent_workspaces": [str(tmp_path / "gone"), str(kept)]}),
                     encoding="utf-8")
    assert first_start.early_folder(False, "en") == kept
    saved.write_text(json.dumps({"recent_workspaces": [str(tmp_path / "gone")]}),
                     encoding="utf-8")
    assert first_start.early_folder(False, "en") is None  # the welcome page, as before
    for damaged in ("{damaged", "[]", json.dumps({"recent_workspaces": "nope"})):
        saved.write_text(damaged, encoding="utf-8")
        assert first_start.early_folder(False, "en") is None  # the settings' load says so
    assert not first_start.demo_copies()
    saved.unlink()
    assert first_start.early_folder(False, "en") == config / "Demo workspace"
    assert first_start.early_folder(True, "zh_CN") == config / "演示工作区"
