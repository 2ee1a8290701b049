"""A round's time limit, and the time that is not the round's own.

A round has `Limits.round_seconds`. Two kinds of time do not count against it: a pause (the
person held the run before the next step) and a wait for the person's answer to a change
careful mode asked about (`ChangeGate.waited_s`). Both move the deadline later, in one place,
so the check before a step and the cut inside a model call see the same deadline.
"""

from __future__ import annotations

import threading
import time
from typing import Callable

PAUSE_POLL_S = 0.05  # how often a paused round looks for Resume (Stop ends the wait at once)


class RoundClock:
    """Started when the round's first step is about to be taken."""

    def __init__(self, seconds: float, approvals_waited: Callable[[], float],
                 now: Callable[[], float] = time.monotonic):
        self._now = now
        self._approvals_waited = approvals_waited
        self._waited_before = approvals_waited()  # the gate counts for the whole run
        self._started = now()
        self.seconds = seconds
        self.paused_s = 0.0

    def hold_while_paused(self, paused: threading.Event, cancel: threading.Event) -> None:
        """Wait while the run is paused (until Resume or Stop); the wait is not the round's."""
        held = self._now()
        while paused.is_set() and not cancel.is_set():
            cancel.wait(PAUSE_POLL_S)
        self.paused_s += self._now() - held

    @property
    def not_counted_s(self) -> float:
        """Seconds of pauses and waits for an approval since the round began."""
        return self.paused_s + (self._approvals_waited() - self._waited_before)

    @property
    def deadline(self) -> float:
        """When the round's own time runs out, on the clock `now` reads."""
        return self._started + self.seconds + self.not_counted_s

    def past_deadline(self) -> bool:
        """True once the round has used more than its time."""
        return self._now() > self.deadline

    def at_deadline(self) -> bool:
        """True from the deadline on (a reply cut by the deadline ends the round)."""
        return self._now() >= self.deadline
