"""Deadlines for calls that may hang (a keychain's D-Bus prompt, a DNS lookup): light, so the
keychain and readiness checks can use them without the HTTP engines' plumbing (wire.py)."""

from __future__ import annotations

import threading
from typing import Callable, TypeVar

AVAILABILITY_TIMEOUT_S = 5.0

T = TypeVar("T")


class Overdue(TimeoutError):
    """A call that did not return in time; `worker` is the thread still running it."""

    def __init__(self, seconds: float, worker: threading.Thread):
        super().__init__(f"no answer within {seconds:g} s")
        self.worker = worker


def within(seconds: float, fn: Callable[[], T], name: str = "engine-check") -> T:
    """Run fn on a daemon thread and raise Overdue (a TimeoutError) after `seconds`.

    HTTP timeouts do not cover a hanging DNS lookup, nor keyring a D-Bus prompt nobody
    answers; this does, so checks answer promptly whatever the system does.
    """
    value: list[T] = []
    error: list[BaseException] = []

    def work() -> None:
        try:
            value.append(fn())
        except BaseException as exc:  # handed back to the caller's thread below
            error.append(exc)

    worker = threading.Thread(target=work, name=name, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise Overdue(seconds, worker)
    if error:
        raise error[0]
    return value[0]
