"""Planning off the UI thread: the core's planning round on a worker thread, its events as signals.

Like the run's RunRunner (both stand on app/gui/worker_bridge.py): the planner's events come
as `event_received`, then `plan_finished(PlanOutcome)` once per start. `stop()` sets the cancel
event, which planning honours after its current step; nothing here touches a widget.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QCoreApplication, Signal

from app.core.engine.port import EngineError
from app.core.errors import HarnessError
from app.core.plan.planning import PlanOutcome, Planner, last_run_summaries
from app.core.workspace.workspace import Workspace
from app.crash import save_crash_report
from app.gui.worker_bridge import WorkerBridge

if TYPE_CHECKING:  # imported on the worker thread, never before the window shows
    from app.core.engine.port import Engine
    from app.core.plan.prompt import PlanContext
    from app.core.settings import Limits


class PlanRunner(WorkerBridge):
    """Runs one planning round at a time off the UI thread."""

    plan_finished = Signal(object)    # the PlanOutcome, on the UI thread

    def start(self, root: Path, make_engine: Callable[[], "Engine"], limits: "Limits",
              goal: str, mode: str, context: "PlanContext") -> None:
        self._launch(self._work, (Path(root), make_engine, limits, goal, mode, context),
                     "harness-plan", "Planning is already going.")

    def _work(self, root: Path, make_engine, limits, goal: str, mode: str, context,
              cancel: threading.Event) -> None:
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
            where = save_crash_report(exc)
            outcome = PlanOutcome("", "engine_error", QCoreApplication.translate(
                "PlanRunner", "Planning stopped because of an unexpected error. Details were "
                "saved to %1.").replace("%1", str(where)))
        self._deliver(outcome)

    def _finished(self, outcome: Any) -> None:
        self.plan_finished.emit(outcome)
