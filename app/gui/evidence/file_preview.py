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


def read_for_preview(root: Path, name: str):
    """The file's text, or (a document or a picture) a renderings.Shown."""
    from app.core.sandbox import Sandbox

    path = Sandbox(root).resolve_read(name)  # raises PathRefused with a sentence
    if not path.is_file():
        raise FileNotFoundError(name)
    from app.gui.evidence.renderings import kind, show_file

    if kind(name) != "file":  # a document as its rendering, a picture as a picture
        return show_file(path, name)
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

    def _on_read(self, text) -> None:
        if not isinstance(text, str):  # a document or a picture (renderings.Shown)
            self._on_shown(text)
            return
        self.note.setText(self.tr("A copy for reading; changes here are not saved."))
        self.text.setPlainText(text)
        self.text.setFocus()

    def _on_shown(self, shown) -> None:
        if shown.problem:
            self.note.setText(self.tr("%1 cannot be shown: %2").replace("%1", self.name).replace(
                "%2", shown.detail or (self.tr("it is too large") if shown.problem == "too_large"
                                       else self.tr("it could not be opened"))))
            self.text.hide()
            return
        scan = shown.pages[0] if shown.pages and not (shown.text or "").strip() else None
        if scan is None and shown.text is not None:
            self.note.setText(self.tr("A document, shown as text the way the AI reads it; "
                                      "changes here are not saved."))
            self.text.setPlainText(shown.text)
            self.text.setFocus()
            return
        from PySide6.QtGui import QPixmap

        data, (width, height) = (scan.picture, scan.size) if scan else (shown.picture,
                                                                         shown.picture_size)
        picture = QLabel(self)
        pixmap = QPixmap()
        pixmap.loadFromData(data, "PNG")
        picture.setPixmap(pixmap)
        picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        picture.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        look.set_accessible(picture, self.tr("Picture %1, %2 × %3 pixels").replace(
            "%1", self.name).replace("%2", str(width)).replace("%3", str(height)))
        if scan is not None:
            self.note.setText(self.tr("A scanned PDF with no text the AI can read: page %1 "
                                      "shown as a picture.").replace("%1", str(scan.page)))
        else:
            self.note.setText(self.tr("A picture, %1 × %2 pixels.").replace("%1", str(width))
                              .replace("%2", str(height)))
        self.layout().replaceWidget(self.text, picture)
        self.text.hide()
        picture.setFocus()

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
