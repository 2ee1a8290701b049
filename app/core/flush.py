"""Flushes to the disk off the write step's path: the undo journal's and the person's file's
(issue 36).

A write step's flushes only guard against a power cut: a crash or a kill -9 of the process
keeps everything already handed to the operating system, and the harness hands over the
pre-image's copy, then the journal's line naming it, then the new file, in that order. So
a write step through `RoundChanges.before_change(rel, overlap=True)` and
`RoundChanges.flushed_first(path)` flushes as follows (undo.py has the crash guarantees):

- The file's own fsync comes after its replace, on the round's `Flusher` thread, while the
  next model call is in flight; the round's end (RoundChanges.finish) waits for it, before
  the round's undo record and the run's record of the round are written.
- The journal's line for a file the round creates is flushed on the same thread, first:
  its order against the new file does not matter (a power cut that keeps the file and loses
  the line leaves a new file undo does not know of; nothing of the person's is lost).
- The journal's line for a file that held content before the round (its first change in
  the round) is on disk BEFORE the replace: `BackgroundFlush` starts it beside the temp
  file's write and `files.commit_temp_file` waits for it right before the replace
  (`wait_flushed_first`). A power cut can then never keep the new content and lose the line
  that undoes it. A later change of the same file needs no new flush: its line is on disk.
"""

from __future__ import annotations

import os
from pathlib import Path

_FIRST = None  # a ContextVar of {normalised path: (wait(), later(path) or None)}, made on use


def fsync_path(path: Path | str) -> None:
    """Flush the file at `path` to the disk. Windows flushes (FlushFileBuffers) only through a
    handle open for writing, which a read-only file refuses: there the file is made writable
    for the moment of the flush."""
    try:
        _fsync_open(path, os.O_RDONLY if os.name != "nt" else os.O_RDWR | getattr(os, "O_BINARY", 0))
    except PermissionError:
        if os.name != "nt":
            raise
        import stat

        mode = os.stat(path).st_mode
        os.chmod(path, stat.S_IREAD | stat.S_IWRITE)
        try:
            _fsync_open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
        finally:
            os.chmod(path, stat.S_IMODE(mode))


def _fsync_open(path: Path | str, flags: int) -> None:
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Flusher:
    """A round's flushes done on a thread of its own, in the order asked for: `add(path)`
    returns at once; `join()` returns once every flush asked for so far is done, and raises
    the first that failed. A file gone by the time its turn comes (deleted or replaced by a
    later step of the round) is no error: what replaced it is flushed in its own turn."""

    def __init__(self) -> None:
        self._queue = None  # a queue.Queue and its thread, made on the first add
        self._thread = None
        self._error: OSError | None = None

    def add(self, path: Path | str) -> None:
        if self._queue is None:
            import queue
            import threading

            self._queue = queue.Queue()
            self._thread = threading.Thread(target=self._run, args=(self._queue,),
                                            name="hd-round-flush", daemon=True)
            self._thread.start()
        self._queue.put(Path(path))

    def _run(self, todo) -> None:
        while True:
            path = todo.get()
            try:
                if path is None:
                    return
                fsync_path(path)
            except FileNotFoundError:
                pass
            except OSError as exc:  # handed to join(), on the thread that asks
                if self._error is None:
                    self._error = exc
            finally:
                todo.task_done()

    @property
    def pending(self) -> bool:
        return self._queue is not None and self._queue.unfinished_tasks > 0

    def join(self) -> None:
        """Wait for every flush asked for so far; raise the first that failed."""
        if self._queue is not None:
            self._queue.join()
        error, self._error = self._error, None
        if error is not None:
            raise error

    def close(self) -> None:
        """join(), and end the thread (a later add starts a new one)."""
        todo, thread = self._queue, self._thread
        if todo is not None:
            todo.put(None)
            self._queue = self._thread = None
            todo.join()
            thread.join()
        error, self._error = self._error, None
        if error is not None:
            raise error


class BackgroundFlush:
    """os.fsync of `path` on a thread of its own; `wait()` returns once it is on disk and
    raises what the flush raised."""

    def __init__(self, path: Path | str):
        import threading

        self.path = Path(path)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="hd-journal-flush",
                                        daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            fsync_path(self.path)
        except BaseException as exc:  # handed to wait(), on the thread that asked
            self._error = exc

    def wait(self) -> None:
        self._thread.join()
        error, self._error = self._error, None
        if error is not None:
            raise error


def _key(path: Path | str) -> str:
    return os.path.normcase(os.path.abspath(path))


def _first_var():
    global _FIRST
    if _FIRST is None:
        import contextvars

        _FIRST = contextvars.ContextVar("hd_flushed_first", default={})
    return _FIRST


class flushed_first:
    """While inside, a replace of `path` (files.commit_temp_file) first calls `wait`; with
    `later`, files.atomic_write_bytes does not flush the new file itself but hands its path
    to `later` once it is in place (Flusher.add)."""

    def __init__(self, path: Path | str, wait, later=None):
        self.path, self.wait, self.later = path, wait, later
        self._token = None

    def __enter__(self) -> "flushed_first":
        var = _first_var()
        self._token = var.set({**var.get(), _key(self.path): (self.wait, self.later)})
        return self

    def __exit__(self, *exc) -> None:
        _first_var().reset(self._token)


def wait_flushed_first(path: Path | str) -> None:
    """What must be on disk before `path` is replaced, waited for (nothing, usually)."""
    if _FIRST is None:
        return
    wait, _ = _FIRST.get().get(_key(path), (None, None))
    if wait is not None:
        wait()


def flush_later(path: Path | str):
    """Who flushes `path` once it is replaced, when that is not the writer (None: the writer
    flushes the file before the replace, as it always has)."""
    if _FIRST is None:
        return None
    return _FIRST.get().get(_key(path), (None, None))[1]
