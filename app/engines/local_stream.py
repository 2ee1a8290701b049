"""A watcher that closes a streaming reply when its step is cancelled, even mid-read.

The engines look at `cancel` between chunks; a local server can stay silent for minutes (a
long prompt being read, a model loading, a server shutting down with the stream still
open), and the read then blocks with nothing to look at. The watcher looks every
POLL_S and closes the stream from its own thread, so the read fails at once and the
engine, seeing `cancel` set, returns the turn as cancelled.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any, Iterator, Protocol

POLL_S = 0.2


class Cancel(Protocol):
    def is_set(self) -> bool: ...


@contextlib.contextmanager
def watch_stream(stream: Any, cancel: Cancel | None) -> Iterator[None]:
    if cancel is None:
        yield
        return
    done = threading.Event()

    def watch() -> None:
        while not done.wait(POLL_S):
            if cancel.is_set():
                with contextlib.suppress(Exception):
                    stream.close()
                return

    watcher = threading.Thread(target=watch, name="stream-watch", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
