"""The folder's default for looking things up on the web (issue 37): a switch in Settings'
"This folder" group, saved to .harness/folder.json off the UI thread, and shown by the task
details for every task without its own "Web:" line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QCheckBox

from tests.gui.test_board_view import child, select

from .helpers import open_in

BOARD = ("# Bakery\n\n- [ ] Compare sourdough prices in town\n"
         "- [ ] Tidy the recipes\n  - Web: no\n")
TASK_WEB = "This task may look things up on the web"
FOLDER_WEB = "Tasks in this folder may look things up on the web"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "Bakery"
    root.mkdir()
    (root / "TASKS.md").write_text(BOARD, encoding="utf-8")
    return root


def task_switch(window) -> QCheckBox:
    return child(window.board_view, QCheckBox, TASK_WEB)


def save_settings(qtbot, window) -> None:
    dialog = window.settings_dialog
    with qtbot.waitSignal(window.careful.folder_settings_changed, timeout=10_000):
        dialog.button_box().button(dialog.button_box().StandardButton.Save).click()


def test_the_folder_switch_is_saved_and_the_task_details_follow_it(qtbot, window, folder):
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: window.board_view.model.rowCount() == 2, timeout=10_000)
    select(window.board_view, 0)
    assert not task_switch(window).isChecked()  # off by default
    assert "This follows the folder: its tasks do not look things up" in \
        task_switch(window).toolTip()
    window.open_settings()
    group = window.settings_dialog.folder_safety
    switch = child(group, QCheckBox, FOLDER_WEB)
    assert not switch.isChecked()
    assert "each task can still say yes or no" in switch.toolTip()
    switch.setChecked(True)
    save_settings(qtbot, window)
    saved = json.loads((folder / ".harness" / "folder.json").read_text())
    assert saved["web"] is True and saved["careful"] is False
    # The task without a "Web:" line now may look things up, and says why.
    assert task_switch(window).isChecked()
    assert "This follows the folder: its tasks may look things up" in \
        task_switch(window).toolTip()
    # The task whose line says no keeps its own answer, without the folder's words.
    select(window.board_view, 1)
    assert not task_switch(window).isChecked()
    assert "follows the folder" not in task_switch(window).toolTip()
    assert (folder / "TASKS.md").read_text(encoding="utf-8") == BOARD  # no line written


def test_a_folder_that_says_yes_is_shown_so_when_opened(qtbot, window, folder):
    (folder / ".harness").mkdir()
    (folder / ".harness" / "folder.json").write_text(json.dumps({"web": True}))
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: window.board_view.model.rowCount() == 2, timeout=10_000)
    select(window.board_view, 0)
    qtbot.waitUntil(lambda: task_switch(window).isChecked(), timeout=10_000)
    window.open_settings()
    assert child(window.settings_dialog.folder_safety, QCheckBox, FOLDER_WEB).isChecked()
    window.settings_dialog.close()


def test_another_folder_opened_starts_from_its_own_default(qtbot, window, folder, tmp_path):
    (folder / ".harness").mkdir()
    (folder / ".harness" / "folder.json").write_text(json.dumps({"web": True}))
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: window.board_view.model.rowCount() == 2, timeout=10_000)
    select(window.board_view, 0)
    qtbot.waitUntil(lambda: task_switch(window).isChecked(), timeout=10_000)
    other = tmp_path / "Other"
    other.mkdir()
    (other / "TASKS.md").write_text("- [ ] Count the loaves\n", encoding="utf-8")
    open_in(qtbot, window, other)
    qtbot.waitUntil(lambda: window.board_view.model.rowCount() == 1, timeout=10_000)
    select(window.board_view, 0)
    assert not task_switch(window).isChecked()
