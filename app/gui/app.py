"""Starting the window: the QApplication, the first folder, and the window's error handler.

An unexpected exception on the UI thread (or any thread) never shows a traceback: the
details go to a crash report (app/crash.py) and the person sees one friendly dialog with
"Copy details".
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (QApplication, QDialog, QDialogButtonBox, QLabel,
                               QVBoxLayout)

from app import NAME


def make_application(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance()
    if app is None:
        QApplication.setHighDpiScaleFactorRoundingPolicy(
            Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication(argv or [sys.argv[0] if sys.argv else NAME])
    app.setApplicationName("harness-desk")
    app.setApplicationDisplayName(NAME)
    app.setOrganizationName("harness-desk")
    return app  # type: ignore[return-value]


class ErrorDialog(QDialog):
    """One sentence, "Copy details" and "Close": never a traceback on screen."""

    def __init__(self, where: Path, details: str, parent=None):
        super().__init__(parent)
        self.setObjectName("errorDialog")
        self.setWindowTitle(self.tr("Something went wrong"))
        text = QLabel(self.tr(
            "Something went wrong inside Harness Desk. Your files are safe. The details were "
            "saved to %1. “Copy details” puts them on the clipboard, so you can send them to "
            "whoever helps you.").replace("%1", str(where)), self)
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.PlainText)
        buttons = QDialogButtonBox(self)
        copy = buttons.addButton(self.tr("Copy details"), QDialogButtonBox.ButtonRole.ActionRole)
        close = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        copy.setAccessibleName(self.tr("Copy details"))
        close.setDefault(True)
        copy.clicked.connect(lambda: QApplication.clipboard().setText(details))
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(buttons)


class ErrorReporter(QObject):
    """Shows unexpected errors as a friendly dialog, one at a time, on the UI thread."""

    _raised = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self._showing = False
        self._raised.connect(self._on_raised, Qt.ConnectionType.QueuedConnection)

    def install(self) -> None:
        sys.excepthook = lambda _t, exc, _tb: self._raised.emit(exc)
        threading.excepthook = lambda args: self._raised.emit(args.exc_value)

    def _on_raised(self, exc: BaseException) -> None:
        from app.crash import crash_details, save_crash_report

        where = save_crash_report(exc)
        if self._showing:  # a storm of errors is one dialog, not fifty
            return
        self._showing = True
        try:
            ErrorDialog(where, crash_details(exc), QApplication.activeWindow()).exec()
        finally:
            self._showing = False


def main(path: str | None = None, *, demo: bool = False) -> int:
    """Open the window (on `path`, a fresh demo copy, the last folder, or the welcome page)."""
    from app.core.settings import load_settings
    from app.gui import first_start
    from app.gui.background import run_in_background
    from app.gui.main_window import MainWindow

    app = make_application()
    reporter = ErrorReporter()
    reporter.install()
    loaded = load_settings()
    settings = loaded.settings
    if demo:
        settings = settings.model_copy(update={"engine": "demo"})
    window = MainWindow(settings)
    window.show()
    if loaded.warning:
        window.notice.show_notice(loaded.warning, tone="attention")
    # Which folder (and copying the demo on a first start) is disk work: off the UI thread.
    run_in_background(lambda: first_start.start_folder(path, settings, demo=demo),
                      lambda folder: window.open_workspace(Path(folder)) if folder else None,
                      window._on_open_failed)
    return app.exec()
