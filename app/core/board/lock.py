"""One writer of a board at a time: per real path inside the process, and across processes.

update_board re-reads the board just before writing and starts over if it moved, which
merges the person's editor. Between two writers of ours that check is not enough: each
re-reads, checks, replaces, and the last one wins (typed tasks vanished, ticks were
lost). So every writer of ours holds the board's lock from its read to its write:

- inside the process, a lock per real path (a board reached through a link and by its own
  name is one board), from a small registry that keeps a lock while anyone holds it;
- across processes (the command line beside the window, a second window), a file lock
  named by a hash of the real path, kept in the folder where the run lock lives outside
  the workspace (never a file in the person's folder). When that folder cannot be had the
  in-process lock still holds.
"""

from __future__ import annotations

import hashlib
import os
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from app.core.board.task import BoardError
from app.core.workspace.file_lock import FileLock, LockBusy
from app.core.places import locks_folder

WAIT_S = 20.0  # another writer holds a board for milliseconds; this long means it is stuck

_REGISTRY_LOCK = threading.Lock()
_LOCKS: dict[str, list[Any]] = {}  # real path -> [RLock, holders]


def _real(path: Path | str) -> str:
    return os.path.normcase(os.path.realpath(path))


def path_key(real: str) -> str:
    return hashlib.sha256(real.encode("utf-8", "surrogatepass")).hexdigest()[:32]


@contextmanager
def board_lock(path: Path | str, name: str = "TASKS.md") -> Iterator[None]:
    """Hold the board at `path` against every other writer of ours until the block ends.
    Re-entrant within a thread. BoardError (one sentence) if another writer never lets go."""
    real = _real(path)
    with _REGISTRY_LOCK:
        entry = _LOCKS.setdefault(real, [threading.RLock(), 0])
        entry[1] += 1
    lock = entry[0]
    try:
        if not lock.acquire(timeout=WAIT_S):
            raise BoardError(_busy(name))
        try:
            with _process_lock(real, name):
                yield
        finally:
            lock.release()
    finally:
        with _REGISTRY_LOCK:
            entry[1] -= 1
            if entry[1] == 0:
                _LOCKS.pop(real, None)


_HELD = threading.local()  # the file locks this thread holds (file locks are per process)


@contextmanager
def _process_lock(real: str, name: str) -> Iterator[None]:
    held = getattr(_HELD, "paths", None)
    if held is None:
        held = _HELD.paths = set()
    if real in held:  # re-entered in this thread: the outer block holds it already
        yield
        return
    lock = FileLock(locks_folder() / f"board-{path_key(real)}.lock", mode=0o600)
    try:
        locks_folder().mkdir(parents=True, exist_ok=True)
        lock.acquire(timeout=WAIT_S, poll=0.002)
    except LockBusy:
        raise BoardError(_busy(name)) from None
    except OSError:
        pass  # no lock file to be had, or a file system without locks: the in-process lock holds
    held.add(real)
    try:
        yield
    finally:
        held.discard(real)
        lock.release()


def _busy(name: str) -> str:
    return (f"{name} is being changed by another part of Harness Desk that does not finish. "
            "Try again in a moment.")
