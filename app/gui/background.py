"""Background work for the window: run a function off the UI thread, get its result back on it.

The UI thread never waits on disk, network or the model, so it never freezes. Every such call in
the window goes through `run_in_background`: the function runs on a pool thread, and
`on_done(result)` or `on_error(exc)` is called later on the UI thread (through a queued
signal), never inside the function. Never touch a widget inside `fn`.

Calls that must happen in order (writes to one file) share a `SerialQueue`: one at a time, in
the order submitted. Tests can make everything synchronous with `set_synchronous(True)`.
"""

from __future__ import annotations

import sys
import traceback
from collections import deque
from typing import Any, Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

_synchronous = False
_alive: set["_Job"] = set()  # jobs in flight keep their signal carrier alive


def set_synchronous(value: bool) -> None:
    """Run background work inline (tests that want deterministic order)."""
    global _synchronous
    _synchronous = value


class _Carrier(QObject):
    finished = Signal(object, object)  # result, exception (one of them is None)


class _Job(QRunnable):
    def __init__(self, fn: Callable[[], Any]):
        super().__init__()
        self.fn = fn
        self.carrier = _Carrier()
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            result, error = self.fn(), None
        except BaseException as exc:  # delivered to on_error; never lost on a pool thread
            exc.details = traceback.format_exc()  # type: ignore[attr-defined]
            result, error = None, exc
        try:
            self.carrier.finished.emit(result, error)
        except RuntimeError:  # the carrier went with the application (a job still running at
            pass  # quit): there is no one left to tell, and no traceback for the person


def run_in_background(fn: Callable[[], Any], on_done: Callable[[Any], None] | None = None,
                      on_error: Callable[[BaseException], None] | None = None) -> None:
    """Call `fn()` on a pool thread; then `on_done(result)` or `on_error(exc)` on the UI
    thread. An error without `on_error` goes to the window's error handler (sys.excepthook)."""

    def deliver(result: Any, error: BaseException | None) -> None:
        _alive.discard(job)
        if error is None:
            if on_done is not None:
                on_done(result)
        elif on_error is not None:
            on_error(error)
        else:
            sys.excepthook(type(error), error, error.__traceback__)

    if _synchronous:
        try:
            value, failure = fn(), None
        except Exception as exc:
            value, failure = None, exc
        job = None
        deliver(value, failure)
        return
    job = _Job(fn)
    _alive.add(job)
    job.carrier.finished.connect(deliver)  # queued: the carrier lives on the UI thread
    QThreadPool.globalInstance().start(job)


class SerialQueue:
    """Background calls that run one at a time, in the order submitted (e.g. board writes)."""

    def __init__(self) -> None:
        self._pending: deque[tuple[Callable[[], Any], Callable | None, Callable | None]] = deque()
        self._busy = False

    @property
    def idle(self) -> bool:
        return not self._busy and not self._pending

    def submit(self, fn: Callable[[], Any], on_done: Callable[[Any], None] | None = None,
               on_error: Callable[[BaseException], None] | None = None) -> None:
        self._pending.append((fn, on_done, on_error))
        if not self._busy:
            self._next()

    def _next(self) -> None:
        if not self._pending:
            self._busy = False
            return
        self._busy = True
        fn, on_done, on_error = self._pending.popleft()

        def done(result: Any) -> None:
            try:
                if on_done is not None:
                    on_done(result)
            finally:
                self._next()

        def failed(exc: BaseException) -> None:
            try:
                if on_error is not None:
                    on_error(exc)
                else:
                    sys.excepthook(type(exc), exc, exc.__traceback__)
            finally:
                self._next()

        run_in_background(fn, done, failed)


def while_alive(owner: QObject, callback: Callable[..., Any] | None) -> Callable[..., Any] | None:
    """`callback`, or a no-op once `owner` (a window, a dialog) has been deleted: a result that
    comes back after its window closed is dropped rather than delivered to a dead widget."""
    if callback is None:
        return None
    alive = _alive_flag(owner)

    def call(*args: Any) -> Any:
        return callback(*args) if alive[0] else None

    return call


def _alive_flag(owner: QObject) -> list[bool]:
    """One flag per object, cleared by its `destroyed` signal (set up once, on first use)."""
    flag = getattr(owner, "_background_alive", None)
    if flag is None:
        flag = [True]
        owner.destroyed.connect(lambda *_: flag.__setitem__(0, False))
        owner._background_alive = flag  # type: ignore[attr-defined]
    return flag


def run_for(owner: QObject, fn: Callable[[], Any],
            on_done: Callable[[Any], None] | None = None,
            on_error: Callable[[BaseException], None] | None = None) -> None:
    """`run_in_background` on behalf of a widget: its callbacks are dropped if it is gone."""
    run_in_background(fn, while_alive(owner, on_done), while_alive(owner, on_error))
