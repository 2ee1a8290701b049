"""The main window: a folder's checklist on the left, its run on the right, the engine on top.

The window builds its widgets, and composes the controllers that drive them (app/gui/window/,
put together in compose.py): each a QObject that owns its part's state, is given the
widgets it drives and the controllers it asks, and says what happened with typed signals.
The window keeps the menus (window_menus.py), closing, the keyboard and drops; its public
names (`run_panel`, `open_workspace`, `settings`, ...) are the controllers' (`Forward`).

On the start-up path (`defer_pages=True`) the window is first shown as an empty frame,
which imports nothing but Qt; `finish_building` then adds the top bar, the menus and the
pages right after the first paint, and the harness loads after that. So the window shows
about as fast as a bare Qt window. Every disk or network call goes through `background`:
the UI thread never waits.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (QApplication, QMainWindow, QStackedWidget, QVBoxLayout,
                               QWidget)

from app.gui.background import run_in_background
from app.gui.look.slices import Slices, later
from app.gui.window import later_parts
from app.gui.window.compose import Forward, compose
from app.gui.window.folder_flow import APP_TITLE

if TYPE_CHECKING:
    from app.core.settings import Settings
    from app.gui.folder.early_read import EarlyRead
    from app.gui.folder.welcome_page import WelcomePage
    from app.gui.window.workspace_page import WorkspacePage
    from app.gui.window.decision_flow import DecisionFlow
    from app.gui.window.evidence_flow import EvidenceFlow
    from app.gui.window.folder_flow import FolderFlow
    from app.gui.window.plan_flow import PlanFlow
    from app.gui.window.run_flow import RunFlow
    from app.gui.window.settings_flow import SettingsFlow


class MainWindow(QMainWindow):
    workspace_opened = Signal(object)       # Path of the folder now shown
    decision_shown = Signal(object)         # the DecisionDialog now on screen
    run_ended = Signal(object)              # the RunResult, after the window has shown it
    became_usable = Signal()                # once: a folder's checklist drawn, Run enabled
    # The controllers (window/compose.py), made by finish_building.
    settings_flow: SettingsFlow
    folder_flow: FolderFlow
    run_flow: RunFlow
    decision_flow: DecisionFlow
    plan_flow: PlanFlow
    evidence_flow: EvidenceFlow

    def __init__(self, settings: Settings | None = None, demo_delay: float | None = None,
                 check_engines: bool = True, defer_pages: bool = False):
        super().__init__()
        self._demo_delay = demo_delay
        self._check_engines = check_engines
        self._defer_pages = defer_pages
        self._warmed = False
        self._page: WorkspacePage | None = None
        self._welcome: WelcomePage | None = None
        self._built = False  # the controllers are made (finish_building)
        self._rest = Slices(self, later_parts.slices(self, defer_pages))  # built after the folder is usable
        self.usable_at: float | None = None  # perf_counter() at became_usable (folder/usable.py)
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
        self.finish_building()
        self.settings_flow.apply(settings, self.splitter)
        if self.folder_flow.workspace is None:
            self.pages.setCurrentWidget(self.welcome_page)
        else:
            self.folder_flow.settle()  # the folder opened before them
        self.run_flow.settings_came()
        later_parts.after_settings(self, self._defer_pages, self._check_engines)  # recent, checks

    # -- building ------------------------------------------------------------------------
    def finish_building(self) -> None:
        """Everything but the frame: the top bar, the notice line, the menus, the pages, and
        the controllers that drive them. On start-up (`defer_pages`) what the usable folder
        does not need comes after it is usable, in slices (window/later_parts.py)."""
        if self._page is not None:
            return
        from app.gui.look import theme  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        # The window's palette before its widgets are made: each works out its colours and
        # draws its icons once, not in Qt's palette first and again in ours (100-270 ms).
        theme.apply_scheme(theme.system_scheme(), before_widgets=True)
        from app.gui.folder.top_bar import TopBar  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
        from app.gui.folder.welcome_page import WelcomePage  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
        from app.gui.look.notice_bar import NoticeBar  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
        from app.gui.run.runner import RunRunner  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
        from app.gui.window.workspace_page import WorkspacePage  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        self.runner = RunRunner(self)
        self.top_bar = TopBar(self)
        self.notice = NoticeBar(self)
        self._column.insertWidget(0, self.top_bar)
        self._column.insertWidget(1, self.notice)
        self._welcome = WelcomePage(self.pages)
        page = WorkspacePage(self.pages)
        self._page = page
        from app.gui.folder.usable import UsableWatch  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        self._usable = UsableWatch(self, page.board_view.list_view)
        self.pages.addWidget(self._welcome)
        self.pages.addWidget(page)
        self.pages.currentChanged.connect(self._place_notice)  # into the status block, or on top
        compose(self, page)
        self._built = True
        self.folder_flow.show_folder_label()
        self.folder_flow.show_recent()
        if not self._defer_pages:  # on start-up: once the first folder is on screen (app.py)
            self.finish_rest()
            self.warm_up()

    def build_rest_in_slices(self) -> None:
        """From the next turn on, build the rest a slice a turn (on start-up: app.py)."""
        QTimer.singleShot(0, self, self._rest.run_in_slices)

    def finish_rest(self) -> None:
        """Build now what is left of what comes after the folder is usable (later_parts.py)."""
        self.finish_building()
        self._rest.run_now()

    @property
    def rest_built(self) -> bool:
        """Whether what is built after the folder is usable has been (`finish_rest`)."""
        return self._rest.done

    def warm_up(self) -> None:
        """Import, once and off the UI thread, what the first run and decision will need.
        On start-up this waits until the first folder (or the welcome page) is on screen:
        begun earlier, its imports compete for the GIL with the folder's own loading."""
        if self._warmed:
            return
        self._warmed = True
        # begun on an idle turn, not while a run starts: the run imports what it needs itself
        later().add(self, lambda: run_in_background(_load_the_rest))

    def _place_notice(self, _index: int = -1) -> None:
        """The notice line sits in the run's status block while a folder is open (its room
        kept there, so nothing moves when it comes and goes), on top of the welcome page
        otherwise."""
        if self.pages.currentWidget() is self._page:
            self.run_panel.hold_notice(self.notice)
        elif self.notice.parent() is not self.centralWidget():
            policy = self.notice.sizePolicy()
            policy.setRetainSizeWhenHidden(False)
            self.notice.setSizePolicy(policy)
            self._column.insertWidget(1, self.notice)

    def after_first_folder(self, then) -> None:
        """Call `then` once the first folder is usable, or has shown it has no tasks to show,
        or could not be opened: the start-up's later work waits for that (app.py)."""
        self.finish_building()
        self.became_usable.connect(self.folder_flow.first_folder_settled)
        self.folder_flow.after_first_folder(then)

    def open_workspace(self, path: Path, early: EarlyRead | None = None) -> None:
        """Show a folder (a file means its folder). Checked and read off the UI thread (on
        start-up, begun before the window was built: `early`)."""
        self.finish_building()
        self.folder_flow.open_workspace(path, early)

    def show_about(self) -> None:
        from app.gui.window.about_dialog import AboutDialog  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        self.about_dialog = AboutDialog(self)
        self.about_dialog.open()

    def focus_new_task(self) -> None:
        """Put the cursor in "Add a task…" (Ctrl+N), when a folder is open."""
        if self.workspace is not None and self.pages.currentWidget() is self.splitter:
            self.board_view.add_field.setFocus()
            self.board_view.add_field.selectAll()

    # The parts of the pages (built on first use when the window was shown as a bare frame).
    @property
    def splitter(self) -> WorkspacePage:
        self.finish_building()
        assert self._page is not None  # finish_building made it
        return self._page

    @property
    def welcome_page(self) -> WelcomePage:
        self.finish_building()
        assert self._welcome is not None  # finish_building made it
        return self._welcome

    @property
    def settings(self) -> Settings | None:
        """The person's settings: None until they have loaded (see apply_settings)."""
        return self.settings_flow.settings if self._built else None

    @property
    def workspace(self) -> Path | None:
        """The folder shown, if any."""
        return self.folder_flow.workspace if self._built else None

    run_panel = Forward("splitter.run_panel")
    board_view = Forward("splitter.board_view")
    board_notice = Forward("splitter.board_notice")
    cards = Forward("splitter.cards")
    picker = Forward("top_bar.picker")
    open_button = Forward("top_bar.open_button")
    recent_menu = Forward("top_bar.recent_menu")
    folder_label = Forward("top_bar.folder_label")
    choose_folder = Forward("folder_flow.choose_folder")
    open_demo = Forward("folder_flow.open_demo")
    demo_delay = Forward("run_flow.demo_delay", writable=True)
    start_run = Forward("run_flow.start_run")
    stop_run = Forward("run_flow.stop_run")
    budget_dialog = Forward("run_flow.budget_dialog")
    show_decision = Forward("decision_flow.show_decision")
    decision_dialog = Forward("decision_flow.decision_dialog")
    notifier = Forward("decision_flow.notifier")
    open_plan = Forward("plan_flow.open_plan")
    plan_dialog = Forward("plan_flow.plan_dialog")
    open_settings = Forward("settings_flow.open_settings")
    open_engine_settings = Forward("settings_flow.open_engine_settings")
    settings_dialog = Forward("settings_flow.settings_dialog")
    engine_settings_dialog = Forward("settings_flow.engine_settings_dialog")
    settings_action = Forward("settings_flow.settings_action")
    engine_settings_action = Forward("settings_flow.engine_settings_action")
    engine_settings_button = Forward("settings_flow.engine_settings_button")
    history = Forward("evidence_flow.history")
    show_history = Forward("evidence_flow.show_history")
    export_summary = Forward("evidence_flow.export_summary")
    export_dialog = Forward("evidence_flow.export_dialog")
    show_lessons = Forward("evidence_flow.show_lessons")
    lessons_dialog = Forward("evidence_flow.lessons_dialog")

    def focusNextPrevChild(self, next: bool) -> bool:
        """Tab and Shift+Tab go in reading order (see look/keyboard.py)."""
        from PySide6.QtCore import Qt  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py): reading Qt builds its enums

        from app.gui.look.keyboard import next_stop  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        target = next_stop(self, QApplication.focusWidget(), next)
        if target is None:
            return super().focusNextPrevChild(next)
        target.setFocus(Qt.FocusReason.TabFocusReason if next
                        else Qt.FocusReason.BacktabFocusReason)
        return True

    # -- drag and drop ---------------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event) -> None:
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        local = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if local:
            event.acceptProposedAction()
            self.open_workspace(Path(local[0]))

    # -- closing ---------------------------------------------------------------------------
    def closeEvent(self, event) -> None:
        run = self.run_flow if self._built else None  # none if closed before it was built
        if run is None or not run.runner.running:
            if run is not None:
                self.settings_flow.keep_layout_now()
                # On Windows the checklist's file watcher holds the folder open: without
                # this, the person could not rename or delete their folder after closing.
                self.board_view.release_file()
            event.accept()
            return
        event.ignore()
        if run.close_after_stop:
            return
        # The run waits at its next step while the question is open: no work, no cost.
        run.runner.pause()
        stop = False
        try:
            stop = self._ask_to_stop_and_close()
        finally:
            if stop and run.runner.running:
                run.close_after_stop = True
                run.stop_run()
            elif stop:  # the run ended while the question was open: nothing left to stop
                QTimer.singleShot(0, self, self.close)
            run.runner.resume()  # after a stop the run ends at once, before any further step

    def _ask_to_stop_and_close(self) -> bool:
        from app.gui.window.close_question import ask_to_stop_and_close  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        return ask_to_stop_and_close(self, self.run_flow.runner)


def _load_the_rest() -> None:
    """Import, off the UI thread, what the first folder, run and decision will need, so none
    of it is imported on the UI thread in the middle of a run."""
    import app.core.records.events  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    import app.core.run.loop  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    import app.core.settings  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    import app.gui.core_calls  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    import app.gui.run.decision_dialog  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    import app.core.board.questions  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py); the decision dialog's page reads it
    import app.gui.evidence.evidence_dialog  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py); a round's card opens it
    import app.gui.folder.workspace_info  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    import app.gui.evidence.evidence_data  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py); the rounds list, when a folder opens
    import app.engines.demo.engine  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py); the engine a newcomer's first run uses
    import app.core.lessons.lessons  # noqa: F401, PLC0415 - the window's first paint (tests/gui/test_startup_path.py); read when a run ends
    from app.core.records.events import try_parse_event  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

    try_parse_event({})  # builds the events' validator (~60 ms, much of it holding the GIL),
    # which the run's history needs when the first run ends
