"""Round cards, newest first: task, outcome, files changed, time, cost and summary of each round.

Cards come from a live run (`RoundFinished` events, timed from their `RoundStarted`) or from
the records of the workspace's last run (`RoundRecord`s read off the UI thread). Each card
is one focusable widget whose accessible name says it all, so a screen reader reads it whole;
what it says comes from `round_text.card_text`.

The list keeps every round's few words (a RoundView) but widgets only for the newest PAGE
entries: a window that ran a thousand rounds holds as many cards as one that ran twenty,
and adding a card lays out twenty, not a thousand. "Show older rounds" under the
last card brings the next page in.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from app.gui.look import look
from app.gui.words import wording
from app.gui.words.round_text import CardText, RoundView, card_text, seconds_between

__all__ = ["RoundCard", "RoundCardList", "RoundView", "card_text"]
PAGE = 20  # entries (cards, dividers, planning cards) that have a widget until more are asked


def _seconds(start: str | None, end: str | None) -> float | None:
    return seconds_between(start, end)


class _Wrapped(QLabel):
    """A card's word-wrapped line, which measures its text once per width.

    Each round added re-lays out the list, and the layouts ask every card's wrapped lines
    for their height at two widths in turn (the list's own and its least), each time; each
    card's layout keeps the answer for one width only, so every line laid its text out
    twice a round: 130 text layouts a round for 20 cards, most of the UI thread's work
    while a run adds rounds. The text of a card's line does not change; the
    answer is kept per width until the text, font or style does."""

    def __init__(self, text: str, parent: QWidget) -> None:
        super().__init__(text, parent)
        self._heights: dict[int, int] = {}
        self.setWordWrap(True)

    def heightForWidth(self, width: int) -> int:  # Qt's name
        height = self._heights.get(width)
        if height is None:
            if len(self._heights) > 8:
                self._heights.clear()
            height = self._heights[width] = super().heightForWidth(width)
        return height

    def setText(self, text: str) -> None:
        self._heights.clear()
        super().setText(text)

    def changeEvent(self, event) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._heights.clear()
        super().changeEvent(event)


class RoundCard(QFrame):
    """One round; a click, Enter or Space opens its evidence (`opened`)."""

    opened = Signal(object)  # the card's RoundView

    def __init__(self, view: RoundView, parent: QWidget | None = None):
        super().__init__(parent)
        self.view = view
        self.setObjectName("roundCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip(self.tr("Open this round: what it did, each file before and after, "
                                "and Undo"))
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.Base)  # a card: follows light and dark
        text: CardText = card_text(view)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(2)
        head = QLabel(self)
        head.setTextFormat(Qt.TextFormat.PlainText)
        head.setText(text.head)
        head.setFont(look.scaled_font(head, 1.0, bold=True))
        look.set_tone(head, text.head_tone)
        head.setToolTip(wording.tip(wording.ROUND_TIP))
        layout.addWidget(head)
        for line in text.lines:
            label = _Wrapped(line.text, self) if line.wrap else QLabel(line.text, self)
            label.setTextFormat(Qt.TextFormat.PlainText)
            if line.name:
                label.setObjectName(line.name)
            if line.tone:
                look.set_tone(label, line.tone)
            layout.addWidget(label)
        self.setAccessibleName(text.accessible_name)
        self.setAccessibleDescription(text.accessible_description)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if event.button() == Qt.MouseButton.LeftButton and self.rect().contains(
                event.position().toPoint()):
            self.opened.emit(self.view)
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.opened.emit(self.view)
            return
        super().keyPressEvent(event)

    def focusInEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        # Tab may come from outside the list: scroll the card into view (the window draws
        # the focus ring, look/focus_ring.py).
        super().focusInEvent(event)
        _scroll_to(self)


def _identity(view: RoundView) -> tuple[str, str, int]:
    """Which round a card shows, the same when its run is read again."""
    return view.run_id, view.run_started, view.round


def _scroll_to(widget: QWidget) -> None:
    area: QWidget | None = widget
    for _ in range(3):  # the card's list, its viewport, the scroll area
        area = area.parentWidget() if area is not None else None
    if isinstance(area, QScrollArea):
        area.ensureWidgetVisible(widget, 0, 4)


class _Divider:
    """A line between two runs' cards: "Earlier run, started 14:05"."""

    def __init__(self, text: str):
        self.text = text


class RoundCardList(QScrollArea):
    """The rounds of the current (or last) run, newest on top."""

    round_opened = Signal(object)  # the RoundView of the card the person opened

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setAccessibleName(self.tr("Rounds"))
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # each card is a Tab stop of its own
        self._inner = QWidget(self)
        self._layout = QVBoxLayout(self._inner)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(6)
        self._empty = QLabel(self.tr("No rounds yet. Each attempt at a task shows up here as a "
                                     "card: what it did, which files it changed, and what it "
                                     "cost."), self._inner)
        self._empty.setWordWrap(True)
        look.set_tone(self._empty, "muted")
        self._more = QPushButton(self._inner)
        self._more.setObjectName("olderRounds")
        self._more.clicked.connect(self.show_older)
        self._more.hide()
        self._layout.addWidget(self._empty)
        self._layout.addWidget(self._more, 0, Qt.AlignmentFlag.AlignHCenter)
        self._layout.addStretch(1)
        self.setWidget(self._inner)
        self._started: dict[int, str] = {}
        self._approvals: dict[int, list[tuple[str, str]]] = {}
        # Newest first: RoundView, _Divider or another card (a QWidget); the first
        # len(self._widgets) of them are on screen, self._widgets[i] showing self._entries[i].
        self._entries: list = []
        self._widgets: list[QWidget] = []
        self._page = PAGE
        self._bulk = False

    @property
    def cards(self) -> list[RoundCard]:
        """The round cards on screen, newest first."""
        return [w for w in self._widgets if isinstance(w, RoundCard)]

    @property
    def rounds(self) -> list[RoundView]:
        """Every round of the list, on screen or not, newest first."""
        return [e for e in self._entries if isinstance(e, RoundView)]

    def clear(self) -> None:
        for widget in self._widgets:
            self._layout.removeWidget(widget)
            widget.deleteLater()
        for entry in self._entries[len(self._widgets):]:
            if isinstance(entry, QWidget):
                entry.deleteLater()
        self._entries.clear()
        self._widgets.clear()
        self._page = PAGE
        self._started.clear()
        self._empty.show()
        self._more.hide()

    def begin_run(self, earlier_started: str | None = None) -> None:
        """A new run starts: the cards already shown get a divider that names them earlier."""
        if not any(isinstance(e, RoundView) for e in self._entries):
            return
        when = wording.clock_time(earlier_started)
        self._push(_Divider(self.tr("Earlier run, started %1").replace("%1", when) if when
                            else self.tr("Earlier run")))

    def add(self, view: RoundView) -> RoundCard | None:
        """A round's card on top; None while show_history is filling the list."""
        card = self._push(view)
        self.verticalScrollBar().setValue(0)
        return card if isinstance(card, RoundCard) else None  # a view's widget is its card

    def add_other(self, card: QWidget) -> None:
        """Another kind of card (a planning round's) on top, among the rounds."""
        card.setParent(self._inner)
        card.hide()
        self._push(card)
        self.verticalScrollBar().setValue(0)

    def show_history(self, runs: list[tuple[str | None, list[RoundView]]],
                     others: Sequence[tuple[str, QWidget]] = ()) -> None:
        """Rounds of earlier runs, oldest run first: (started_at, its rounds oldest first);
        `others` are other cards (planning rounds) with their start times, oldest first,
        each put among the runs where it happened. A round whose card had the window's focus
        (also behind its evidence, where it was undone) has it again on its new card."""
        focused = self._focused_round()
        self.clear()
        previous = None
        waiting = list(others)
        self._bulk = True  # the entries first, then widgets for the newest page only
        try:
            for started, views in runs:
                while waiting and started is not None and waiting[0][0] < started:
                    self.add_other(waiting.pop(0)[1])
                if views:
                    if views[0].round == 1:  # numbers that go on continue the work before
                        self.begin_run(previous)
                    for view in views:  # oldest first, so the newest lands on top
                        self.add(view)
                    previous = started
            for _, card in waiting:
                self.add_other(card)
        finally:
            self._bulk = False
        self._fill()
        for card in self.cards if focused is not None else ():
            if _identity(card.view) == focused:
                card.setFocus(Qt.FocusReason.OtherFocusReason)  # back there when a dialog closes

    def _focused_round(self) -> tuple[str, str, int] | None:
        """The round whose card is the window's focus widget, even while a dialog is active."""
        widget = self.window().focusWidget()
        if isinstance(widget, RoundCard) and widget in self._widgets:
            return _identity(widget.view)
        return None

    def show_older(self) -> None:
        """The next page of older cards under the last one; the first of them takes the
        focus when the button had it, so the keyboard goes on where the person was."""
        had_focus = self._more.hasFocus()
        first = len(self._widgets)
        self._page = first + PAGE
        self._fill()
        if had_focus and first < len(self._widgets):
            self._widgets[first].setFocus(Qt.FocusReason.TabFocusReason)

    def round_started(self, round_no: int, time: str) -> None:
        self._started[round_no] = time

    def approval_noted(self, event) -> None:
        """A change the person answered, a protected path refused, or a question left on
        the board: shown on the round's card when it ends."""
        answer = {"change_refused": "refused", "change_waiting": "waiting"}.get(
            event.type, getattr(event, "answer", ""))
        self._approvals.setdefault(event.round, []).append((event.path, answer))

    def round_finished(self, event, is_ai: bool, upper: bool = False) -> RoundCard | None:
        started = self._started.pop(event.round, None)
        return self.add(RoundView(event.round, event.task, event.result_state,
                                  list(event.changed_artifacts),
                                  _seconds(started, event.time), event.cost_usd,
                                  event.summary, is_ai, event.run_id,
                                  self._approvals.pop(event.round, []), upper=upper,
                                  web=getattr(event, "web", None),
                                  lookup_cap=getattr(event, "lookup_cap", 0),
                                  created=list(getattr(event, "created_artifacts", []))))

    def _push(self, entry) -> QWidget | None:
        """`entry` on top; its widget too (and the oldest widget beyond the page let go)."""
        self._entries.insert(0, entry)
        self._empty.hide()
        if self._bulk:
            return None
        widget = self._widget_for(entry)
        self._widgets.insert(0, widget)
        self._layout.insertWidget(1, widget)  # after the (hidden) empty note: newest first
        widget.show()
        while len(self._widgets) > self._page:
            gone = self._widgets.pop()
            self._layout.removeWidget(gone)
            if gone is self._entries[len(self._widgets)]:  # another card: kept, hidden
                gone.hide()
            else:
                gone.deleteLater()
        self._update_more()
        return widget

    def _fill(self) -> None:
        """Widgets for the entries up to the page, under those already on screen."""
        for entry in self._entries[len(self._widgets):self._page]:
            widget = self._widget_for(entry)
            self._layout.insertWidget(1 + len(self._widgets), widget)
            self._widgets.append(widget)
            widget.show()
        self._update_more()

    def _widget_for(self, entry) -> QWidget:
        if isinstance(entry, RoundView):
            card = RoundCard(entry, self._inner)
            card.opened.connect(self.round_opened)
            return card
        if isinstance(entry, _Divider):
            divider = QLabel(entry.text, self._inner)
            divider.setObjectName("runDivider")
            divider.setAlignment(Qt.AlignmentFlag.AlignCenter)
            look.set_tone(divider, "muted")
            return divider
        return entry  # another card: the widget itself, kept while it is off screen

    def _update_more(self) -> None:
        older = sum(isinstance(e, RoundView) for e in self._entries[len(self._widgets):])
        hidden = len(self._entries) - len(self._widgets)
        self._more.setVisible(hidden > 0)
        if hidden:
            self._more.setText(self.tr("Show older rounds (%1 more)").replace(
                "%1", str(older)) if older else self.tr("Show older cards"))
