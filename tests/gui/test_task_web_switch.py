"""The task details' switch for looking things up on the web (issue 37): it writes the task's
"Web:" line, and only that line."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox

from tests.gui.test_board_view import (LINES, board, child, select, tasks_md,  # noqa: F401
                                       view, wait_for_file)

WEB = "This task may look things up on the web"


def test_the_switch_writes_the_tasks_web_line_and_takes_it_away(qtbot, view, tasks_md):
    select(view, 1)
    web = child(view, QCheckBox, WEB)
    assert web.isVisible() and not web.isChecked()
    web.click()
    wait_for_file(qtbot, view, tasks_md, board(LINES[:7] + ["  - Web: yes"] + LINES[7:]))
    qtbot.waitUntil(lambda: view.model.task(1).web is True, timeout=3000)
    assert web.isChecked()
    web.click()
    wait_for_file(qtbot, view, tasks_md, board(LINES))


def test_with_the_folder_on_unticking_writes_web_no(qtbot, view, tasks_md):
    view._details.set_web_default(True)
    select(view, 3)
    web = child(view, QCheckBox, WEB)
    assert web.isChecked()  # no line: the folder's default
    web.click()
    wait_for_file(qtbot, view, tasks_md, board(LINES + ["  - Web: no"]))


def test_a_decision_has_no_web_switch(qtbot, view):
    select(view, 2)
    assert not child(view, QCheckBox, WEB).isVisible()
