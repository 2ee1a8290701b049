"""What the checklist shows when the open folder itself is gone (moved or deleted while it was
open): that, in one sentence, and the one next step, opening another folder. Never a button
that would make the folder again."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.gui.look import look


def gone_sentence() -> str:
    return QCoreApplication.translate("GonePage", "This folder is gone: it was moved or deleted.")


class GonePage(QWidget):
    """The sentence and "Open another folder…" (`open_button`, which the board view passes on)."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        self.title = QLabel(gone_sentence(), self)
        self.title.setWordWrap(True)
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title.setFont(look.type_font(self.title, "section", semibold=True))
        self.open_button = QPushButton(QCoreApplication.translate(
            "GonePage", "Open another folder…"), self)
        self.open_button.setAutoDefault(True)
        self.open_button.setAccessibleName(self.open_button.text())
        self.open_button.setToolTip(QCoreApplication.translate(
            "GonePage", "Choose a folder to work in. This one is taken off your recent "
            "folders."))
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.open_button)
        row.addStretch(1)
        layout.addWidget(self.title)
        layout.addLayout(row)
        layout.addStretch(2)
        self.setAccessibleName(self.title.text())
