"""A watcher that closes a streaming reply when its step is cancelled, even mid-read.

The engines look at `cancel` between chunks; a local server can stay silent for minutes (a
long prompt being read, a model loading, a server shutting down with the stream still
open), and the read then blocks with nothing to look at. The watcher looks every
POLL_S and closes the stream from its own thread, so the read fails at once and the
engine, seeing `cancel` set, returns the turn as cancelled.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import Any, Iterator, Protocol

POLL_S = 0.2


class Cancel(Protocol):
    def is_set(self) -> bool: ...


def _shut(stream: Any) -> None:
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
def watch_stream(stream: Any, cancel: Cancel | None) -> Iterator[None]:
    if cancel is None:
        yield
        return
    done = threading.Event()

    def watch() -> None:
        while not done.wait(POLL_S):
            if cancel.is_set():
                _shut(stream)
                return

    watcher = threading.Thread(target=watch, name="stream-watch", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
