"""The window's top bar: "Open folder…" with the recent folders, the folder shown, the engine."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMenu, QSizePolicy, QToolButton, QWidget

from app.gui.look import icons, look
from app.gui.engines.engine_picker import EnginePicker


class ElidedLabel(QLabel):
    """A one-line label that gives way on a narrow window: the text is cut in the middle
    with "…" (the folder's name stays readable) and shown whole in its tooltip."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(60)

    def set_full_text(self, text: str) -> None:
        self._full = text
        self.setToolTip(text)
        self._elide()

    def full_text(self) -> str:
        return self._full

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = max(0, self.contentsRect().width())
        self.setText(self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideMiddle,
                                                   width))


class TopBar(QWidget):
    open_requested = Signal()        # "Open folder…" pressed
    recent_chosen = Signal(str)      # a recent folder picked from the menu

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        bar = QHBoxLayout(self)
        bar.setContentsMargins(10, 6, 10, 6)
        self.open_button = QToolButton(self)
        self.open_button.setText(self.tr("Open folder…"))
        self.open_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.open_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        icons.set_icon(self.open_button, "open-folder")
        look.set_accessible(self.open_button, self.tr("Open folder…"))
        self.open_button.setToolTip(self.tr("Open a folder (Ctrl+O). The arrow lists recent "
                                            "folders. You can also drop a folder on the window."))
        self.open_button.clicked.connect(self.open_requested)
        self.recent_menu = QMenu(self.tr("Open &recent"), self)
        self.open_button.setMenu(self.recent_menu)
        self.folder_label = ElidedLabel(self)
        self.folder_label.setTextFormat(Qt.TextFormat.PlainText)
        self.folder_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.picker = EnginePicker(self)
        bar.addWidget(self.open_button)
        bar.addSpacing(10)
        bar.addWidget(self.folder_label, 1)
        bar.addWidget(self.picker)

    def show_folder(self, folder: Path | None) -> None:
        if folder is None:
            self.folder_label.set_full_text(self.tr("No folder open"))
        else:
            self.folder_label.set_full_text(f"{folder.name}   ·   {folder}")
        look.set_accessible(self.folder_label, self.tr("Folder: %1").replace(
            "%1", str(folder) if folder else self.tr("none")))

    def show_recent(self, folders: list[str]) -> None:
        self.recent_menu.clear()
        for folder in folders:
            action = self.recent_menu.addAction(f"{Path(folder).name}  —  {folder}")
            action.triggered.connect(lambda _=False, f=folder: self.recent_chosen.emit(f))
        if not folders:
            self.recent_menu.addAction(self.tr("No recent folders")).setEnabled(False)
