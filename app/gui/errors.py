"""The window's error handler: an unexpected exception never shows a traceback.

The details go to a crash report (app/crash.py); the person sees one friendly dialog that
says their files are safe, with "Copy details". Errors on any thread reach it through a
queued signal, so the dialog always opens on the UI thread.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QLabel, QVBoxLayout


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
        copy.clicked.connect(lambda: self._copy(details, copy))
        buttons.rejected.connect(self.reject)
        text.setAccessibleName(text.text())
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(buttons)

    def _copy(self, details: str, button) -> None:
        QApplication.clipboard().setText(details)
        button.setText(self.tr("Copied"))  # so the person sees it worked


class ErrorReporter(QObject):
    """Shows unexpected errors as a friendly dialog, one at a time, on the UI thread."""

    _raised = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._showing = False
        self._raised.connect(self._on_raised, Qt.ConnectionType.QueuedConnection)

    def install(self) -> None:
        sys.excepthook = lambda _t, exc, _tb: self._report(exc)
        threading.excepthook = lambda args: self._report(args.exc_value)

    def _report(self, exc: BaseException | None) -> None:
        if exc is None or isinstance(exc, (KeyboardInterrupt, SystemExit)):
            if isinstance(exc, KeyboardInterrupt):  # Ctrl+C in the terminal: quit, no crash
                QApplication.quit()
            return
        try:
            self._raised.emit(exc)
        except RuntimeError:  # the reporter is gone (the window closed): the plain hook
            sys.__excepthook__(type(exc), exc, exc.__traceback__)

    def _on_raised(self, exc: BaseException) -> None:
        from app.crash import crash_details, save_crash_report  # noqa: PLC0415 - window start-up (bench/startup.py)

        where = save_crash_report(exc)
        if self._showing:  # a storm of errors is one dialog, not fifty
            return
        self._showing = True
        try:
            ErrorDialog(where, crash_details(exc), QApplication.activeWindow()).exec()
        finally:
            self._showing = False


def install_error_handler(parent: QObject) -> ErrorReporter:
    reporter = ErrorReporter(parent)
    reporter.install()
    return reporter
