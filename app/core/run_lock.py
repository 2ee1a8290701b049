"""The run lock: one run per workspace, and how `status` and `watch` see whether one is on.

filelock takes the lock. Seeing whether someone holds it is asked far more often (every
`status`, the window opening a folder, `watch` five times a second) and needs no
filelock where the OS can tell directly: filelock costs a command 15-45 ms to import, more
than the rest of `status` (issue 23). On POSIX filelock holds the lock with flock(2), so a
non-blocking flock of our own on the same file answers the same question; where that
cannot tell (Windows, a file system without flock, where filelock falls back to a lock
of its own kind), filelock itself is asked.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.errors import HarnessError, WorkspaceLocked
from app.core.files import UNWRITABLE, unwritable_sentence

if TYPE_CHECKING:
    from filelock import BaseFileLock

ACQUIRE_TIMEOUT_S = 0.5
_CONTENDED = frozenset({errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES})


class RunLock:
    """One run per workspace, held through OS file locks that die with the process.

    Two locks, both taken: `.harness/lock` (where PRODUCT.md says, and what a copy of the
    app without this one looks for) and one outside the workspace, in the person's cache
    folder, keyed by the workspace's real path. Deleting `.harness` mid-run, or the cache,
    takes one of them away, never both, so a second run still cannot get in."""

    def __init__(self, path: Path, outside: Path | None = None):
        self.path = path
        self.outside = outside
        self._locks: list[BaseFileLock] | None = None  # filelock's, made when first taken
        self._held: list[BaseFileLock] = []

    def _paths(self) -> list[Path]:
        return [p for p in (self.outside, self.path) if p is not None]

    def acquire(self) -> None:
        from filelock import FileLock, Timeout

        if self._locks is None:
            self._locks = [FileLock(str(p), timeout=0) for p in self._paths()]
        path = None
        try:
            for path, lock in zip(self._paths(), self._locks):
                if path is self.outside and not _ensure_folder(path.parent):
                    continue  # no cache folder to be had: the lock in .harness still holds
                # `status` and `watch` probe the lock by holding it for microseconds; a short
                # patient acquire rides over a probe, while a real run still refuses in ~0.5 s.
                lock.acquire(timeout=ACQUIRE_TIMEOUT_S, poll_interval=0.005)
                self._held.append(lock)
        except Timeout:
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
        for path in self._paths():
            if not path.exists():
                continue
            held = flock_held(path)
            if held is None:
                held = _filelock_held(path)
            if held:
                return True
        return False

    def __enter__(self) -> "RunLock":
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def flock_held(path: Path) -> bool | None:
    """Whether an flock(2) is held on `path`, as filelock holds it on POSIX: found by
    taking one ourselves without waiting, and letting go at once. None where this cannot
    tell (no flock here, a file system without it, a file we may not open)."""
    try:
        import fcntl
    except ImportError:  # Windows: filelock locks a byte with msvcrt there
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        return True if exc.errno in _CONTENDED else None
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)


def _filelock_held(path: Path) -> bool:
    from filelock import FileLock, Timeout

    probe = FileLock(str(path), timeout=0)
    try:
        probe.acquire(timeout=0)
    except Timeout:
        return True
    except OSError:
        return False
    probe.release()
    return False


def _ensure_folder(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        return True
    except OSError:
        return False


def outside_lock_path(root: Path | str) -> Path:
    """The run lock kept outside the workspace: in the person's cache folder (or the config
    folder the tests and portable installs pick), named by a hash of the real path."""
    from app.core.board_lock import path_key
    from app.core.places import locks_folder

    real = os.path.normcase(os.path.realpath(Path(root).expanduser()))
    return locks_folder() / f"{path_key(real)}.lock"
