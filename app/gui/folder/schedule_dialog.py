""""Run this folder on a schedule…": when, with which engine and model, the budget per run
(required), careful mode; saved into the computer's own scheduler off the UI thread."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QTime, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox,
                               QFormLayout, QHBoxLayout, QLabel, QLineEdit, QSpinBox,
                               QTimeEdit, QVBoxLayout, QWidget)

from app.core.schedule.model import Schedule
from app.gui.background import run_in_background
from app.gui.look import look
from app.gui.words import engine_words, schedule_words as words
from app.gui.words.schedule_words import scheduler_failure
from app.schedulers.service import install, remove

KINDS = ("daily", "weekdays", "monthly")


class ScheduleDialog(QDialog):
    saved = Signal(object)     # the Schedule, once the scheduler has its entry
    removed = Signal()

    def __init__(self, folder: Path, current: Schedule | None, engines: list,
                 default_engine: str, parent: QWidget | None = None,
                 default_budget: float | None = None,
                 not_ready: Callable[[str], str] | None = None, careful: bool = False):
        """`default_budget`: a new schedule's budget per run (the person's from Settings), so
        the dialog opens ready to save rather than with a problem to put right;
        `not_ready(engine_id)`: why an engine cannot run now ("" when it can, or is not
        known), said under the choice: its scheduled runs would stop at once; `careful`: the
        folder's careful mode, which a new schedule keeps."""
        super().__init__(parent)
        self._not_ready = not_ready or (lambda _engine_id: "")
        self.folder, self.current = folder, current
        self._ai = {choice.id: choice.is_ai for choice in engines}
        self.setWindowTitle(self.tr("Run this folder on a schedule"))
        intro = QLabel(self.tr(
            "Your computer's own scheduler starts the run at these times, also while this "
            "window is closed. A run stops at its budget, and when it needs you it stops and "
            "leaves the decision on the task list."), self)
        intro.setWordWrap(True)
        form = QFormLayout()
        self.kind = QComboBox(self)
        self.kind.addItems([self.tr("Every day"), self.tr("On these days of the week"),
                            self.tr("Every month")])
        form.addRow(self.tr("&Run:"), self.kind)
        self.days_row = QWidget(self)
        days_layout = QHBoxLayout(self.days_row)
        days_layout.setContentsMargins(0, 0, 0, 0)
        self.day_boxes = [QCheckBox(words.day_name(d, short=True), self.days_row)
                          for d in range(7)]
        for box in self.day_boxes:
            days_layout.addWidget(box)
        form.addRow(self.tr("Days:"), self.days_row)
        self.day_of_month = QSpinBox(self)
        self.day_of_month.setRange(1, 31)
        self.day_of_month.setToolTip(self.tr("A day past the month's end (the 31st in April) "
                                             "means the month's last day."))
        form.addRow(self.tr("On &day:"), self.day_of_month)
        self.time = QTimeEdit(self)
        self.time.setDisplayFormat("HH:mm")
        form.addRow(self.tr("&At:"), self.time)
        self.engine = QComboBox(self)
        for choice in engines:
            self.engine.addItem(engine_words.label(choice.id, choice.label), choice.id)
        form.addRow(self.tr("&Engine:"), self.engine)
        self.model = QLineEdit(self)
        self.model.setPlaceholderText(self.tr("the model chosen in Engine settings"))
        form.addRow(self.tr("&Model:"), self.model)
        self.budget = QDoubleSpinBox(self)
        self.budget.setRange(0.0, 1000.0)
        self.budget.setDecimals(2)
        self.budget.setSingleStep(0.5)
        self.budget.setPrefix("$ ")
        form.addRow(self.tr("&Budget per run:"), self.budget)
        self.careful = QCheckBox(self.tr("&Careful mode: a change to a file that was already in "
                                         "the folder waits for your answer"), self)
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        buttons = QDialogButtonBox(self)
        self.save_button = buttons.addButton(self.tr("&Save schedule"),
                                             QDialogButtonBox.ButtonRole.AcceptRole)
        self.remove_button = buttons.addButton(self.tr("Remo&ve schedule"),
                                               QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.remove_button.setVisible(current is not None)
        self.save_button.clicked.connect(self._save)
        self.remove_button.clicked.connect(self._remove)
        buttons.rejected.connect(self.reject)
        column = QVBoxLayout(self)
        column.addWidget(intro)
        column.addLayout(form)
        column.addWidget(self.careful)
        column.addWidget(self.hint)
        column.addWidget(buttons)
        self._form = form
        self._fill(current, default_engine, default_budget, careful)
        for signal in (self.kind.currentIndexChanged, self.budget.valueChanged,
                       self.engine.currentIndexChanged, *[b.toggled for b in self.day_boxes]):
            signal.connect(self._update)
        self._update()

    def _fill(self, s: Schedule | None, default_engine: str,
              default_budget: float | None = None, careful: bool = False) -> None:
        s = s or Schedule(folder=str(self.folder), kind="weekdays", days=[0], time="07:00",
                          engine=default_engine, budget_usd=default_budget or None,
                          careful=careful)
        self.kind.setCurrentIndex(KINDS.index(s.kind))
        for d, box in enumerate(self.day_boxes):
            box.setChecked(d in s.days)
        self.day_of_month.setValue(s.day_of_month)
        self.time.setTime(QTime(s.hour, s.minute))
        index = self.engine.findData(s.engine)
        self.engine.setCurrentIndex(max(index, 0))
        self.model.setText(s.model or "")
        self.budget.setValue(s.budget_usd or 0.0)
        self.careful.setChecked(s.careful)

    def schedule(self) -> Schedule:
        kind = KINDS[self.kind.currentIndex()]
        return Schedule(
            folder=str(self.folder), kind=kind, time=self.time.time().toString("HH:mm"),
            days=[d for d, b in enumerate(self.day_boxes) if b.isChecked()]
            if kind == "weekdays" else [],
            day_of_month=self.day_of_month.value(), engine=self.engine.currentData(),
            model=self.model.text().strip() or None, budget_usd=self.budget.value() or None,
            careful=self.careful.isChecked(),
            created_at=datetime.now().isoformat(timespec="seconds"))

    def _update(self) -> None:
        kind = KINDS[self.kind.currentIndex()]
        self._form.setRowVisible(self.days_row, kind == "weekdays")
        self._form.setRowVisible(self.day_of_month, kind == "monthly")
        ai = self._ai.get(self.engine.currentData(), True)
        self.model.setEnabled(ai)  # the Demo engine has no model to choose
        problem = ""
        if self.budget.value() <= 0:
            problem = self.tr("Set a budget per run: a scheduled run never starts without one, "
                              "so it can never spend more than you meant.")
        elif kind == "weekdays" and not any(b.isChecked() for b in self.day_boxes):
            problem = self.tr("Choose at least one day of the week.")
        self.save_button.setEnabled(not problem)
        why = self._not_ready(self.engine.currentData()) if not problem else ""
        if why:  # said, not forbidden: it may be put right before the first run
            self.show_hint(self.tr("%1 Until then, its scheduled runs would stop at once.")
                           .replace("%1", why), "attention")
        elif problem or ai:
            self.show_hint(problem, "attention" if problem else None)
        else:  # a schedule of the Demo engine would only ever show a sample
            self.show_hint(self.tr("The Demo engine uses no AI: on a schedule it would only "
                                   "show a sample run each time. To get the work done, choose "
                                   "an AI engine above."))
        self._fit()

    def _fit(self) -> None:
        """As tall as what shows: a row or the hint going leaves no gap, and nothing above
        it moves."""
        layout = self.layout()
        if layout is None or not self.isVisible():
            return
        layout.activate()
        needed = (layout.totalHeightForWidth(self.width()) if layout.hasHeightForWidth()
                  else layout.totalSizeHint().height())
        if needed != self.height():
            self.resize(self.width(), needed)

    def show_hint(self, text: str, tone: str | None = None) -> None:
        self.hint.setText(text)
        self.hint.setVisible(bool(text))
        look.set_tone(self.hint, tone)

    def _save(self) -> None:
        schedule = self.schedule().check()
        if self.current is not None and self.current.paused:
            schedule.paused = True  # saving the times does not resume a paused schedule
        self.save_button.setEnabled(False)
        self.show_hint(self.tr("Saving…"))
        run_in_background(lambda: install(schedule), lambda _: self._done_saving(schedule),
                          self._failed)

    def _done_saving(self, schedule: Schedule) -> None:
        self.saved.emit(schedule)
        self.accept()

    def _remove(self) -> None:
        current = self.current
        assert current is not None  # the button is shown only for a schedule
        self.remove_button.setEnabled(False)
        run_in_background(lambda: remove(current), self._done_removing,
                          lambda exc: self._failed(exc, removing=True))

    def _done_removing(self, _result: object) -> None:
        self.removed.emit()
        self.accept()

    def _failed(self, exc: BaseException, removing: bool = False) -> None:
        said = scheduler_failure(exc)
        if getattr(exc, "kind", "") == "no_scheduler":
            text = said  # a sentence of its own
        elif removing:
            text = self.tr("The schedule could not be removed: %1").replace("%1", said)
        else:
            text = self.tr("The schedule could not be saved: %1").replace("%1", said)
        self.show_hint(text, "attention")
        self.save_button.setEnabled(True)
        self.remove_button.setEnabled(True)
