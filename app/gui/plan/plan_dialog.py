"""The "Plan with AI" dialog: a goal, the engine in use, Plan; then the proposals to approve.

The board never changes until "Add to my list": planning runs on a worker thread
(PlanRunner) and may be stopped; adding goes through the core's board verbs off the UI
thread. "Try again" re-plans with the person's note and the proposals it answers. After a
finished run the same dialog suggests next tasks ("next" mode), with the run's summaries.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (QDialog, QFrame, QHBoxLayout, QLabel, QLineEdit, QPushButton,
                               QVBoxLayout, QWidget)

from app.core.records import events as ev
from app.core.board.board import Board
from app.core.board.task import norm
from app.core.plan.prompt import PlanContext
from app.core.plan.proposals import add_proposals, check_proposals
from app.gui.background import run_for
from app.gui.plan.plan_card import proposed_words
from app.gui.plan.plan_runner import PlanRunner
from app.gui.look import look
from app.gui.plan.proposal_list import ProposalList
from app.gui.words import wording

if TYPE_CHECKING:
    from app.core.engine.port import Engine
    from app.core.settings import Limits


def _add_to_board(root: Path, proposals: list) -> tuple[int, bool]:
    """On a pool thread: the ticked proposals onto TASKS.md (created if missing)."""

    path = Path(root) / "TASKS.md"
    board = Board.load(path) if path.exists() else None
    there = {norm(t.text) for t in board.tasks} if board is not None else set()
    for p in proposals:  # the person may have added it themselves meanwhile
        if norm(p.board_text) in there:
            raise AlreadyOnTheList(p.text)
        there.add(norm(p.board_text))
    _, problems = check_proposals([p.to_json() for p in proposals], board)
    if problems:
        raise ValueError(problems[0])
    refs, created = add_proposals(root, proposals)
    return len(refs), created


COMPACT_WIDTH = 640  # before a plan: the sentence, the goal box, Plan, the engine, Close
LIST_HEIGHT = 620  # with proposals: room for the list, its buttons and the note


class AlreadyOnTheList(Exception):
    """A ticked task reads like one already on the board (or ticked twice)."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


