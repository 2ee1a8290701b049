"""Start-up to a usable window (issue 36, point 1): a folder named on the command line is
shown, checklist drawn and Run enabled, before the person's settings load; nothing is lost
by that (a press of Run waits for them, the folder is remembered), and the window's widgets
are made in its own palette, so no icon is drawn twice."""

from __future__ import annotations

import json

from PySide6.QtWidgets import QApplication


def _start(qtbot, tmp_path, monkeypatch, settings: dict | None = None, before=None):
    """The window as app.main starts it on a named folder: the frame, then the build-out and
    the rest (app._after_first_paint), on a copy of the demo. `before(window)` is called
    just before the build-out."""
    import app.gui.main_window as main_window
    from app.gui import app as gui_app
    from tests.gui.helpers import demo_copy

    config = tmp_path / "config"
    config.mkdir()
    if settings is not None:
        (config / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(config))
    monkeypatch.setattr(main_window, "_load_the_rest", lambda: None)  # no warm-up thread
    folder = demo_copy(tmp_path)
    window = main_window.MainWindow(defer_pages=True, check_engines=False)
    qtbot.addWidget(window)
    window.show()
    usable = []
    window.finish_building()
    window.became_usable.connect(lambda: usable.append(window.settings))
    if before is not None:
        before(window)
    from app.gui.folder.early_read import EarlyLayout

    layout = EarlyLayout()  # as main() begins it, before the frame
    qtbot.waitUntil(lambda: layout.done, timeout=10_000)
    gui_app._after_first_paint(window, str(folder), False, None, layout)
    return window, folder, usable, config


def test_the_named_folder_is_usable_before_the_settings_load_and_then_remembered(
        qtbot, tmp_path, monkeypatch):
    window, folder, usable, config = _start(qtbot, tmp_path, monkeypatch,
                                            {"recent_workspaces": ["/somewhere/else"]})
    qtbot.waitUntil(lambda: bool(usable), timeout=20_000)
    assert usable == [None]  # the checklist was drawn with Run enabled before the settings
    assert window.property("usable") is True and window.usable_at is not None
    assert window.run_panel.primary.isEnabled()
    qtbot.waitUntil(lambda: window.settings is not None, timeout=20_000)
    qtbot.waitUntil(lambda: (config / "settings.json").exists() and str(folder.resolve()) in
                    (config / "settings.json").read_text(encoding="utf-8"), timeout=10_000)
    recent = window.settings.recent_workspaces
    assert recent[:2] == [str(folder.resolve()), "/somewhere/else"]
    assert window.workspace == folder.resolve()


def test_run_pressed_before_the_settings_load_runs_once_they_have(qtbot, tmp_path, monkeypatch):
    window, folder, usable, _config = _start(qtbot, tmp_path, monkeypatch)
    started = []
    window.became_usable.connect(lambda: (window.run_panel.primary.click(),
                                          started.append(window.runner.running)))
    qtbot.waitUntil(lambda: bool(started), timeout=20_000)
    assert started == [False] and usable == [None]  # pressed while the settings were loading
    qtbot.waitUntil(lambda: window.runner.running, timeout=20_000)
    window.stop_run()
    qtbot.waitUntil(lambda: not window.runner.running, timeout=30_000)


def test_building_the_window_draws_no_icon_twice(qtbot, tmp_path, monkeypatch):
    """Built in Qt's palette and then switched to the window's, every widget was walked
    and every icon drawn again (100-270 ms of the start-up)."""
    import app.gui.main_window as main_window
    from app.gui.look import icons, theme

    app = QApplication.instance()
    app.setPalette(app.style().standardPalette())  # as a fresh process starts
    monkeypatch.setattr(theme, "_recoloured_for", None)
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    window = main_window.MainWindow(defer_pages=True, check_engines=False)
    qtbot.addWidget(window)
    redrawn = []
    real = icons.refresh_icons
    monkeypatch.setattr(icons, "refresh_icons",
                        lambda: (redrawn.append(window._page is not None), real()))
    window.finish_building()
    qtbot.wait(50)  # a recolour left for the next turn of the event loop
    assert True not in redrawn


