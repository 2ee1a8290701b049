"""The window's evidence: the run history above the rounds, a round undone, the export of
a summary, and the Lessons view with the count of what a run taught.

A controller the main window composes (see main_window.py). It follows the folder
(`FolderFlow.workspace_opened`) and the run (`RunFlow.run_shown`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QMainWindow

from app.gui.background import run_for
from app.gui.look.slices import later, once
from app.gui.words import wording

if TYPE_CHECKING:
    from app.gui.evidence.export_flow import ExportDialog
    from app.gui.lessons.lessons_view import LessonsDialog
    from app.gui.window.workspace_page import WorkspacePage
    from app.gui.look.notice_bar import NoticeBar
    from app.gui.run.history_picker import HistoryFlow
    from app.gui.window.folder_flow import FolderFlow
    from app.gui.window.run_flow import RunFlow


class EvidenceFlow(QObject):
    """History, undo, export and lessons, for the main window."""

    def __init__(self, window: QMainWindow, folder: FolderFlow, run: RunFlow,
                 history: HistoryFlow, page: WorkspacePage, notice: NoticeBar):
        super().__init__(window)
        self.window = window  # the dialogs' parent
        self.folder, self.runner, self.notice = folder, run.runner, notice
        self.panel = page.run_panel
        self.history = history
        self.history.round_undone.connect(self.show_round_undone)
        self.export_dialog: ExportDialog | None = None
        self.lessons_dialog: LessonsDialog | None = None
        self._lessons_run_id = ""  # the run whose lessons the run panel counts
        run.run_shown.connect(lambda result: later().add(  # after a decision it asks is shown
            self, once(lambda: self.count_lessons(result.run_id)), soon=True))

    def show_history(self) -> None:
        """The run history: the picker above the rounds, opened."""
        picker = self.history.picker
        if picker.isVisible():
            picker.setFocus()
            picker.showPopup()

    # -- export and undo -------------------------------------------------------------------
    def export_summary(self) -> None:
        root = self.folder.workspace
        if root is not None:
            from app.gui.evidence.export_flow import export_summary  # noqa: PLC0415 - window start-up (bench/startup.py)

            previous = self.export_dialog
            if previous is not None and not previous.isVisible():
                previous.deleteLater()  # its file, if any, is still reported in the notice
            self.export_dialog = export_summary(self.window, root, self.notice,
                                                self.history.chosen_run or None)

    def show_round_undone(self, report) -> None:
        """Undo says exactly what it did, once, where the person looks: the status (the
        notice line while a run is going, as the status is the run's), and the card (from the
        undo's record on disk) says the round was undone."""
        from app.gui.words.undo_words import undo_report_headline, undo_report_sentences  # noqa: PLC0415 - window start-up (bench/startup.py)

        clean = report.ok and not report.kept_both
        if self.runner.running:
            self.notice.show_notice(undo_report_headline(report),
                                    tone="normal" if clean else "attention",
                                    passing=clean)  # a clean undo is news that passes
        else:
            self.panel.show_state(self.tr("Round %1 undone").replace("%1", str(report.round)),
                                  wording.sentences(undo_report_sentences(report)),
                                  tone="normal" if clean else "attention")
        self.history.refresh_cards()

    # -- lessons ---------------------------------------------------------------------------
    def count_lessons(self, run_id: str) -> None:
        """Read (off the UI thread) how many lessons the run just ended taught, and show the
        quiet "1 lesson from this run" link on the run panel when there are any. The lessons
        module is imported there too: on the UI thread, at a run's end, it took 3-4 ms of the
        turn the decision dialog is built in (bench/ui_stall_cold.py --where)."""
        root = self.folder.workspace
        if root is None or not run_id:
            return
        self._lessons_run_id = run_id
        run_for(self, lambda: _lessons_from_run(root, run_id),
                self.panel.show_lessons, lambda _exc: self.panel.show_lessons(0))

    def show_lessons(self) -> None:
        """The Lessons view for the open folder (the run that just ended's lessons first)."""
        from app.gui.lessons.lessons_view import LessonsDialog  # noqa: PLC0415 - window start-up (bench/startup.py)

        root = self.folder.workspace
        if root is None:
            return
        if self.lessons_dialog is not None:
            self.lessons_dialog.close()
        dialog = LessonsDialog(root, self.history.open_round, self.window,
                               select_run=self._lessons_run_id)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.changed.connect(lambda: self.count_lessons(self._lessons_run_id))
        dialog.destroyed.connect(lambda *_: self._forget_lessons(dialog))
        self.lessons_dialog = dialog
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()

    def _forget_lessons(self, dialog) -> None:
        if self.lessons_dialog is dialog:
            self.lessons_dialog = None


def _lessons_from_run(root, run_id: str) -> int:
    """How many open lessons run `run_id` added evidence to (off the UI thread)."""
    from app.gui.lessons.lessons_data import lessons_from_run  # noqa: PLC0415 - off the UI thread: imported at a run's end, it held the window (bench/ui_stall_cold.py)

    return lessons_from_run(root, run_id)
