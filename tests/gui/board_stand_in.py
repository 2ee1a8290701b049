"""A minimal stand-in for app.gui.board_view.BoardView, used only until the real checklist
lands on main: same constructor, methods and signals, a read-only list of the board's tasks."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, Signal
from PySide6.QtWidgets import QListWidget, QListWidgetItem

from app.core.board import Board, BoardError


class BoardView(QListWidget):
    decision_requested = Signal(object)
    counts_changed = Signal(int, int)
    board_missing = Signal(object)
    error_raised = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.path: Path | None = None
        self.current: str | None = None
        self.run_active = False
        self.tasks = []
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(lambda _p: self._reload())
        self.itemActivated.connect(self._on_activated)

    def set_board(self, path):
        if self._watcher.files():
            self._watcher.removePaths(self._watcher.files())
        self.path = Path(path) if path else None
        self._reload()

    def set_current_task(self, text):
        self.current = text
        self._render()

    def set_run_active(self, active):
        self.run_active = active

    def _reload(self):
        self.clear()
        self.tasks = []
        if self.path is None:
            return
        if not self.path.is_file():
            self.board_missing.emit(self.path)
            return
        if str(self.path) not in self._watcher.files():
            self._watcher.addPath(str(self.path))
        try:
            board = Board.load(self.path)
        except BoardError as exc:
            self.error_raised.emit(str(exc))
            return
        self.tasks = board.tasks
        self._render()
        self.counts_changed.emit(*board.counts())

    def _render(self):
        self.clear()
        for task in self.tasks:
            mark = "☑" if task.checked else ("◆" if task.is_human else "☐")
            now = "  ◀ now" if task.text == self.current else ""
            self.addItem(QListWidgetItem(f"{mark} {task.text}{now}"))

    def _on_activated(self, item):
        task = self.tasks[self.row(item)]
        if task.is_human and not task.checked:
            self.decision_requested.emit(task)
