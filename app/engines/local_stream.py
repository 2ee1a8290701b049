"""A watcher that closes a streaming reply when its step is cancelled or its server is gone.

The engines look at `cancel` between chunks; a local server can stay silent for minutes (a
long prompt being read, a model loading, a server shutting down with the stream still
open), and the read then blocks with nothing to look at. The watcher looks every POLL_S
and closes the stream from its own thread when `cancel` is set (Stop, or the round's time
limit), so the read fails at once and the engine returns the turn as cancelled. While the
stream is silent for SILENT_S, it also asks the server whether it is still there
(`alive()`, a quick request to another endpoint); a server that no longer accepts
connections (shut down while it held the stream open) gets the stream closed too, with
`gone` set, so the run is told nothing is answering instead of waiting.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from typing import Any, Callable, Iterator, Protocol

POLL_S = 0.2
SILENT_S = 5.0


class Cancel(Protocol):
    def is_set(self) -> bool: ...


class Watch:
    """What the reader tells the watcher (a chunk arrived) and learns from it (gone)."""

    def __init__(self) -> None:
        self.last = time.monotonic()
        self.gone = False

    def tick(self) -> None:
        self.last = time.monotonic()


def shut_stream(stream: Any) -> None:
    """Close the stream so a blocked read fails now. Closing the response alone does not
    wake a read already waiting on the socket, so the socket itself is shut first."""
    response = getattr(stream, "response", None)
    network = (getattr(response, "extensions", None) or {}).get("network_stream")
    sock = network.get_extra_info("socket") if network is not None else None
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(Exception):
        stream.close()


@contextlib.contextmanager
def watch_stream(stream: Any, cancel: Cancel | None,
                 alive: Callable[[], bool] | None = None) -> Iterator[Watch]:
    watch = Watch()
    done = threading.Event()

    def run() -> None:
        asked = time.monotonic()
        while not done.wait(POLL_S):
            if cancel is not None and cancel.is_set():
                shut_stream(stream)
                return
            now = time.monotonic()
            if alive is not None and now - watch.last >= SILENT_S and now - asked >= SILENT_S:
                asked = now
                if not alive() and not done.is_set():
                    watch.gone = True
                    shut_stream(stream)
                    return

    watcher = threading.Thread(target=run, name="stream-watch", daemon=True)
    watcher.start()
    try:
        yield watch
    finally:
        done.set()
