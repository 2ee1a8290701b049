"""The checklist inside the window: edits land in TASKS.md byte for byte, outside edits show,
the task being worked on is marked, and an open decision on the list opens its dialog."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from app.core.settings import Settings
from app.gui.main_window import MainWindow
from tests.gui.helpers import demo_copy, open_in

CRLF_BOARD = (b"# Shop\r\n\r\nNotes stay as they are.\r\n\r\n"
              b"- [ ] Write the opening hours\r\n  - Done when: hours.md lists them\r\n"
              b"- [ ] HUMAN: Blue or green for the logo?\r\n  - Option: blue\r\n"
              b"  - Option: green\r\n")


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    win = MainWindow(Settings(), demo_delay=0.0, check_engines=False)
    win.show()
    qtbot.waitExposed(win)
    yield win
    if win.runner.running:
        with qtbot.waitSignal(win.runner.run_finished, timeout=10_000):
            win.runner.stop()
    qtbot.waitUntil(lambda: not win.board_view.busy, timeout=5000)
    win.close()
    win.deleteLater()


@pytest.fixture
def shop(tmp_path) -> Path:
    folder = tmp_path / "Shop"
    folder.mkdir()
    (folder / "TASKS.md").write_bytes(CRLF_BOARD)
    return folder


def rows(window) -> list[str]:
    return [t.text for t in window.board_view.model.tasks()]


def test_a_task_added_in_the_window_is_written_byte_for_byte(qtbot, window, shop):
    open_in(qtbot, window, shop)
    qtbot.waitUntil(lambda: len(rows(window)) == 2, timeout=5000)
    add = next(w for w in window.board_view.findChildren(QLineEdit)
               if w.accessibleName() == "Add a task")
    qtbot.keyClicks(add, "Draw the logo")
    qtbot.keyClick(add, Qt.Key.Key_Return)
    expected = CRLF_BOARD + b"- [ ] Draw the logo\r\n"
    qtbot.waitUntil(lambda: (shop / "TASKS.md").read_bytes() == expected, timeout=5000)
    qtbot.waitUntil(lambda: window.run_panel.tasks_bar.maximum() == 3, timeout=5000)


def test_a_task_ticked_in_the_window_changes_only_its_checkbox(qtbot, window, shop):
    open_in(qtbot, window, shop)
    qtbot.waitUntil(lambda: len(rows(window)) == 2, timeout=5000)
    view = window.board_view
    view.list_view.setCurrentIndex(view.model.index(0))
    view.activateWindow()
    view.list_view.setFocus()
    qtbot.keyClick(view.list_view, Qt.Key.Key_Space)
    expected = CRLF_BOARD.replace(b"- [ ] Write", b"- [x] Write")
    qtbot.waitUntil(lambda: (shop / "TASKS.md").read_bytes() == expected, timeout=5000)
    qtbot.waitUntil(lambda: window.run_panel.tasks_bar.value() == 1, timeout=5000)


def test_an_edit_made_in_another_editor_shows_in_the_window(qtbot, window, shop):
    open_in(qtbot, window, shop)
    qtbot.waitUntil(lambda: len(rows(window)) == 2, timeout=5000)
    swap = shop / ".TASKS.md.swp"
    swap.write_bytes(CRLF_BOARD + b"- [ ] Print the flyers\r\n")
    os.replace(swap, shop / "TASKS.md")
    qtbot.waitUntil(lambda: rows(window)[-1] == "Print the flyers", timeout=2000)
    qtbot.waitUntil(lambda: window.run_panel.tasks_bar.maximum() == 3, timeout=2000)


def test_enter_on_an_open_decision_in_the_list_opens_its_dialog(qtbot, window, shop):
    open_in(qtbot, window, shop)
    qtbot.waitUntil(lambda: len(rows(window)) == 2, timeout=5000)
    view = window.board_view
    view.list_view.setCurrentIndex(view.model.index(1))
    view.activateWindow()
    view.list_view.setFocus()
    with qtbot.waitSignal(window.decision_shown, timeout=5000) as shown:
        qtbot.keyClick(view.list_view, Qt.Key.Key_Return)
    dialog = shown.args[0]
    assert dialog.task.question == "Blue or green for the logo?"
    with qtbot.waitSignal(dialog.answered, timeout=5000):
        dialog.option_buttons[1].click()
    qtbot.waitUntil(lambda: view.model.task(1).checked, timeout=2000)
    assert b"  - Answer: green\r\n" in (shop / "TASKS.md").read_bytes()


def test_the_task_being_worked_on_is_marked_during_a_run(qtbot, window, tmp_path):
    window.demo_delay = 0.3
    open_in(qtbot, window, demo_copy(tmp_path))
    seen: list = []
    window.runner.event_received.connect(
        lambda e: type(e).__name__ == "StepStarted"
        and seen.append(window.board_view.model.current_row))
    with qtbot.waitSignal(window.run_ended, timeout=60_000):
        window.run_panel.primary.click()
        qtbot.waitUntil(lambda: bool(seen), timeout=10_000)
        window.runner.stop()
    assert seen[0] == 0
    assert window.board_view.model.current_row == -1  # nothing marked once the run ends
