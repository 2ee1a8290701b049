"""status.json written now, or at most an interval later: what a run's steps coalesce into.

Rewriting a file costs 0.3-1 ms on an ordinary disk even without an fsync (ext4 pushes the
new file's data out when a rename replaces the old one), more than the rest of a step that
only reads. So the recorder (core/records/recorder.py) asks for a write `now` at the events that
move the run on (a round starting or ending, a task completed, a question, a wait, the
run ending) and `soon` for the rest (a step starting, the reply, each tool call): a `soon`
writes at once when the last write is `interval` old, else marks the status due, and a
background thread writes it when the interval is up, unless the run thread has by then.
So status.json is never more than `interval` behind the event stream, however long the
next event takes in coming (a model thinking for a minute), and a run of quick steps
rewrites it at most once an interval instead of once a step.

Every write, and every change to the status it writes, happens under `lock`, so a write
never mixes two events' fields. A write the background thread could not make (a full
disk) is not retried there: the status stays due and every later `soon` writes on the
run's own thread, where a failure stops the run as any failed record does.
"""

from __future__ import annotations

import threading
import time
from typing import Callable


class StatusWriter:
    def __init__(self, write: Callable[[bool], None], interval: float):
        self._write = write  # write(sync): dumps the status and writes it
        self.interval = interval
        self.lock = threading.RLock()  # held by every change to the status and every write
        self._wake = threading.Condition(self.lock)
        self._due = False
        self._closed = False
        self._broken = False  # the background thread's last write failed
        self._thread: threading.Thread | None = None
        self.written_at = -float("inf")  # time.monotonic() of the last write
        self.writes = 0  # status.json writes made (what tests count)

    @property
    def due(self) -> bool:
        """A change is waiting to be written."""
        return self._due

    def now(self, sync: bool = False) -> None:
        """Write at once, on the caller's thread (an OSError reaches the caller)."""
        with self.lock:
            self._write(sync)
            self._due = False
            self.written_at = time.monotonic()
            self.writes += 1

    def soon(self) -> None:
        """Write at once if the last write is `interval` old, else within the interval."""
        with self.lock:
            if (self._closed or self._broken
                    or time.monotonic() - self.written_at >= self.interval):
                self.now()
                return
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="status-writer",
                                                daemon=True)
                self._thread.start()
            if not self._due:  # the thread waits without a timeout until something is due;
                self._due = True  # once told, it waits for the interval's end by itself
                self._wake.notify()

    def close(self) -> None:
        """Write what is due, then end the background thread (the run has ended)."""
        with self.lock:
            self._closed = True
            self._wake.notify()
            thread = self._thread
            if self._due:
                self.now()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5.0)

    def _run(self) -> None:
        with self.lock:
            while not self._closed:
                if not self._due or self._broken:
                    self._wake.wait()
                    continue
                left = self.written_at + self.interval - time.monotonic()
                if left > 0:
                    self._wake.wait(left)
                    continue
                try:
                    self.now()
                except Exception:  # a full disk...: the run's own thread meets it next
                    self._broken = True
