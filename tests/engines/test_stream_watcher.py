"""One watcher thread for every streaming reply (issue 23): steps hand their stream over
instead of starting a thread each, and the watcher still closes a stream on Stop, at its
time (what follows a reply's end) and when the server is gone."""

from __future__ import annotations

import threading
import time

from app.engines.local import stream as local_stream
from app.engines.local.stream import unwatch, watch, watch_stream


class Stream:
    def __init__(self) -> None:
        self.closed = threading.Event()

    def close(self) -> None:
        self.closed.set()


def test_many_steps_start_no_thread_of_their_own(monkeypatch):
    started: list[str] = []
    real = threading.Thread.start

    def counted(self):
        started.append(self.name)
        return real(self)

    monkeypatch.setattr(threading.Thread, "start", counted)
    cancel = threading.Event()
    streams = [Stream() for _ in range(50)]
    for stream in streams:
        with watch_stream(stream, cancel, alive=lambda: True):
            pass
        unwatch(watch(stream, until=time.monotonic() + 2.0))  # a drain, done at once
    assert started.count("stream-watch") <= 1  # at most the first, if none was running yet
    assert not any(s.closed.is_set() for s in streams)


def test_the_watcher_closes_on_stop_at_its_time_and_when_the_server_is_gone(monkeypatch):
    monkeypatch.setattr(local_stream, "SILENT_S", 0.3)
    cancel = threading.Event()
    stopped, timed, silent, fine = Stream(), Stream(), Stream(), Stream()
    with watch_stream(stopped, cancel), watch_stream(silent, None, alive=lambda: False) as w, \
            watch_stream(fine, threading.Event(), alive=lambda: True):
        drained = watch(timed, until=time.monotonic() + 0.3)
        cancel.set()
        assert stopped.closed.wait(2.0)
        assert timed.closed.wait(2.0)
        assert silent.closed.wait(3.0) and w.gone
        time.sleep(0.5)
        assert not fine.closed.is_set()  # a live server, no Stop: left alone
        unwatch(drained)
