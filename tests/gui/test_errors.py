"""An unexpected error in the window: a friendly dialog, Copy details, a crash report."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QWidget

from app.gui.errors import ErrorDialog, install_error_handler


def test_an_unexpected_error_shows_one_friendly_dialog_and_saves_the_details(
        qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    owner = QWidget()
    qtbot.addWidget(owner)
    reporter = install_error_handler(owner)
    seen = {}

    def look_at_the_dialog():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ErrorDialog):
            QTimer.singleShot(20, look_at_the_dialog)
            return
        seen["text"] = " ".join(label.text() for label in dialog.findChildren(QLabel))
        copy = next(b for b in dialog.findChildren(QPushButton) if b.text() == "Copy details")
        copy.click()
        seen["clipboard"] = QApplication.clipboard().text()
        dialog.reject()

    QTimer.singleShot(20, look_at_the_dialog)
    try:
        raise ValueError("the widget fell over sk-ant-api03-" + "x" * 40)
    except ValueError as exc:
        reporter._raised.emit(exc)
    qtbot.waitUntil(lambda: "text" in seen, timeout=5000)
    reports = list((tmp_path / "config" / "crash-reports").glob("crash-*.txt"))
    assert len(reports) == 1
    assert "Your files are safe" in seen["text"] and str(reports[0]) in seen["text"]
    assert "Traceback" not in seen["text"]
    assert "ValueError: the widget fell over" in seen["clipboard"]
    assert "x" * 40 not in seen["clipboard"]  # keys are redacted from the details too
