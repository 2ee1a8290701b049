"""A read-only look at one file of the workspace (a decision's evidence), read off the UI thread.

The path comes from the AI, so it goes through the core's sandbox: a file outside the
workspace (or inside .harness/) is refused with a sentence, never shown.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout

from app.gui.look import look
from app.gui.background import run_for

MAX_PREVIEW_BYTES = 400_000
_FILE_LIKE = re.compile(r"[^\n]{1,200}\.[A-Za-z0-9]{1,6}")


def looks_like_file(item: str) -> bool:
    """Evidence that names a file ("notes/options.md"), not a sentence about the run."""
    item = item.strip()
    return bool(_FILE_LIKE.fullmatch(item)) and not item.endswith(".") and item.count(" ") < 4


def read_for_preview(root: Path, name: str) -> str:
    from app.core.sandbox import Sandbox

    path = Sandbox(root).resolve_read(name)  # raises PathRefused with a sentence
    if not path.is_file():
        raise FileNotFoundError(name)
    with open(path, "rb") as fh:
        data = fh.read(MAX_PREVIEW_BYTES + 1)
    if b"\x00" in data[:4096]:
        raise ValueError("binary")
    text = data[:MAX_PREVIEW_BYTES].decode("utf-8", errors="replace")
    if len(data) > MAX_PREVIEW_BYTES:
        text += "\n…"
    return text


class FilePreviewDialog(QDialog):
    def __init__(self, root: Path, name: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle(name)
        self.resize(640, 520)
        layout = QVBoxLayout(self)
        self.note = QLabel(self.tr("Reading %1…").replace("%1", name), self)
        self.note.setWordWrap(True)
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        look.set_accessible(self.text, self.tr("Contents of %1").replace("%1", name))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(self.note)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.name = name
        run_for(self, lambda: read_for_preview(Path(root), name), self._on_read,
                self._on_failed)

    def _on_read(self, text: str) -> None:
        self.note.setText(self.tr("A copy for reading; changes here are not saved."))
        self.text.setPlainText(text)
        self.text.setFocus()

    def _on_failed(self, exc: BaseException) -> None:
        if isinstance(exc, FileNotFoundError):
            words = self.tr("%1 does not exist (any more).").replace("%1", self.name)
        elif isinstance(exc, ValueError):
            words = self.tr("%1 is not a text file, so it cannot be shown here.").replace(
                "%1", self.name)
        else:
            words = self.tr("%1 cannot be shown: %2").replace("%1", self.name).replace(
                "%2", getattr(exc, "message", None) or str(exc))
        self.note.setText(words)
        self.text.hide()
