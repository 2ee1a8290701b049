"""Planning off the UI thread: the core's planning round on a worker thread, its events as signals.

Like the run's RunRunner: the planner's listener only emits a signal, which Qt queues to the
UI thread; `plan_finished(PlanOutcome)` follows once per start. `stop()` sets the cancel
event, which planning honours after its current step; nothing here touches a widget.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal

if TYPE_CHECKING:  # imported on the worker thread, never before the window shows
    from app.core.engine import Engine
    from app.core.plan_prompt import PlanContext
    from app.core.settings import Limits


class PlanRunner(QObject):
    """Runs one planning round at a time off the UI thread."""

    event_received = Signal(object)   # a typed event, on the UI thread
    plan_finished = Signal(object)    # the PlanOutcome, on the UI thread

    _event_from_plan = Signal(object)
    _outcome_from_plan = Signal(object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._thread: threading.Thread | None = None
        self._cancel = threading.Event()
        self._event_from_plan.connect(self.event_received, Qt.ConnectionType.QueuedConnection)
        self._outcome_from_plan.connect(self._on_outcome, Qt.ConnectionType.QueuedConnection)

    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self, root: Path, make_engine: Callable[[], "Engine"], limits: "Limits",
              goal: str, mode: str, context: "PlanContext") -> None:
        if self._thread is not None:
            raise RuntimeError("Planning is already going.")
        self._cancel = threading.Event()
        self._thread = threading.Thread(
            target=self._work, args=(Path(root), make_engine, limits, goal, mode, context,
                                     self._cancel), name="harness-plan", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._cancel.set()

    def wait(self, timeout: float | None = None) -> bool:
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True

    def _listen(self, event: Any) -> None:
        try:
            self._event_from_plan.emit(event)
        except RuntimeError:
            pass  # the dialog was closed and deleted; planning stops after this step

    def _work(self, root: Path, make_engine, limits, goal: str, mode: str, context,
              cancel: threading.Event) -> None:
        from app.core.engine import EngineError
        from app.core.errors import HarnessError
        from app.core.planning import PlanOutcome, Planner, last_run_summaries
        from app.core.workspace import Workspace

        try:
            ws = Workspace(root)
            if mode == "next" and not context.run_summaries:
                context.run_summaries = last_run_summaries(ws)
            planner = Planner(ws, make_engine(), limits, listeners=[self._listen],
                              cancel=cancel)
            outcome = planner.plan(goal, mode, context)
        except (HarnessError, EngineError) as exc:
            outcome = PlanOutcome("", "engine_error", exc.message)
        except Exception as exc:  # never lost on a thread: a crash report and a sentence
            from app.crash import save_crash_report

            where = save_crash_report(exc)
            outcome = PlanOutcome("", "engine_error", QCoreApplication.translate(
                "PlanRunner", "Planning stopped because of an unexpected error. Details were "
                "saved to %1.").replace("%1", str(where)))
        try:
            self._outcome_from_plan.emit(outcome)
        except RuntimeError:
            pass  # the dialog was closed and deleted meanwhile: nobody is waiting for it

    def _on_outcome(self, outcome: Any) -> None:
        self._thread = None
        self.plan_finished.emit(outcome)
