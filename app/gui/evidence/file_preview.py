"""A read-only look at one file of the workspace (a decision's evidence), read off the UI thread.

The path comes from the AI, so it goes through the core's sandbox: a file outside the
workspace (or inside .harness/) is refused with a sentence, never shown.
"""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QPixmap
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QPushButton,
                               QVBoxLayout)

from app.core.tools.sandbox import Sandbox
from app.gui.background import run_for
from app.gui.evidence.markdown_view import (MAX_RENDERED_CHARS, MarkdownBrowser, is_markdown,
                                            markdown_html)
from app.gui.evidence.renderings import kind, show_file
from app.gui.evidence.screen_fit import resize_within_screen
from app.gui.look import look

MAX_PREVIEW_BYTES = 400_000
_FILE_LIKE = re.compile(r"[^\n]{1,200}\.[A-Za-z0-9]{1,6}")


def looks_like_file(item: str) -> bool:
    """Evidence that names a file ("notes/options.md"), not a sentence about the run."""
    item = item.strip()
    return bool(_FILE_LIKE.fullmatch(item)) and not item.endswith(".") and item.count(" ") < 4


def read_for_preview(root: Path, name: str):
    """The file's text, or (a document or a picture) a renderings.Shown."""
    path = Sandbox(root).resolve_read(name)  # raises PathRefused with a sentence
    if not path.is_file():
        raise FileNotFoundError(name)

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
        resize_within_screen(self, 640, 520)
        layout = QVBoxLayout(self)
        self.note = QLabel(self.tr("Reading %1…").replace("%1", name), self)
        self.note.setWordWrap(True)
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        look.set_accessible(self.text, self.tr("Contents of %1").replace("%1", name))

        # Markdown (a .md file, or a document's text) is shown as it reads; its source, the
        # text the AI wrote or reads, is one click away.
        self.rendered = MarkdownBrowser(self)
        look.set_accessible(self.rendered, self.tr("%1, formatted").replace("%1", name))
        self.rendered.hide()
        self.source_toggle = QPushButton(self.tr("Show source"), self)
        self.source_toggle.setCheckable(True)
        self.source_toggle.setToolTip(self.tr("Switch between the formatted view and the "
                                              "file's plain text, marks and all"))
        look.set_accessible(self.source_toggle, self.tr("Show source"))
        self.source_toggle.toggled.connect(self._on_source_toggled)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.source_toggle, QDialogButtonBox.ButtonRole.ActionRole)
        self.source_toggle.hide()  # until there is a formatted view to switch from
        buttons.rejected.connect(self.reject)
        layout.addWidget(self.note)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.rendered, 1)
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

        if is_markdown(self.name):
            self._render(text)

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
            self._render(shown.text)  # a document's text is Markdown: headings, tables
            return

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
        layout = self.layout()
        assert layout is not None  # made with its layout in __init__
        layout.replaceWidget(self.text, picture)
        self.text.hide()
        picture.setFocus()

    def _render(self, text: str) -> None:
        """Show `text` formatted (made off the UI thread), with "Show source" beside Close."""
        if len(text) > MAX_RENDERED_CHARS:
            return  # too long to format quickly: its text, as it is
        rule = look.css(look.muted_colour())
        run_for(self, lambda: markdown_html(text, rule, rule), self._on_rendered, lambda _e: None)

    def _on_rendered(self, html: str) -> None:
        self.rendered.setHtml(html)
        self.source_toggle.show()
        self._on_source_toggled(self.source_toggle.isChecked())

    def _on_source_toggled(self, source: bool) -> None:
        had_focus = self.text.hasFocus() or self.rendered.hasFocus()
        self.text.setVisible(source)
        self.rendered.setVisible(not source)
        self.source_toggle.setText(self.tr("Show formatted") if source else
                                   self.tr("Show source"))
        look.set_accessible(self.source_toggle, self.source_toggle.text())
        if had_focus:
            (self.text if source else self.rendered).setFocus()

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
