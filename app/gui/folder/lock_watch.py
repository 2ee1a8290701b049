"""A folder whose run goes on elsewhere (another window, the terminal): while the window says
so, look every two seconds, off the UI thread, whether that run still holds the folder, and
say `released` once it does not, so the window reads the folder again (its rounds, where that
run left off) instead of saying "running elsewhere" after it has ended.

One look is a stat and a try-lock of the run's lock files (app/core/workspace/run_lock.py):
cheap enough to repeat for as long as the other run takes."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from app.gui.background import run_for


def _held_elsewhere(folder: Path) -> bool:
    """Whether a run holds `folder` now (off the UI thread: a network drive can hang)."""
    from app.core.workspace.workspace import Workspace  # noqa: PLC0415 - window start-up (bench/startup.py)

    try:
        return Workspace(folder).lock().is_held_elsewhere()
    except OSError:
        return False  # gone or unreadable: reading it again says what it is now


class LockWatch(QObject):
    """Looks at one folder's run lock until it is released, or `stop`, or `own_run()` says
    this window's own run has begun (then the lock is its own, and the run elsewhere over)."""

    released = Signal(object)  # the Path of the folder no run holds any more

    INTERVAL_MS = 2000

    def __init__(self, parent: QObject | None = None,
                 own_run: Callable[[], bool] = lambda: False):
        super().__init__(parent)
        self._own_run = own_run
        self._folder: Path | None = None
        self._looking = False  # one look at a time, however slow the disk
        self._timer = QTimer(self)
        self._timer.setInterval(self.INTERVAL_MS)
        self._timer.timeout.connect(self._look)

    @property
    def folder(self) -> Path | None:
        """The folder being watched, or None."""
        return self._folder

    def watch(self, folder: Path) -> None:
        self._folder = Path(folder)
        self._timer.start()

    def stop(self) -> None:
        self._folder = None
        self._timer.stop()

    def _look(self) -> None:
        folder = self._folder
        if folder is None or self._looking:
            return
        if self._own_run():
            self.stop()
            return
        self._looking = True
        run_for(self, lambda: _held_elsewhere(folder), lambda held: self._seen(folder, held),
                lambda _exc: self._seen(folder, True))

    def _seen(self, folder: Path, held: bool) -> None:
        self._looking = False
        if held or folder != self._folder:
            return  # still running there, or another folder is watched (or none) now
        self.stop()
        self.released.emit(folder)
