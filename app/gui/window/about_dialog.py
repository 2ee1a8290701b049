"""Help ▸ About: the version, where the app keeps its data and keys, the docs, and how to
report a problem with the crash report attached. Nothing here goes on the network."""

from __future__ import annotations

import platform
from pathlib import Path

from PySide6 import __version__ as pyside
from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QPushButton,
                               QVBoxLayout, QWidget)

from app import NAME, __version__
from app.core.records.crash import crash_dir
from app.core.records.redact import redact
from app.core.settings import config_dir
from app.gui.folder.first_start import data_dir
from app.gui.look import look


def docs_folder() -> Path | None:
    """The guides beside the app (a checkout or an unpacked source), or None when the
    install carries none (then the About box does not offer them)."""
    here = Path(__file__).resolve().parents[3] / "docs"
    return here if (here / "getting-started.md").is_file() or (here / "board.md").is_file() \
        else None


def where_things_live() -> dict[str, Path]:
    """The folders the About box names (no Qt: also for tests and the self-test)."""
    return {"settings": config_dir(), "data": data_dir(), "crashes": crash_dir()}


def problem_details() -> str:
    """What a bug report needs, redacted: version, system, Qt, and the latest crash report."""

    lines = [f"{NAME} {__version__}", f"{platform.system()} {platform.release()} "
             f"({platform.machine()}), Python {platform.python_version()}, PySide6 {pyside}"]
    crashes = where_things_live()["crashes"]
    reports = sorted(crashes.glob("crash-*.txt")) if crashes.is_dir() else []
    if reports:
        latest = reports[-1]
        lines += ["", f"Latest crash report: {latest}", ""]
        try:
            lines.append(latest.read_text(encoding="utf-8", errors="replace")[-20_000:])
        except OSError as exc:
            lines.append(f"(could not be read: {exc.strerror or exc})")
    else:
        lines += ["", "No crash report so far."]
    return redact("\n".join(lines))


class AboutDialog(QDialog):
    details_copied = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)

        self.setObjectName("aboutDialog")
        self.setWindowTitle(self.tr("About Harness Desk"))
        places = where_things_live()
        layout = QVBoxLayout(self)
        title = QLabel(f"{NAME} {__version__}", self)
        title.setFont(look.scaled_font(title, 1.3, bold=True))
        what = QLabel(self.tr("Put an AI to work on a folder of your own files, and stay in "
                              "control: every change can be undone."), self)
        what.setWordWrap(True)
        layout.addWidget(title)
        layout.addWidget(what)
        self.places = QLabel(self)
        self.places.setWordWrap(True)
        self.places.setTextFormat(Qt.TextFormat.PlainText)
        self.places.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.places.setText("\n".join([
            self.tr("Your settings: %1").replace("%1", str(places["settings"])),
            self.tr("Demo copies: %1").replace("%1", str(places["data"])),
            self.tr("API keys: in your system's keychain (service “harness-desk”), never in "
                    "a file."),
            self.tr("Each folder's runs, evidence and undo: in its .harness folder."),
        ]))
        layout.addWidget(self.places)
        self.docs_button = None
        guides = docs_folder()
        if guides is not None:  # the guides travel with a checkout, not with every install
            self.docs_button = QPushButton(self.tr("Open the guides"), self)
            self.docs_button.setAccessibleName(self.docs_button.text())
            self.docs_button.setToolTip(str(guides))
            self.docs_button.clicked.connect(
                lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(guides))))
            layout.addWidget(self.docs_button, 0, Qt.AlignmentFlag.AlignLeft)
        report = QLabel(self.tr("Something went wrong? Open the crash reports folder, copy the "
                                "details, and paste them into your message to whoever helps "
                                "you. Keys and secrets are left out."), self)
        report.setWordWrap(True)
        layout.addWidget(report)
        row = QHBoxLayout()
        self.open_crashes = QPushButton(self.tr("Open the crash reports folder"), self)
        self.open_crashes.setAccessibleName(self.open_crashes.text())
        self.open_crashes.clicked.connect(self._open_crashes)
        self.copy_details = QPushButton(self.tr("Copy details"), self)
        self.copy_details.setAccessibleName(self.copy_details.text())
        self.copy_details.clicked.connect(self._copy_details)
        row.addWidget(self.open_crashes)
        row.addWidget(self.copy_details)
        row.addStretch(1)
        layout.addLayout(row)
        self.copied = QLabel(self)
        look.set_tone(self.copied, "muted")
        self.copied.hide()
        layout.addWidget(self.copied)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _open_crashes(self) -> None:
        folder = where_things_live()["crashes"]
        folder.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    def _copy_details(self) -> None:
        QGuiApplication.clipboard().setText(problem_details())
        self.copied.setText(self.tr("Copied. Paste it into your message."))
        self.copied.show()
        self.details_copied.emit()
