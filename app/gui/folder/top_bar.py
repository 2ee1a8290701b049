"""The window's top bar: "Open folder…" with the recent folders, the folder's name (its path
in the tooltip), and the engine chip (engine, model and settings as one control)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QMenu, QToolButton, QWidget

from app.gui.look import icons, look
from app.gui.look.fit_text import FitLabel
from app.gui.engines.engine_picker import EnginePicker

EDGE = 16  # the window's one left (and right) edge: the top bar, the checklist, the run


class ElidedLabel(FitLabel):
    """The folder's name, one line, ended at a word with "…" on a narrow window; its path
    is in the tooltip (and in "Show in folder"), not in the header."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setMinimumWidth(60)

    def set_full_text(self, text: str, tip: str = "") -> None:
        self.setText(text)
        self.set_tip(tip or text)


# The chip's edge in the palette's one border grey (theme.py picks Mid to stand out 3:1).
CHIP_CSS = "QFrame#engineChip { border: 1px solid palette(mid); border-radius: 6px; }"


class TopBar(QWidget):
    open_requested = Signal()        # "Open folder…" pressed
    recent_chosen = Signal(str)      # a recent folder picked from the menu

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        bar = QHBoxLayout(self)
        bar.setContentsMargins(EDGE, 8, EDGE, 8)
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
        self.folder_label.setFont(look.type_font(self.folder_label, "section", semibold=True))
        self.folder_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        # Engine, model and the gear as one control: one edge around all three.
        self.engine_chip = QFrame(self)
        self.engine_chip.setObjectName("engineChip")
        self.engine_chip.setStyleSheet(CHIP_CSS)
        chip = QHBoxLayout(self.engine_chip)
        chip.setContentsMargins(8, 2, 2, 2)
        chip.setSpacing(4)
        self.picker = EnginePicker(self.engine_chip)
        chip.addWidget(self.picker)
        bar.addWidget(self.open_button)
        bar.addSpacing(8)
        bar.addWidget(self.folder_label, 1)
        bar.addWidget(self.engine_chip)

    def add_to_chip(self, widget: QWidget) -> None:
        """The engine's gear goes inside the chip, after the model."""
        chip = self.engine_chip.layout()
        assert chip is not None  # made with its layout in __init__
        chip.addWidget(widget)

    def show_folder(self, folder: Path | None) -> None:
        if folder is None:
            self.folder_label.set_full_text(self.tr("No folder open"))
        else:
            self.folder_label.set_full_text(folder.name or str(folder), str(folder))
        look.set_accessible(self.folder_label, self.tr("Folder: %1").replace(
            "%1", str(folder) if folder else self.tr("none")))

    def show_recent(self, folders: list[str], missing: frozenset[str] | set[str] = frozenset()
                    ) -> None:
        """The recent folders in the arrow's menu; one in `missing` says it was not found."""
        self.recent_menu.clear()
        for folder in folders:
            text = f"{Path(folder).name}  —  {folder}"
            action = self.recent_menu.addAction(
                self.tr("%1 (not found)").replace("%1", text) if folder in missing else text)
            action.triggered.connect(lambda _=False, f=folder: self.recent_chosen.emit(f))
        if not folders:
            self.recent_menu.addAction(self.tr("No recent folders")).setEnabled(False)
