"""Two flushes side by side: the undo journal's on a thread of its own while the person's file
is written and flushed, the file replaced only once both are on disk (issue 36).

A write step flushes the round's undo journal (the line naming the file's pre-image) and the
file's new content, and the journal's line must be on disk before the replace is: else a
power cut could keep the new file and lose the line that undoes it. Done one after the
other, a slow or busy disk charges the step twice; side by side, once.

`RoundChanges.before_change(rel, overlap=True)` starts `BackgroundFlush` of the journal;
the write happens inside `flushed_first(path, flush.wait)`, and `files.commit_temp_file`,
right before it replaces `path`, waits for it (`wait_flushed_first`): the order on disk is
the same as before, the waits overlap.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from contextvars import ContextVar, Token

# {normalised path: wait()} in a ContextVar, made on first use
_FIRST: ContextVar[dict[str, Callable[[], object]]] | None = None


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
            # Write access: Windows flushes (FlushFileBuffers) only through a handle that has it.
            fd = os.open(self.path, os.O_RDWR | getattr(os, "O_BINARY", 0))
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except BaseException as exc:  # handed to wait(), on the thread that asked
            self._error = exc

    def wait(self) -> None:
        self._thread.join()
        error, self._error = self._error, None
        if error is not None:
            raise error


def _key(path: Path | str) -> str:
    return os.path.normcase(os.path.abspath(path))


def _first_var() -> ContextVar[dict[str, Callable[[], object]]]:
    global _FIRST
    if _FIRST is None:
        import contextvars

        # Never mutated: each set() makes a new dict.
        _FIRST = contextvars.ContextVar("hd_flushed_first", default={})  # noqa: B039
    return _FIRST


class flushed_first:
    """While inside, a replace of `path` (files.commit_temp_file) first calls `wait`."""

    def __init__(self, path: Path | str, wait: Callable[[], object]):
        self.path, self.wait = path, wait
        self._token: Token[dict[str, Callable[[], object]]] | None = None

    def __enter__(self) -> "flushed_first":
        var = _first_var()
        self._token = var.set({**var.get(), _key(self.path): self.wait})
        return self

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _first_var().reset(self._token)


def wait_flushed_first(path: Path | str) -> None:
    """What must be on disk before `path` is replaced, waited for (nothing, usually)."""
    if _FIRST is None:
        return
    wait = _FIRST.get().get(_key(path))
    if wait is not None:
        wait()
