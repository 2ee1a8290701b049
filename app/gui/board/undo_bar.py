"""A transient bar under the checklist: "Task deleted — Undo"."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton


class UndoBar(QFrame):
    """Says which task was deleted and offers Undo for a while (Ctrl+Z works after it hides)."""

    undo_clicked = Signal()
    SHOWN_MS = 10_000

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._label = QLabel(self)
        self._label.setTextFormat(Qt.TextFormat.PlainText)
        self._undo = QPushButton(self.tr("Undo"), self)
        self._undo.setAccessibleName(self.tr("Undo"))
        self._undo.setToolTip(self.tr("Put the deleted task back (Ctrl+Z)"))
        self._undo.clicked.connect(self.undo_clicked)
        self._close = QToolButton(self)
        self._close.setText("×")
        self._close.setAccessibleName(self.tr("Close"))
        self._close.setToolTip(self.tr("Hide this message"))
        self._close.setAutoRaise(True)
        self._close.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 2, 2, 2)
        layout.addWidget(self._label, 1)
        layout.addWidget(self._undo)
        layout.addWidget(self._close)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.SHOWN_MS)
        self._timer.timeout.connect(self.hide)
        self.hide()

    @property
    def text(self) -> str:
        return self._label.text()

    def show_deleted(self, task_text: str) -> None:
        elided = self._label.fontMetrics().elidedText(task_text, Qt.TextElideMode.ElideMiddle, 240)
        self._label.setText(self.tr("Task deleted: “%1”").replace("%1", elided))
        self._label.setAccessibleName(self._label.text())
        self._label.setToolTip(task_text)
        self.show()
        self._timer.start()
