"""The one bridge from core work on a thread of its own to the window: its events and its
outcome as signals, queued to the UI thread.

A subclass starts its work with `_launch`; the work calls `_listen(event)` for each event
(the harness's listener) and `_deliver(outcome)` once at its end. `event_received` and then
`_finished(outcome)` follow on the UI thread. Nothing here touches a widget, and the UI
thread never waits: `stop()` only sets the cancel event, honoured after the current step.

Events wait in a queue and reach the UI thread in batches of at most BATCH_S of handling:
a run that sends events faster than the window shows them (a full-speed Demo run, a loaded
machine) would otherwise hold the UI thread for every event queued at once, 100 ms and
more, before a paint or a key press got in. Between batches the event loop turns.
Each batch starts from a timer, not a posted event: a timer that is due (a repaint's, the
person's key held down, the after-usable work) fires before it, where batches posted one
after another ran back to back with the window's paints between them in one turn.
The outcome follows the last event.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Any, Callable

from PySide6.QtCore import QObject, Qt, QTimer, Signal

BATCH_S = 0.008  # the longest the UI thread hands on events before the event loop turns
NEXT_MS = 1  # a batch starts this long after it is due: after the timers due before it


class WorkerBridge(QObject):
    event_received = Signal(object)   # a typed event (app.core.records.events model), on the UI thread

    # Emitted on the worker thread; queued to this object's (the UI) thread.
    _events_waiting = Signal()
    _outcome_from_worker = Signal(object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._thread: threading.Thread | None = None
        self._cancel = threading.Event()
        self._queue: deque = deque()
        self._lock = threading.Lock()
        self._woken = False      # a _hand_on is on its way to the UI thread
        self._outcome: list = []  # the outcome, held until the events before it are shown
        self._next = QTimer(self)  # the next batch: a timer, after those due before it
        self._next.setSingleShot(True)
        self._next.setInterval(NEXT_MS)
        self._next.timeout.connect(self._hand_on)
        self._events_waiting.connect(self._next.start, Qt.ConnectionType.QueuedConnection)
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
        with self._lock:
            self._queue.append(event)
            wake, self._woken = not self._woken, True
        if wake:
            try:
                self._events_waiting.emit()
            except RuntimeError:
                pass  # the window part that owned this was deleted; the work stops after this

    def _deliver(self, outcome: Any) -> None:
        try:
            self._outcome_from_worker.emit(outcome)
        except RuntimeError:
            pass  # deleted meanwhile: nobody is waiting for the outcome

    # -- UI thread -------------------------------------------------------------------------
    def _hand_on(self) -> None:
        """Emit event_received for the waiting events, for at most BATCH_S; the rest go in
        the next turn of the event loop (after paints, timers and the person's input)."""
        began = time.perf_counter()
        while True:
            with self._lock:
                if not self._queue:
                    self._woken = False
                    break
                event = self._queue.popleft()
            self.event_received.emit(event)
            if time.perf_counter() - began >= BATCH_S:
                self._next.start()  # still woken: the next batch is due
                return
        if self._outcome:
            self._on_outcome(self._outcome.pop())

    def _on_outcome(self, outcome: Any) -> None:
        with self._lock:
            behind = bool(self._queue) or self._woken
        if behind:  # events still to show: the outcome follows them
            self._outcome.append(outcome)
            return
        self._thread = None  # its last act was the emit that brought us here
        self._finished(outcome)

    def _finished(self, outcome: Any) -> None:
        raise NotImplementedError  # each bridge emits its own typed "finished" signal
