"""Start-up to a usable window (issue 36, point 1), its order: the first folder is read while
the window is built (and shown in the same turn when the read is done by then), and what the
usable folder does not need (the schedule's line, the focus ring, Enter on buttons, the icon)
is built after it is usable, in slices; a menu shortcut pressed at once still works."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.gui.folder import early_read
from tests.gui.helpers import demo_copy
from tests.gui.test_usable_start import _start


def test_a_read_done_before_the_window_asks_is_handed_over_at_once(qtbot, tmp_path):
    folder = demo_copy(tmp_path)
    early = early_read.EarlyRead(folder)
    qtbot.waitUntil(lambda: early.done, timeout=10_000)
    got: list = []
    early.then(got.append, got.append)
    assert [info.folder for info in got] == [folder.resolve()]  # now, in the same turn
    assert got[0].board is not None and not got[0].problem
    qtbot.wait(50)  # the read's own delivery comes later: it hands nothing over twice
    assert len(got) == 1


def test_a_read_still_going_is_handed_over_once_it_ends(qtbot, tmp_path, monkeypatch):
    folder = demo_copy(tmp_path)
    real = early_read.inspect
    gate: list = []
    monkeypatch.setattr(early_read, "inspect", lambda path: _after(gate, real, path))
    early = early_read.EarlyRead(folder)
    got: list = []
    early.then(got.append, got.append)
    assert got == [] and not early.done
    gate.append(True)
    qtbot.waitUntil(lambda: bool(got), timeout=10_000)
    qtbot.wait(50)
    assert [info.folder for info in got] == [folder.resolve()]


def _after(gate: list, read, path):
    """`read(path)` once `gate` holds something (on the read's worker thread)."""
    deadline = time.monotonic() + 10
    while not gate and time.monotonic() < deadline:
        time.sleep(0.005)
    return read(path)


def test_a_read_that_fails_is_said_once(qtbot, tmp_path, monkeypatch):
    def broken(_path):
        raise PermissionError("Permission denied")

    monkeypatch.setattr(early_read, "inspect", broken)
    early = early_read.EarlyRead(tmp_path)
    qtbot.waitUntil(lambda: early.done, timeout=10_000)
    done: list = []
    failed: list = []
    early.then(done.append, failed.append)
    qtbot.wait(50)
    assert done == [] and [type(exc) for exc in failed] == [PermissionError]


def test_the_rest_of_the_window_is_built_after_the_folder_is_usable(qtbot, tmp_path,
                                                                      monkeypatch):
    window, folder, usable, _config = _start(qtbot, tmp_path, monkeypatch)
    at_usable: list = []
    window.became_usable.connect(lambda: at_usable.append(
        (hasattr(window, "schedules"), window.rest_built)))
    qtbot.waitUntil(lambda: bool(at_usable), timeout=20_000)
    assert at_usable == [(False, False)]  # not built when the folder became usable
    qtbot.waitUntil(lambda: window.rest_built, timeout=10_000)
    # told of the folder, whether it was opened before or after the line was made
    qtbot.waitUntil(lambda: window.schedules.folder == folder.resolve(), timeout=10_000)
    qtbot.waitUntil(lambda: window.schedules.view.isVisible(), timeout=10_000)
    assert not window.windowIcon().isNull()
    qtbot.waitUntil(lambda: window.settings is not None, timeout=20_000)


def test_the_schedule_menu_used_before_the_rest_is_built_opens_its_dialog(qtbot, tmp_path,
                                                                          monkeypatch):
    from app.gui import window_menus

    window, folder, usable, _config = _start(qtbot, tmp_path, monkeypatch)
    opened: list = []

    def at_once() -> None:
        assert not hasattr(window, "schedules")
        window.folder_flow.workspace_opened.emit(folder.resolve())  # as the history shows
        window_menus.open_schedule(window)
        opened.append(window.schedules.dialog)

    window.became_usable.connect(at_once)
    qtbot.waitUntil(lambda: bool(opened), timeout=20_000)
    assert opened[0].isVisible()
    opened[0].close()
    qtbot.waitUntil(lambda: window.settings is not None, timeout=20_000)


def test_a_menu_shortcut_pressed_as_the_window_becomes_usable_works(qtbot, tmp_path,
                                                                   monkeypatch):
    pressed: list = []

    def active(window) -> None:  # as a person's window is when it shows
        window.activateWindow()
        qtbot.waitUntil(lambda: window.isActiveWindow(), timeout=5_000)
        window.became_usable.connect(lambda: (
            QTest.keyClick(window, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier),
            pressed.append(True)))

    window, _folder, _usable, _config = _start(qtbot, tmp_path, monkeypatch, before=active)
    qtbot.waitUntil(lambda: bool(pressed), timeout=20_000)
    qtbot.waitUntil(lambda: window.runner.running, timeout=20_000)  # Ctrl+R: Run
    window.stop_run()
    qtbot.waitUntil(lambda: not window.runner.running, timeout=30_000)


def test_what_is_built_into_a_window_on_screen_is_shown_and_laid_out_before_its_next_paint(
        qtbot):
    """The window is built out after its first frame, and the folder shown in that turn: what
    was added must be shown and laid out by then (a combo box fitted to its contents on its
    first show, as the engine picker's model is, changes its size as it shows)."""
    from PySide6.QtWidgets import QComboBox, QHBoxLayout, QWidget

    from app.gui.app import settle_sizes

    window = QWidget()
    qtbot.addWidget(window)
    row = QHBoxLayout(window)
    window.show()
    qtbot.waitExposed(window)
    combo = QComboBox()
    combo.setEditable(True)
    combo.setMinimumContentsLength(14)
    combo.addItem("scripted (no AI)")
    row.addWidget(combo)
    settle_sizes()
    assert combo.isVisible() and combo.height() == combo.sizeHint().height()


def test_the_wait_for_the_first_frame_imports_what_the_building_will_one_a_turn(
        qtbot, tmp_path, monkeypatch):
    """While the frame waits for the screen the UI thread imports what the building imports,
    a module a turn, and stops once the frame is exposed (folder/frame_wait.py)."""
    import sys

    from PySide6.QtWidgets import QWidget

    from app.gui.folder.frame_wait import import_while_waiting

    names = tuple(f"frame_wait_probe_{n}" for n in range(3))
    for name in names:
        (tmp_path / f"{name}.py").write_text("", encoding="utf-8")
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    owner = QWidget()
    qtbot.addWidget(owner)
    # the frame is exposed as the first import ends: the building imports the rest
    import_while_waiting(owner, lambda: names[0] in sys.modules, names)
    assert names[0] not in sys.modules  # from the next turn on, not now
    qtbot.waitUntil(lambda: names[0] in sys.modules, timeout=5_000)
    qtbot.wait(100)
    assert [name in sys.modules for name in names] == [True, False, False]
    import_while_waiting(owner, lambda: False, names[1:])  # a frame that takes its time
    qtbot.waitUntil(lambda: all(name in sys.modules for name in names), timeout=5_000)


def test_what_the_wait_for_the_frame_imports_is_what_the_building_imports():
    """Each module the wait imports is one the built window needs (a name gone stale would
    import something the window does not use, or fail)."""
    import subprocess
    import sys

    from app.gui.app import BUILD_MODULES

    code = ("import sys\n"
            "from PySide6.QtWidgets import QApplication\n"
            "app = QApplication([])\n"
            "import app.gui.main_window as m\n"
            "m.MainWindow(defer_pages=True, check_engines=False).finish_building()\n"
            f"print([n for n in {BUILD_MODULES!r} if n not in sys.modules])\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env={**__import__("os").environ,
                                           "QT_QPA_PLATFORM": "offscreen"})
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stderr
