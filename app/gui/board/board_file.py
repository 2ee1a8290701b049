"""One TASKS.md as the checklist sees it: ordered writes and reads off the UI thread, outside edits noticed."""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from app.core.board.board import Board, BoardError, StaleTask
from app.core.workspace.files import DiskWriteError, FileInUse, ReadOnlyFile
from app.gui.background import SerialQueue

_UNCHANGED = object()  # a read that found what we last delivered
_ABSENT = object()     # what we last delivered: there was no TASKS.md
_GONE = object()       # a read's or what we last delivered: the folder itself is gone


def _load(path: Path) -> Board | BoardError | None:
    """The board as it is now, None when there is no TASKS.md, or the reason it can't be read."""
    try:
        return Board.load(path)  # waits for a save in progress to finish (a stable read)
    except BoardError as exc:
        return None if not path.exists() else exc


class BoardFile(QObject):
    """Writes and reads of one board, one at a time and in order, on a pool thread.

    Every write re-reads the board; a read is delivered only once no write is waiting,
    because until then the list is ahead of the file (it shows the person's edits at once).
    Outside edits are noticed by a watcher on the file and its folder (editors save by
    rename, which ends the watch on the old file), debounced, and delivered only when the
    bytes differ from the ones last delivered, so our own writes do not echo.
    """

    board_read = Signal(object)      # Board: the file as it is now
    board_missing = Signal(object)   # Path: there is no TASKS.md (its folder is there)
    folder_gone = Signal(object)     # Path: the TASKS.md's folder itself is gone
    read_failed = Signal(object)     # BoardError: the file is there but can't be read
    write_failed = Signal(object)    # the exception a write raised; a refresh follows

    DEBOUNCE_MS = 250

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._path: Path | None = None
        self._queue = SerialQueue()
        self._generation = 0       # bumps on open: results for an earlier board are dropped
        self._writes_waiting = 0
        self._known: bytes | object | None = None  # bytes or _ABSENT once delivered
        alive = self._alive = [True]  # the lambda must not hold self: it outlives the C++ side
        self.destroyed.connect(lambda *_: alive.__setitem__(0, False))
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._on_watched_changed)
        self._watcher.directoryChanged.connect(self._on_watched_changed)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(self.DEBOUNCE_MS)
        self._debounce.timeout.connect(self.refresh)

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def known_bytes(self) -> bytes:
        """The board's bytes as last delivered (b"" when there is none)."""
        return self._known if isinstance(self._known, bytes) else b""

    @property
    def writes_waiting(self) -> bool:
        return self._writes_waiting > 0

    @property
    def idle(self) -> bool:
        return self._queue.idle and not self._debounce.isActive()

    def open(self, path: Path | None, read: Board | None = None) -> None:
        """Show the board at `path`: read off the UI thread, or `read`, the board at `path`
        already read off it (a folder's first look: no second read before the checklist
        shows), checked again in the background for a change since."""
        self._generation += 1
        self._path = Path(path) if path is not None else None
        self._writes_waiting = 0
        self._known = None
        self._debounce.stop()
        watched = self._watcher.files() + self._watcher.directories()
        if watched:
            self._watcher.removePaths(watched)
        if self._path is not None:
            self._watcher.addPath(str(self._path.parent))
            if read is None:
                self.refresh(force=True)
            else:  # on the next turn, as a read's result comes: after the caller's changes
                generation = self._generation

                def deliver() -> None:
                    if self._current(generation):
                        self._deliver(read)
                        self.refresh()  # delivers only what changed since `read` was read

                QTimer.singleShot(0, deliver)

    def refresh(self, force: bool = False) -> None:
        """Read the board again (off the UI thread); deliver it if it changed, or if `force`."""
        path, generation = self._path, self._generation
        if path is None:
            return
        known = None if force else self._known

        def read() -> Any:
            if not path.parent.is_dir():  # moved or deleted: never "no task list yet"
                return _UNCHANGED if known is _GONE else _GONE
            if known is _ABSENT and not path.exists():
                return _UNCHANGED
            if isinstance(known, bytes):
                try:
                    if path.read_bytes() == known:
                        return _UNCHANGED
                except OSError:
                    pass  # gone or locked for a moment: the stable read below sorts it out
            return _load(path)

        def done(outcome: Any) -> None:
            if self._current(generation):
                self._deliver(outcome)

        self._queue.submit(read, done)  # anything but a BoardError is a bug: the crash handler

    def write(self, change: Callable[[Path], Any],
              on_done: Callable[[Any], None] | None = None,
              on_error: Callable[[BaseException], None] | None = None) -> None:
        """Run `change(path)` (a board verb) after the writes before it, then re-read.
        A failure calls `on_error` and emits write_failed; the board is then read again."""
        path, generation = self._path, self._generation
        if path is None:
            return
        self._writes_waiting += 1

        def work() -> tuple[Any, Any]:
            result = change(path)
            return result, _load(path)

        def done(value: tuple[Any, Any]) -> None:
            if not self._current(generation):
                return
            self._writes_waiting -= 1
            result, outcome = value
            if on_done is not None:
                on_done(result)
            self._deliver(outcome)

        def failed(exc: BaseException) -> None:
            if not self._current(generation):
                return
            self._writes_waiting -= 1
            if on_error is not None:
                on_error(exc)
            self.write_failed.emit(exc)
            self.refresh(force=True)  # show the board as it really is

        self._queue.submit(work, done, failed)

    def failure_sentence(self, exc: BaseException) -> str:
        """What a failed write means for the person, in one sentence."""
        name = self._path.name if self._path else "TASKS.md"
        if isinstance(exc, StaleTask):
            return self.tr("That task was changed in another program, so your change was not "
                           "saved. The list now shows %1 as it is.").replace("%1", name)
        if isinstance(exc, ReadOnlyFile):
            return self.tr("%1 is read-only, so your change was not saved. Allow changes to "
                           "it, then try again.").replace("%1", name)
        if isinstance(exc, FileInUse):
            return self.tr("%1 is open and locked in another program, so your change was not "
                           "saved. Close it there, then try again.").replace("%1", name)
        if isinstance(exc, DiskWriteError):
            return (self.tr("Could not save %1: %2. Your change was not made.")
                    .replace("%1", name).replace("%2", self._why(exc.cause)))
        if isinstance(exc, BoardError):
            return str(exc)  # the core's own sentence (a task that would be hidden, ...)
        return self.tr("Your change to %1 could not be saved.").replace("%1", name)

    def _why(self, cause: OSError) -> str:
        """Why the disk refused, in the window's words for the common causes (the system's
        own, English, sentence otherwise)."""
        words = {
            errno.ENOSPC: self.tr("the disk is full"),
            getattr(errno, "EDQUOT", errno.ENOSPC): self.tr("the disk is full"),  # not on Windows
            errno.EROFS: self.tr("the disk or folder is read-only"),
            errno.EACCES: self.tr("you may not change files in this folder"),
            errno.EPERM: self.tr("you may not change files in this folder"),
        }.get(cause.errno or 0)
        return words or cause.strerror or str(cause)

    def _current(self, generation: int) -> bool:
        # A write still finishes after its list is closed (the edit is saved); only its
        # result, meant for that list or an earlier board, is dropped.
        return self._alive[0] and generation == self._generation

    def _deliver(self, outcome: Any) -> None:
        if outcome is _UNCHANGED or self._writes_waiting:
            return  # nothing new, or a later write's read will deliver the newer board
        if isinstance(outcome, Board):
            self._known = outcome.to_bytes()
            if str(self._path) not in self._watcher.files():
                self._watcher.addPath(str(self._path))  # again, after a save by rename
            self.board_read.emit(outcome)
        elif outcome is None:
            self._known = _ABSENT
            self.board_missing.emit(self._path)
        elif outcome is _GONE:
            self._known = _GONE
            self.folder_gone.emit(self._path)
        else:
            self.read_failed.emit(outcome)

    def _on_watched_changed(self, _path: str) -> None:
        self._debounce.start()  # an editor's save is several events; read once they settle
