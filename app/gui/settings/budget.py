"""The budget per run that protects a first paid run.

Claude and OpenAI charge for every run. Until the person chooses a budget in Settings (or in
the question below), the window's runs stop at DEFAULT_BUDGET_USD; the Demo and local engines
cost nothing, so a budget never stops them. Before the first run of a paid engine in a folder
the window says so and lets the person change it or turn it off, so the budget is never a
surprise (FirstPaidRunDialog). The choice is saved as the Settings' "Budget per run".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QHBoxLayout,
                               QLabel, QVBoxLayout, QWidget)

from app.gui.look import look
from app.gui.settings.budget_rules import DEFAULT_BUDGET_USD, budget_of

if TYPE_CHECKING:
    from app.core.settings import Settings

class BudgetLine(QWidget):
    """"Stop a run when it has cost [$ 2.00]": a checkbox and the amount, as Settings and the
    first paid run show it."""

    def __init__(self, usd: float | None, label: str, parent: QWidget | None = None):
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.on = QCheckBox(label, self)
        self.amount = QDoubleSpinBox(self)
        self.amount.setRange(0.01, 10_000)
        self.amount.setDecimals(2)
        self.amount.setPrefix("$ ")
        self.amount.setSingleStep(0.5)
        self.amount.setValue(usd if usd else DEFAULT_BUDGET_USD)
        self.on.setChecked(usd is not None)
        self.amount.setEnabled(self.on.isChecked())
        self.on.toggled.connect(self.amount.setEnabled)
        look.set_accessible(self.amount, self.tr("Budget per run, in US dollars"))
        row.addWidget(self.on)
        row.addWidget(self.amount)
        row.addStretch(1)

    def value(self) -> float | None:
        return round(self.amount.value(), 2) if self.on.isChecked() else None


class FirstPaidRunDialog(QDialog):
    """Before the first run of Claude or OpenAI in a folder: what a run may cost, changeable."""

    def __init__(self, settings: Settings, engine_name: str, folder: str,
                 start: Callable[[float | None], None], parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("firstPaidRun")
        self.setWindowTitle(self.tr("Before the first run with %1").replace("%1", engine_name))
        self._start = start
        column = QVBoxLayout(self)
        words = QLabel(self.tr(
            "%1 charges for the work it does. So that this first run in “%2” never costs more "
            "than you expect, it stops once it has cost the amount below; you can then look at "
            "what it did and carry on.").replace("%1", engine_name).replace("%2", folder), self)
        words.setWordWrap(True)
        words.setTextFormat(Qt.TextFormat.PlainText)
        column.addWidget(words)
        self.line = BudgetLine(budget_of(settings), self.tr("Stop the run when it has cost"),
                               self)
        column.addWidget(self.line)
        later = QLabel(self.tr("You can change this any time under Settings, “Budget per "
                               "run”."), self)
        later.setWordWrap(True)
        look.set_tone(later, "muted")
        column.addWidget(later)
        buttons = QDialogButtonBox(self)
        self.run_button = buttons.addButton(self.tr("&Run"), QDialogButtonBox.ButtonRole.AcceptRole)
        look.set_tone(self.run_button, "primary")
        self.run_button.setDefault(True)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        column.addWidget(buttons)
        self.setMinimumWidth(440)

    def accept(self) -> None:
        super().accept()
        self._start(self.line.value())
