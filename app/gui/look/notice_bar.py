"""A one-line notice inside the window: a sentence, an optional action button, and a close button.

Used instead of message boxes for things that need no answer now (a folder that could not
be opened, a board that is missing, a summary that was saved), so nothing blocks the person.
A passing notice (saved, added, undone) leaves by itself after PASSING_MS; one that asks for
something stays until it is acted on or closed. Its sentence has two lines at most, ended at a
word with "…" when longer (read whole in its tooltip and by a screen reader).
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QToolButton, QWidget

from app.gui.look import look
from app.gui.look.fit_text import FitLabel

PASSING_MS = 8000  # long enough to read two lines twice; short enough not to stay as news


class NoticeBar(QFrame):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("notice")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 4, 4)
        self.text = FitLabel(self, lines=2)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.action = QPushButton(self)
        self.close_button = QToolButton(self)
        self.close_button.setText("×")
        self.close_button.setAutoRaise(True)
        look.set_accessible(self.close_button, self.tr("Close this note"))
        self.close_button.setToolTip(self.tr("Close this note"))
        self.close_button.clicked.connect(self.hide)
        row.addWidget(self.text, 1)
        row.addWidget(self.action)
        row.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self._callback: Callable[[], None] | None = None
        self._leave = QTimer(self)
        self._leave.setSingleShot(True)
        self._leave.timeout.connect(self.hide)
        self.action.clicked.connect(self._on_action_clicked)
        self.hide()

    def show_notice(self, text: str, action: str = "", callback: Callable[[], None] | None = None,
                    tone: str = "normal", passing: bool = False) -> None:
        """Show `text` (with `action` doing `callback`); `passing`: it leaves by itself."""
        self.text.setText(text)
        look.set_tone(self.text, "attention" if tone == "attention" else None)
        self._callback = callback
        self.action.setText(action)
        look.set_accessible(self.action, action)
        self.action.setVisible(bool(action and callback))
        self.setAccessibleName(text)
        self.show()
        look.announce(self, text)
        if passing:
            self._leave.start(PASSING_MS)
        else:
            self._leave.stop()

    def _on_action_clicked(self) -> None:
        callback = self._callback
        if callback is not None:
            callback()
