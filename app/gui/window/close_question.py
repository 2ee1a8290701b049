"""The question when the window is closed during a run: stop the run and close, or keep
working. The run waits at its next step while it is open (main_window.closeEvent pauses it);
if it ends on its own meanwhile, the question becomes whether to close the window. Its words
are the main window's (translation context "MainWindow")."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

translate = QCoreApplication.translate


def ask_to_stop_and_close(window: QWidget, runner) -> bool:
    """Whether the person chose to stop the run (or, once it has ended, to close)."""
    box = QMessageBox(
        QMessageBox.Icon.Question, translate("MainWindow", "A run is going"),
        translate("MainWindow", "The run is waiting before its next step while you choose. "
                                "Stop it and close? Nothing is left half-written."),
        QMessageBox.StandardButton.NoButton, window)
    stop = box.addButton(translate("MainWindow", "Stop and close"),
                         QMessageBox.ButtonRole.AcceptRole)
    keep = box.addButton(translate("MainWindow", "Keep working"),
                         QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(keep)
    box.setObjectName("confirmClose")

    def ended(_result) -> None:
        """The run ended on its own (its last step) while the question was open: the
        question is no longer whether to stop it."""
        box.setWindowTitle(translate("MainWindow", "The run has ended"))
        box.setText(translate("MainWindow", "The run has ended meanwhile. Close the window?"))
        stop.setText(translate("MainWindow", "Close"))

    runner.run_finished.connect(ended)
    try:
        box.exec()
    finally:
        runner.run_finished.disconnect(ended)
    return box.clickedButton() is stop