class PlanDialog(QDialog):
    """Plan with AI. `make_engine` builds the engine in use (called on the worker thread);
    `engine_label` names it; `mode` "next" suggests what follows a finished run."""

    tasks_added = Signal(int)  # how many tasks went onto the board
    planned = Signal(str, object, float)  # the goal, the PlanOutcome, seconds it took
    # Closed with proposals neither added nor dismissed: (goal, note, proposals) to keep.
    proposals_kept = Signal(str, str, list)

    def __init__(self, root: Path, make_engine: Callable[[], "Engine"], limits: "Limits",
                 engine_label: str, parent: QWidget | None = None, mode: str = "goal",
                 engine_is_ai: bool = True):
        super().__init__(parent)
        self.root = Path(root)
        self.mode = mode
        self._make_engine, self._limits = make_engine, limits
        self._is_ai = engine_is_ai
        self._last: list = []
        self._goal_asked, self._started = "", time.monotonic()
        self.runner = PlanRunner(self)
        self.runner.event_received.connect(self._on_event)
        self.runner.plan_finished.connect(self._on_plan_finished)
        self.setWindowTitle(self.tr("Suggest next tasks") if mode == "next"
                            else self.tr("Plan with AI"))
        self.setAccessibleName(self.windowTitle())

        # With the Demo (no AI) the note below says what it does instead: no AI is said to.
        intro = QLabel(self.tr(
            "The AI looks at what the last run did and suggests what could come next.")
            if mode == "next" and engine_is_ai else self.tr(
            "Nothing is added to your list until you choose.") if mode == "next" else self.tr(
            "Say in a sentence what you want to achieve. The AI looks at the files in this "
            "folder and proposes tasks. Nothing is added to your list until you choose.")
            if engine_is_ai else self.tr(
            "Say in a sentence what you want to achieve. Nothing is added to your list until "
            "you choose."), self)
        self.intro = intro
        intro.setWordWrap(True)
        self.goal = QLineEdit(self)
        self.goal.setAccessibleName(self.tr("Your goal"))
        self.goal.setPlaceholderText(
            self.tr("Optional: what you would like next") if mode == "next"
            else self.tr("For example: Plan a birthday party for my daughter"))
        self.plan_button = QPushButton(self.tr("Plan"), self)
        self.plan_button.setAccessibleName(self.tr("Plan"))
        self.plan_button.setToolTip(self.tr("Ask the AI for a list of tasks (it changes no "
                                            "files)") if engine_is_ai else self.tr(
            "Propose a list of sample tasks (it changes no files)"))
        self.stop_button = QPushButton(self.tr("Stop"), self)
        self.stop_button.setAccessibleName(self.tr("Stop planning"))
        self.stop_button.hide()
        engine = QLabel(self.tr("Engine: %1").replace("%1", engine_label), self)
        engine.setToolTip(self.tr("The AI engine chosen in the window. Change it there."))
        engine.setAccessibleName(engine.text())
        # An engine with no AI (the Demo) plans from a fixed pattern: said before it is asked,
        # so its five tasks are not taken for a plan made for these files.
        self.no_ai_note = QLabel(self.tr(
            "The Demo engine uses no AI: it suggests the same three kinds of next task after "
            "any run, so you can see how it works. For suggestions made for your work, choose "
            "an AI engine in the window.") if mode == "next" else self.tr(
            "The Demo engine uses no AI: it proposes the same five kinds of task for any goal, "
            "so you can see how planning works. For a plan made for your goal and your files, "
            "choose an AI engine in the window."), self)
        self.no_ai_note.setWordWrap(True)
        look.set_tone(self.no_ai_note, "muted")
        self.no_ai_note.setVisible(not engine_is_ai)

        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.status.setAccessibleName(self.tr("Planning status"))
        # Two lines kept for it from the start: what planning is doing comes and goes there,
        # and the dialog (as tall as its few lines) never jumps when it does.
        self.status.setMinimumHeight(2 * self.status.fontMetrics().lineSpacing())
        self.card = QLabel(self)  # the planning round as a card: steps, time, cost, outcome
        self.card.setFrameShape(QFrame.Shape.StyledPanel)
        self.card.setWordWrap(True)
        self.card.setAccessibleName(self.tr("About this plan"))
        self.card.hide()
        self.list = ProposalList(self)
        self.list.setEnabled(False)
        self.list.ticked_changed.connect(self._on_ticked)

        self.note = QLineEdit(self)
        self.note.setAccessibleName(self.tr("What should change"))
        self.note.setPlaceholderText(self.tr("What should change? For example: fewer tasks, "
                                             "start with the budget"))
        self.again_button = QPushButton(self.tr("Try again"), self)
        self.again_button.setAccessibleName(self.tr("Try again"))
        self.again_button.setToolTip(self.tr("Plan again, taking your note into account"))
        self.add_button = QPushButton(self.tr("Add to my list"), self)
        self.add_button.setAccessibleName(self.tr("Add to my list"))
        self.add_button.setToolTip(self.tr("Put the ticked tasks at the end of your list"))
        self.close_button = QPushButton(self.tr("Close"), self)
        self.close_button.setAccessibleName(self.tr("Close"))
        self.dismiss_button = QPushButton(self.tr("Dismiss these tasks"), self)
        self.dismiss_button.setAccessibleName(self.tr("Dismiss these tasks"))
        self.dismiss_button.setToolTip(self.tr("Forget these proposed tasks; your list stays "
                                               "as it is"))
        for w in (self.note, self.again_button, self.add_button):
            w.setEnabled(False)

        top = QHBoxLayout()
        top.addWidget(self.goal, 1)
        top.addWidget(self.plan_button)
        top.addWidget(self.stop_button)
        again = QHBoxLayout()
        again.addWidget(self.note, 1)
        again.addWidget(self.again_button)
        bottom = QHBoxLayout()
        bottom.addWidget(self.dismiss_button)
        bottom.addStretch(1)
        bottom.addWidget(self.add_button)
        bottom.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(top)
        layout.addWidget(engine)
        layout.addWidget(self.no_ai_note)
        layout.addWidget(self.status)
        layout.addWidget(self.card)
        layout.addWidget(self.list, 1)
        layout.addLayout(again)
        # Until there are proposals the list is hidden, and this takes its room: the goal
        # stays under its sentence instead of the few lines spreading down the dialog.
        layout.addStretch(1)
        layout.addLayout(bottom)
        self._column = layout

        self.plan_button.clicked.connect(lambda: self.start_planning())
        self.goal.returnPressed.connect(lambda: self.start_planning())
        self.stop_button.clicked.connect(self.stop_planning)
        self.again_button.clicked.connect(self._on_try_again)
        self.note.returnPressed.connect(self._on_try_again)
        self.add_button.clicked.connect(self.add_ticked)
        self.close_button.clicked.connect(self.close)
        self.dismiss_button.clicked.connect(self.dismiss)
        self._kept = False  # the proposals went onto the list or were dismissed
        self._reveal()

    def _reveal(self) -> None:
        """The parts for proposals appear once there are proposals; the dialog is as tall as
        what it shows: a few lines before (not 960 x 620 of nothing), room for the list after."""
        shown = bool(self._last)
        for w in (self.list, self.note, self.again_button, self.add_button,
                  self.dismiss_button):
            w.setVisible(shown)
        self._column.setStretch(self._column.count() - 2, 0 if shown else 1)
        self._fit(shown)

    def _fit(self, with_list: bool) -> None:
        room = self.screen().availableGeometry().size() * 0.9
        width = min(960 if with_list else COMPACT_WIDTH, room.width())
        width = max(width, self.width() if with_list and self.isVisible() else 0)
        self._column.activate()
        height = LIST_HEIGHT if with_list else self.heightForWidth(width)
        if height < 0:
            height = self.sizeHint().height()
        height = min(max(height, self.minimumSizeHint().height()), room.height())
        if with_list and self.isVisible():
            height = max(height, self.height())  # a dialog the person made bigger stays so
        if not self.isVisible():
            self.resize(width, height)
            return
        # Grown on screen: around the same middle, and all of it on the screen.
        frame = self.frameGeometry()
        outer = QSize(width + frame.width() - self.width(), height + frame.height() - self.height())
        area = self.screen().availableGeometry()
        left = min(max(frame.center().x() - outer.width() // 2, area.left()),
                   area.right() + 1 - outer.width())
        top = min(max(frame.center().y() - outer.height() // 2, area.top()),
                  area.bottom() + 1 - outer.height())
        self.resize(width, height)
        self.move(max(left, area.left()), max(top, area.top()))

    def show_kept(self, goal: str, note: str, proposals: list) -> None:
        """Show proposals kept from the last time the dialog was closed."""
        self.goal.setText(goal)
        self.note.setText(note)
        self._last = list(proposals)
        self.list.set_proposals(self._last)
        self.status.setText(self.tr("These are the tasks proposed last time. Tick the ones "
                                    "you want, then add them to your list."))
        self._reveal()
        self._busy(False)

    def keyPressEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        # Enter does what the field it is typed in says (returnPressed), and a focused button
        # takes it itself; what a field passes on never presses the dialog's default button,
        # which by then may be Stop: planning disabled the goal box and the focus moved.
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()
            return
        super().keyPressEvent(event)

    # -- planning --------------------------------------------------------------------------
    def start_planning(self, note: str = "", previous: list | None = None) -> bool:
        goal = " ".join(self.goal.text().split())
        if self.runner.running:
            return False
        if not goal and self.mode != "next":
            self.status.setText(self.tr("Write your goal first, in a sentence."))
            self.goal.setFocus()
            return False

        self.runner.start(self.root, self._make_engine, self._limits, goal, self.mode,
                          PlanContext(note=note, previous=list(previous or [])))
        self._busy(True)
        self._goal_asked, self._started = goal, time.monotonic()
        self.status.setText(self.tr("Planning… the AI is looking at your folder.") if self._is_ai
                            else self.tr("Planning… the Demo engine is looking at your folder."))
        return True

    def stop_planning(self) -> None:
        if self.runner.running:
            self.runner.stop()
            self.status.setText(self.tr("Stopping after this step…"))

    def _busy(self, busy: bool) -> None:
        self.plan_button.setVisible(not busy)
        self.stop_button.setVisible(busy)
        self.goal.setEnabled(not busy)
        for w in (self.list, self.note, self.again_button, self.add_button):
            w.setEnabled(not busy and bool(self._last))
        if not busy:
            self._on_ticked(len(self.list.ticked()))

    def _on_event(self, event: Any) -> None:
        if isinstance(event, ev.ToolCalled) and event.tool != "propose_tasks":
            where = event.arguments.get("path") or event.arguments.get("query") or "."
            if event.tool == "list_files" and where in (".", "./", ""):
                self.status.setText(self.tr("Looking at the files in the folder…"))
                return
            self.status.setText({
                "list_files": self.tr("Looking at the files in %1…"),
                "read_file": self.tr("Reading %1…"),
                "search_files": self.tr("Searching for %1…"),
            }.get(event.tool, self.tr("Looking at %1…")).replace("%1", str(where)))
        elif isinstance(event, ev.ModelText) and event.text.strip():
            self.status.setText("“" + " ".join(event.text.split())[-160:] + "”")
        elif isinstance(event, ev.RetryWaiting):
            self.status.setText(self.tr("The AI service is busy; trying again in %1 s…")
                                .replace("%1", f"{event.seconds:.0f}"))

    def _on_plan_finished(self, outcome: Any) -> None:
        if outcome.ok:
            self._last = list(outcome.proposals)
            self.list.set_proposals(outcome.proposals)
            self._reveal()
            self.status.setText(self.tr("Tick the tasks you want, change their words if you "
                                        "like, then add them to your list."))
        else:
            self.status.setText(self._failure_words(outcome.result, outcome.message))
        self._show_card(outcome)
        self._busy(False)
        self.planned.emit(self._goal_asked, outcome, time.monotonic() - self._started)
        if outcome.ok:
            self.list.tree.setFocus()

    def _failure_words(self, result: str, message: str) -> str:
        words = {
            "cancelled": self.tr("Planning was stopped. Nothing was added."),
            "rejected": self.tr("The AI's tasks did not fit a checklist, even when asked "
                                "again. Try again, perhaps with a simpler goal."),
            "no_proposal": self.tr("The AI answered without proposing tasks. Try again."),
            "step_limit": self.tr("The AI looked around too long without proposing tasks. "
                                  "Try again with a more specific goal."),
            "timeout": self.tr("Planning took too long. Try again."),
            "budget_exhausted": self.tr("Planning stopped at your spending limit."),
        }.get(result)
        return words or self.tr("Planning did not work: %1").replace("%1", message)

    def _show_card(self, outcome: Any) -> None:
        if not outcome.ok and not outcome.steps:  # nothing happened: no empty "0 steps" card
            self.card.hide()
            return
        what = proposed_words(len(outcome.proposals) if outcome.ok else None)
        parts = [what]  # its steps are the rounds' card's business, not the person's here
        if self._is_ai:
            parts.append(wording.cost(outcome.cost_usd, outcome.cost_is_upper_estimate))
        self.card.setText(self.tr("This plan: %1").replace("%1", " · ".join(parts)))
        self.card.setAccessibleName(self.card.text())
        self.card.show()

    def _on_try_again(self) -> None:
        if self._last or self.mode == "next":
            self.start_planning(self.note.text().strip(), self.list.proposals() or self._last)

    def _on_ticked(self, count: int) -> None:
        self.add_button.setEnabled(count > 0 and not self.runner.running)
        self.add_button.setText(self.tr("Add to my list (%1)").replace("%1", str(count))
                                if count else self.tr("Add to my list"))
        self.add_button.setAccessibleName(self.add_button.text())  # the count is said too

    # -- adding ----------------------------------------------------------------------------
    def add_ticked(self) -> None:
        chosen = self.list.ticked()
        if not chosen or self.runner.running:
            return
        self.add_button.setEnabled(False)
        run_for(self, lambda: _add_to_board(self.root, chosen), self._on_added,
                self._on_add_failed)

    def _on_added(self, result: tuple[int, bool]) -> None:
        count, _created = result
        self._kept = True  # added: nothing left to keep
        self.tasks_added.emit(count)
        self.accept()

    def dismiss(self) -> None:
        """Forget the proposals (the person said so) and close."""
        self._kept = True
        self._last = []
        self.proposals_kept.emit("", "", [])
        self.close()

    def _keep_unadded(self) -> None:
        """Closing (the button, Esc, the close box) keeps proposals nobody added or
        dismissed: they were paid for, and reopening shows them."""
        if self._kept:
            return
        self._kept = True
        proposals = self.list.proposals() or self._last
        if proposals:
            self.proposals_kept.emit(" ".join(self.goal.text().split()),
                                     self.note.text().strip(), list(proposals))

    def _on_add_failed(self, exc: BaseException) -> None:
        if isinstance(exc, AlreadyOnTheList):
            self.status.setText(self.tr("Nothing was added: “%1” is already on your list. "
                                        "Untick it or change its words.").replace("%1", exc.text))
        else:
            self.status.setText(self.tr("Nothing was added: %1").replace("%1", str(exc)))
        self._on_ticked(len(self.list.ticked()))

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        self.runner.stop()  # planning ends after its current step; nothing is written
        self._keep_unadded()
        super().closeEvent(event)

    def reject(self) -> None:
        self.runner.stop()
        self._keep_unadded()
        super().reject()
