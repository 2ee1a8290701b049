"""Round cards, newest first: task, outcome, files changed, time, cost and summary of each round.

Cards come from a live run (`RoundFinished` events, timed from their `RoundStarted`) or from
the records of the workspace's last run (`RoundRecord`s read off the UI thread). Each card
is one focusable widget whose accessible name says it all, so a screen reader reads it whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from app.gui.look import look

from app.gui.run import wording


@dataclass
class RoundView:
    """What a card shows about one round."""

    round: int
    task: str
    result_state: str
    changed: list[str] = field(default_factory=list)
    seconds: float | None = None
    cost_usd: float = 0.0
    summary: str = ""
    is_ai: bool = True
    run_id: str = ""
    approvals: list[tuple[str, str]] = field(default_factory=list)  # (path, answer)
    undone: bool = False       # the person undid it: its changes were taken back
    run_started: str = ""      # when its run started (two runs each have a "Round 2")
    upper: bool = False        # its cost is an upper estimate: the model's price is not known
    web: object = None         # what it looked up on the web (core.web_types.WebActivity)

    @classmethod
    def from_record(cls, record, is_ai: bool = True, undone: bool = False,
                    upper: bool = False) -> "RoundView":
        return cls(record.round, record.task, record.result_state,
                   list(record.changed_artifacts), _seconds(record.started_at,
                                                            record.finished_at),
                   record.cost_usd, record.summary or record.findings or record.error or "",
                   is_ai, record.run_id,
                   [(a.path, a.answer) for a in getattr(record, "approvals", [])], undone,
                   upper=upper, web=getattr(record, "web", None))


def _seconds(start: str | None, end: str | None) -> float | None:
    try:
        return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    except (TypeError, ValueError):
        return None


def _clock_time(stamp: str | None) -> str:
    return wording.clock_time(stamp)


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
        mark, outcome = wording.round_outcome(view.result_state)
        tone = "ok" if view.result_state == "completed" else (
            "attention" if view.result_state not in ("cancelled",) else None)
        if view.undone:  # what stands now: the round's changes were taken back
            mark, outcome, tone = "↶", self.tr("Undone: its changes were taken back"), None

        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(2)
        head = QLabel(self)
        head.setTextFormat(Qt.TextFormat.PlainText)
        head.setText(self.tr("Round %1").replace("%1", str(view.round)) + f"   {mark} {outcome}")
        head.setFont(look.scaled_font(head, 1.0, bold=True))
        look.set_tone(head, tone)
        head.setToolTip(wording.tip(wording.ROUND_TIP))
        task = QLabel(view.task, self)
        task.setTextFormat(Qt.TextFormat.PlainText)
        task.setWordWrap(True)
        files = QLabel(self.tr("Had changed: %1").replace("%1", wording.files_changed(
            view.changed)) if view.undone else wording.files_changed(view.changed), self)
        files.setTextFormat(Qt.TextFormat.PlainText)
        files.setWordWrap(True)
        numbers = []
        if view.seconds is not None:
            numbers.append(wording.duration(view.seconds))
        if view.is_ai:
            numbers.append(wording.cost(view.cost_usd, view.upper))
        meta = QLabel(" · ".join(numbers), self)
        look.set_tone(meta, "muted")
        layout.addWidget(head)
        layout.addWidget(task)
        layout.addWidget(files)
        approvals = QLabel(self)
        if view.approvals:
            from app.gui.careful.wording import approvals_line

            approvals.setText(approvals_line(view.approvals))
            approvals.setTextFormat(Qt.TextFormat.PlainText)
            approvals.setWordWrap(True)
            approvals.setObjectName("roundApprovals")
            layout.addWidget(approvals)
        from app.gui.run.web_words import card_lines

        looked = QLabel("\n".join(card_lines(view.web)), self)  # issue 37: its lookups
        if looked.text():
            looked.setObjectName("roundLookups")
            looked.setTextFormat(Qt.TextFormat.PlainText)
            looked.setWordWrap(True)
            layout.addWidget(looked)
        said = view.summary
        if view.result_state == "engine_error" and said:
            # The core's sentence is English and the run's state already says why in full.
            from app.gui.engines.engine_words import round_problem

            said = round_problem()
        if said:
            summary = QLabel(wording.short(said, 400), self)
            summary.setTextFormat(Qt.TextFormat.PlainText)
            summary.setWordWrap(True)
            look.set_tone(summary, "muted")
            layout.addWidget(summary)
        if numbers:
            layout.addWidget(meta)
        self.setAccessibleName(f"{head.text()}: {view.task}")
        self.setAccessibleDescription(". ".join(
            p for p in (files.text(), approvals.text(), looked.text().replace("\n", ". "),
                        " · ".join(numbers), said,
                        self.tr("Press Enter to open it")) if p))

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
        area = self.parentWidget().parentWidget().parentWidget() if self.parentWidget() \
            else None
        if isinstance(area, QScrollArea):
            area.ensureWidgetVisible(self, 0, 4)


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
        self._layout.addWidget(self._empty)
        self._layout.addStretch(1)
        self.setWidget(self._inner)
        self._started: dict[int, str] = {}
        self._approvals: dict[int, list[tuple[str, str]]] = {}

    @property
    def cards(self) -> list[RoundCard]:
        return [self._layout.itemAt(i).widget() for i in range(self._layout.count())
                if isinstance(self._layout.itemAt(i).widget(), RoundCard)]

    def clear(self) -> None:
        for i in reversed(range(1, self._layout.count() - 1)):
            widget = self._layout.itemAt(i).widget()
            self._layout.removeWidget(widget)
            widget.deleteLater()
        self._started.clear()
        self._empty.show()

    def begin_run(self, earlier_started: str | None = None) -> None:
        """A new run starts: the cards already shown get a divider that names them earlier."""
        if not self.cards:
            return
        when = _clock_time(earlier_started)
        text = (self.tr("Earlier run, started %1").replace("%1", when) if when
                else self.tr("Earlier run"))
        divider = QLabel(text, self._inner)
        divider.setObjectName("runDivider")
        divider.setAlignment(Qt.AlignmentFlag.AlignCenter)
        look.set_tone(divider, "muted")
        self._layout.insertWidget(1, divider)

    def add(self, view: RoundView) -> RoundCard:
        card = RoundCard(view, self._inner)
        card.opened.connect(self.round_opened)
        self._layout.insertWidget(1, card)  # after the (hidden) empty note: newest first
        self._empty.hide()
        self.verticalScrollBar().setValue(0)
        return card

    def add_other(self, card: QWidget) -> None:
        """Another kind of card (a planning round's) on top, among the rounds."""
        card.setParent(self._inner)
        self._layout.insertWidget(1, card)
        self._empty.hide()
        self.verticalScrollBar().setValue(0)

    def show_history(self, runs: list[tuple[str | None, list[RoundView]]],
                     others: list[tuple[str, QWidget]] = ()) -> None:
        """Rounds of earlier runs, oldest run first: (started_at, its rounds oldest first);
        `others` are other cards (planning rounds) with their start times, oldest first,
        each put among the runs where it happened."""
        self.clear()
        previous = None
        waiting = list(others)
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

    def round_started(self, round_no: int, time: str) -> None:
        self._started[round_no] = time

    def approval_noted(self, event) -> None:
        """A change the person answered, a protected path refused, or a question left on
        the board: shown on the round's card when it ends."""
        answer = {"change_refused": "refused", "change_waiting": "waiting"}.get(
            event.type, getattr(event, "answer", ""))
        self._approvals.setdefault(event.round, []).append((event.path, answer))

    def round_finished(self, event, is_ai: bool, upper: bool = False) -> RoundCard:
        started = self._started.pop(event.round, None)
        return self.add(RoundView(event.round, event.task, event.result_state,
                                  list(event.changed_artifacts),
                                  _seconds(started, event.time), event.cost_usd,
                                  event.summary, is_ai, event.run_id,
                                  self._approvals.pop(event.round, []), upper=upper,
                                  web=getattr(event, "web", None)))
