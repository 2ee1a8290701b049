"""The run's status, said once, in a block whose height does not change with its messages.

One heading (the state), one paragraph (what it means, what to do), one row for the action
it names (Engine settings…, Choose an AI engine…, the lessons), the slim task bar with its
count beside it, time and cost, the AI's live line, and a place for the window's passing
notices. While a run goes (`set_live`) every part has its room whether it is shown or not, so
nothing below the block (the Rounds heading, the cards) moves as messages come and go; a
paragraph longer than its room ends at a word with "…" and is read whole in its tooltip and by
a screen reader. Between runs nothing is moving, so the block is as tall as what it shows: the
heading's and the paragraph's lines at this width, the action's row only when there is an
action, no live line, and the notice's place only while a notice is shown (one arriving then
pushes what is below down by its height) - no empty band above the task bar, the schedule and
the rounds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QProgressBar, QPushButton,
                               QSizePolicy, QVBoxLayout, QWidget)

from app.gui.look import look
from app.gui.look.fit_text import FitLabel

HEADING_LINES = 2   # "Stopped: no progress on “Write the opening hours”" on a narrow window
DETAIL_LINES = 3    # the welcome note, or what a stop means and what to do about it
NOTICE_LINES = 2    # a notice's sentence beside its action
BAR_HEIGHT = 6      # the slim task bar (its words are beside it, not on the fill)

W = TypeVar("W", bound=QWidget)
# What may change a part's room between runs: a label's new height, a part shown or hidden.
_MAY_CHANGE_ROOM = (QEvent.Type.Resize, QEvent.Type.ShowToParent, QEvent.Type.HideToParent)


def _keep_room(widget: W, keep: bool = True) -> W:
    policy = widget.sizePolicy()
    policy.setRetainSizeWhenHidden(keep)
    widget.setSizePolicy(policy)
    return widget


class _Told(FitLabel):
    """A line that tells the block when its text changes: between runs an empty one (no run
    yet, so no time and no cost) takes no room."""

    def __init__(self, parent: QWidget, changed: Callable[[], None]) -> None:
        super().__init__(parent)
        self._changed = changed

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        super().setText(text)
        changed = getattr(self, "_changed", None)  # None while FitLabel is being made
        if changed is not None:
            changed()


class StatusBlock(QFrame):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("statusBlock")
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(4)

        # The heading, its paragraph and its action share one room: each follows the one
        # before, and the room is as tall as all three at their longest.
        self.words = QWidget(self)
        words = QVBoxLayout(self.words)
        words.setContentsMargins(0, 0, 0, 0)
        words.setSpacing(4)
        self.state_label = FitLabel(self.words, HEADING_LINES, grow=True)
        self.state_label.setObjectName("state")
        self.state_label.setFont(look.type_font(self, "heading", semibold=True))
        self.detail_label = FitLabel(self.words, DETAIL_LINES, grow=True)
        self.detail_label.setObjectName("detail")
        self.detail_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        words.addWidget(self.state_label)
        words.addWidget(self.detail_label)
        column.addWidget(self.words)

        # The one action a state names, right under its sentence; the room above keeps a
        # place for it when there is none.
        self.action_row = QWidget(self.words)
        actions = QHBoxLayout(self.action_row)
        actions.setContentsMargins(0, 0, 0, 0)
        actions.setSpacing(8)
        self.engine_action = QPushButton(self.tr("Engine settings…"), self.action_row)
        self.engine_action.setObjectName("engineAction")
        look.set_accessible(self.engine_action, self.tr("Engine settings…"),
                            self.tr("Opens the settings of the engine that stopped the run"))
        self.engine_action.setToolTip(self.tr("Your API key, the model and the local server's "
                                              "address, with a connection test."))
        # Filled when its state names it (RunPanel._fill): as tall plain as filled.
        look.set_tone(self.engine_action, "primary")
        self.engine_action.setMinimumHeight(self.engine_action.sizeHint().height())
        look.set_tone(self.engine_action, None)
        self.choose_engine = QPushButton(self.tr("Choose an AI engine…"), self.action_row)
        self.choose_engine.setObjectName("chooseEngine")
        look.set_accessible(self.choose_engine, self.tr("Choose an AI engine…"),
                            self.tr("Opens the engine list"))
        # Quiet on purpose: a flat link-like button, shown only when the run that just ended
        # taught something.
        self.lessons_button = QPushButton(self.action_row)
        self.lessons_button.setObjectName("lessonsLink")
        self.lessons_button.setFlat(True)
        self.lessons_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.lessons_button.setToolTip(self.tr(
            "What went wrong or was wasteful in this run, and a line you can add to AGENTS.md, "
            "the standing instructions the AI reads"))
        for button in (self.engine_action, self.choose_engine, self.lessons_button):
            button.hide()
            actions.addWidget(button)
        actions.addStretch(1)
        words.addWidget(self.action_row)
        words.addStretch(1)

        # One slim bar: tasks done of all; "3 of 6 done" beside it, never on the fill.
        bar_row = QHBoxLayout()
        bar_row.setSpacing(8)
        tip = self.tr("How many tasks on the list are checked.")
        name = QLabel(self.tr("Tasks"), self)
        name.setToolTip(tip)
        self.tasks_bar = QProgressBar(self)
        self.tasks_bar.setObjectName("tasksBar")
        self.tasks_bar.setTextVisible(False)
        self.tasks_bar.setFixedHeight(BAR_HEIGHT)
        self.tasks_bar.setRange(0, 1)
        self.tasks_bar.setValue(0)
        self.tasks_bar.setToolTip(tip)
        name.setBuddy(self.tasks_bar)
        look.set_accessible(self.tasks_bar, self.tr("Tasks"), tip)
        self.tasks_count = QLabel(self)
        self.tasks_count.setObjectName("tasksCount")
        self.tasks_count.setTextFormat(Qt.TextFormat.PlainText)
        bar_row.addWidget(name)
        bar_row.addWidget(self.tasks_bar, 1, Qt.AlignmentFlag.AlignVCenter)
        bar_row.addWidget(self.tasks_count)
        column.addLayout(bar_row)

        self.meta_label = _Told(self, self._fix_heights)  # no room between runs when empty
        self.meta_label.setObjectName("meta")
        # Shown only while the cost is an upper estimate (the model's price is not known).
        self.price_note = _keep_room(FitLabel(self), False)  # kept while live (set_live)
        self.price_note.setObjectName("priceNote")
        look.set_tone(self.price_note, "muted")
        self.price_note.hide()
        self.narration = FitLabel(self)
        self.narration.setObjectName("narration")
        look.set_tone(self.narration, "muted")  # quieter by its grey: no italic (Chinese has none)
        self.narration.set_tip(self.tr("What the run is doing right now"))
        look.set_accessible(self.narration, self.tr("What the run is doing"))
        column.addWidget(self.meta_label)
        column.addWidget(self.price_note)
        column.addWidget(self.narration)

        # The window's notice line lives here while a folder is open (see hold_notice).
        self.notice_slot = QWidget(self)
        self.notice_slot.setObjectName("noticeSlot")
        slot = QVBoxLayout(self.notice_slot)
        slot.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.notice_slot)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.live = False  # a run is going: the live line (and the price note) keep their room
        self.narration.hide()
        self._notice: QWidget | None = None
        self._fixing = False
        # Between runs the block follows what it shows: a line more or less in the heading or
        # the paragraph (a new text, a new width), an action or a notice shown or hidden.
        for part in (self.state_label, self.detail_label, self.engine_action,
                     self.choose_engine, self.lessons_button):
            part.installEventFilter(self)
        self._fix_heights()

    def set_live(self, live: bool) -> None:
        """While a run goes the block keeps a room for its live line and the price note, so
        nothing below moves as they come and go; between runs there is no live line and the
        block is that much shorter (no empty band above the schedule and the rounds)."""
        if live != self.live:
            self.live = live
            _keep_room(self.price_note, live)
            self.narration.setVisible(live)
            self._fix_heights()

    def show_price_note(self, shown: bool) -> None:
        self.price_note.setVisible(shown)
        self._fix_heights()

    def hold_notice(self, notice: QWidget) -> None:
        """Put the window's notice line into its place here (it keeps its room when hidden)."""
        if notice.parent() is not self.notice_slot:
            slot = self.notice_slot.layout()
            assert slot is not None  # made with its layout in __init__
            slot.addWidget(notice)
        _keep_room(notice)
        if notice is not self._notice:
            notice.installEventFilter(self)
            self._notice = notice
        self._fix_heights()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt's name)
        if event.type() in _MAY_CHANGE_ROOM and not self.live:
            self._fix_heights()
        return False

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange and hasattr(self, "notice_slot"):
            self._fix_heights()

    def _fix_heights(self) -> None:
        """Every row's room, from the fonts. While a run goes the block is as tall as all of
        it, always; between runs as tall as what it shows now."""
        if self._fixing:  # a height set here resized a part we follow
            return
        self._fixing = True
        try:
            self._fix_rooms()
        finally:
            self._fixing = False

    def _fix_rooms(self) -> None:
        body = self.fontMetrics().lineSpacing()
        buttons = (self.engine_action, self.choose_engine, self.lessons_button)
        button = max(max(b.sizeHint().height(), b.minimumHeight()) for b in buttons[:2])
        notice_room = max(button, body * NOTICE_LINES) + 12
        self.state_label.setFont(look.type_font(self, "heading", semibold=True))
        heading = self.state_label.fontMetrics().lineSpacing()
        if self.live:
            words = heading * HEADING_LINES + body * DETAIL_LINES + button + 4 * 2 + 2
        else:
            words = self.state_label.height() + 4  # the action row's place follows it
            if not self.detail_label.isHidden():
                words += self.detail_label.height() + 4
            if any(not b.isHidden() for b in buttons):
                words += button
            noticed = self._notice is not None and not self._notice.isHidden() and \
                self._notice.parent() is self.notice_slot
            notice_room = notice_room if noticed else 0
        said = self.live or bool(self.meta_label.text())
        self.meta_label.setVisible(said)
        self.notice_slot.setFixedHeight(notice_room)
        self.words.setFixedHeight(words)
        layout = self.layout()
        assert layout is not None  # made with its layout in __init__
        spacing = layout.spacing()
        rows = (words, max(BAR_HEIGHT, body), *((self.meta_label.height(),) if said else ()),
                *((self.price_note.height(),) if self.live or self.price_note.isVisibleTo(self)
                  else ()),
                *((self.narration.height(),) if self.live else ()),
                notice_room)
        self.setFixedHeight(sum(rows) + spacing * (len(rows) - 1))
