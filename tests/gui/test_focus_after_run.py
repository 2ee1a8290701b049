"""When a run ends the keyboard is on the next step's filled button (Space takes it, Tab goes on
from there), never on nothing; a dialog the person is in keeps it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.gui.helpers import demo_copy, demo_task_board, open_in


def test_after_a_run_the_keyboard_is_on_the_filled_button(qtbot, window, tmp_path):
    folder = tmp_path / "one"
    folder.mkdir()
    demo_task_board(folder)
    open_in(qtbot, window, folder)
    window.activateWindow()
    panel = window.run_panel
    window.picker.combo.setFocus()  # the engine chosen, then Ctrl+R: the picker waits the run out
    with qtbot.waitSignal(window.run_ended, timeout=60_000):
        window.primary_action.trigger()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is panel.primary, timeout=3000)
    assert panel.mode == "done" and panel.primary.isVisible()


def test_a_decision_dialog_keeps_the_keyboard(qtbot, window, tmp_path):
    open_in(qtbot, window, demo_copy(tmp_path))
    window.activateWindow()
    window.run_panel.primary.setFocus()
    with qtbot.waitSignal(window.decision_shown, timeout=60_000) as shown:
        qtbot.keyClick(window.run_panel.primary, Qt.Key.Key_Space)
    dialog = shown.args[0]
    qtbot.wait(50)
    assert dialog.isAncestorOf(QApplication.focusWidget()) or QApplication.focusWidget() is None \
        or QApplication.focusWidget().window() is dialog
    dialog.later_button.click()
