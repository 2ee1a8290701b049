"""The "Plan with AI" button, one way everywhere it appears (beside "Add a task…", on an empty
board, on the empty-folder page): make it here and connect `clicked` to the window's
`open_plan()` (app/gui/window/plan_flow.py)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QPushButton, QWidget

from app.gui.look import look


def make_plan_button(parent: QWidget | None = None, prominent: bool = False) -> QPushButton:
    button = QPushButton(QCoreApplication.translate("PlanButton", "Plan with AI…"), parent)
    button.setAccessibleName(button.text())
    button.setToolTip(QCoreApplication.translate(
        "PlanButton", "Say in a sentence what you want to achieve; the AI proposes tasks and "
        "you choose which go on your list. Nothing changes until you add them."))
    if prominent:
        button.setMinimumHeight(34)
        look.set_tone(button, "primary")
    return button
