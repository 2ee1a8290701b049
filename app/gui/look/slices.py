"""Work the UI thread does after the window is usable, a piece at a time, when it is idle.

One scheduler per process (`later()`) runs every piece of after-usable work: the window's
parts built after it is usable (main_window.finish_rest, window/later_parts.py), PySide's
classes readied (look/warm_types.py), and whatever else can wait. It runs one piece per
turn, at least GAP_MS after the last piece ended, and only on a turn whose timer fired on
time (a late timer means the window is busy: input, a paint, a run's events); so the
window's own events always come between two pieces, and no turn is long (bench/
ui_stall_cold.py). While a run starts (`hold`: from Run pressed until its first round's
card is drawn, at most HOLD_MS) no piece runs. A piece needed at once runs now
(`Piece.run_now`), held or not. A piece whose owner is gone never runs.

    piece = later().add(owner, fn)     # fn() -> True to be called again on a later turn
    later().add(owner, fn, soon=True)  # ahead of the others: a person waits for it
    piece.run_now()                    # needed now: run it (to the end), here
"""

from __future__ import annotations

import time
from collections import deque
from typing import Callable, Sequence

from PySide6.QtCore import QCoreApplication, QObject, QTimer

GAP_MS = 16  # at least this long between two pieces: events and paints come between
LATE_MS = 6  # a turn whose timer fired this much late finds the window busy: wait a turn
MAX_WAITS = 4  # but at most this many turns in a row (a loaded machine fires every timer late)
HOLD_MS = 2500  # a run starting holds the pieces back at most this long


def _valid(obj: QObject) -> bool:
    """Whether `obj`'s Qt object still exists (PySide raises RuntimeError on a deleted one;
    shiboken6.isValid says the same, but shiboken6 is PySide's own part, not our dependency)."""
    try:
        obj.objectName()
    except RuntimeError:
        return False
    return True


class Piece:
    """One piece of work for `owner`; `fn()` returning True asks to be called again."""

    def __init__(self, owner: QObject, fn: Callable[[], object], scheduler: "Later",
                 soon: bool = False):
        self.owner, self.fn, self._scheduler = owner, fn, scheduler
        self.soon = soon  # what the person is waiting to see: before the warming, on time
        self.done = False

    @property
    def alive(self) -> bool:
        return _valid(self.owner)

    def step(self) -> None:
        """One call of the piece (done unless it asks for more, or its owner is gone)."""
        if self.done:
            return
        self.done = True  # a piece that fails is not tried again on every turn
        if self.alive and self.fn():
            self.done = False

    def run_now(self) -> None:
        """Needed now: run the piece to its end, at once."""
        while not self.done:
            self.step()
        self._scheduler.forget(self)


class Later(QObject):
    """The after-usable pieces of the process, run one at a time on idle turns."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._pieces: deque[Piece] = deque()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._turn)
        self._due = 0.0  # when the timer should fire (perf_counter)
        self._waits = 0  # turns in a row the window was found busy
        self._held_until = 0.0  # perf_counter: no piece runs before (a run is starting)
        self.ran: list[float] = []  # each piece's milliseconds (tests, bench)

    @property
    def pending(self) -> int:
        return len(self._pieces)

    @property
    def held(self) -> bool:
        return time.perf_counter() < self._held_until

    def add(self, owner: QObject, fn: Callable[[], object], soon: bool = False) -> Piece:
        """`fn` on an idle turn; `soon`: ahead of the pieces that are not, and on the first
        turn that comes (what a person is waiting to see, after a run's end, say)."""
        piece = Piece(owner, fn, self, soon)
        if soon:
            at = next((i for i, p in enumerate(self._pieces) if not p.soon), len(self._pieces))
            self._pieces.insert(at, piece)
        else:
            self._pieces.append(piece)
        self._wake()
        return piece

    def forget(self, piece: Piece) -> None:
        if piece in self._pieces:
            self._pieces.remove(piece)

    def hold(self, ms: float = HOLD_MS) -> None:
        """A run is starting: no piece runs for `ms`, or until `release`."""
        self._held_until = max(self._held_until, time.perf_counter() + ms / 1000)
        self._wake(ms)

    def release(self) -> None:
        """The run has started (its first round is on screen): the pieces go on."""
        if self._held_until:
            self._held_until = 0.0
            if self._pieces:
                self._start(GAP_MS)  # not when the hold would have ended

    def _wake(self, ms: float = GAP_MS) -> None:
        if self._pieces and not self._timer.isActive():
            self._start(ms)

    def _start(self, ms: float) -> None:
        self._due = time.perf_counter() + ms / 1000
        self._timer.start(max(0, round(ms)))

    def _turn(self) -> None:
        now = time.perf_counter()
        if now < self._held_until:
            self._start((self._held_until - now) * 1000)
            return
        late = (now - self._due) * 1000
        busy = late > LATE_MS and not (self._pieces and self._pieces[0].soon)
        if busy and self._waits < MAX_WAITS:  # the window is busy: after it
            self._waits += 1
            self._start(GAP_MS)
            return
        self._waits = 0
        while self._pieces and (self._pieces[0].done or not self._pieces[0].alive):
            self._pieces.popleft()
        if not self._pieces:
            return
        piece = self._pieces[0]
        try:
            piece.step()
        finally:  # the next turn comes even after a piece that failed (the error is said)
            if piece.done and self._pieces and self._pieces[0] is piece:
                self._pieces.popleft()
            self.ran.append((time.perf_counter() - now) * 1000)
            if self._pieces:
                self._start(GAP_MS)


_later: Later | None = None


def later() -> Later:
    """The process's after-usable scheduler (made on first use, with the application)."""
    global _later
    if _later is None or not _valid(_later):
        _later = Later(QCoreApplication.instance())
    return _later


class Slices:
    """`slices` run for `owner`, each once: on idle turns of the event loop through the
    after-usable scheduler (`run_in_slices`), or all at once when needed now (`run_now`)."""

    def __init__(self, owner: QObject, slices: Sequence[Callable[[], object]]):
        self._owner = owner
        self._left = deque(slices)
        self._pieces: list[Piece] = []

    @property
    def done(self) -> bool:
        return not self._left and all(piece.done for piece in self._pieces)

    def run_in_slices(self) -> None:
        """Hand the slices not yet run to the scheduler, one piece each."""
        scheduler = later()
        while self._left:
            self._pieces.append(scheduler.add(self._owner, once(self._left.popleft())))

    def run_now(self) -> None:
        """Run every slice not yet run, now."""
        for piece in self._pieces:
            piece.run_now()
        while self._left:
            self._left.popleft()()


def once(fn: Callable[[], object]) -> Callable[[], bool]:
    """`fn` as a piece that runs once."""

    def call() -> bool:
        fn()
        return False

    return call
