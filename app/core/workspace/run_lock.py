"""The run lock: one run per workspace, and how `status` and `watch` see whether one is on.

The locks are app.core.workspace.file_lock's (the OS's own, as the filelock package takes them, so an
older copy of the app and this one keep each other out). Seeing whether someone holds one is
asked far more often than taking it (every `status`, the window opening a folder, `watch`
five times a second): a lock taken without waiting and let go at once answers it.
"""

from __future__ import annotations

import os
from pathlib import Path

from app.core.board.lock import path_key
from app.core.errors import HarnessError, WorkspaceLocked
from app.core.workspace.file_lock import FileLock, LockBusy, is_held
from app.core.workspace.files import UNWRITABLE, unwritable_sentence
from app.core.places import locks_folder

ACQUIRE_TIMEOUT_S = 0.5


class RunLock:
    """One run per workspace, held through OS file locks that die with the process.

    Two locks, both taken: `.harness/lock` (where docs/records.md says, and what a copy of the
    app without this one looks for) and one outside the workspace, in the person's cache
    folder, keyed by the workspace's real path. Deleting `.harness` mid-run, or the cache,
    takes one of them away, never both, so a second run still cannot get in."""

    def __init__(self, path: Path, outside: Path | None = None):
        self.path = path
        self.outside = outside
        self._held: list[FileLock] = []

    def _paths(self) -> list[Path]:
        return [p for p in (self.outside, self.path) if p is not None]

    def acquire(self) -> None:
        path = None
        try:
            for path in self._paths():
                if path is self.outside and not _ensure_folder(path.parent):
                    continue  # no cache folder to be had: the lock in .harness still holds
                # `status` and `watch` probe the lock by holding it for microseconds; a short
                # patient acquire rides over a probe, while a real run still refuses in ~0.5 s.
                lock = FileLock(path)
                lock.acquire(timeout=ACQUIRE_TIMEOUT_S, poll=0.005)
                self._held.append(lock)
        except LockBusy:
            self.release()
            raise WorkspaceLocked(
                "Another run is already working in this folder. "
                "Wait for it to finish or stop it first.") from None
        except OSError as exc:
            self.release()
            if exc.errno in UNWRITABLE and path is self.path:  # .harness/lock, in the folder
                raise HarnessError(unwritable_sentence(self.path.parent.parent)) from exc
            raise HarnessError(f"Could not lock the workspace: {exc.strerror or exc}.") from exc

    def release(self) -> None:
        while self._held:
            self._held.pop().release()

    def is_held_elsewhere(self) -> bool:
        """True if some process (this one too, through another lock object) holds either
        lock now (used by `status`, `watch` and the window opening a folder)."""
        return any(path.exists() and is_held(path) for path in self._paths())

    def __enter__(self) -> "RunLock":
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _ensure_folder(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return True
    except OSError:
        return False


def outside_lock_path(root: Path | str) -> Path:
    """The run lock kept outside the workspace: in the person's cache folder (or the config
    folder the tests and portable installs pick), named by a hash of the real path."""
    real = os.path.normcase(os.path.realpath(Path(root).expanduser()))
    return locks_folder() / f"{path_key(real)}.lock"
