"""Work the UI thread does in slices, one per turn of the event loop, so no turn is long
(the window's parts built after it is usable: main_window.finish_rest), or all at once when
something needs it done now. Each slice runs once."""

from __future__ import annotations

from collections import deque
from typing import Callable, Sequence

from PySide6.QtCore import QObject, QTimer


class Slices:
    """`slices` run for `owner`: none runs once it is gone (its later turns are its timers)."""

    def __init__(self, owner: QObject, slices: Sequence[Callable[[], object]]):
        self._owner = owner
        self._left = deque(slices)
        self._running = False  # run_in_slices began: its next turn is queued

    @property
    def done(self) -> bool:
        return not self._left

    def run_in_slices(self) -> None:
        """Run the next slice now and the rest on later turns of the event loop."""
        if self._running:
            return
        self._running = True
        self._next()

    def _next(self) -> None:
        if self._left:
            self._left.popleft()()
        if self._left:
            QTimer.singleShot(0, self._owner, self._next)

    def run_now(self) -> None:
        """Run every slice not yet run, now."""
        while self._left:
            self._left.popleft()()
