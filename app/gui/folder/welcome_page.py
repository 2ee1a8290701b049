"""What the window shows before a folder is open: what the app does and the one thing to do next."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.gui.look import icons, look


class WelcomePage(QWidget):
    open_folder_requested = Signal()
    demo_requested = Signal()
    recent_requested = Signal(str)   # a recent folder's path
    forget_requested = Signal(str)   # a recent folder's path, to take off the list

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        outer = QHBoxLayout(self)
        column = QWidget(self)
        column.setMaximumWidth(720)  # lines a person can read in one sweep
        outer.addStretch(1)
        outer.addWidget(column, 4)
        outer.addStretch(1)
        layout = QVBoxLayout(column)
        layout.setContentsMargins(24, 48, 24, 48)
        layout.setSpacing(14)
        layout.addStretch(1)
        title = QLabel(self.tr("Put an AI to work on a folder of your files"), self)
        title.setFont(look.scaled_font(title, 1.7, bold=True))
        title.setWordWrap(True)
        text = QLabel(self.tr(
            "Choose a folder of your own: drafts, notes, a small website. Write what you want "
            "done as a checklist, press Run, and watch the AI work through it one task at a "
            "time. It asks you when a decision is yours, and you can see every file it "
            "changed.\n\nDrop a folder anywhere on this window to open it."), self)
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.PlainText)
        self.open_button = QPushButton(self.tr("Open a folder…"), self)
        self.open_button.setDefault(True)
        self.open_button.setMinimumHeight(36)
        self.open_button.setFont(look.scaled_font(self.open_button, 1.1, bold=True))
        look.set_tone(self.open_button, "primary")
        icons.set_icon(self.open_button, "open-folder", QPalette.ColorRole.HighlightedText)
        look.set_accessible(self.open_button, self.tr("Open a folder…"))
        self.open_button.clicked.connect(self.open_folder_requested)
        self.demo_button = QPushButton(self.tr("Try the demo first (a bakery's website, no AI "
                                               "needed)"), self)
        look.set_accessible(self.demo_button, self.demo_button.text())
        self.demo_button.clicked.connect(self.demo_requested)
        self.recent_title = QLabel(self.tr("Recent folders"), self)
        self.recent_title.setFont(look.scaled_font(self.recent_title, 1.0, bold=True))
        self.recent_box = QVBoxLayout()
        for widget in (title, text, self.open_button, self.demo_button, self.recent_title):
            layout.addWidget(widget)
        layout.addLayout(self.recent_box)
        layout.addStretch(2)
        self.set_recent([])

    def set_recent(self, folders: list[str], missing: frozenset[str] | set[str] = frozenset()
                   ) -> None:
        """The recent folders, each a button that opens it; one in `missing` (looked for off
        the UI thread: FolderFlow.show_recent) says it was not found, with a button beside it
        that takes it off the list."""
        focused = self.focusWidget()
        was_in_list = False
        while self.recent_box.count():
            item = self.recent_box.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                was_in_list = was_in_list or (focused is not None and widget.isAncestorOf(focused))
                widget.hide()
                widget.deleteLater()
        for folder in folders[:5]:
            row = QWidget(self)
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            gone = folder in missing
            text = f"{Path(folder).name}  —  {folder}"
            button = QPushButton(self.tr("%1 (not found)").replace("%1", text) if gone else text,
                                 row)
            button.setFlat(True)
            button.setStyleSheet("text-align: left;")
            if gone:
                look.set_tone(button, "muted")
            look.set_accessible(button, (self.tr("Open %1 (not found)") if gone else
                                         self.tr("Open %1")).replace("%1", folder))
            button.clicked.connect(lambda _=False, f=folder: self.recent_requested.emit(f))
            line.addWidget(button, 1)
            if gone:
                remove = QPushButton(self.tr("Remove from the list"), row)
                look.set_accessible(remove, self.tr("Remove %1 from the recent folders")
                                    .replace("%1", folder))
                remove.setToolTip(remove.accessibleName())
                remove.clicked.connect(lambda _=False, f=folder: self.forget_requested.emit(f))
                line.addWidget(remove)
            self.recent_box.addWidget(row)
        self.recent_title.setVisible(bool(folders))
        if was_in_list:  # a folder taken off the list by keyboard: the keyboard stays near
            first = self.recent_box.itemAt(0)
            kept = first.widget() if first is not None else None
            target = kept.findChild(QPushButton) if kept is not None else None
            (target or self.open_button).setFocus()
