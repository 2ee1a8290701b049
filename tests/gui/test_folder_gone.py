"""What qa found on the merged window (t4): an open folder deleted comes back only if asked
to, never; a new task list is in the window's language; a window refused a run because the
folder runs elsewhere reads the folder again once that run ends."""

from __future__ import annotations

import shutil

from PySide6.QtWidgets import QFileDialog

from app.core.board.board import TEMPLATE, TEMPLATE_ZH_CN, Board
from app.core.workspace.workspace import Workspace
from tests.gui.helpers import demo_copy, open_in


def shown_texts(window) -> str:
    from PySide6.QtWidgets import QAbstractButton, QLabel

    widgets = window.findChildren(QLabel) + window.findChildren(QAbstractButton)
    return " | ".join(w.text() for w in widgets if w.isVisible())


# -- 1. a deleted folder is said to be gone, and never made again ---------------------------

def test_a_deleted_open_folder_is_said_gone_and_left_off_the_recent_ones(qtbot, lang, window,
                                                                         tmp_path,
                                                                         monkeypatch):
    from app.gui.board.gone_page import gone_sentence

    folder = tmp_path / "Notes"
    folder.mkdir()
    (folder / "TASKS.md").write_text("- [ ] Write a note\n", encoding="utf-8")
    open_in(qtbot, window, folder)
    assert str(folder) in window.settings.recent_workspaces
    board = window.board_view

    shutil.rmtree(folder)
    qtbot.waitUntil(lambda: gone_sentence() in shown_texts(window), timeout=10_000)
    assert board.folder_is_gone
    shown = shown_texts(window)
    words = {"en": "This folder is gone: it was moved or deleted.",
             "zh_CN": "这个文件夹不在了：它被移走或删除了。"}[lang]
    assert words in shown
    assert not board.create_button.isVisible() and not board.add_field.isVisible()
    assert not board.no_board_plan_button.isVisible()
    assert not window.run_panel.primary.isEnabled()
    qtbot.waitUntil(lambda: str(folder) not in window.settings.recent_workspaces, timeout=5000)

    asked = []
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *a, **k: asked.append(a) or ""))
    board._gone_page.open_button.click()
    assert asked, "Open another folder… did not offer a folder"
    qtbot.wait(400)
    assert not folder.exists()  # nothing made it again


def test_create_a_task_list_in_a_folder_deleted_meanwhile_makes_nothing(qtbot, window,
                                                                        tmp_path):
    folder = tmp_path / "Empty"
    folder.mkdir()
    open_in(qtbot, window, folder)
    board = window.board_view
    qtbot.waitUntil(lambda: board.create_button.isVisible(), timeout=5000)
    board._file._watcher.removePaths(board._file._watcher.directories())  # not noticed yet
    shutil.rmtree(folder)
    board.create_button.click()
    qtbot.waitUntil(lambda: folder.exists() or "This folder is gone: it was moved or "
                    "deleted." in shown_texts(window), timeout=10_000)
    assert not folder.exists()
    assert board.folder_is_gone and not board.create_button.isVisible()


# -- 2. a new task list in the window's language --------------------------------------------

def test_a_new_task_list_is_in_the_windows_language(qtbot, lang, window, tmp_path):
    folder = tmp_path / "Empty"
    folder.mkdir()
    open_in(qtbot, window, folder)
    board = window.board_view
    qtbot.waitUntil(lambda: board.create_button.isVisible(), timeout=5000)
    board.create_button.click()
    qtbot.waitUntil(lambda: len(board.tasks()) == 2, timeout=10_000)
    text = (folder / "TASKS.md").read_text(encoding="utf-8")
    assert text == {"en": TEMPLATE, "zh_CN": TEMPLATE_ZH_CN}[lang]
    assert [t.text for t in board.tasks()] == [t.text for t in Board.parse(text).tasks]


# -- 3. a run elsewhere ends: the window that waited reads the folder again ----------------

def _other_window(qtbot, tmp_path):
    from app.core.settings import Settings
    from app.gui.main_window import MainWindow

    win = MainWindow(Settings(), demo_delay=0.15, check_engines=False)  # a run that lasts
    win.show()
    return win


def test_a_window_refused_a_run_reads_the_folder_again_when_the_other_run_ends(
        qtbot, window, tmp_path):
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    assert window.cards.cards == []  # never run
    other = _other_window(qtbot, tmp_path)
    late = None
    try:
        open_in(qtbot, other, folder)
        with qtbot.waitSignal(other.run_ended, timeout=60_000):
            other.run_panel.primary.click()
            qtbot.waitUntil(lambda: Workspace(folder).lock().is_held_elsewhere(),
                            timeout=10_000)
            # This window presses Run meanwhile, and is refused.
            with qtbot.waitSignal(window.run_ended, timeout=10_000) as refused:
                window.run_panel.primary.click()
            assert refused.args[0].exit_reason == "workspace_locked"
            assert window.run_panel.state_label.text() == "Already running elsewhere"
            late = _other_window(qtbot, tmp_path)  # a window opened while it runs
            late.open_workspace(folder)
            qtbot.waitUntil(lambda: late.run_panel.state_label.text()
                            == "A run is going elsewhere", timeout=10_000)
        for win in (window, late):
            qtbot.waitUntil(lambda win=win: win.run_panel.state_label.text()
                            == "Needs your decision", timeout=15_000)
            qtbot.waitUntil(lambda win=win: len(win.cards.cards) == len(other.cards.cards),
                            timeout=15_000)
        assert other.cards.cards
    finally:
        for win in (other, late):
            if win is not None:
                win.close()
                win.deleteLater()
