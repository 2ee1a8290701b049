"""How the window opens folders: the folder picker, the demo copy, a dropped folder, what a
folder shows when it opens, and creating its task list.

A mixin of `MainWindow` (like run_flow.py), which provides the pages, `notice`, `settings`,
`runner` and the `workspace_opened` signal.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.gui.folder.workspace_info import FolderInfo

APP_TITLE = "Harness Desk"


class FolderFlow:
    """Opening folders and their boards, for `MainWindow`."""

    def choose_folder(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        start = str(self.workspace.parent) if self.workspace else str(Path.home())
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open a folder"), start)
        if folder:
            self.open_workspace(Path(folder))

    def open_demo(self) -> None:
        from app.gui.folder import first_start
        from app.gui.settings import language
        from app.gui.background import run_for

        lang = language.current()
        run_for(self, lambda: first_start.demo_copy(fresh=True, lang=lang), self.open_workspace,
                self._on_open_failed)

    def open_workspace(self, path: Path) -> None:
        """Show a folder (a file means its folder). Checked and read off the UI thread."""
        from app.gui.background import run_for

        self.finish_building()
        if self.runner.running:
            self.notice.show_notice(self.tr("A run is going in %1. Stop it before opening "
                                            "another folder.").replace(
                "%1", self.workspace.name if self.workspace else ""), tone="attention")
            return

        def inspect():
            from app.gui.folder.workspace_info import inspect_quickly

            return inspect_quickly(Path(path))

        run_for(self, inspect, self._on_folder_inspected, self._on_open_failed)

    def _on_folder_inspected(self, info: FolderInfo) -> None:
        from app.gui.folder import first_start
        from app.gui.folder.usable import after_usable

        after_usable(self, self.warm_up)  # after this page is shown (a no-op after the first)

        if info.problem:
            words = {
                "missing": self.tr("%1 does not exist (any more)."),
                "not_a_folder": self.tr("%1 is not a folder."),
                "board_is_folder": self.tr("%1 has a folder called TASKS.md where the task list "
                                           "should be. Rename that folder, then open this one "
                                           "again."),
            }[info.problem].replace("%1", str(info.folder))
            self.notice.show_notice(words, tone="attention")
            if info.problem == "missing" and self.settings is not None:
                self.settings = first_start.forgotten(self.settings, str(info.folder))
                self._save_settings()
            return
        self.notice.hide()
        self.board_notice.hide()
        self.workspace = info.folder
        self.setWindowTitle(f"{info.folder.name} — {APP_TITLE}")
        self._show_folder_label()
        self.pages.setCurrentWidget(self.splitter)
        self.board_view.set_board(info.folder / "TASKS.md", info.board)
        self.run_panel.reset()
        self.cards.show_history([])  # the earlier rounds come once the checklist is shown
        self._last_run_started = None
        self.run_panel.export_button.setEnabled(not info.never_run)
        self._pick_engine_for(info)
        self.run_panel.demo_samples = False  # known once the list is read (tasks_changed)
        self.run_panel.show_folder(info)
        self.history.folder_opened(info.folder, list_now=False)  # with the cards
        self.careful.folder_opened(info.folder)
        if self.settings is not None:
            self.settings = first_start.remembered(self.settings, info.folder)
            self._save_settings()
            self._show_recent()
        from app.gui.folder.folder_history import show_history_later

        show_history_later(self, info)  # then workspace_opened

    def _pick_engine_for(self, info: FolderInfo) -> None:
        """A demo copy always opens on the Demo engine (its welcome promises it, offline); the
        person's own folders on the engine they chose. Opening the demo saves no choice."""
        if self.settings is None:
            return
        wanted = "demo" if info.is_demo else self.settings.engine
        if self.picker.engine_id != wanted:
            self.picker.select(wanted, {k: v.model for k, v in self.settings.engines.items()})
            self._on_readiness_checked(wanted)

    def _on_open_failed(self, exc: BaseException) -> None:
        message = getattr(exc, "message", None) or getattr(exc, "strerror", None) or str(exc)
        self.notice.show_notice(self.tr("That folder could not be opened: %1").replace(
            "%1", message), tone="attention")

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

    def _show_folder_label(self) -> None:
        self.top_bar.show_folder(self.workspace)

    def _show_recent(self) -> None:
        recent = self.settings.recent_workspaces if self.settings is not None else []
        self.top_bar.show_recent(recent)
        if self._welcome is not None:
            self._welcome.set_recent(recent)

    def _on_board_missing(self, path) -> None:
        """No TASKS.md (never, or deleted meanwhile): the board offers to create it, and the
        run waits for it. No run can fail on a missing board, so no error is left behind."""
        if not self.runner.running:
            self.run_panel.show_no_board()

    def _on_board_found(self, path) -> None:
        if self.run_panel.mode == "no_board":
            self.run_panel.show_ready()

    def _create_board(self) -> None:
        from app.gui import core_calls
        from app.gui.background import run_for

        root = self.workspace
        if root is None:
            return
        self.board_notice.hide()
        run_for(self, lambda: core_calls.create_board(root),
                lambda board: self.board_view.set_board(board), self._on_board_failed)

    def _on_board_failed(self, exc: BaseException) -> None:
        self._on_board_error(getattr(exc, "message", None) or str(exc))

    def _on_board_error(self, sentence: str) -> None:
        self.board_notice.show_notice(sentence, tone="attention")

    def _on_counts_changed(self, done: int, total: int) -> None:
        self.run_panel.show_counts(done, total)
        self._withdraw_next_tasks_offer(done, total)

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

