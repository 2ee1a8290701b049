"""Settings: how long a run may go (rounds, steps, rounds without progress), a budget per run,
the Demo engine's speed, and the language.

The dialog only edits a copy: Save validates the limits through the core (`Limits`) and hands
the new Settings to the window, which writes them atomically off the UI thread. The language
takes effect when Harness Desk next starts; the dialog says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QApplication, QComboBox, QDialog, QDialogButtonBox, QFormLayout,
                               QFrame, QGroupBox, QLabel, QScrollArea, QSpinBox, QVBoxLayout,
                               QWidget)

from app.core.settings import LimitError
from app.gui.look import look
from app.gui.settings.budget import BudgetLine
from app.gui.settings.budget_rules import budget_of, with_budget
from app.gui.settings.web_group import WebGroup

if TYPE_CHECKING:
    from app.core.settings import Settings

# The Demo engine's pause per step, in seconds, as the person picks it.
DEMO_SPEEDS = (0.2, 0.6, 1.5, 3.0)
NORMAL_SPEED = 0.6  # what the window uses when none is set (run_flow.DEMO_STEP_S)
# What a window manager's title bar and frame take from the screen's free height, at most.
TITLE_BAR_ROOM = 48


class SettingsDialog(QDialog):
    settings_saved = Signal(object)     # the new Settings (already validated)
    language_changed = Signal(str)      # "system", "en" or "zh_CN": applies on the next start

    def __init__(self, settings: Settings, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("settings")
        self.setWindowTitle(self.tr("Settings"))
        self.settings = settings
        # The groups scroll, the buttons stay: on a small screen (or in Chinese, whose lines
        # are taller) the dialog is never taller than the screen, and a squeezed layout never
        # cuts an explaining sentence down to its first line.
        self.page = QWidget(self)
        column = self._column = QVBoxLayout(self.page)
        column.setContentsMargins(0, 0, 0, 0)
        # The open folder's careful-mode group (careful.folder_safety), when a folder is open.
        self.folder_safety: QGroupBox | None = None
        column.addWidget(self._limits_group(settings))

        self.web = WebGroup(settings.limits, self)  # web lookups and their sites
        column.addWidget(self.web)
        column.addWidget(self._other_group(settings))
        column.addStretch(1)
        self.scroll_area = QScrollArea(self)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the settings in it
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setWidget(self.page)
        outer = QVBoxLayout(self)
        outer.addWidget(self.scroll_area, 1)
        self.problem = QLabel(self)
        self.problem.setWordWrap(True)
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        look.set_tone(self.problem, "attention")
        self.problem.hide()
        outer.addWidget(self.problem)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel, self)
        self._buttons = buttons
        # Its own Alt letter: Qt's plain "Save" has none, and Alt+S is "Steps per round".
        buttons.button(QDialogButtonBox.StandardButton.Save).setText(self.tr("Sav&e"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        outer.addWidget(buttons)
        self._fitted = False
        # An Alt letter (Alt+L: the language) focuses a setting below the fold without
        # scrolling to it, as Tab does: the person would change what they cannot see.
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_focus_changed)

    def _on_focus_changed(self, _old, new) -> None:
        if new is not None and new is not self.page and self.page.isAncestorOf(new):
            self.scroll_area.ensureWidgetVisible(new)

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if not self._fitted:  # the folder's group is in by now: size to the whole once
            self._fitted = True
            self._fit_to_screen()
        super().showEvent(event)

    def _fit_to_screen(self) -> None:
        """As tall as every group needs at its width, but never taller than the screen's free
        height (the title bar included): what does not fit scrolls, and Save stays in sight."""
        page_layout = self.page.layout()
        outer = self.layout()
        assert page_layout is not None and outer is not None  # made in __init__
        bar = self.scroll_area.verticalScrollBar().sizeHint().width()
        margins = outer.contentsMargins()
        sides = margins.left() + margins.right()
        inner = self.page.sizeHint().width()
        # the scroll bar's room is kept even when all fits, so nothing ever goes under it
        self.scroll_area.setMinimumWidth(self.page.minimumSizeHint().width() + bar)
        width = inner + bar + sides
        page_height = page_layout.totalHeightForWidth(inner) if page_layout.hasHeightForWidth() \
            else self.page.sizeHint().height()
        below = sum(w.sizeHint().height() + outer.spacing()
                    for w in (self.problem, self._buttons) if not w.isHidden())
        wanted = page_height + below + margins.top() + margins.bottom()
        parent = self.parentWidget()
        screen = parent.screen() if parent is not None else self.screen()
        room = screen.availableGeometry().height() - TITLE_BAR_ROOM
        self.resize(width, max(min(wanted, room), 200))

    def button_box(self) -> QDialogButtonBox:
        return self._buttons

    def show_folder_safety(self, group: QGroupBox) -> None:
        """The open folder's careful-mode settings, after the limits and web groups, and in
        the Tab order where they are seen: made after the dialog, its controls would
        otherwise come last, after Save and Cancel."""
        self._column.insertWidget(2, group)
        self.folder_safety = group
        self.web.folder_shown()
        before = self.web.blocked
        for widget in (*getattr(group, "focus_order", list)(), self.demo_speed):
            QWidget.setTabOrder(before, widget)
            before = widget

    # -- building --------------------------------------------------------------------------
    def _limits_group(self, settings: Settings) -> QGroupBox:
        limits = settings.limits
        group = QGroupBox(self.tr("How long a run may go"), self)
        form = QFormLayout(group)
        note = QLabel(self.tr("A run stops at the first of these limits it reaches and says "
                              "which one; Continue carries on from there."), group)
        note.setWordWrap(True)
        look.set_tone(note, "muted")
        form.addRow(note)
        self.rounds = self._count(1, 10_000, limits.max_rounds, self.tr("Rounds per run"),
                                  self.tr("A round is one task worked on. The run stops after "
                                          "this many rounds."))
        form.addRow(self.tr("&Rounds per run"), self.rounds)
        form.addRow("", self._explain(group, self.tr(
            "A round is the AI working on one task; the run stops after this many.")))
        self.steps = self._count(1, 500, limits.max_steps, self.tr("Steps per round"),
                                 self.tr("A step is one answer from the AI (reading a file, "
                                         "writing one). A round stops after this many."))
        form.addRow(self.tr("&Steps per round"), self.steps)
        form.addRow("", self._explain(group, self.tr(
            "A step is one thing the AI does, such as reading or writing a file; a round stops "
            "after this many.")))
        self.stall = self._count(1, 100, limits.stall_limit,
                                 self.tr("Rounds without progress"),
                                 self.tr("The run stops and asks you when this many rounds in a "
                                         "row tick off no task."))
        form.addRow(self.tr("Rounds without &progress"), self.stall)
        form.addRow("", self._explain(group, self.tr(
            "When this many rounds in a row finish no task, the run stops so it does not go "
            "round in circles.")))

        budget_line = BudgetLine(budget_of(settings), self.tr("Stop a run when it has cost"),
                                 group)
        self.budget_on, self.budget = budget_line.on, budget_line.amount
        self._budget_line = budget_line
        tip = self.tr("What the AI company charges for one run, in US dollars, as Harness Desk "
                      "counts it. The Demo and local engines cost nothing.")
        for widget in (self.budget_on, self.budget):
            widget.setToolTip(tip)
        budget_label = QLabel(self.tr("&Budget per run"), group)
        budget_label.setBuddy(self.budget_on)  # Alt+B, as every other limit has its letter
        form.addRow(budget_label, budget_line)
        form.addRow("", self._explain(group, self.tr(
            "Claude and OpenAI charge for each run; the Demo and local engines are free.")))
        return group

    def _other_group(self, settings: Settings) -> QGroupBox:
        group = QGroupBox(self.tr("Demo, language and look"), self)
        form = QFormLayout(group)
        self.demo_speed = QComboBox(group)
        words = (self.tr("Fast"), self.tr("Normal"), self.tr("Slow"),
                 self.tr("Very slow, to follow every step"))
        for seconds, word in zip(DEMO_SPEEDS, words):
            self.demo_speed.addItem(self.tr("%1 (%2 s a step)").replace("%1", word)
                                    .replace("%2", f"{seconds:g}"), seconds)
        current = settings.demo_delay_s or NORMAL_SPEED
        if current not in DEMO_SPEEDS:  # a value set by hand in the file stays as it is
            self.demo_speed.addItem(self.tr("%1 s a step").replace("%1", f"{current:g}"),
                                    current)
        self.demo_speed.setCurrentIndex(self.demo_speed.findData(current))
        self.demo_speed.setToolTip(self.tr("How fast the Demo engine works, so you can watch "
                                           "what a run looks like."))
        look.set_accessible(self.demo_speed, self.tr("Demo engine speed"))
        form.addRow(self.tr("&Demo engine speed"), self.demo_speed)
        self.language = QComboBox(group)
        self.language.addItem(self.tr("Follow the system"), "system")
        self.language.addItem("English", "en")
        self.language.addItem("简体中文", "zh_CN")
        self.language.setCurrentIndex(max(0, self.language.findData(settings.language)))
        self.language.setToolTip(self.tr("The language of the window. It changes the next time "
                                         "Harness Desk starts."))
        look.set_accessible(self.language, self.tr("Language"))
        form.addRow(self.tr("&Language"), self.language)
        self.language_note = QLabel(self.tr("A new language shows the next time Harness Desk "
                                            "starts."), group)
        self.language_note.setWordWrap(True)
        look.set_tone(self.language_note, "muted")
        self.language_note.setVisible(False)
        self.language.currentIndexChanged.connect(
            lambda _i: self.language_note.setVisible(self.language.currentData()
                                                     != settings.language))
        form.addRow("", self.language_note)
        self.look = QComboBox(group)
        self.look.addItem(self.tr("Follow the system"), "system")
        self.look.addItem(self.tr("Light"), "light")
        self.look.addItem(self.tr("Dark"), "dark")
        self.look.setCurrentIndex(max(0, self.look.findData(settings.look)))
        self.look.setToolTip(self.tr("Light or dark, or as the system is set. It changes as "
                                     "soon as you save."))
        look.set_accessible(self.look, self.tr("Look"))
        form.addRow(self.tr("Loo&k"), self.look)
        return group

    @staticmethod
    def _explain(parent: QWidget, text: str) -> QLabel:
        """A line under a setting that says in plain words what it does."""
        line = QLabel(text, parent)
        line.setWordWrap(True)
        line.setTextFormat(Qt.TextFormat.PlainText)
        look.set_tone(line, "muted")
        return line

    def _count(self, low: int, high: int, value: int, name: str, tip: str) -> QSpinBox:
        box = QSpinBox(self)
        box.setRange(low, high)
        box.setValue(value)
        box.setToolTip(tip)
        look.set_accessible(box, name)
        return box

    # -- saving ----------------------------------------------------------------------------
    def chosen_settings(self) -> Settings:
        """The settings as the dialog shows them. Raises LimitError for a value the core
        refuses (the spin boxes keep values in range, so this is the core's last word)."""
        limits = self.settings.limits.with_overrides(
            max_rounds=self.rounds.value(), max_steps=self.steps.value(),
            stall_limit=self.stall.value())
        limits = self.web.limits(limits)

        chosen = with_budget(self.settings.model_copy(update={"limits": limits}),
                             self._budget_line.value())
        demo_delay = float(self.demo_speed.currentData())
        if not self.settings.demo_delay_s and demo_delay == NORMAL_SPEED:
            demo_delay = 0.0  # unset stays unset: the window's normal pace, the CLI's none
        return chosen.model_copy(update={
            "demo_delay_s": demo_delay,
            "language": self.language.currentData(), "look": self.look.currentData()})

    def accept(self) -> None:
        try:
            chosen = self.chosen_settings()
        except LimitError as err:
            self.problem.setText(err.message)
            self.problem.show()
            look.announce(self, err.message, assertive=True)
            return
        language_before = self.settings.language
        self.settings = chosen
        self.settings_saved.emit(chosen)
        if chosen.language != language_before:
            self.language_changed.emit(chosen.language)
        super().accept()
