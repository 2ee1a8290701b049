"""A watcher that closes a streaming reply when its step is cancelled or its server is gone.

The engines look at `cancel` between chunks; a local server can stay silent for minutes (a
long prompt being read, a model loading, a server shutting down with the stream still
open), and the read then blocks with nothing to look at. The watcher looks every POLL_S
and closes the stream from its own thread when `cancel` is set (Stop, or the round's time
limit), so the read fails at once and the engine returns the turn as cancelled. While the
stream is silent for SILENT_S, it also asks the server whether it is still there
(`alive()`, a quick request to another endpoint); a server that no longer accepts
connections (shut down while it held the stream open) gets the stream closed too, with
`gone` set, so the run is told nothing is answering instead of waiting. A stream may also
be given a time to be closed at (`until`: what follows a reply's end, core of
openai_compat._drain).

One watcher thread serves every stream, started with the first and waiting without a
timeout while none is watched: a step hands its stream over and takes it back under a
lock, instead of starting a thread of its own (a thread's start and end cost a
quick step more than the rest of its bookkeeping). The question to the server runs on a
thread of its own, rarely (after SILENT_S of silence), so it never holds up the others.
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


class _Watched:
    __slots__ = ("alive", "asked", "asking", "cancel", "stream", "until", "watch")

    def __init__(self, stream: Any, cancel: Cancel | None, alive: Callable[[], bool] | None,
                 watch: Watch, until: float | None):
        self.stream, self.cancel, self.alive, self.watch = stream, cancel, alive, watch
        self.until = until
        self.asked = time.monotonic()
        self.asking = False


_lock = threading.Lock()
_wake = threading.Condition(_lock)
_watched: set[_Watched] = set()
_watcher: list[threading.Thread] = []  # the one thread, once started


def watch(stream: Any, cancel: Cancel | None = None, alive: Callable[[], bool] | None = None,
          until: float | None = None) -> _Watched:
    """Hand `stream` to the watcher; unwatch() it when done reading."""
    watched = _Watched(stream, cancel, alive, Watch(), until)
    with _lock:
        if not _watcher:
            thread = threading.Thread(target=_run, name="stream-watch", daemon=True)
            thread.start()
            _watcher.append(thread)
        if not _watched:
            _wake.notify()  # it waits without a timeout while nothing is watched
        _watched.add(watched)
    return watched


def unwatch(watched: _Watched) -> None:
    with _lock:
        _watched.discard(watched)


@contextlib.contextmanager
def watch_stream(stream: Any, cancel: Cancel | None,
                 alive: Callable[[], bool] | None = None) -> Iterator[Watch]:
    watched = watch(stream, cancel, alive)
    try:
        yield watched.watch
    finally:
        unwatch(watched)


def _run() -> None:
    while True:
        with _lock:
            while not _watched:
                _wake.wait()
            _wake.wait(POLL_S)
            now = time.monotonic()
            shut, ask = [], []
            for w in list(_watched):
                if (w.cancel is not None and w.cancel.is_set()) or \
                        (w.until is not None and now >= w.until):
                    _watched.discard(w)
                    shut.append(w)
                elif (w.alive is not None and not w.asking and now - w.watch.last >= SILENT_S
                        and now - w.asked >= SILENT_S):
                    w.asked, w.asking = now, True
                    ask.append(w)
        for w in shut:  # outside the lock: a close may take a moment
            shut_stream(w.stream)
        for w in ask:
            threading.Thread(target=_ask, args=(w,), name="stream-ask", daemon=True).start()


def _ask(w: _Watched) -> None:
    """Is the server still there? If not, and the stream is still watched, it is closed."""
    try:
        here = w.alive() if w.alive is not None else True  # (asked only of one with alive)
    except Exception:
        here = True  # a question that failed is no answer
    with _lock:
        w.asking = False
        gone = not here and w in _watched
        if gone:
            _watched.discard(w)
            w.watch.gone = True
    if gone:
        shut_stream(w.stream)
