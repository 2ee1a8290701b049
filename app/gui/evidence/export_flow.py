"""Export summary from the window: a dialog for the format and what to include (this run or the
folder's whole history), then where to save it, written off the UI thread, offered to open."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Signal
from PySide6.QtGui import QFont, QFontMetrics, QIcon
from PySide6.QtWidgets import (QApplication, QButtonGroup, QDialog, QDialogButtonBox, QFileDialog,
                               QGroupBox, QLabel, QRadioButton, QVBoxLayout, QWidget)

from app.gui import core_calls
from app.gui.background import run_for, while_alive
from app.gui.file_opener import open_saved
from app.gui.look import look
from app.gui.look.notice_bar import NoticeBar

ALL_RUNS = "all"  # app.export.history.ALL_RUNS, without importing the export on the UI thread


def tr(text: str) -> str:
    return QCoreApplication.translate("", text)  # where lupdate files a module-level tr()


class ExportDialog(QDialog):
    """Format (PDF, ODT, HTML, Markdown) and scope; "Save…" asks where, then writes."""

    saved = Signal(object)   # the Path written
    failed = Signal(str)     # one sentence

    # str(): the text QT_TRANSLATE_NOOP returns, which PySide6's stub types as object.
    FORMATS = (("pdf", str(QT_TRANSLATE_NOOP("ExportDialog", "PDF (to read and print)")), "pdf"),
               ("odt", str(QT_TRANSLATE_NOOP("ExportDialog", "Document for Word or LibreOffice "
                                                             "(ODT)")), "odt"),
               ("html", str(QT_TRANSLATE_NOOP("ExportDialog", "Web page (HTML)")), "html"),
               ("md", str(QT_TRANSLATE_NOOP("ExportDialog", "Plain text (Markdown)")), "md"))

    def __init__(self, root: Path, notice: NoticeBar, run_id: str | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("exportDialog")
        self.setWindowTitle(self.tr("Export summary"))
        self.root, self.notice, self.run_id = root, notice, run_id
        # Said of the run, not of an AI: the Demo engine's runs use none.
        intro = QLabel(self.tr("Save a document that tells what happened in %1: the tasks, "
                               "the decisions, each round and, where an AI worked, what it "
                               "cost.").replace(
            "%1", root.name), self)
        intro.setWordWrap(True)

        formats = QGroupBox(self.tr("Format"), self)
        self.format_group = QButtonGroup(self)
        column = QVBoxLayout(formats)
        self.format_buttons: dict[str, QRadioButton] = {}
        for fmt, label, _ext in self.FORMATS:
            button = QRadioButton(self.tr(label), formats)
            look.set_accessible(button, self.tr(label))
            self.format_group.addButton(button)
            self.format_buttons[fmt] = button
            column.addWidget(button)
        self.format_buttons["pdf"].setChecked(True)

        scope = QGroupBox(self.tr("Include"), self)
        column = QVBoxLayout(scope)
        self.this_run = QRadioButton(self.tr("This run (the latest)") if not run_id else
                                     self.tr("This run (the one picked above the rounds)"),
                                     scope)
        self.whole_history = QRadioButton(self.tr("Every run in this folder, in order"), scope)
        self.whole_history.setToolTip(self.tr("One document with every run: useful when your "
                                              "work went on after a decision"))
        self.this_run.setChecked(True)
        column.addWidget(self.this_run)
        column.addWidget(self.whole_history)

        buttons = QDialogButtonBox(self)
        self.save_button = buttons.addButton(self.tr("Save…"),
                                             QDialogButtonBox.ButtonRole.AcceptRole)
        look.set_accessible(self.save_button, self.tr("Save"),
                            self.tr("Choose where to save the summary"))
        self.save_button.setDefault(True)
        look.set_tone(self.save_button, "primary")  # the one filled button: the step to take
        cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        cancel.setIcon(QIcon())  # plain, as every other button (no icon beside Save)
        buttons.accepted.connect(self._on_save_clicked)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(formats)
        layout.addWidget(scope)
        layout.addWidget(buttons)
        self.setMinimumWidth(self._title_width())

    def _title_width(self) -> int:
        """Wide enough for its title bar to show "Export summary — Harness Desk" whole (the
        window manager adds the app's name; its buttons take room at the right)."""
        title = f"{self.windowTitle()} — {QApplication.applicationDisplayName() or 'Harness Desk'}"
        bold = QFont(self.font())
        bold.setBold(True)
        return QFontMetrics(bold).horizontalAdvance(title) + 160

    @property
    def fmt(self) -> str:
        return next(f for f, b in self.format_buttons.items() if b.isChecked())

    def suggested_name(self) -> str:
        kind = self.tr("history") if self.whole_history.isChecked() else self.tr("summary")
        return f"{self.root.name} {kind} {date.today().isoformat()}.{self.fmt}"

    def _on_save_clicked(self) -> None:
        fmt = self.fmt
        label = next(lbl for f, lbl, _e in self.FORMATS if f == fmt)
        output, _chosen = QFileDialog.getSaveFileName(
            self, self.tr("Save the summary as"), str(Path.home() / self.suggested_name()),
            f"{self.tr(label)} (*.{fmt})")
        if not output:
            return  # still in the dialog: pick another format or cancel
        typed = Path(output).suffix.lower().lstrip(".")
        typed = {"markdown": "md", "htm": "html"}.get(typed, typed)
        if typed in self.format_buttons:  # the name the person typed wins
            fmt = typed
        if not Path(output).suffix:
            output += f".{fmt}"
        run_id = ALL_RUNS if self.whole_history.isChecked() else self.run_id
        self.accept()
        write(self.parentWidget() or self, self.root, fmt, Path(output), run_id, self.notice, self)


def write(owner: QWidget, root: Path, fmt: str, output: Path, run_id: str | None,
          notice: NoticeBar, dialog: ExportDialog | None = None) -> None:
    """Write the summary in the background; say where it went, with "Open it"."""
    notice.show_notice(tr("Writing the summary…"))
    # The dialog may be gone by the time the file is written (a second export replaces it).
    tell_saved = while_alive(dialog, dialog.saved.emit) if dialog is not None else None
    tell_failed = while_alive(dialog, dialog.failed.emit) if dialog is not None else None

    def done(path: Path) -> None:
        notice.show_notice(tr("Saved the summary as %1").replace("%1", str(path)), tr("Open it"),
                           lambda: open_saved(owner, path, lambda sentence: notice.show_notice(
                               sentence, tone="attention")), passing=True)
        if tell_saved is not None:
            tell_saved(path)

    def failed(exc: BaseException) -> None:
        sentence = tr("The summary could not be written: %1").replace(
            "%1", getattr(exc, "message", None) or getattr(exc, "strerror", None) or str(exc))
        notice.show_notice(sentence, tone="attention")
        if tell_failed is not None:
            tell_failed(sentence)

    run_for(owner, lambda: core_calls.export_summary(root, fmt, output, run_id), done, failed)


def export_summary(parent: QWidget, root: Path, notice: NoticeBar,
                   run_id: str | None = None) -> ExportDialog:
    """Open the export dialog (window-modal) and return it."""
    dialog = ExportDialog(root, notice, run_id, parent)
    dialog.open()
    return dialog
