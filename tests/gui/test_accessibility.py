"""Every control has a name a screen reader can say, and the demo works by keyboard alone."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (QAbstractButton, QAbstractSlider, QApplication, QComboBox,
                               QLineEdit, QProgressBar, QScrollBar, QWidget)

from app.core.board.board import Board
from tests.gui.helpers import demo_copy, open_in

CONTROLS = (QAbstractButton, QComboBox, QLineEdit, QProgressBar, QAbstractSlider)


def spoken_name(widget: QWidget) -> str:
    interface = QAccessible.queryAccessibleInterface(widget)
    return interface.text(QAccessible.Text.Name) if interface is not None else ""


def unnamed_controls(root: QWidget) -> list[str]:
    problems = []
    for widget in root.findChildren(QWidget):
        if not isinstance(widget, CONTROLS) or not widget.isVisible():
            continue
        if isinstance(widget, QScrollBar):
            continue  # spoken by its role, as part of the list it scrolls
        if widget.parent() is not None and type(widget.parent()).__name__ == "QComboBox":
            continue  # a combo box's own line edit or view is spoken through the combo box
        name = spoken_name(widget)
        shown = widget.text() if isinstance(widget, QAbstractButton) else ""
        if not re.search(r"\w", name):
            problems.append(f"{type(widget).__name__} {widget.objectName()!r} shows "
                            f"{shown!r} but is called {name!r}")
        elif shown and re.search(r"\w", shown):
            plain = lambda t: re.sub(r"[^\w ]", "", t.replace("&", "")).split()  # noqa: E731
            if not set(plain(name)) & set(plain(shown)):
                problems.append(f"{type(widget).__name__} shows {shown!r} but is called {name!r}")
    return problems


def test_every_control_on_the_welcome_page_has_a_name(window):
    assert unnamed_controls(window) == []


def test_every_control_of_an_open_folder_and_its_decision_has_a_name(qtbot, window, tmp_path):
    open_in(qtbot, window, demo_copy(tmp_path))
    assert unnamed_controls(window) == []
    with qtbot.waitSignal(window.decision_shown, timeout=60_000) as shown:
        window.run_panel.primary.click()
    assert unnamed_controls(window) == []
    dialog = shown.args[0]
    dialog.other_button.click()
    assert unnamed_controls(dialog) == []


def test_the_state_is_spoken_as_shown(qtbot, window, tmp_path):
    open_in(qtbot, window, demo_copy(tmp_path))
    with qtbot.waitSignal(window.run_ended, timeout=60_000):
        window.run_panel.primary.click()
    assert spoken_name(window.run_panel.state_label) == "Needs your decision"
    assert spoken_name(window.run_panel.primary) == "Answer the question"
    assert spoken_name(window.run_panel.tasks_bar) == "Tasks: 2 of 6 done"


def _press(qtbot, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    target = QApplication.focusWidget()
    assert target is not None, "nothing has the keyboard focus"
    qtbot.keyClick(target, key, modifier)


def test_the_demo_can_be_run_answered_and_finished_by_keyboard_alone(qtbot, window, tmp_path):
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    window.run_panel.primary.setFocus()
    with qtbot.waitSignal(window.decision_shown, timeout=20_000) as shown:
        _press(qtbot, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    dialog = shown.args[0]
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.recommended_button,
                    timeout=5000)
    with qtbot.waitSignal(window.run_ended, timeout=60_000) as ended:
        _press(qtbot, Qt.Key.Key_Space)  # the answer, and the run carries on at once
    assert ended.args[0].state == "done"
    assert all(t.checked for t in Board.load(folder / "TASKS.md").tasks)
