"""The window's run: Run, Stop, the run's events and its ending.

A controller the main window composes (see main_window.py): it drives the `RunRunner`,
shows each event in the run panel, the checklist and the round cards, and says how the run
ended with `run_ended`. Decisions are decision_flow.py's; the folder is folder_flow.py's.

Run pressed in the moment between a folder on screen and the person's settings loaded
(app.py opens a named folder first) runs as soon as they come (`settings_came`). The harness
a run needs (RUN_NEEDS) is imported off the UI thread first, where the start-up's warm-up has
not done it yet: imported by the press itself, it held the window still for 100 ms or more
(bench/ui_stall_cold.py).
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Qt, Signal
from PySide6.QtWidgets import QMainWindow, QWidget

from app.core.run.outcomes import ExitReason, RunState
from app.gui import core_calls
from app.gui.background import run_for
from app.gui.look import look
from app.gui.look.slices import later, once
from app.gui.window.folder_history import demo_rounds, demo_work, show_history_later

if TYPE_CHECKING:
    from app.core.records import events as ev
    from app.gui.careful.careful_flow import CarefulFlow
    from app.gui.folder.workspace_info import FolderInfo
    from app.gui.window.workspace_page import WorkspacePage
    from app.gui.look.notice_bar import NoticeBar
    from app.gui.run.history_picker import HistoryFlow
    from app.gui.run.runner import RunRunner
    from app.gui.settings.budget import FirstPaidRunDialog
    from app.gui.window.folder_flow import FolderFlow
    from app.gui.window.settings_flow import SettingsFlow

DEMO_STEP_S = 0.6  # the Demo engine's pause per step in the window: readable, not slow
# What pressing Run imports: the harness's calls, the budget rules, and the run's totals
# (the status block's first event: imported there, it waited on the records' import lock).
RUN_NEEDS = ("app.gui.core_calls", "app.gui.settings.budget_rules",
             "app.core.records.work_totals")
# Why an engine's readiness check said no that Run cannot get past (the service answered 401
# or 403 to the saved key): Run opens Engine settings, as for a key that is missing.
KEY_REFUSED = ("key_rejected", "key_forbidden", ExitReason.AUTH_FAILED.value)
DEMO_SCRIPTS = "app.engines.demo.script"  # which tasks are the demo's: imported off the UI thread


class RunFlow(QObject):
    """Run and Stop, and what the run says, for the main window."""

    run_ended = Signal(object)  # the RunResult, once the run panel shows it
    run_shown = Signal(object)  # the same, when the window stays open: what follows a run

    def __init__(self, window: QMainWindow, settings: SettingsFlow, folder: FolderFlow,
                 runner: RunRunner, page: WorkspacePage, notice: NoticeBar,
                 open_button: QWidget, history: HistoryFlow, careful: CarefulFlow,
                 demo_delay: float | None = None):
        super().__init__(window)
        self.window = window  # the budget question's parent, and what announces the ending
        self.settings, self.folder, self.runner = settings, folder, runner
        self.panel, self.board_view, self.cards = page.run_panel, page.board_view, page.cards
        self.picker = settings.picker
        self.notice, self.open_button = notice, open_button
        self.history, self.careful = history, careful
        self.demo_delay = demo_delay  # seconds per Demo step; None: the settings' (or 0.6)
        self.last_human: ev.HumanNeeded | None = None  # what the run stopped to ask
        self.run_engine: tuple[str, str] | None = None  # the engine and model of the run
        self.close_after_stop = False  # the window closes once the run has stopped
        self.budget_dialog: FirstPaidRunDialog | None = None
        self._budget_seen: tuple[Path, str] | None = None
        self.last_run_started: str | None = None
        self.run_began: str | None = None  # the run going has no round yet
        self._run_is_ai = True
        self._run_upper = False  # the running model's price is not known: costs are at most
        self._run_when_settled = False  # Run pressed before the settings came
        self._importing_for_run = False  # Run pressed before its modules were imported
        self._run_rounds: list[tuple[str, str]] = []  # this run's rounds: (task, result)
        self._samples_asked = 0  # update_demo_samples's questions, the answer's to match
        runner.event_received.connect(self._on_event_received)
        runner.run_finished.connect(self._on_run_finished)
        folder.folder_shown.connect(self._on_folder_shown)

    def demo_delay_s(self) -> float:
        if self.demo_delay is not None:
            return self.demo_delay
        from app.engines.demo.engine import DELAY_ENV  # noqa: PLC0415 - window start-up (bench/startup.py)

        if os.environ.get(DELAY_ENV):
            try:
                return max(0.0, float(os.environ[DELAY_ENV]))
            except ValueError:
                pass
        settings = self.settings.settings
        return (settings.demo_delay_s if settings else 0) or DEMO_STEP_S

    # -- starting --------------------------------------------------------------------------
    def start_run(self) -> None:
        """Run; pressed before the settings came, as soon as they do (`settings_came`).
        Until the run's first round is on screen, the after-usable work waits (slices.py)."""
        later().hold()
        if self.settings.settings is None and self.folder.workspace is not None:
            self._run_when_settled = True
            return
        missing = [name for name in RUN_NEEDS if name not in sys.modules]
        if missing:
            if not self._importing_for_run:
                self._importing_for_run = True
                run_for(self, lambda: [importlib.import_module(m) for m in missing],
                        self._imported_for_run, self._imported_for_run)
            return
        self._start()

    def _imported_for_run(self, _result=None) -> None:
        self._importing_for_run = False
        self._start()  # an import that failed fails again here, and says so

    def settings_came(self) -> None:
        """The settings have loaded: start the run pressed meanwhile."""
        if self._run_when_settled:
            self._run_when_settled = False
            QTimer.singleShot(0, self.start_run)

    def _start(self) -> None:
        root = self.folder.workspace
        if root is None or self.runner.running or self.settings.settings is None:
            return
        panel = self.panel
        if panel.total_tasks and panel.done_tasks >= panel.total_tasks:
            panel.nothing_left()  # no empty run: say so, and offer the next step
            return

        if self._ask_budget_first(root):
            return
        settings = self.settings.settings.model_copy(deep=True)
        engine_id, model, delay = self.picker.engine_id, self.picker.model_name, self.demo_delay_s()
        self.run_engine = (engine_id, model)  # the model in full once the run says it
        self.last_human = None
        self.notice.hide()
        careful = self.careful
        self.runner.start(root, lambda: core_calls.build_engine(
            settings, root, engine_id, model=model, demo_delay=delay),
            core_calls.run_limits(settings), careful=careful.careful, approver=careful.approver)
        panel.prepare(settings.limits.max_steps)
        panel.show_welcome(None)
        panel.show_state(self.tr("Starting…"))
        panel.set_mode("running")
        self.board_view.set_run_active(True)
        self.picker.setEnabled(False)
        self.open_button.setEnabled(False)

    def _ask_budget_first(self, root: Path) -> bool:
        """Before the folder's first run of a paid engine, show the budget per run and let
        the person change it (FirstPaidRunDialog); True while the question is open."""
        from app.gui.settings.budget_rules import first_paid_run  # noqa: PLC0415 - window start-up (bench/startup.py)

        engine_id, current = self.picker.engine_id, self.settings.settings
        found = self.picker.readiness.get(engine_id)  # a key saved since is being asked again
        refused = found is not None and not found.ready and found.reason in KEY_REFUSED
        if self.panel.key_missing == engine_id or refused:  # the key first: no budget for a run
            self.panel.show_ready()  # that cannot ("Claude needs your API key", "Claude cannot
            self.settings.open_engine_settings(engine_id)  # run yet"), Engine settings… filled
            return True
        if current is None or self._budget_seen == (root, engine_id) or not first_paid_run(
                engine_id, self.history.picker.runs):
            return False

        from app.gui.settings.budget import FirstPaidRunDialog  # noqa: PLC0415 - window start-up (bench/startup.py)
        from app.gui.settings.budget_rules import with_budget  # noqa: PLC0415 - window start-up (bench/startup.py)

        def start(usd: float | None) -> None:
            self.settings.change(with_budget(self.settings.settings or current, usd))
            self._budget_seen = (root, engine_id)
            if self.folder.workspace == root:
                self.start_run()

        dialog = FirstPaidRunDialog(current, self.picker.label(engine_id),
                                    root.name, start, self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.budget_dialog = dialog
        dialog.open()
        return True

    def stop_run(self) -> None:
        if self.runner.running:
            self.runner.stop()
            self.panel.set_mode("stopping")
            self.panel.show_state(self.tr("Stopping after this step…"))

    # -- while it runs ---------------------------------------------------------------------
    def _on_folder_shown(self, info: FolderInfo) -> None:
        """A folder is shown: its earlier rounds come once its checklist is on screen."""
        self.last_run_started = None
        show_history_later(self, info)  # then the folder's workspace_opened

    def _on_event_received(self, event) -> None:
        from app.core.records import events as ev  # noqa: PLC0415 - window start-up (bench/startup.py)

        self.panel.show_event(event)
        if isinstance(event, ev.RunStarted):
            self._run_rounds = []
            self._run_is_ai = event.is_ai and event.engine != "demo"
            self._run_upper = event.cost_is_upper_estimate
            self.run_engine = (event.engine, event.model)
            self.history.run_started()
            self.run_began = event.time  # a run shows in the cards once it has a round
            root = self.folder.workspace
            if event.continues and root is not None:  # the work so far counts too
                earlier = event.continues
                run_for(self, lambda: _work_of(root, earlier), self.panel.carry_on_from)
        elif isinstance(event, ev.RoundStarted):
            self.board_view.set_current_task(event.task)
            self.cards.round_started(event.round, event.time)
        elif isinstance(event, ev.RoundFinished):
            if self.run_began is not None:  # the run's first round: it is now a run
                if event.round == 1:  # a run after a decision goes on with the same story
                    self.cards.begin_run(self.last_run_started)
                self.last_run_started, self.run_began = self.run_began, None
                self.panel.export_button.setEnabled(True)
            self.cards.round_finished(event, self._run_is_ai, self._run_upper)
            self._run_rounds.append((event.task, event.result_state))
            QTimer.singleShot(0, self, later().release)  # after the card's first paint
        elif isinstance(event, ev.HumanNeeded):
            self.last_human = event
        elif isinstance(event, (ev.ChangeAnswered, ev.ChangeRefused, ev.ChangeWaiting)):
            self.cards.approval_noted(event)

    def choose_engine(self) -> None:
        """Open the engine list, for the person to choose an AI engine instead of the Demo."""
        combo = self.picker.combo
        combo.setFocus()
        combo.showPopup()

    def update_demo_samples(self, *_args) -> None:
        """Whether Run would only show samples: the Demo engine, and a task of the person's
        own open on the list (the bundled demo's tasks it works through for real). Which
        tasks are the demo's is the Demo's scripts' to say; not yet loaded, they are imported
        off the UI thread (importing them held the window still for 15-25 ms) and the answer
        comes back here, the latest question's answer only."""
        self._samples_asked += 1
        asked = self._samples_asked
        if self.runner.running:
            return  # shown only between runs: the list's changes in a run ask nothing
        open_tasks = [(t.text, list(t.done_when)) for t in self.board_view.tasks()
                      if not t.checked and not t.is_human]
        if self.picker.engine_id != "demo" or not open_tasks:
            self._show_demo_samples(asked, (False, []))
        elif DEMO_SCRIPTS in sys.modules:  # loaded (a run has used them): answered at once
            self._show_demo_samples(asked, demo_work(open_tasks))
        else:
            run_for(self, lambda: demo_work(open_tasks),
                    lambda work: self._show_demo_samples(asked, work))

    def _show_demo_samples(self, asked: int, work: tuple[bool, list[str]]) -> None:
        if asked != self._samples_asked:
            return  # the engine or the list changed since: a later answer is on its way
        if not self.runner.running:
            self.panel.set_demo_samples(*work)
            if self.panel.mode == "choose_engine" and self.picker.engine_id != "demo":
                self.panel.show_ready()  # an AI engine chosen: Run is the next step

    # -- its ending ------------------------------------------------------------------------
    def _on_run_finished(self, result) -> None:
        """The run has ended: the panel says how at once, and the decision it asks is read
        (`run_shown`); the rest follows a turn of the event loop each, so no
        one turn holds the window (bench/ui_stall_cold.py --where found them all in one)."""
        later().release()  # a run that ended before its first round
        self.board_view.set_current_task(None)
        self.board_view.set_run_active(False)
        self.picker.setEnabled(True)
        self.open_button.setEnabled(True)
        about = self.last_human.task if self.last_human else ""
        engine_id, model = self.run_engine or (self.picker.engine_id, "")
        shown, did = demo_rounds(self._run_rounds) if \
            result.exit_reason == ExitReason.SAMPLES_SHOWN else (0, [])
        headline = self.panel.show_result(result.state, result.exit_reason, result.message,
                                          about, engine_id=engine_id, model=model,
                                          cause=getattr(result, "cause", ""), shown=shown,
                                          did=did)
        if result.state == RunState.FAILED and result.exit_reason in (
                ExitReason.AUTH_FAILED, ExitReason.MODEL_NOT_FOUND, ExitReason.ENGINE_UNREACHABLE):
            self.picker.check(engine_id)  # the mark beside the engine says it too
        self.panel.set_mode(_next_mode(result.state, result.exit_reason))

        look.announce(self.window, headline, assertive=result.state == RunState.BLOCKED_BY_HUMAN)
        if self.close_after_stop:
            self.history.run_ended()
            self.run_ended.emit(result)
            self.window.close()
            return
        self.run_shown.emit(result)  # the decision it asks, its lessons (decision_flow.py)
        root = self.folder.workspace
        # The notice and the notification on the next turn; the records' reading (on the
        # pool, holding the GIL a decision dialog's layout waits on) a turn each after that,
        # ahead of the after-usable work, once the dialog the run asks for is on screen
        # (decision_flow.py holds them until then: look/slices.py).
        QTimer.singleShot(0, self, lambda: self.run_ended.emit(result))
        for step in (self._history_after_run,  # the run history's list, read again
                     lambda: self._show_work(root, result.run_id)):
            later().add(self, once(step), soon=True)

    def _history_after_run(self) -> None:
        if not self.runner.running:  # not if a new run has begun meanwhile (it ends it too)
            self.history.run_ended()

    def _show_work(self, root: Path | None, run_id: str) -> None:
        """Time and cost as the records (and the export) say, read off the UI thread."""
        if root is not None and root == self.folder.workspace:
            run_for(self, lambda: _work_of(root, run_id), self.panel.show_work)


def _next_mode(state: str, exit_reason: str) -> str:
    """The run panel's one button after a run: the next step its ending names."""
    if state == RunState.DONE:
        return "done"
    if state == RunState.BLOCKED_BY_HUMAN:
        return "answer"
    if exit_reason == ExitReason.SAMPLES_SHOWN:
        return "choose_engine"
    return "run" if state == RunState.FAILED else "continue"


def _work_of(root, run_id: str):
    """The totals of the piece of work run `run_id` ends, from its records (off the UI
    thread; see app/core/records/work_totals.py)."""
    from app.core.records.work_totals import work_of  # noqa: PLC0415 - window start-up (bench/startup.py)
    from app.core.workspace.workspace import Workspace  # noqa: PLC0415 - window start-up (bench/startup.py)

    return work_of(Workspace(root), run_id)

