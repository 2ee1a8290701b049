"""The one bridge from core work on a thread of its own to the window: its events and its
outcome as signals, queued to the UI thread.

A subclass starts its work with `_launch`; the work calls `_listen(event)` for each event
(the harness's listener) and `_deliver(outcome)` once at its end. `event_received` and then
`_finished(outcome)` follow on the UI thread. Nothing here touches a widget, and the UI
thread never waits: `stop()` only sets the cancel event, honoured after the current step.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from PySide6.QtCore import QObject, Qt, Signal


class WorkerBridge(QObject):
    event_received = Signal(object)   # a typed event (app.core.events model), on the UI thread

    # Emitted on the worker thread; queued to this object's (the UI) thread.
    _event_from_worker = Signal(object)
    _outcome_from_worker = Signal(object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._thread: threading.Thread | None = None
        self._cancel = threading.Event()
        self._event_from_worker.connect(self.event_received, Qt.ConnectionType.QueuedConnection)
        self._outcome_from_worker.connect(self._on_outcome, Qt.ConnectionType.QueuedConnection)

    @property
    def running(self) -> bool:
        return self._thread is not None

    @property
    def stopping(self) -> bool:
        return self.running and self._cancel.is_set()

    def stop(self) -> None:
        """Ask the work to stop after its current step (returns at once)."""
        self._cancel.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the worker thread ends (for shutdown paths and tools, never the UI)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True

    def _launch(self, work: Callable[..., None], args: tuple, name: str, busy: str) -> None:
        """Start `work(*args, cancel)` on a thread of its own; `busy` if one is going."""
        if self._thread is not None:
            raise RuntimeError(busy)
        self._cancel = threading.Event()
        self._thread = threading.Thread(target=work, args=(*args, self._cancel), name=name,
                                        daemon=True)
        self._thread.start()

    # -- worker thread ---------------------------------------------------------------------
    def _listen(self, event: Any) -> None:
        try:
            self._event_from_worker.emit(event)
        except RuntimeError:
            pass  # the window part that owned this was deleted; the work stops after this step

    def _deliver(self, outcome: Any) -> None:
        try:
            self._outcome_from_worker.emit(outcome)
        except RuntimeError:
            pass  # deleted meanwhile: nobody is waiting for the outcome

    # -- UI thread -------------------------------------------------------------------------
    def _on_outcome(self, outcome: Any) -> None:
        self._thread = None  # its last act was the emit that brought us here
        self._finished(outcome)

    def _finished(self, outcome: Any) -> None:
        raise NotImplementedError  # each bridge emits its own typed "finished" signal
