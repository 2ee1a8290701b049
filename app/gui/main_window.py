"""The main window: a folder's checklist on the left, its run on the right, the engine on top.

The window only arranges and wires: the checklist is `BoardView`, the run is shown by
`RunPanel` and `RoundCardList`, decisions by `DecisionDialog` (see run_flow.py), the run
itself goes through `RunRunner`, and every disk or network call through `background`.
The UI thread never waits.

On the start-up path (`defer_pages=True`) the window is first shown as an empty frame,
which imports nothing but Qt; `finish_building` then adds the top bar, the menus and the
pages right after the first paint, and the harness loads after that. So the window shows
about as fast as a bare Qt window.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QApplication, QMainWindow, QStackedWidget, QVBoxLayout, QWidget

from app.gui.folder.folder_flow import APP_TITLE, FolderFlow
from app.gui.plan.plan_flow import PlanFlow
from app.gui.run.run_flow import RunFlow
from app.gui.settings.settings_flow import SettingsFlow
from app.gui.folder.startup_flow import StartupFlow

if TYPE_CHECKING:
    from app.core import events as ev
    from app.core.settings import Settings
    from app.gui.run.decision_dialog import DecisionDialog
    from app.gui.look.notice_bar import NoticeBar
    from app.gui.folder.welcome_page import WelcomePage
    from app.gui.folder.workspace_page import WorkspacePage



class MainWindow(StartupFlow, FolderFlow, RunFlow, PlanFlow, SettingsFlow, QMainWindow):
    workspace_opened = Signal(object)       # Path of the folder now shown
    decision_shown = Signal(object)         # the DecisionDialog now on screen
    run_ended = Signal(object)              # the RunResult, after the window has shown it
    became_usable = Signal()                # once: a folder's checklist drawn, Run enabled

    def __init__(self, settings: Settings | None = None, demo_delay: float | None = None,
                 check_engines: bool = True, defer_pages: bool = False):
        super().__init__()
        self.settings: Settings | None = None   # see apply_settings
        self.demo_delay = demo_delay
        self.workspace: Path | None = None
        self.decision_dialog: DecisionDialog | None = None
        self._close_after_stop = False
        self._last_run_started: str | None = None
        self._run_began: str | None = None   # the run going has no round yet
        self._last_human: ev.HumanNeeded | None = None
        self._run_is_ai = True
        self._run_upper = False  # the running model's price is not known: costs are at most
        self._check_engines = check_engines
        self._defer_pages = defer_pages
        self._warmed = False
        self._page: WorkspacePage | None = None
        self._welcome: WelcomePage | None = None
        self.usable_at: float | None = None  # perf_counter() at became_usable (folder/usable.py)
        self._opened_unsettled = None  # the FolderInfo of a folder opened before the settings
        self._first_folder_done: list = []  # see StartupFlow.after_first_folder
        self._run_when_settled = False  # Run pressed before the settings came
        self._importing_for_run = False  # Run pressed before its modules were imported
        self.setWindowTitle(APP_TITLE)
        self.setAcceptDrops(True)
        self.resize(1180, 760)
        central = QWidget(self)
        self._column = QVBoxLayout(central)
        self._column.setContentsMargins(0, 0, 0, 0)
        self._column.setSpacing(0)
        self.pages = QStackedWidget(central)
        self.pages.addWidget(QWidget(self.pages))  # blank until the settings say what to show
        self._column.addWidget(self.pages, 1)
        self.setCentralWidget(central)
        if not defer_pages:
            self.finish_building()
        if settings is not None:
            self.apply_settings(settings)

    def apply_settings(self, settings: Settings) -> None:
        """The person's settings are loaded (after the first paint): show their engine, model
        and recent folders, and check the engines' readiness in the background."""
        from PySide6.QtCore import QTimer

        self.finish_building()
        self.settings = settings
        self.scheme.set_mode(settings.look)
        self._restore_layout(settings)
        self.picker.select(settings.engine, {k: v.model for k, v in settings.engines.items()})
        if self.workspace is None:
            self.pages.setCurrentWidget(self.welcome_page)
        else:
            self._settle_opened_folder()  # the folder opened before them (folder/startup_flow.py)
        self._show_recent()
        if self._check_engines:  # after the window is up: never in the way of the first paint
            QTimer.singleShot(400, self.picker.check_all)

    # -- building ------------------------------------------------------------------------
    def finish_building(self) -> None:
        """Everything but the frame: the top bar, the notice line, the menus, the pages."""
        if self._page is not None:
            return
        from app.gui.look import focus_ring
        from app.gui.look.keyboard import EnterPressesButtons

        # Before the first widget that can take the focus (the frame alone has none), and
        # after the first paint: these build Qt's whole `Qt` namespace of enums (~50 ms).
        focus_ring.install()  # every focus is seen, in every window of the app
        self._enter_presses = EnterPressesButtons(self)
        from app.gui.look import theme

        # The window's palette before its widgets are made: each works out its colours and
        # draws its icons once, not in Qt's palette first and again in ours (100-270 ms).
        theme.apply_scheme(theme.system_scheme(), before_widgets=True)
        from app.gui.background import SerialQueue
        from app.gui.look.notice_bar import NoticeBar
        from app.gui.run.runner import RunRunner
        from app.gui.folder.top_bar import TopBar
        from app.gui.folder.welcome_page import WelcomePage
        from app.gui.folder.workspace_page import WorkspacePage

        self._writes = SerialQueue()
        self.runner = RunRunner(self)
        self.runner.event_received.connect(self._on_event_received)
        self.runner.run_finished.connect(self._on_run_finished)
        self.runner.run_finished.connect(self._offer_next_tasks)
        self.top_bar = TopBar(self)
        self.top_bar.open_requested.connect(self.choose_folder)
        self.top_bar.recent_chosen.connect(lambda f: self.open_workspace(Path(f)))
        self.picker = self.top_bar.picker
        self.picker.settings_now = lambda: self.settings
        self.picker.engine_changed.connect(self._on_engine_changed)
        self.picker.model_changed.connect(self._on_model_changed)
        self.picker.readiness_checked.connect(self._on_readiness_checked)
        self.open_button = self.top_bar.open_button
        self.recent_menu = self.top_bar.recent_menu
        self.folder_label = self.top_bar.folder_label
        self.notice = NoticeBar(self)
        self._column.insertWidget(0, self.top_bar)
        self._column.insertWidget(1, self.notice)

        self._welcome = WelcomePage(self.pages)
        self._welcome.open_folder_requested.connect(self.choose_folder)
        self._welcome.demo_requested.connect(self.open_demo)
        self._welcome.recent_requested.connect(lambda f: self.open_workspace(Path(f)))
        page = WorkspacePage(self.pages)
        page.board_view.counts_changed.connect(self._on_counts_changed)
        page.board_view.tasks_changed.connect(self._update_demo_samples)
        page.board_view.decision_requested.connect(self._on_decision_requested)
        page.board_view.board_missing.connect(self._on_board_missing)
        page.board_view.board_found.connect(self._on_board_found)
        page.board_view.create_requested.connect(self._create_board)
        page.board_view.error_raised.connect(self._on_board_error)
        page.board_view.plan_requested.connect(lambda: self.open_plan())
        page.run_panel.run_requested.connect(self.start_run)
        page.run_panel.continue_requested.connect(self._on_continue_requested)
        page.run_panel.stop_requested.connect(self.stop_run)
        page.run_panel.export_requested.connect(self.export_summary)
        page.run_panel.lessons_requested.connect(self.show_lessons)
        page.run_panel.answer_requested.connect(lambda: self.show_decision())
        page.run_panel.review_requested.connect(lambda: self.careful.show_dialog())
        page.run_panel.add_task_requested.connect(self.focus_new_task)
        page.run_panel.choose_engine_requested.connect(self.choose_engine)
        page.run_panel.engine_settings_requested.connect(
            lambda engine_id: self.open_engine_settings(engine_id or None))
        from app.gui.run.history_picker import HistoryFlow

        self.history = HistoryFlow(self, page.history_picker, page.cards)
        self.history.round_undone.connect(self._on_round_undone)
        self._page = page
        from app.gui.board.task_list import TaskListView
        from app.gui.folder.usable import UsableWatch

        self._usable = UsableWatch(self, page.board_view.findChild(TaskListView))
        self.pages.addWidget(self._welcome)
        self.pages.addWidget(page)
        self.pages.currentChanged.connect(self._place_notice)  # into the status block, or on top
        self._build_menus()
        self._install_settings()
        from app.gui.careful.careful_flow import CarefulFlow

        self.careful = CarefulFlow(self, page.run_panel.button_row)
        # A task without a "Web:" line follows the folder's default (issue 37).
        self.careful.folder_settings_known.connect(
            lambda settings: page.board_view.set_web_default(settings.web))
        from app.gui.folder.schedule_flow import ScheduleFlow

        self.schedules = ScheduleFlow(self, page)
        from app.gui.look import icons, theme

        QApplication.setWindowIcon(icons.app_icon())
        self.scheme = theme.follow_system_scheme(self)
        self._show_folder_label()
        self._show_recent()
        if not self._defer_pages:  # on start-up: once the first folder is on screen
            self.warm_up()

    def warm_up(self) -> None:
        """Import, once and off the UI thread, what the first run and decision will need.
        On start-up this waits until the first folder (or the welcome page) is on screen:
        begun earlier, its imports compete for the GIL with the folder's own loading."""
        if self._warmed:
            return
        self._warmed = True
        from app.gui.background import run_in_background

        run_in_background(_load_the_rest)

    def _build_menus(self) -> None:
        """The menus; their shortcuts and why are in window_menus.py."""
        from PySide6.QtGui import QKeySequence

        from app.gui.window_menus import add_action as add, press_primary

        file_menu = self.menuBar().addMenu(self.tr("&File"))
        self.open_action = add(file_menu, self.tr("&Open folder…"), self.choose_folder,
                               QKeySequence.StandardKey.Open, "open-folder")
        file_menu.addMenu(self.recent_menu)
        add(file_menu, self.tr("Open a fresh copy of the &demo"), self.open_demo)
        file_menu.addSeparator()
        self.new_task_action = add(file_menu, self.tr("&New task"), self.focus_new_task,
                                   QKeySequence.StandardKey.New)
        self.plan_action = add(file_menu, self.tr("&Plan with AI…"), lambda: self.open_plan(),
                               "Ctrl+Shift+N")
        self.export_action = add(file_menu, self.tr("&Export summary…"), self.export_summary,
                                 "Ctrl+E", "export")
        file_menu.addSeparator()
        add(file_menu, self.tr("&Quit"), self.close, QKeySequence.StandardKey.Quit)
        run_menu = self.menuBar().addMenu(self.tr("&Run"))
        self.primary_action = add(run_menu, self.tr("&Run or continue"), lambda: press_primary(
            self.run_panel, ("run", "continue")), "Ctrl+R", "run")
        self.stop_action = add(run_menu, self.tr("&Stop"), lambda: press_primary(
            self.run_panel, ("running",)) if self.run_panel.mode == "running" else
            self.stop_run(), "Ctrl+.", "stop")
        add(run_menu, self.tr("Answer the open &decision…"), lambda: self.show_decision(),
            "Ctrl+D", "decision")
        self.history_action = add(run_menu, self.tr("Run &history"), self.show_history)
        self.history_action.setToolTip(self.tr("Every earlier run of this folder: pick one to "
                                               "see its rounds"))
        add(run_menu, self.tr("&Lessons from this folder's runs…"), self.show_lessons)
        add(run_menu, self.tr("Run this folder on a s&chedule…"),
            lambda: self.schedules.open_dialog())
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        self.about_action = add(help_menu, self.tr("&About Harness Desk…"), self.show_about)
        self.about_action.setMenuRole(self.about_action.MenuRole.AboutRole)

    def show_about(self) -> None:
        from app.gui.settings.about_dialog import AboutDialog

        self.about_dialog = AboutDialog(self)
        self.about_dialog.open()

    def show_history(self) -> None:
        """The run history: the picker above the rounds, opened."""
        picker = self.history.picker
        if picker.isVisible():
            picker.setFocus()
            picker.showPopup()

    def show_lessons(self) -> None:
        from app.gui.lessons.lessons_flow import open_lessons

        open_lessons(self)

    def focus_new_task(self) -> None:
        """Put the cursor in "Add a task…" (Ctrl+N), when a folder is open."""
        if self.workspace is not None and self.pages.currentWidget() is self.splitter:
            self.board_view.add_field.setFocus()
            self.board_view.add_field.selectAll()

    # The parts of the pages (built on first use when the window was shown as a bare frame).
    @property
    def splitter(self) -> WorkspacePage:
        self.finish_building()
        return self._page  # type: ignore[return-value]

    @property
    def welcome_page(self) -> WelcomePage:
        self.finish_building()
        return self._welcome  # type: ignore[return-value]

    @property
    def run_panel(self):
        return self.splitter.run_panel

    @property
    def board_view(self):
        return self.splitter.board_view

    @property
    def board_notice(self) -> NoticeBar:
        return self.splitter.board_notice

    @property
    def cards(self):
        return self.splitter.cards

    # -- settings --------------------------------------------------------------------------
    def _save_settings(self) -> None:
        from app.core.settings import save_settings
        from app.gui.background import while_alive

        if self.settings is None:
            return
        snapshot = self.settings.model_copy(deep=True)
        self._writes.submit(lambda: save_settings(snapshot), None,
                            while_alive(self, self._on_settings_failed))

    def _on_settings_failed(self, exc: BaseException) -> None:
        self.notice.show_notice(self.tr("Your settings could not be saved: %1").replace(
            "%1", getattr(exc, "strerror", None) or str(exc)), tone="attention")

    def _on_engine_changed(self, engine_id: str) -> None:
        self._on_readiness_checked(engine_id)  # a known answer shows at once
        self._update_demo_samples()
        if self.settings is None:
            return
        self.settings = self.settings.model_copy(update={"engine": engine_id})
        self._save_settings()

    def _on_readiness_checked(self, engine_id: str) -> None:
        """The chosen engine cannot run: say so where it is seen, with how to make it ready."""
        if engine_id != self.picker.engine_id:
            return
        fixed = engine_id in getattr(self, "_rechecked", ())  # its key or settings changed
        if fixed and self.picker.is_ready(engine_id) is not None:
            self._rechecked.discard(engine_id)  # that check's answer is in: used once
        self.run_panel.engine_now(engine_id, self.picker.is_ready(engine_id), fixed)
        if self.picker.is_ready(engine_id) is False:
            self.notice.show_notice(self.picker.not_ready_sentence(engine_id),
                                    self.tr("Engine settings…"),
                                    lambda: self.open_engine_settings(engine_id),
                                    tone="attention")
            self._engine_notice = True
        elif getattr(self, "_engine_notice", False):
            self.notice.hide()
            self._engine_notice = False

    def _on_model_changed(self, model: str) -> None:
        if self.settings is None:
            return
        engines = dict(self.settings.engines)
        current = self.settings.engine_settings(self.picker.engine_id)
        engines[self.picker.engine_id] = current.model_copy(update={"model": model})
        self.settings = self.settings.model_copy(update={"engines": engines})
        self._save_settings()

    def _restore_layout(self, settings: Settings) -> None:
        from app.gui import window_state

        if getattr(self, "_layout_keeper", None) is None:  # once: later settings are ours
            self._layout_keeper = window_state.restore_and_keep(
                self, self.splitter, settings.ui.get(window_state.KEY), self._on_layout_changed)

    def _on_layout_changed(self, state: dict, now: bool = False) -> None:
        from app.gui.window_state import remembered

        updated = remembered(self.settings, state, save_now=now)
        if updated is not None:
            self.settings = updated
            if not now:
                self._save_settings()

    # -- export and undo --------------------------------------------------------------------
    def export_summary(self) -> None:
        if self.workspace is not None:
            from app.gui.evidence.export_flow import export_summary

            previous = getattr(self, "export_dialog", None)
            if previous is not None and not previous.isVisible():
                previous.deleteLater()  # its file, if any, is still reported in the notice
            self.export_dialog = export_summary(self, self.workspace, self.notice,
                                                self.history.chosen_run or None)

    def _on_round_undone(self, report) -> None:
        """Undo leaves its trace everywhere: the banner and the state say exactly what it did,
        and the card (from the undo's record on disk) says the round was undone."""
        from app.gui.evidence.undo_words import undo_report_headline, undo_report_sentences
        from app.gui.run import wording

        headline = undo_report_headline(report)
        clean = report.ok and not report.kept_both
        self.notice.show_notice(headline, tone="normal" if clean else "attention",
                                passing=clean)  # a clean undo is news that passes
        if not self.runner.running:
            self.run_panel.show_state(self.tr("Round %1 undone").replace("%1",
                                                                         str(report.round)),
                                      wording.sentences(undo_report_sentences(report)))
        self.history.refresh_cards()

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: N802, A002 (Qt's names)
        """Tab and Shift+Tab go in reading order (see look/keyboard.py)."""
        from PySide6.QtCore import Qt

        from app.gui.look.keyboard import next_stop

        target = next_stop(self, QApplication.focusWidget(), next)
        if target is None:
            return super().focusNextPrevChild(next)
        target.setFocus(Qt.FocusReason.TabFocusReason if next
                        else Qt.FocusReason.BacktabFocusReason)
        return True

    # -- closing ---------------------------------------------------------------------------
    def closeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        runner = getattr(self, "runner", None)  # none yet if closed before it was built
        if runner is None or not runner.running:
            if getattr(self, "_layout_keeper", None) is not None:
                self._on_layout_changed(self._layout_keeper.stop(), now=True)
            self._let_go_of_the_folder()
            event.accept()
            return
        event.ignore()
        if self._close_after_stop:
            return
        # The run waits at its next step while the question is open: no work, no cost.
        runner.pause()
        stop = False
        try:
            stop = self._ask_to_stop_and_close()
        finally:
            if stop:
                self._close_after_stop = True
                self.stop_run()
            runner.resume()  # after a stop the run ends at once, before any further step

    def _let_go_of_the_folder(self) -> None:
        # On Windows the checklist's file watcher holds the folder open: without this, the
        # person could not rename or delete their folder after closing the window.
        # Only the file's watch: the page is going away, so nothing on it changes.
        board_view = getattr(self, "board_view", None)
        if board_view is not None:
            board_view.release_file()

    def _ask_to_stop_and_close(self) -> bool:
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(QMessageBox.Icon.Question, self.tr("A run is going"),
                          self.tr("The AI is waiting before its next step while you choose. "
                                  "Stop it and close? Nothing is left half-written."),
                          QMessageBox.StandardButton.NoButton, self)
        stop = box.addButton(self.tr("Stop and close"), QMessageBox.ButtonRole.AcceptRole)
        keep = box.addButton(self.tr("Keep working"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(keep)
        box.setObjectName("confirmClose")
        box.exec()
        return box.clickedButton() is stop


def _load_the_rest() -> None:
    """Import, off the UI thread, what the first folder, run and decision will need, so none
    of it is imported on the UI thread in the middle of a run."""
    import app.core.events
    import app.core.loop
    import app.core.settings
    import app.gui.core_calls
    import app.gui.run.decision_dialog
    import app.core.questions  # the decision dialog's page reads it
    import app.gui.evidence.evidence_dialog  # a round's card opens it
    import app.gui.folder.workspace_info
    import app.gui.evidence.evidence_data  # the rounds list, when a folder opens
    import app.engines.demo  # the engine a newcomer's first run uses
    import app.core.lessons.lessons  # noqa: F401 (read when a run ends)
    from app.core.events import try_parse_event

    try_parse_event({})  # builds the events' validator (~60 ms, much of it holding the GIL),
    # which the run's history needs when the first run ends
