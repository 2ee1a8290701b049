"""The one file lock of the app: an OS lock on an open file, gone when the process dies.

flock(2) on POSIX, a locked first byte (msvcrt) on Windows: the same locks the filelock
package takes, so a copy of the app that still uses it and this one keep each other out.
Written here rather than imported because `decide` and `status` must stay light (filelock
costs a command 15-45 ms to import). flock belongs to an open file, so two lock objects of
one process on one path exclude each other as two processes do.
"""

from __future__ import annotations

import errno
import os
import sys
import time
from pathlib import Path
from types import TracebackType

# what the OS says when someone else holds the lock (EDEADLK: Windows after its own retries)
_CONTENDED = frozenset({errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES, errno.EDEADLK})


class LockBusy(TimeoutError):
    """Someone else held the lock for the whole wait."""


def _try_lock(fd: int) -> bool:
    """Take the lock on the open file without waiting: True if taken, False if someone holds
    it. OSError when the file system cannot lock at all."""
    try:
        if sys.platform == "win32":
            import msvcrt  # noqa: PLC0415 - Windows only

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl  # noqa: PLC0415 - POSIX only

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in _CONTENDED:
            return False
        raise
    return True


def _unlock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt  # noqa: PLC0415 - Windows only

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    else:
        import fcntl  # noqa: PLC0415 - POSIX only

        fcntl.flock(fd, fcntl.LOCK_UN)


class FileLock:
    """The lock on one file, taken with `acquire` (or `with`), let go with `release`.

    Opening the file may raise OSError (a read-only folder, no permission): callers say what
    that means for them. A file system that cannot lock raises OSError from acquire too."""

    def __init__(self, path: Path | str, mode: int = 0o644):
        self.path = Path(path)
        self.mode = mode
        self._fd: int | None = None

    @property
    def is_locked(self) -> bool:
        return self._fd is not None

    def acquire(self, timeout: float, poll: float = 0.005) -> None:
        """Wait up to `timeout` seconds for the lock; LockBusy if it never comes free."""
        if self._fd is not None:
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, self.mode)
        deadline = time.monotonic() + timeout
        try:
            while not _try_lock(fd):
                if time.monotonic() >= deadline:
                    raise LockBusy(str(self.path))
                time.sleep(poll)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            _unlock(fd)
        except OSError:
            pass  # closing the file lets go of the lock all the same
        finally:
            os.close(fd)

    def __enter__(self) -> FileLock:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()


def is_held(path: Path | str) -> bool | None:
    """Whether someone (this process too, through another lock) holds the lock on `path` now:
    found by taking it without waiting and letting go at once. None where this cannot tell
    (the file cannot be opened, or its file system cannot lock)."""
    try:
        fd = os.open(path, (os.O_RDWR if sys.platform == "win32" else os.O_RDONLY)
                     | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        if not _try_lock(fd):
            return True
        _unlock(fd)
        return False
    except OSError:
        return None
    finally:
        os.close(fd)
