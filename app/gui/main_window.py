"""The main window: a folder's checklist on the left, its run on the right, the engine on top.

The window only arranges and wires: the checklist is `BoardView`, the run is shown by
`RunPanel` and `RoundCardList`, decisions by `DecisionDialog`, the run itself goes through
`RunRunner`, and every disk or network call through `background`. The UI thread never waits.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (QApplication, QFileDialog, QHBoxLayout, QLabel, QMainWindow,
                               QMenu, QMessageBox, QSplitter, QStackedWidget, QToolButton,
                               QVBoxLayout, QWidget)

from app.core import events as ev
from app.core.settings import Settings, save_settings
from app.gui import core_calls, first_start, look, wording
from app.gui.background import SerialQueue, run_in_background
from app.gui.board_view import BoardView
from app.gui.decision_dialog import DecisionDialog
from app.gui.engine_picker import EnginePicker
from app.gui.notice_bar import NoticeBar
from app.gui.round_cards import RoundCardList, RoundView
from app.gui.run_panel import RunPanel
from app.gui.runner import RunRunner
from app.gui.welcome_page import WelcomePage
from app.gui.workspace_info import FolderInfo, decision_context, inspect_folder

DEMO_STEP_S = 0.6  # the Demo engine's pause per step in the window: readable, not slow
APP_TITLE = "Harness Desk"


class MainWindow(QMainWindow):
    workspace_opened = Signal(object)       # Path of the folder now shown
    decision_shown = Signal(object)         # the DecisionDialog now on screen
    run_ended = Signal(object)              # the RunResult, after the window has shown it

    def __init__(self, settings: Settings | None = None, demo_delay: float | None = None,
                 check_engines: bool = True):
        super().__init__()
        self.settings = settings or Settings()
        self.demo_delay = demo_delay
        self.workspace: Path | None = None
        self.decision_dialog: DecisionDialog | None = None
        self._close_after_stop = False
        self._last_run_started: str | None = None
        self._last_human: ev.HumanNeeded | None = None
        self._run_is_ai = True
        self._writes = SerialQueue()
        self.runner = RunRunner(self)
        self.runner.event_received.connect(self._on_event_received)
        self.runner.run_finished.connect(self._on_run_finished)
        self.setWindowTitle(APP_TITLE)
        self.setAcceptDrops(True)
        self.resize(1180, 760)
        self._build()
        self._build_menus()
        self.picker.select(self.settings.engine,
                           {k: v.model for k, v in self.settings.engines.items()})
        self._show_recent()
        if check_engines:  # after the window is up: never in the way of the first paint
            QTimer.singleShot(400, self.picker.check_all)

    # -- building ------------------------------------------------------------------------
    def _build(self) -> None:
        top = QWidget(self)
        bar = QHBoxLayout(top)
        bar.setContentsMargins(10, 6, 10, 6)
        self.open_button = QToolButton(top)
        self.open_button.setText(self.tr("Open folder…"))
        self.open_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.open_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        look.set_accessible(self.open_button, self.tr("Open folder…"))
        self.open_button.setToolTip(self.tr("Open a folder (Ctrl+O). The arrow lists recent "
                                            "folders. You can also drop a folder on the window."))
        self.open_button.clicked.connect(self.choose_folder)
        self.recent_menu = QMenu(self.tr("Recent folders"), self)
        self.open_button.setMenu(self.recent_menu)
        self.folder_label = QLabel(top)
        self.folder_label.setTextFormat(Qt.TextFormat.PlainText)
        self.folder_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.picker = EnginePicker(top)
        self.picker.engine_changed.connect(self._on_engine_changed)
        self.picker.model_changed.connect(self._on_model_changed)
        bar.addWidget(self.open_button)
        bar.addSpacing(10)
        bar.addWidget(self.folder_label, 1)
        bar.addWidget(self.picker)

        self.notice = NoticeBar(self)
        self.welcome_page = WelcomePage(self)
        self.welcome_page.open_folder_requested.connect(self.choose_folder)
        self.welcome_page.demo_requested.connect(self.open_demo)
        self.welcome_page.recent_requested.connect(lambda f: self.open_workspace(Path(f)))

        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(10, 6, 4, 6)
        tasks_title = QLabel(self.tr("Tasks"), left)
        tasks_title.setFont(look.scaled_font(tasks_title, 1.15, bold=True))
        self.board_notice = NoticeBar(left)
        self.board_view = BoardView(left)
        self.board_view.counts_changed.connect(self._on_counts_changed)
        self.board_view.decision_requested.connect(self._on_decision_requested)
        self.board_view.board_missing.connect(self._on_board_missing)
        self.board_view.error_raised.connect(self._on_board_error)
        drop_hint = QLabel(self.tr("Drop a folder anywhere on this window to open it."), left)
        drop_hint.setStyleSheet(f"color: {look.css(look.muted_colour())};")
        left_layout.addWidget(tasks_title)
        left_layout.addWidget(self.board_notice)
        left_layout.addWidget(self.board_view, 1)
        left_layout.addWidget(drop_hint)

        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(4, 6, 10, 6)
        self.run_panel = RunPanel(right)
        self.run_panel.run_requested.connect(self.start_run)
        self.run_panel.continue_requested.connect(self._on_continue_requested)
        self.run_panel.stop_requested.connect(self.stop_run)
        self.run_panel.export_requested.connect(self.export_summary)
        rounds_title = QLabel(self.tr("Rounds, newest first"), right)
        rounds_title.setFont(look.scaled_font(rounds_title, 1.15, bold=True))
        rounds_title.setToolTip(wording.tip(wording.ROUND_TIP))
        self.cards = RoundCardList(right)
        right_layout.addWidget(self.run_panel)
        right_layout.addWidget(rounds_title)
        right_layout.addWidget(self.cards, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setSizes([520, 660])
        self.splitter.setChildrenCollapsible(False)

        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.welcome_page)
        self.pages.addWidget(self.splitter)
        central = QWidget(self)
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(top)
        column.addWidget(self.notice)
        column.addWidget(self.pages, 1)
        self.setCentralWidget(central)
        self._show_folder_label()

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        self.open_action = QAction(self.tr("&Open folder…"), self)
        self.open_action.setShortcut(QKeySequence.StandardKey.Open)
        self.open_action.triggered.connect(self.choose_folder)
        file_menu.addAction(self.open_action)
        file_menu.addMenu(self.recent_menu)
        demo_action = QAction(self.tr("Open a fresh copy of the &demo"), self)
        demo_action.triggered.connect(self.open_demo)
        file_menu.addAction(demo_action)
        self.export_action = QAction(self.tr("&Export summary…"), self)
        self.export_action.setShortcut(QKeySequence("Ctrl+E"))
        self.export_action.triggered.connect(self.export_summary)
        file_menu.addAction(self.export_action)
        file_menu.addSeparator()
        quit_action = QAction(self.tr("&Quit"), self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)
        run_menu = self.menuBar().addMenu(self.tr("&Run"))
        self.primary_action = QAction(self.tr("&Run, stop or continue"), self)
        self.primary_action.setShortcut(QKeySequence("Ctrl+R"))
        self.primary_action.triggered.connect(self.run_panel.primary.click)
        run_menu.addAction(self.primary_action)
        decide_action = QAction(self.tr("Answer the open &decision…"), self)
        decide_action.setShortcut(QKeySequence("Ctrl+D"))
        decide_action.triggered.connect(lambda: self.show_decision())
        run_menu.addAction(decide_action)

    # -- folders ---------------------------------------------------------------------------
    def choose_folder(self) -> None:
        start = str(self.workspace.parent) if self.workspace else str(Path.home())
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open a folder"), start)
        if folder:
            self.open_workspace(Path(folder))

    def open_demo(self) -> None:
        run_in_background(lambda: first_start.demo_copy(fresh=True), self.open_workspace,
                          self._on_open_failed)

    def open_workspace(self, path: Path) -> None:
        """Show a folder (a file means its folder). Checked and read off the UI thread."""
        if self.runner.running:
            self.notice.show_notice(self.tr("A run is going in %1. Stop it before opening "
                                            "another folder.").replace(
                "%1", self.workspace.name if self.workspace else ""), tone="attention")
            return
        run_in_background(lambda: inspect_folder(Path(path)), self._on_folder_inspected,
                          self._on_open_failed)

    def _on_folder_inspected(self, info: FolderInfo) -> None:
        if info.problem:
            words = {
                "missing": self.tr("%1 does not exist (any more)."),
                "not_a_folder": self.tr("%1 is not a folder."),
                "board_is_folder": self.tr("%1 has a folder called TASKS.md where the task list "
                                           "should be. Rename that folder, then open this one "
                                           "again."),
            }[info.problem].replace("%1", str(info.folder))
            self.notice.show_notice(words, tone="attention")
            if info.problem == "missing":
                self.settings = first_start.forgotten(self.settings, str(info.folder))
                self._save_settings()
            return
        self.notice.hide()
        self.board_notice.hide()
        self.workspace = info.folder
        self.setWindowTitle(f"{info.folder.name} — {APP_TITLE}")
        self._show_folder_label()
        self.pages.setCurrentWidget(self.splitter)
        self.board_view.set_board(info.folder / "TASKS.md")
        self.run_panel.reset()
        self.cards.show_history([
            (started, [RoundView.from_record(r, is_ai) for r in rounds])
            for started, rounds, is_ai in info.history])
        self._last_run_started = info.history[-1][0] if info.history else None
        self.run_panel.export_button.setEnabled(not info.never_run)
        self._show_opened_state(info)
        self.settings = first_start.remembered(self.settings, info.folder)
        self._save_settings()
        self._show_recent()
        self.workspace_opened.emit(info.folder)

    def _show_opened_state(self, info: FolderInfo) -> None:
        panel = self.run_panel
        panel.show_welcome(self.tr(
            "Welcome! This is a demo: the new website of a small bakery, with its tasks on the "
            "left. Press Run to watch the Demo engine work through them and ask you one "
            "decision. It works offline, uses no AI and costs nothing.")
            if info.is_demo and info.never_run else None)
        status = info.status
        if info.run_active_elsewhere:
            panel.show_state(self.tr("A run is going elsewhere"), self.tr(
                "Another window or the terminal is running this folder. Wait for it to end."),
                tone="attention")
            panel.set_mode("run")
        elif info.open_decision is not None:
            panel.show_state(self.tr("Needs your decision"), info.open_decision.question,
                             tone="attention")
            panel.set_mode("continue")
        elif status.state in ("stopped", "failed") and status.exit_reason not in (None,
                                                                                   "error"):
            headline, hint = wording.finished(status.state, status.exit_reason or "",
                                              status.current_task or "")
            panel.show_state(headline, hint, tone="attention")
            panel.set_mode("continue")
        elif status.state == "done":
            panel.show_state(*wording.finished("done", "all_tasks_done"), tone="ok")
            panel.set_mode("run")
        else:
            panel.show_state(self.tr("Ready"), self.tr(
                "Press Run to start the AI on the first unchecked task."))
            panel.set_mode("run")

    def _on_open_failed(self, exc: BaseException) -> None:
        message = getattr(exc, "message", None) or getattr(exc, "strerror", None) or str(exc)
        self.notice.show_notice(self.tr("That folder could not be opened: %1").replace(
            "%1", message), tone="attention")

    def _show_folder_label(self) -> None:
        if self.workspace is None:
            self.folder_label.setText(self.tr("No folder open"))
        else:
            self.folder_label.setText(f"{self.workspace.name}   ·   {self.workspace}")
        look.set_accessible(self.folder_label, self.tr("Folder: %1").replace(
            "%1", str(self.workspace) if self.workspace else self.tr("none")))

    def _show_recent(self) -> None:
        self.recent_menu.clear()
        recent = self.settings.recent_workspaces
        for folder in recent:
            action = self.recent_menu.addAction(f"{Path(folder).name}  —  {folder}")
            action.triggered.connect(lambda _=False, f=folder: self.open_workspace(Path(f)))
        if not recent:
            self.recent_menu.addAction(self.tr("No recent folders")).setEnabled(False)
        self.welcome_page.set_recent(recent)

    def _on_board_missing(self, path) -> None:
        self.board_notice.show_notice(
            self.tr("This folder has no task list yet. Create one (TASKS.md) with two example "
                    "tasks you can change?"), self.tr("Create a task list"), self._create_board)

    def _create_board(self) -> None:
        root = self.workspace
        if root is None:
            return
        self.board_notice.hide()
        run_in_background(lambda: core_calls.create_board(root),
                          lambda board: self.board_view.set_board(board), self._on_board_failed)

    def _on_board_failed(self, exc: BaseException) -> None:
        self._on_board_error(getattr(exc, "message", None) or str(exc))

    def _on_board_error(self, sentence: str) -> None:
        self.board_notice.show_notice(sentence, tone="attention")

    def _on_counts_changed(self, done: int, total: int) -> None:
        self.run_panel.show_counts(done, total)

    # -- drag and drop ---------------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event) -> None:  # noqa: N802
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802
        local = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if local:
            event.acceptProposedAction()
            self.open_workspace(Path(local[0]))

    # -- settings --------------------------------------------------------------------------
    def _save_settings(self) -> None:
        snapshot = self.settings.model_copy(deep=True)
        self._writes.submit(lambda: save_settings(snapshot), None, self._on_settings_failed)

    def _on_settings_failed(self, exc: BaseException) -> None:
        self.notice.show_notice(self.tr("Your settings could not be saved: %1").replace(
            "%1", getattr(exc, "strerror", None) or str(exc)), tone="attention")

    def _on_engine_changed(self, engine_id: str) -> None:
        self.settings = self.settings.model_copy(update={"engine": engine_id})
        self._save_settings()

    def _on_model_changed(self, model: str) -> None:
        engines = dict(self.settings.engines)
        current = self.settings.engine_settings(self.picker.engine_id)
        engines[self.picker.engine_id] = current.model_copy(update={"model": model})
        self.settings = self.settings.model_copy(update={"engines": engines})
        self._save_settings()

    # -- the run ---------------------------------------------------------------------------
    def _demo_delay(self) -> float:
        if self.demo_delay is not None:
            return self.demo_delay
        from app.engines.demo import DELAY_ENV

        if os.environ.get(DELAY_ENV):
            try:
                return max(0.0, float(os.environ[DELAY_ENV]))
            except ValueError:
                pass
        return self.settings.demo_delay_s or DEMO_STEP_S

    def start_run(self) -> None:
        root = self.workspace
        if root is None or self.runner.running:
            return
        settings = self.settings.model_copy(deep=True)
        engine_id, model, delay = self.picker.engine_id, self.picker.model_name, self._demo_delay()
        self._last_human = None
        self.notice.hide()
        self.runner.start(root, lambda: core_calls.build_engine(
            settings, root, engine_id, model=model, demo_delay=delay),
            core_calls.run_limits(settings))
        self.run_panel.prepare(settings.limits.max_steps)
        self.run_panel.show_welcome(None)
        self.run_panel.show_state(self.tr("Starting…"))
        self.run_panel.set_mode("running")
        self.board_view.set_run_active(True)
        self.picker.setEnabled(False)
        self.open_button.setEnabled(False)

    def stop_run(self) -> None:
        if self.runner.running:
            self.runner.stop()
            self.run_panel.set_mode("stopping")
            self.run_panel.show_state(self.tr("Stopping after this step…"))

    def _on_continue_requested(self) -> None:
        root = self.workspace
        if root is None:
            return
        # An open decision first: a run would stop at it at once.
        run_in_background(lambda: decision_context(root),
                          lambda found: self._show_or_run(found),
                          lambda _exc: self.start_run())

    def _show_or_run(self, found) -> None:
        task, about = found
        if task is not None and task.is_human:
            self._open_decision_dialog(task, about)
        else:
            self.start_run()

    def _on_event_received(self, event) -> None:
        self.run_panel.show_event(event)
        if isinstance(event, ev.RunStarted):
            self._run_is_ai = event.is_ai and event.engine != "demo"
            self.cards.begin_run(self._last_run_started)
            self._last_run_started = event.time
            self.run_panel.export_button.setEnabled(True)
        elif isinstance(event, ev.RoundStarted):
            self.board_view.set_current_task(event.task)
            self.cards.round_started(event.round, event.time)
        elif isinstance(event, ev.RoundFinished):
            self.cards.round_finished(event, self._run_is_ai)
        elif isinstance(event, ev.HumanNeeded):
            self._last_human = event

    def _on_run_finished(self, result) -> None:
        self.board_view.set_current_task(None)
        self.board_view.set_run_active(False)
        self.picker.setEnabled(True)
        self.open_button.setEnabled(True)
        about = self._last_human.task if self._last_human else ""
        headline = self.run_panel.show_result(result.state, result.exit_reason, result.message,
                                              about)
        self.run_panel.set_mode("run" if result.state in ("done", "failed") else "continue")
        look.announce(self, headline, assertive=result.state == "blocked_by_human")
        if self._close_after_stop:
            self.run_ended.emit(result)
            self.close()
            return
        if result.state in ("blocked_by_human", "done"):
            QApplication.alert(self)
        if result.state == "blocked_by_human":
            self.show_decision()
        self.run_ended.emit(result)

    # -- decisions -------------------------------------------------------------------------
    def show_decision(self, task_text: str | None = None) -> None:
        """Open the dialog for the open decision (the one named, else the first)."""
        root = self.workspace
        if root is None:
            return
        run_in_background(lambda: decision_context(root, task_text),
                          lambda found: self._open_decision_dialog(*found),
                          self._on_board_failed)

    def _on_decision_requested(self, task) -> None:
        self.show_decision(getattr(task, "text", None))

    def _open_decision_dialog(self, task, about: str) -> None:
        if task is None or self.workspace is None:
            return
        if self.decision_dialog is not None:
            self.decision_dialog.close()
        root = self.workspace
        dialog = DecisionDialog(task, root, lambda answer: core_calls.decide(root, answer,
                                                                             task.text),
                                self, about_task=about)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.answered.connect(self._on_decision_answered)
        dialog.continue_requested.connect(self._on_continue_requested)
        dialog.destroyed.connect(lambda *_: self._forget_dialog(dialog))
        self.decision_dialog = dialog
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        self.decision_shown.emit(dialog)

    def _forget_dialog(self, dialog) -> None:
        if self.decision_dialog is dialog:
            self.decision_dialog = None

    def _on_decision_answered(self, answer: str) -> None:
        if not self.runner.running:
            self.run_panel.show_state(self.tr("Answered: %1").replace("%1", answer),
                                      self.tr("Press Continue to let the AI carry on."))
            self.run_panel.set_mode("continue")

    # -- export ----------------------------------------------------------------------------
    def export_summary(self) -> None:
        root = self.workspace
        if root is None:
            return
        from app.export.render import SAVE_FILTERS

        filters = ";;".join(f for _fmt, f in SAVE_FILTERS)
        suggested = str(Path.home() / f"{root.name} summary.pdf")
        output, chosen = QFileDialog.getSaveFileName(
            self, self.tr("Export summary"), suggested, filters)
        if not output:
            return
        fmt = next((f for f, label in SAVE_FILTERS if label == chosen), "pdf")
        if Path(output).suffix.lower().lstrip(".") in ("md", "html", "pdf", "odt"):
            fmt = Path(output).suffix.lower().lstrip(".")
        self.notice.show_notice(self.tr("Writing the summary…"))
        run_in_background(lambda: core_calls.export_summary(root, fmt, Path(output)),
                          self._on_exported, self._on_export_failed)

    def _on_exported(self, path: Path) -> None:
        self.notice.show_notice(self.tr("Saved the summary as %1").replace("%1", str(path)),
                                self.tr("Open it"),
                                lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))))

    def _on_export_failed(self, exc: BaseException) -> None:
        self.notice.show_notice(self.tr("The summary could not be written: %1").replace(
            "%1", getattr(exc, "message", None) or getattr(exc, "strerror", None) or str(exc)),
            tone="attention")

    # -- closing ---------------------------------------------------------------------------
    def closeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if not self.runner.running:
            event.accept()
            return
        event.ignore()
        if self._close_after_stop:
            return
        if self._ask_to_stop_and_close():
            self._close_after_stop = True
            self.stop_run()

    def _ask_to_stop_and_close(self) -> bool:
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("A run is going"),
                          self.tr("The AI is still working. Stop it and close? It stops after "
                                  "the current step, and nothing is left half-written."),
                          QMessageBox.StandardButton.NoButton, self)
        stop = box.addButton(self.tr("Stop and close"), QMessageBox.ButtonRole.AcceptRole)
        keep = box.addButton(self.tr("Keep working"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(keep)
        box.setObjectName("confirmClose")
        box.exec()
        return box.clickedButton() is stop
