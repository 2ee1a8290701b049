"""How the window runs the harness: Run, Stop, Continue, the run's events, and its decisions.

A mixin of `MainWindow` (kept apart so each file reads in one sitting): it drives the
`RunRunner`, shows each event in the run panel, the checklist and the round cards, and opens
the `DecisionDialog` when a run stops for the person.
"""

from __future__ import annotations

import os

from app.core.outcomes import ExitReason, RunState
from app.gui.background import run_for

DEMO_STEP_S = 0.6  # the Demo engine's pause per step in the window: readable, not slow


class RunFlow:
    """Run, Stop, Continue and decisions, for `MainWindow` (which provides the widgets,
    `runner`, `settings`, `workspace` and the `run_ended`/`decision_shown` signals)."""

    def _demo_delay(self) -> float:
        if self.demo_delay is not None:
            return self.demo_delay
        from app.engines.demo import DELAY_ENV

        if os.environ.get(DELAY_ENV):
            try:
                return max(0.0, float(os.environ[DELAY_ENV]))
            except ValueError:
                pass
        return (self.settings.demo_delay_s if self.settings else 0) or DEMO_STEP_S

    def start_run(self) -> None:
        root = self.workspace
        if root is None or self.runner.running or self.settings is None:
            return
        panel = self.run_panel
        if panel.total_tasks and panel.done_tasks >= panel.total_tasks:
            panel.nothing_left()  # no empty run: say so, and offer the next step
            return
        from app.gui import core_calls

        if self._ask_budget_first(root):
            return
        settings = self.settings.model_copy(deep=True)
        engine_id, model, delay = self.picker.engine_id, self.picker.model_name, self._demo_delay()
        self._run_engine = (engine_id, model)  # the model in full once the run says it
        self._last_human = None
        self.notice.hide()
        careful = getattr(self, "careful", None)
        self.runner.start(root, lambda: core_calls.build_engine(
            settings, root, engine_id, model=model, demo_delay=delay),
            core_calls.run_limits(settings), careful=bool(careful and careful.careful),
            approver=careful.approver if careful else None)
        self.run_panel.prepare(settings.limits.max_steps)
        self.run_panel.show_welcome(None)
        self.run_panel.show_state(self.tr("Starting…"))
        self.run_panel.set_mode("running")
        self.board_view.set_run_active(True)
        self.picker.setEnabled(False)
        self.open_button.setEnabled(False)

    def _ask_budget_first(self, root) -> bool:
        """Before the folder's first run of a paid engine, show the budget per run and let
        the person change it (FirstPaidRunDialog); True while the question is open."""
        from app.gui.settings.budget_rules import first_paid_run

        engine_id = self.picker.engine_id
        if getattr(self, "_budget_seen", None) == (root, engine_id) or not first_paid_run(
                engine_id, getattr(self.history.picker, "runs", [])):
            return False
        from PySide6.QtCore import Qt

        from app.gui.settings.budget import FirstPaidRunDialog
        from app.gui.settings.budget_rules import with_budget

        def start(usd: float | None) -> None:
            self.settings = with_budget(self.settings, usd)
            self._save_settings()
            self._budget_seen = (root, engine_id)
            if self.workspace == root:
                self.start_run()

        dialog = FirstPaidRunDialog(self.settings, self.picker.label(engine_id), root.name,
                                    start, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.budget_dialog = dialog
        dialog.open()
        return True

    def stop_run(self) -> None:
        if self.runner.running:
            self.runner.stop()
            self.run_panel.set_mode("stopping")
            self.run_panel.show_state(self.tr("Stopping after this step…"))

    def _on_continue_requested(self) -> None:
        root = self.workspace
        if root is None:
            return
        # A decision that is the next task first: a run would stop at it at once. A decision
        # further down waits until the run reaches it.
        from app.gui.folder.workspace_info import decision_context

        run_for(self, lambda: decision_context(root, next_only=True), self._show_or_run,
                lambda _exc: self.start_run())

    def _show_or_run(self, found) -> None:
        task, about = found
        if task is not None and task.is_human:
            self._open_decision_dialog(task, about)
        else:
            self.start_run()

    def _on_event_received(self, event) -> None:
        from app.core import events as ev

        self.run_panel.show_event(event)
        if isinstance(event, ev.RunStarted):
            self._run_is_ai = event.is_ai and event.engine != "demo"
            self._run_upper = event.cost_is_upper_estimate
            self._run_engine = (event.engine, event.model)
            self.history.run_started()
            self._run_began = event.time  # a run shows in the cards once it has a round
            if event.continues and self.workspace is not None:  # the work so far counts too
                root, earlier = self.workspace, event.continues
                run_for(self, lambda: _work_of(root, earlier), self.run_panel.carry_on_from)
        elif isinstance(event, ev.RoundStarted):
            self.board_view.set_current_task(event.task)
            self.cards.round_started(event.round, event.time)
        elif isinstance(event, ev.RoundFinished):
            if self._run_began is not None:  # the run's first round: it is now a run
                if event.round == 1:  # a run after a decision goes on with the same story
                    self.cards.begin_run(self._last_run_started)
                self._last_run_started, self._run_began = self._run_began, None
                self.run_panel.export_button.setEnabled(True)
            self.cards.round_finished(event, self._run_is_ai, self._run_upper)
        elif isinstance(event, ev.HumanNeeded):
            self._last_human = event
        elif isinstance(event, (ev.ChangeAnswered, ev.ChangeRefused, ev.ChangeWaiting)):
            self.cards.approval_noted(event)

    def choose_engine(self) -> None:
        """Open the engine list, for the person to choose an AI engine instead of the Demo."""
        combo = self.picker.combo
        combo.setFocus()
        combo.showPopup()

    def _update_demo_samples(self) -> None:
        """Whether Run would only show samples: the Demo engine, and a task of the person's
        own open on the list (the bundled demo's tasks it works through for real)."""
        from app.engines.demo_script import is_scripted

        samples = self.picker.engine_id == "demo" and any(
            not t.checked and not t.is_human and not is_scripted(t.text, t.done_when)
            for t in self.board_view.tasks())
        if not self.runner.running:
            self.run_panel.set_demo_samples(samples)
            if self.run_panel.mode == "choose_engine" and self.picker.engine_id != "demo":
                self.run_panel.show_ready()  # an AI engine chosen: Run is the next step

    def _on_run_finished(self, result) -> None:
        self.board_view.set_current_task(None)
        self.board_view.set_run_active(False)
        self.picker.setEnabled(True)
        self.open_button.setEnabled(True)
        self.history.run_ended()
        about = self._last_human.task if self._last_human else ""
        engine_id, model = getattr(self, "_run_engine", (self.picker.engine_id, ""))
        headline = self.run_panel.show_result(result.state, result.exit_reason, result.message,
                                              about, engine_id=engine_id, model=model,
                                              cause=getattr(result, "cause", ""))
        if result.state == RunState.FAILED and result.exit_reason in (
                ExitReason.AUTH_FAILED, ExitReason.MODEL_NOT_FOUND, ExitReason.ENGINE_UNREACHABLE):
            self.picker.check(engine_id)  # the mark beside the engine says it too
        self.run_panel.set_mode(_next_mode(result.state, result.exit_reason))
        from app.gui.look import look

        look.announce(self, headline, assertive=result.state == RunState.BLOCKED_BY_HUMAN)
        if self._close_after_stop:
            self.run_ended.emit(result)
            self.close()
            return
        if result.state == RunState.BLOCKED_BY_HUMAN:
            self._asked_now = True  # "The AI stopped to ask you:" (else "Your decision:")
            self.show_decision()
        from app.gui.lessons.lessons_flow import count_after_run

        count_after_run(self, result.run_id)
        if self.workspace is not None:  # time and cost as the records (and the export) say
            root = self.workspace
            run_for(self, lambda: _work_of(root, result.run_id), self.run_panel.show_work)
        self.run_ended.emit(result)

    # -- decisions -------------------------------------------------------------------------
    def show_decision(self, task_text: str | None = None) -> None:
        """Open the dialog for the open decision (the one named, else the first)."""
        from app.gui.folder.workspace_info import decision_context

        root = self.workspace
        if root is None:
            return
        run_for(self, lambda: decision_context(root, task_text),
                lambda found: self._open_decision_dialog(*found), self._on_board_failed)

    def _on_decision_requested(self, task) -> None:
        self.show_decision(getattr(task, "text", None))

    def _open_decision_dialog(self, task, about: str, plain: bool = False) -> None:
        if task is None or self.workspace is None:
            return
        careful = getattr(self, "careful", None)
        if not plain and careful is not None and "(change " in task.question:
            # A change kept for the board: shown with its diff, answered for it alone.
            root = self.workspace
            run_for(self, lambda: _kept_request(root, task),
                    lambda request: self._open_kept(task, about, request),
                    self._on_board_failed)
            return
        from PySide6.QtCore import Qt

        from app.gui import core_calls
        from app.gui.run.decision_dialog import DecisionDialog

        if self.decision_dialog is not None:
            self.decision_dialog.close()
        root = self.workspace
        asked_now, self._asked_now = getattr(self, "_asked_now", False), False
        dialog = DecisionDialog(task, root, lambda answer: core_calls.decide(root, answer,
                                                                             task.text),
                                self, about_task=about, asked_now=asked_now)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.answered.connect(self._on_decision_answered)
        dialog.continue_requested.connect(self._on_continue_requested)
        dialog.rewrite_requested.connect(self._rewrite_task)
        dialog.destroyed.connect(lambda *_: self._forget_dialog(dialog))
        self.decision_dialog = dialog
        self._update_decision_banner(task.question)
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        self.decision_shown.emit(dialog)

    def _rewrite_task(self, text: str) -> None:
        """Open the stuck task for editing in the list ("Rewrite the task")."""
        rows = [t.index for t in self.board_view.tasks() if t.text == text and not t.checked]
        if rows:
            self.board_view.list_view.setFocus()
            self.board_view.edit_task(rows[0])

    def _open_kept(self, task, about: str, request) -> None:
        if request is None:  # no longer kept, or the file changed since: the plain question
            self._open_decision_dialog(task, about, plain=True)
            return
        if self.decision_dialog is not None:
            self.decision_dialog.close()
        from app.gui.careful.wording import board_question

        self._update_decision_banner(board_question(task) or task.question)
        self.careful.show_kept(task, request, self._on_kept_answered)

    def _on_kept_answered(self, answer: str) -> None:
        self._hide_decision_banner()
        self._on_continue_requested()  # answering carries on, as a decision does

    def _forget_dialog(self, dialog) -> None:
        if self.decision_dialog is dialog:
            self.decision_dialog = None

    def _on_decision_answered(self, answer: str) -> None:
        self._hide_decision_banner()
        dialog = self.decision_dialog
        if dialog is not None and not dialog.needs_the_person(answer):
            return  # the dialog carries on at once (continue_requested)
        if not self.runner.running:
            self.run_panel.show_state(self.tr("Answered: %1").replace("%1", answer),
                                      self.tr("Press Continue to let the AI carry on."))
            self.run_panel.set_mode("continue")


def _next_mode(state: str, exit_reason: str) -> str:
    """The run panel's one button after a run: the next step its ending names."""
    if state == RunState.DONE:
        return "done"
    if state == RunState.BLOCKED_BY_HUMAN:
        return "answer"
    if exit_reason == ExitReason.SAMPLES_SHOWN:
        return "choose_engine"
    return "run" if state == RunState.FAILED else "continue"

def _kept_request(root, task):
    """The kept change the board's question names, as the approval dialog shows it; None
    when it is no longer kept or can no longer be made (off the UI thread)."""
    from app.core.policies import pending
    from app.core.workspace import Workspace

    kept = pending.find(Workspace(root).harness_dir / "pending",
                        pending.marker_of(task.question))
    return pending.kept_request(root, kept) if kept is not None else None


def _work_of(root, run_id: str):
    """The totals of the piece of work run `run_id` ends, from its records (off the UI
    thread; see app/core/work_totals.py)."""
    from app.core.work_totals import work_of
    from app.core.workspace import Workspace

    return work_of(Workspace(root), run_id)
