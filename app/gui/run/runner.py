"""The only bridge from a run to the window: the harness on a worker thread, its events as signals.

`RunRunner.start` builds the engine and runs `Harness(...).run()` on a thread of its own.
The harness calls the runner's listener on that thread; the listener does nothing but emit a
signal, which Qt queues to the UI thread, where `event_received(event)` is emitted for the
window. When the run ends, `run_finished(RunResult)` follows, also on the UI thread. Nothing
here ever touches a widget, and the UI thread never waits for the run: `stop()` only sets
the cancel event, which the loop honours after the current step.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Callable

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal

if TYPE_CHECKING:  # the harness is imported on the run's own thread, never before the window
    from app.core.engine import Engine
    from app.core.settings import Limits

# exit_reasons for a run that could not even start (RunResult.run_id is "" then).
WORKSPACE_LOCKED = "workspace_locked"
START_FAILED = "error"


class RunRunner(QObject):
    """Runs one harness run at a time off the UI thread and reports it as signals."""

    event_received = Signal(object)   # a typed event (app.core.events model), on the UI thread
    run_finished = Signal(object)     # the RunResult, on the UI thread, once per start()

    # Emitted on the worker thread; queued to this object's (the UI) thread.
    _event_from_run = Signal(object)
    _result_from_run = Signal(object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._thread: threading.Thread | None = None
        self._cancel = threading.Event()
        self._paused = threading.Event()  # set: the run waits before its next step
        self._event_from_run.connect(self._on_event_from_run, Qt.ConnectionType.QueuedConnection)
        self._result_from_run.connect(self._on_result_from_run, Qt.ConnectionType.QueuedConnection)

    @property
    def running(self) -> bool:
        return self._thread is not None

    @property
    def stopping(self) -> bool:
        return self.running and self._cancel.is_set()

    def start(self, root: Path, make_engine: Callable[[], Engine], limits: Limits,
              careful: bool = False, approver: Any = None) -> None:
        """Start a run on `root`. The engine is built on the worker thread (an SDK import
        or a keychain lookup never holds up the window). `careful` and `approver` are
        careful mode and who answers its questions (careful/window_approver.py)."""
        if self._thread is not None:
            raise RuntimeError("A run is already going.")
        self._cancel = threading.Event()
        self._paused.clear()
        cancel = self._cancel
        self._thread = threading.Thread(
            target=self._work, args=(Path(root), make_engine, limits, cancel, careful, approver),
            name="harness-run", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Ask the run to stop after its current step (returns at once)."""
        self._cancel.set()

    def pause(self) -> None:
        """Hold the run before its next step (the current one finishes); resume() lets it go."""
        self._paused.set()

    def resume(self) -> None:
        self._paused.clear()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the worker thread ends (for shutdown paths and tools, never the UI)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True

    # -- worker thread ---------------------------------------------------------------------
    def _listen(self, event: Any) -> None:
        self._event_from_run.emit(event)

    def _work(self, root: Path, make_engine: Callable[[], Engine], limits: Limits,
              cancel: threading.Event, careful: bool = False, approver: Any = None) -> None:
        from app.core.engine import EngineError
        from app.core.errors import HarnessError, WorkspaceLocked
        from app.core.loop import Harness, RunResult
        from app.core.workspace import Workspace

        try:
            engine = make_engine()
            result = Harness(Workspace(root), engine, limits, [self._listen], cancel,
                             careful=careful, approver=approver, paused=self._paused).run()
        except WorkspaceLocked as exc:
            result = RunResult("", "failed", WORKSPACE_LOCKED, exc.message)
        except HarnessError as exc:
            result = RunResult("", "failed", START_FAILED, exc.message)
        except EngineError as exc:
            result = RunResult("", "failed", exc.code or START_FAILED, exc.message,
                               cause=exc.cause)
        except Exception as exc:  # never lost on a thread: a crash report and a sentence
            from app.crash import save_crash_report

            where = save_crash_report(exc)
            sentence = QCoreApplication.translate(
                "Runner", "The run stopped because of an unexpected error. Details were saved "
                "to %1.").replace("%1", str(where))
            result = RunResult("", "failed", START_FAILED, sentence)
        self._result_from_run.emit(result)

    # -- UI thread -------------------------------------------------------------------------
    def _on_event_from_run(self, event: Any) -> None:
        self.event_received.emit(event)

    def _on_result_from_run(self, result: RunResult) -> None:
        self._thread = None  # its last act was the emit that brought us here
        self.run_finished.emit(result)
