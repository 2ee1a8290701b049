"""One writer of a board at a time: per real path inside the process, and across processes.

update_board re-reads the board just before writing and starts over if it moved, which
merges the person's editor. Between two writers of ours that check is not enough: each
re-reads, checks, replaces, and the last one wins (issue 16: typed tasks vanished, ticks
were lost). So every writer of ours holds the board's lock from its read to its write:

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
from typing import Iterator

from app.core.board_task import BoardError

WAIT_S = 20.0  # another writer holds a board for milliseconds; this long means it is stuck

_REGISTRY_LOCK = threading.Lock()
_LOCKS: dict[str, list] = {}  # real path -> [RLock, holders]


def _real(path: Path | str) -> str:
    return os.path.normcase(os.path.realpath(path))


def locks_folder() -> Path:
    """Where locks outside any workspace live: the person's cache folder (or the config
    folder the tests and portable installs pick). The run lock lives here too."""
    from app.core.settings import APP_DIR_NAME, CONFIG_ENV, config_dir

    if os.environ.get(CONFIG_ENV):
        return config_dir() / "locks"
    from platformdirs import user_cache_dir

    return Path(user_cache_dir(APP_DIR_NAME, appauthor=False)) / "locks"


def path_key(real: str) -> str:
    return hashlib.sha256(real.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _file_lock_path(real: str) -> Path | None:
    key = path_key(real)
    folder = locks_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder / f"board-{key}.lock"


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
    from filelock import FileLock, Timeout

    lock_path = _file_lock_path(real)
    lock = None
    if lock_path is not None:
        lock = FileLock(str(lock_path), thread_local=False)
        try:
            lock.acquire(timeout=WAIT_S, poll_interval=0.002)
        except Timeout:
            raise BoardError(_busy(name)) from None
        except OSError:
            lock = None  # no lock file to be had: the in-process lock still holds
    held.add(real)
    try:
        yield
    finally:
        held.discard(real)
        if lock is not None:
            lock.release()


def _busy(name: str) -> str:
    return (f"{name} is being changed by another part of Harness Desk that does not finish. "
            "Try again in a moment.")
