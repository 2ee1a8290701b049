"""The window's folder: the folder picker, the demo copy, a dropped folder, what a folder
shows when it opens, creating its task list, and opening the first folder at start-up.

A controller the main window composes (see main_window.py). It owns `workspace`, the open
folder, and says when one opens with `workspace_opened` (after `folder_shown`, which carries
what was read of it).

At start-up app.py opens a folder named on the command line before the person's settings
have loaded (pydantic, a few hundred milliseconds on a busy machine): they load once the
folder is usable (`after_first_folder`), and when they come (`settle`) the open folder is
remembered among the recent ones and gets the engine the person chose, as a folder opened
after them would.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication, QFileDialog, QMainWindow, QStackedWidget

from app.gui.background import run_for
from app.gui.folder.early_read import EarlyRead, inspect
from app.gui.folder.lock_watch import LockWatch
from app.gui.settings import language

if TYPE_CHECKING:
    from app.gui.folder.top_bar import TopBar
    from app.gui.folder.welcome_page import WelcomePage
    from app.gui.folder.workspace_info import FolderInfo
    from app.gui.window.workspace_page import WorkspacePage
    from app.gui.look.notice_bar import NoticeBar
    from app.gui.run.runner import RunRunner
    from app.gui.window.settings_flow import SettingsFlow

APP_TITLE = "Harness Desk"


class FolderFlow(QObject):
    """Opening folders and their boards, for the main window."""

    workspace_opened = Signal(object)  # the Path of the folder now wholly shown (its rounds too)
    folder_shown = Signal(object)      # its FolderInfo, as its checklist is shown (before)

    def __init__(self, window: QMainWindow, pages: QStackedWidget, settings: SettingsFlow,
                 runner: RunRunner, top_bar: TopBar, welcome: WelcomePage, page: WorkspacePage,
                 notice: NoticeBar, warm_up: Callable[[], None]):
        super().__init__(window)
        self.window, self.pages = window, pages  # its title and the picker's parent; its pages
        self.warm_up = warm_up  # imports, once, what the first run will need (main_window.py)
        self.settings, self.runner = settings, runner
        self.top_bar, self.welcome, self.page, self.notice = top_bar, welcome, page, notice
        self.workspace: Path | None = None
        self._opened_unsettled: FolderInfo | None = None  # opened before the settings came
        self._first_folder_done: list[Callable[[], None]] = []  # see after_first_folder
        self.opened_folder: Path | None = None  # the last said by workspace_opened
        self._text_sentence = ""  # the board's text problem said above the list, if any
        self.workspace_opened.connect(self._remember_opened)
        # A run going on elsewhere: the folder is read again once it ends (lock_watch.py).
        self.lock_watch = LockWatch(self, lambda: self.runner.running)
        self.lock_watch.released.connect(self._on_run_elsewhere_ended)
        runner.run_finished.connect(self._on_own_run_finished)
        top_bar.open_requested.connect(self.choose_folder)
        top_bar.recent_chosen.connect(lambda f: self.open_workspace(Path(f)))
        welcome.open_folder_requested.connect(self.choose_folder)
        welcome.demo_requested.connect(self.open_demo)
        welcome.recent_requested.connect(lambda f: self.open_workspace(Path(f)))
        welcome.forget_requested.connect(self.forget_recent)
        board = page.board_view
        board.board_missing.connect(self._on_board_missing)
        board.board_found.connect(self._on_board_found)
        board.create_requested.connect(self._create_board)
        board.folder_gone.connect(self._on_folder_gone)
        board.open_other_requested.connect(self.choose_folder)
        board.error_raised.connect(self.show_board_error)
        board.text_problem.connect(self._show_text_problem)

    def _remember_opened(self, folder: Path) -> None:
        self.opened_folder = Path(folder)

    # -- opening ---------------------------------------------------------------------------
    def choose_folder(self) -> None:
        start = str(self.workspace.parent) if self.workspace else str(Path.home())
        folder = QFileDialog.getExistingDirectory(self.window, self.tr("Open a folder"), start)
        if folder:
            self.open_workspace(Path(folder))

    def open_demo(self) -> None:
        from app.gui.folder import first_start  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        lang = language.current()
        run_for(self, lambda: first_start.demo_copy(fresh=True, lang=lang), self.open_workspace,
                self.open_failed)

    def open_workspace(self, path: Path, early: EarlyRead | None = None) -> None:
        """Show a folder (a file means its folder). Checked and read off the UI thread; on
        start-up that read may have begun already (`early`, folder/early_read.py)."""
        if early is not None and early.path == Path(path) and not self.runner.running:
            early.then(self._on_folder_inspected, self.open_failed)
            return
        if self.runner.running:
            self.notice.show_notice(self.tr("A run is going in %1. Stop it before opening "
                                            "another folder.").replace(
                "%1", self.workspace.name if self.workspace else ""), tone="attention")
            return

        run_for(self, lambda: inspect(Path(path)), self._on_folder_inspected, self.open_failed)

    def _on_folder_inspected(self, info: FolderInfo) -> None:
        if self.settings.settings is None and not info.problem:
            self._opened_unsettled = info  # settle remembers it and picks its engine
        self._show_folder(info)
        if info.problem:
            self.first_folder_settled()

    def _show_folder(self, info: FolderInfo) -> None:
        from app.gui.folder import first_start  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
        from app.gui.folder.usable import after_usable  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        after_usable(self.window, self.warm_up)  # after this page is shown (a no-op after the first)
        settings = self.settings
        if info.problem:
            words = {
                "missing": self.tr("%1 does not exist (any more)."),
                "not_a_folder": self.tr("%1 is not a folder."),
                "board_is_folder": self.tr("%1 has a folder called TASKS.md where the task list "
                                           "should be. Rename that folder, then open this one "
                                           "again."),
            }[info.problem].replace("%1", str(info.folder))
            self.notice.show_notice(words, tone="attention")
            if info.problem == "missing" and settings.settings is not None:
                settings.change(first_start.forgotten(settings.settings, str(info.folder)))
                self.show_recent()
            return
        page = self.page
        self.notice.hide()
        page.board_notice.hide()
        self.workspace = info.folder
        self.window.setWindowTitle(f"{info.folder.name} — {APP_TITLE}")
        self.show_folder_label()
        self.pages.setCurrentWidget(page)
        page.board_view.set_board(info.folder / "TASKS.md", info.board)
        page.run_panel.reset()
        page.cards.show_history([])  # the earlier rounds come once the checklist is shown
        page.run_panel.export_button.setEnabled(not info.never_run)
        self._pick_engine_for(info)
        page.run_panel.demo_samples = False  # known once the list is read (tasks_changed)
        page.run_panel.show_folder(info)
        if info.run_active_elsewhere:
            self.lock_watch.watch(info.folder)
        else:
            self.lock_watch.stop()
        self.folder_shown.emit(info)  # its run history, careful mode; its rounds (run_flow.py)
        if settings.settings is not None:
            settings.change(first_start.remembered(settings.settings, info.folder))
            self.show_recent()
        # workspace_opened follows once its earlier rounds are on the cards (folder_history.py)

    def _on_own_run_finished(self, result) -> None:
        """Run was refused because a run holds the folder elsewhere: watch for its end."""
        from app.gui.run.runner import WORKSPACE_LOCKED  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        if result.exit_reason == WORKSPACE_LOCKED and self.workspace is not None:
            self.lock_watch.watch(self.workspace)

    def _on_run_elsewhere_ended(self, folder: Path) -> None:
        """The run elsewhere has ended: read the folder again, its rounds and where that run
        left off (a decision, done, stopped), unless this window has moved on meanwhile."""
        if folder == self.workspace and not self.runner.running:
            self.open_workspace(folder)

    def _pick_engine_for(self, info: FolderInfo) -> None:
        """A demo copy always opens on the Demo engine (its welcome promises it, offline); the
        person's own folders on the engine they chose. Opening the demo saves no choice."""
        if self.settings.settings is not None:
            self.settings.pick_engine("demo" if info.is_demo else self.settings.settings.engine)

    def open_failed(self, exc: BaseException) -> None:
        message = getattr(exc, "message", None) or getattr(exc, "strerror", None) or str(exc)
        self.notice.show_notice(self.tr("That folder could not be opened: %1").replace(
            "%1", message), tone="attention")
        self.first_folder_settled()

    def show_folder_label(self) -> None:
        self.top_bar.show_folder(self.workspace)

    def show_recent(self) -> None:
        """The recent folders, at once; then, looked for off the UI thread (after the window
        is usable), the ones no longer there are marked "not found"."""
        from app.gui.folder.usable import after_usable  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        settings = self.settings.settings
        recent = list(settings.recent_workspaces) if settings is not None else []
        self.top_bar.show_recent(recent)
        self.welcome.set_recent(recent)
        if recent:
            after_usable(self.window, lambda: run_for(
                self, lambda: {f for f in recent if not _is_folder(f)},
                lambda missing: self._mark_missing(recent, missing), lambda _exc: None))

    def _mark_missing(self, recent: list[str], missing: set[str]) -> None:
        settings = self.settings.settings
        if settings is None or list(settings.recent_workspaces) != recent or not missing:
            return  # the list changed meanwhile: its own look follows
        self.top_bar.show_recent(recent, missing)
        self.welcome.set_recent(recent, missing)

    def forget_recent(self, folder: str) -> None:
        """Take `folder` off the recent folders (the welcome page's "Remove from the list")."""
        from app.gui.folder import first_start  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        if self.settings.settings is not None:
            self.settings.change(first_start.forgotten(self.settings.settings, folder))
            self.show_recent()

    # -- start-up --------------------------------------------------------------------------
    def after_first_folder(self, then: Callable[[], None]) -> None:
        """Call `then` once the first folder is usable (`first_folder_settled`, which the
        window calls then), or has shown it has no tasks to show, or could not be opened:
        the start-up's later work waits for that (app.py)."""
        self._first_folder_done.append(then)
        view = self.page.board_view
        view.board_missing.connect(self.first_folder_settled)
        view.error_raised.connect(self.first_folder_settled)
        view.folder_gone.connect(self.first_folder_settled)
        view.counts_changed.connect(lambda _done, total: None if total or not view.first_read_done
                                    else self.first_folder_settled())  # an empty list, once read

    def first_folder_settled(self, *_args) -> None:
        waiting, self._first_folder_done[:] = list(self._first_folder_done), []
        for then in waiting:
            then()


    def settle(self) -> None:
        """The settings have come: finish what opening the folder before them left undone."""
        from app.gui.folder import first_start  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        info, self._opened_unsettled = self._opened_unsettled, None
        settings = self.settings.settings
        if info is not None and info.folder == self.workspace and settings is not None:
            self._pick_engine_for(info)
            self.settings.change(first_start.remembered(self.settings.settings or settings,
                                                        info.folder))

    # -- the task list ---------------------------------------------------------------------
    def _on_board_missing(self, path) -> None:
        """No TASKS.md (never, or deleted meanwhile): the board offers to create it, and the
        run waits for it. No run can fail on a missing board, so no error is left behind."""
        if not self.runner.running:
            self.page.run_panel.show_no_board()
        self._focus_if_none(self.page.board_view.create_button)

    def _on_board_found(self, path) -> None:
        if self.page.run_panel.mode == "no_board":
            self.page.run_panel.show_ready()
        self._focus_if_none(self.page.board_view.list_view)

    def _focus_if_none(self, widget) -> None:
        """A folder shown with nothing in the window holding the keyboard (opened on start,
        or from the recent list): its first control takes it, so Space or Enter does what
        the page offers, and Tab starts there. Focus the person put somewhere stays."""
        def give(tries: int) -> None:
            held = QApplication.focusWidget()
            if held is not None and held.isVisible() and held.window() is self.window:
                return
            if widget.isVisible() and widget.isEnabled():
                widget.setFocus()  # no Qt namespace here: the first paint builds none
            elif tries:  # the list switches to its page a turn later; on start-up the
                # folder's page is shown once the window is built (up to a second or two)
                QTimer.singleShot(100, widget, lambda: give(tries - 1))

        QTimer.singleShot(0, widget, lambda: give(30))

    def _on_folder_gone(self, _path) -> None:
        """The open folder was moved or deleted: the list says so and offers another folder
        (board/gone_page.py); nothing can run; it leaves the recent folders."""
        from app.gui.folder import first_start  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        if not self.runner.running:  # a run going there ends on its own, and says why
            panel = self.page.run_panel
            panel.show_state(self.tr("This folder is gone"), self.tr(
                "Open another folder to go on."), tone="attention")
            panel.set_mode("no_board")
            panel.show_counts(0, 0)
        settings = self.settings.settings
        if settings is not None and self.workspace is not None:
            self.settings.change(first_start.forgotten(settings, str(self.workspace)))
            self.show_recent()

    def _create_board(self) -> None:
        from app.gui import core_calls  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        root, lang = self.workspace, language.current()  # its template in the window's words
        if root is None:
            return
        self.page.board_notice.hide()
        run_for(self, lambda: core_calls.create_board(root, lang), self._show_created,
                self.board_failed)

    def _show_created(self, board: Path) -> None:
        """The new list, and a word that its tasks are the template's examples: Run would
        otherwise set the AI to work on tasks the person never wrote."""
        self.page.board_view.set_board(board)
        self.page.board_notice.show_notice(self.tr(
            "The tasks on the new list are examples that show how to write one: change them "
            "to what you want done, or delete them (Delete)."))

    def board_failed(self, exc: BaseException) -> None:
        """A read or write of the task list failed: said above the list. A folder gone
        meanwhile is said in the list's place (never made again: core_calls.create_board)."""
        from app.core.errors import FolderGone  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        if isinstance(exc, FolderGone):
            self.page.board_view.show_folder_gone()
            return
        self.show_board_error(getattr(exc, "message", None) or str(exc))

    def show_board_error(self, sentence: str) -> None:
        self.page.board_notice.show_notice(sentence, tone="attention")

    def _show_text_problem(self, sentence: str) -> None:
        """TASKS.md is not text the list reads as it is (board_text): said above the list
        until the file is saved as UTF-8; then the sentence goes."""
        notice = self.page.board_notice
        if sentence:
            self._text_sentence = sentence
            notice.show_notice(sentence, tone="attention")
        elif self._text_sentence and notice.text.text() == self._text_sentence:
            notice.hide()


def _is_folder(text: str) -> bool:
    """Whether a recent folder is still there (off the UI thread: a network drive can hang)."""
    try:
        return Path(text).is_dir()
    except OSError:
        return False
