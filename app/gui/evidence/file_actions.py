""""Open" and "Show in folder" for the files a round changed: two buttons under the list and
the same in its context menu (right click, the menu key or Shift+F10), where other parts of
the window add their own items ("Protect this file"). Opening runs off the UI thread
(app.gui.file_opener); a failure is said in a sentence under the buttons.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QMenu, QPushButton, QVBoxLayout, \
    QWidget

from app.gui import file_opener
from app.gui.look import look

# A row's file: its path in the folder and whether the round deleted it, or None.
PathAt = Callable[[int], "tuple[str, bool] | None"]
MenuItem = Callable[[QMenu, str], None]  # adds an item to the menu for a file (its path)


class FileActions(QObject):
    menu_shown = Signal(object)  # the QMenu, once its items are in

    def __init__(self, file_list: QListWidget, root: Path, path_at: PathAt, parent: QWidget):
        super().__init__(parent)
        self.file_list, self.root, self.path_at = file_list, root, path_at
        self.extra_items: list[MenuItem] = []
        self.widget = QWidget(parent)
        column = QVBoxLayout(self.widget)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(file_list, 1)
        row = QHBoxLayout()
        self.open_button = QPushButton(self.tr("&Open"), self.widget)
        self.open_button.setToolTip(self.tr("Open the file in the program your computer uses "
                                            "for it"))
        self.show_button = QPushButton(self.tr("Show in &folder"), self.widget)
        self.show_button.setToolTip(self.tr("Show where the file is on your computer"))
        for button in (self.open_button, self.show_button):
            look.set_accessible(button, button.text().replace("&", ""), button.toolTip())
            button.setEnabled(False)
            row.addWidget(button)
        row.addStretch(1)
        column.addLayout(row)
        self.problem = QLabel(self.widget)
        self.problem.setWordWrap(True)
        self.problem.setTextFormat(Qt.TextFormat.PlainText)
        look.set_tone(self.problem, "attention")
        self.problem.hide()
        column.addWidget(self.problem)
        self.open_button.clicked.connect(lambda: self.open_row(file_list.currentRow()))
        self.show_button.clicked.connect(lambda: self.show_row(file_list.currentRow()))
        file_list.currentRowChanged.connect(self.update_buttons)
        file_list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        file_list.customContextMenuRequested.connect(self._menu)

    def update_buttons(self, row: int) -> None:
        found = self.path_at(row)
        self.open_button.setEnabled(found is not None and not found[1])
        self.open_button.setToolTip(self.tr("The round deleted this file: it cannot be opened")
                                    if found is not None and found[1] else
                                    self.tr("Open the file in the program your computer uses "
                                            "for it"))
        self.show_button.setEnabled(found is not None)

    def open_row(self, row: int) -> None:
        found = self.path_at(row)
        if found is not None:
            self.problem.hide()
            file_opener.open_file(self, self.root / found[0], self.say)

    def show_row(self, row: int) -> None:
        found = self.path_at(row)
        if found is not None:
            self.problem.hide()
            file_opener.show_in_folder(self, self.root / found[0], self.say)

    def say(self, sentence: str) -> None:
        self.problem.setText(sentence)
        self.problem.show()
        look.announce(self.problem, sentence, assertive=True)

    def _menu(self, point) -> None:
        item = self.file_list.itemAt(point) or self.file_list.currentItem()
        row = self.file_list.row(item) if item is not None else -1
        found = self.path_at(row)
        if found is None:
            return
        box = QMenu(self.file_list)
        opening = box.addAction(self.tr("Open"))
        opening.setEnabled(not found[1])
        opening.triggered.connect(lambda: self.open_row(row))
        box.addAction(self.tr("Show in folder")).triggered.connect(lambda: self.show_row(row))
        if self.extra_items:
            box.addSeparator()
        for add in self.extra_items:
            add(box, found[0])
        box.popup(self.file_list.viewport().mapToGlobal(point))
        self.menu_shown.emit(box)
