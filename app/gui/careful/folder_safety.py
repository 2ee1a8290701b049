"""Settings' "This folder" group: careful mode, the files and folders the AI may never
change, and whether the folder's tasks may look things up on the web unless a task says
otherwise, saved to the folder's own settings when Settings is saved."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtWidgets import (QCheckBox, QFileDialog, QGroupBox, QHBoxLayout, QLabel,
                               QListWidget, QPushButton, QVBoxLayout, QWidget)

from app.core.workspace.folder_settings import FolderSettings, normalise_entry
from app.gui.look import look


def relative_inside(root: Path, chosen: str) -> str | None:
    """`chosen` as a path inside `root`, or None when it is outside (or is the folder's
    harness data)."""
    try:
        rel = Path(os.path.realpath(chosen)).relative_to(os.path.realpath(root))
    except ValueError:
        return None
    entry = normalise_entry(rel.as_posix())
    return None if entry.split("/")[0] in (".harness", ".git") else entry


class FolderSafetyGroup(QGroupBox):
    def __init__(self, root: Path, settings: FolderSettings, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("folderSafety")
        self.setTitle(self.tr("This folder: %1").replace("%1", root.name))
        self.root = root
        column = QVBoxLayout(self)
        self.careful = QCheckBox(self.tr("&Careful mode: ask me before the AI changes or "
                                         "deletes a file that was already here"), self)
        self.careful.setChecked(settings.careful)
        look.set_accessible(self.careful, self.careful.text().replace("&", ""))
        self.web = QCheckBox(self.tr("&Tasks in this folder may look things up on the web"), self)
        self.web.setObjectName("folderWeb")
        self.web.setChecked(settings.web)
        self.web.setToolTip(self.tr("When this is on, the AI service may search the web and "
                                    "read pages for every task in this folder, unless a task "
                                    "says otherwise: each task can still say yes or no in its "
                                    "details. Searches cost money and count in the budget."))
        look.set_accessible(self.web, self.web.text().replace("&", ""), self.web.toolTip())
        note = QLabel(self.tr("Files and folders the AI may never change, careful mode or "
                              "not (nor add new files inside these folders):"), self)
        note.setWordWrap(True)
        self.protected = QListWidget(self)
        self.protected.setObjectName("protectedPaths")
        self.protected.addItems(settings.protected)
        self.protected.setMaximumHeight(110)
        look.set_accessible(self.protected, self.tr("Protected files and folders"))
        self.add_file = QPushButton(self.tr("Protect a &file…"), self)
        self.add_folder = QPushButton(self.tr("Protect &a folder…"), self)
        self.remove = QPushButton(self.tr("Remo&ve protection"), self)
        for button in (self.add_file, self.add_folder, self.remove):
            look.set_accessible(button, button.text().replace("&", ""))
        self.add_file.clicked.connect(self._on_add_file_clicked)
        self.add_folder.clicked.connect(self._on_add_folder_clicked)
        self.remove.clicked.connect(self._on_remove_clicked)
        # Only with something chosen to remove: pressed with nothing chosen it did nothing.
        self.protected.itemSelectionChanged.connect(self._update_remove)
        self._update_remove()
        self.problem = QLabel(self)
        self.problem.setWordWrap(True)
        look.set_tone(self.problem, "attention")
        self.problem.hide()
        row = QHBoxLayout()
        row.addWidget(self.add_file)
        row.addWidget(self.add_folder)
        row.addStretch(1)
        row.addWidget(self.remove)
        column.addWidget(self.careful)
        column.addWidget(self.web)
        column.addWidget(note)
        column.addWidget(self.protected)
        column.addLayout(row)
        column.addWidget(self.problem)

    def focus_order(self) -> list[QWidget]:
        """The group's controls in the order they are seen (Settings puts them there)."""
        return [self.careful, self.web, self.protected, self.add_file, self.add_folder,
                self.remove]

    def _update_remove(self) -> None:
        chosen = bool(self.protected.selectedItems())
        self.remove.setEnabled(chosen)
        self.remove.setToolTip(self.tr("Stop protecting the chosen file or folder.")
                               if chosen else
                               self.tr("Choose a file or folder in the list first."))

    def entries(self) -> list[str]:
        return [self.protected.item(i).text() for i in range(self.protected.count())]

    def add_entry(self, chosen: str) -> bool:
        entry = relative_inside(self.root, chosen)
        if entry is None:
            self.problem.setText(self.tr("Only files and folders inside this folder can be "
                                         "protected."))
            self.problem.show()
            return False
        self.problem.hide()
        if entry not in self.entries():
            self.protected.addItem(entry)
        return True

    def _on_add_file_clicked(self) -> None:
        chosen, _ = QFileDialog.getOpenFileName(self, self.tr("Protect a file"), str(self.root))
        if chosen:
            self.add_entry(chosen)

    def _on_add_folder_clicked(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, self.tr("Protect a folder"),
                                                  str(self.root))
        if chosen:
            self.add_entry(chosen)

    def _on_remove_clicked(self) -> None:
        rows = [self.protected.row(item) for item in self.protected.selectedItems()]
        for row in sorted(rows, reverse=True):
            self.protected.takeItem(row)
        if self.protected.count():  # the next one is chosen, so Remove can go on
            self.protected.setCurrentRow(min(min(rows, default=0), self.protected.count() - 1))
        else:
            self.protected.setFocus()  # Remove greys: the keyboard stays in the group
