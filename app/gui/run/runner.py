"""A run in the window: the harness on a worker thread, its events as signals.

`RunRunner.start` builds the engine and runs `Harness(...).run()` on a thread of its own
(app/gui/worker_bridge.py carries its events to the UI thread as `event_received(event)`).
When the run ends, `run_finished(RunResult)` follows, also on the UI thread. Nothing here
ever touches a widget, and the UI thread never waits for the run: `stop()` only sets the
cancel event, which the loop honours after the current step.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QCoreApplication, QObject, Signal

from app.core.errors import HarnessError, WorkspaceLocked
from app.core.run.outcomes import ExitReason, RunState
from app.gui.worker_bridge import WorkerBridge

if TYPE_CHECKING:  # the harness is imported on the run's own thread, never before the window
    from app.core.engine.port import Engine
    from app.core.settings import Limits

# exit_reasons for a run that could not even start (RunResult.run_id is "" then).
WORKSPACE_LOCKED = "workspace_locked"
START_FAILED = ExitReason.ERROR.value


class RunRunner(WorkerBridge):
    """Runs one harness run at a time off the UI thread and reports it as signals."""

    run_finished = Signal(object)     # the RunResult, on the UI thread, once per start()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._paused = threading.Event()  # set: the run waits before its next step

    def start(self, root: Path, make_engine: Callable[[], Engine], limits: Limits,
              careful: bool = False, approver: Any = None) -> None:
        """Start a run on `root`. The engine is built on the worker thread (an SDK import
        or a keychain lookup never holds up the window). `careful` and `approver` are
        careful mode and who answers its questions (careful/window_approver.py)."""
        self._paused.clear()
        self._launch(self._work, (Path(root), make_engine, limits, careful, approver),
                     "harness-run", "A run is already going.")

    def pause(self) -> None:
        """Hold the run before its next step (the current one finishes); resume() lets it go."""
        self._paused.set()

    def resume(self) -> None:
        self._paused.clear()

    # -- worker thread ---------------------------------------------------------------------
    def _work(self, root: Path, make_engine: Callable[[], Engine], limits: Limits,
              careful: bool, approver: Any, cancel: threading.Event) -> None:
        from app.core.engine.port import (  # noqa: PLC0415 - window start-up (bench/startup.py)
            EngineError)
        from app.core.run.loop import (  # noqa: PLC0415 - window start-up (bench/startup.py)
            Harness, RunResult)
        from app.core.workspace.workspace import (  # noqa: PLC0415 - window start-up (bench/startup.py)
            Workspace)

        try:
            engine = make_engine()
            result = Harness(Workspace(root), engine, limits, [self._listen], cancel,
                             careful=careful, approver=approver, paused=self._paused).run()
        except WorkspaceLocked as exc:
            result = RunResult("", RunState.FAILED, WORKSPACE_LOCKED, exc.message)
        except HarnessError as exc:
            result = RunResult("", RunState.FAILED, START_FAILED, exc.message)
        except EngineError as exc:
            result = RunResult("", RunState.FAILED, exc.code or START_FAILED, exc.message,
                               cause=exc.cause)
        except Exception as exc:  # never lost on a thread: a crash report and a sentence
            from app.crash import (  # noqa: PLC0415 - window start-up (bench/startup.py)
                save_crash_report)

            where = save_crash_report(exc)
            sentence = QCoreApplication.translate(
                "Runner", "The run stopped because of an unexpected error. Details were saved "
                "to %1.").replace("%1", str(where))
            result = RunResult("", RunState.FAILED, START_FAILED, sentence)
        self._deliver(result)

    # -- UI thread -------------------------------------------------------------------------
    def _finished(self, result: Any) -> None:
        self.run_finished.emit(result)