def test_run_imports_what_it_needs_off_the_ui_thread_first(qtbot, tmp_path, monkeypatch):
    """Pressed before the warm-up had imported the harness, Run imported it on the UI thread
    (the window stood still 100 ms or more, bench/ui_stall_cold.py); now it is imported on a
    worker and the run starts once it is."""
    import sys
    import threading

    from app.gui.window import run_flow

    (tmp_path / "needed_by_the_run_probe.py").write_text(
        "import threading\nTHREAD = threading.current_thread()\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "needed_by_the_run_probe", raising=False)
    monkeypatch.setattr(run_flow, "RUN_NEEDS",
                        run_flow.RUN_NEEDS + ("needed_by_the_run_probe",))
    window, _folder, usable, _config = _start(qtbot, tmp_path, monkeypatch)
    qtbot.waitUntil(lambda: bool(usable) and window.settings is not None, timeout=20_000)
    window.run_panel.primary.click()
    assert not window.runner.running  # not yet: the import is on its way
    qtbot.waitUntil(lambda: window.runner.running, timeout=20_000)
    probe = sys.modules["needed_by_the_run_probe"]
    assert probe.THREAD is not threading.main_thread()
    window.stop_run()
    qtbot.waitUntil(lambda: not window.runner.running, timeout=30_000)


def _places(window) -> dict:
    """Where the checklist's rows, Run and the rounds are, in the window's coordinates, and
    the top bar's height: what must not move once the window is usable."""
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QWidget

    viewport = window.board_view.list_view.findChild(QWidget, "qt_scrollarea_viewport")
    run = window.run_panel.primary
    cards = window.cards
    return {"top bar": window.top_bar.height(), "size": window.size(), "sizes": window.splitter.sizes(),
            "checklist": (viewport.mapTo(window, QPoint(0, 0)), viewport.size()),
            "run": (run.mapTo(window, QPoint(0, 0)), run.size()),
            "rounds": (cards.mapTo(window, QPoint(0, 0)), cards.size())}


def test_nothing_moves_once_the_window_is_usable(qtbot, tmp_path, monkeypatch):
    """The checklist, Run and the rounds are drawn in their final places: neither the rest of
    the window built after usable (the schedule's line came in above the rounds and pushed
    them down a line) nor the settings loaded after it moves them (not even by a pixel)."""
    window, _folder, usable, _config = _start(qtbot, tmp_path, monkeypatch)
    at_usable: list = []
    window.became_usable.connect(lambda: at_usable.append(_places(window)))
    qtbot.waitUntil(lambda: bool(at_usable), timeout=20_000)
    qtbot.waitUntil(lambda: window.rest_built and window.settings is not None, timeout=20_000)
    qtbot.wait(100)  # what the settings changed is laid out
    assert _places(window) == at_usable[0]


def test_a_layout_left_by_the_person_is_put_back_before_the_window_is_usable(qtbot, tmp_path,
                                                                           monkeypatch):
    """A returning person's window (its size and columns, kept in the settings) is laid out
    so before the folder is drawn: the settings, loaded after usable, move nothing."""
    import app.gui.main_window as main_window
    from app.gui import window_state

    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "unused"))
    left = main_window.MainWindow(check_engines=False)
    qtbot.addWidget(left)
    left.resize(700, 560)
    left.splitter.setSizes([200, 480])
    state = window_state.capture(left, left.splitter)
    left.close()
    window, _folder, _usable, _config = _start(qtbot, tmp_path, monkeypatch, {"ui": {"window": state}})
    at_usable: list = []
    window.became_usable.connect(lambda: at_usable.append(_places(window)))
    qtbot.waitUntil(lambda: bool(at_usable), timeout=20_000)
    assert at_usable[0]["size"].width() == 700 and at_usable[0]["sizes"][0] < 300
    qtbot.waitUntil(lambda: window.rest_built and window.settings is not None, timeout=20_000)
    qtbot.wait(100)
    assert _places(window) == at_usable[0]


def test_the_start_ups_later_work_waits_for_the_folders_tasks_not_its_emptied_list(qtbot,
                                                                                   tmp_path):
    """A folder read after the window was built (its early read late, on a busy machine):
    showing it first empties the list, and that "0 of 0" was taken for a folder with no
    tasks, so the settings' load began before the checklist was drawn and the window became
    usable after it (the whole suite failed test_the_named_folder_… so, once)."""
    import app.gui.main_window as main_window
    from tests.gui.helpers import demo_copy

    window = main_window.MainWindow(check_engines=False)
    qtbot.addWidget(window)
    window.show()
    settled: list[int] = []
    window.after_first_folder(lambda: settled.append(window.board_view.model.rowCount()))
    window.open_workspace(demo_copy(tmp_path))
    qtbot.waitUntil(lambda: window.board_view.model.rowCount() > 0, timeout=10_000)
    qtbot.wait(50)
    assert all(rows > 0 for rows in settled), settled
