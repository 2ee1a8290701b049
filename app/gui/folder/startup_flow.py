"""The window's start-up, for `MainWindow`: a folder named on the command line is shown
before the person's settings have loaded (app.py), and this is what makes that safe.

The settings (pydantic, a few hundred milliseconds on a busy machine) load once the folder
is usable (`after_first_folder`); meanwhile a press of Run waits for them rather than being
lost, and once they come the open folder is remembered among the recent ones and gets the
engine the person chose (`_settle_opened_folder`), as a folder opened after them would.
"""

from __future__ import annotations

import importlib
import sys

from app.gui.background import run_for

# What pressing Run imports (run_flow.start_run): the harness's calls, and the budget rules.
RUN_NEEDS = ("app.gui.core_calls", "app.gui.settings.budget_rules")


class StartupFlow:
    """Opening the first folder ahead of the settings, for `MainWindow`."""

    def start_run(self) -> None:
        """Run, or, pressed in the moment between the folder on screen and the person's
        settings loaded (app.py opens a named folder first), run as soon as they are. The
        harness a run needs (RUN_NEEDS) is imported off the UI thread first, where the
        start-up's warm-up has not done it yet: imported by the press itself, it held the
        window still for 100 ms or more (bench/ui_stall_cold.py)."""
        if self.settings is None and self.workspace is not None:
            self._run_when_settled = True
            return
        missing = [name for name in RUN_NEEDS if name not in sys.modules]
        if missing:
            if not self._importing_for_run:
                self._importing_for_run = True
                run_for(self, lambda: [importlib.import_module(m) for m in missing],
                        self._imported_for_run, self._imported_for_run)
            return
        super().start_run()

    def _imported_for_run(self, _result=None) -> None:
        self._importing_for_run = False
        super().start_run()  # an import that failed fails again here, and says so

    def _on_folder_inspected(self, info) -> None:
        if self.settings is None and not info.problem:
            self._opened_unsettled = info  # apply_settings remembers it and picks its engine
        super()._on_folder_inspected(info)
        if info.problem:
            self._first_folder_settled()

    def _on_open_failed(self, exc: BaseException) -> None:
        super()._on_open_failed(exc)
        self._first_folder_settled()

    def after_first_folder(self, then) -> None:
        """Call `then` once the first folder is usable, or has shown it has no tasks to show,
        or could not be opened: the start-up's later work waits for that (app.py)."""
        self._first_folder_done.append(then)
        self.finish_building()
        self.became_usable.connect(self._first_folder_settled)
        view = self.board_view
        view.board_missing.connect(self._first_folder_settled)
        view.error_raised.connect(self._first_folder_settled)
        view.counts_changed.connect(lambda _done, total: total or self._first_folder_settled())

    def _first_folder_settled(self, *_args) -> None:
        waiting, self._first_folder_done[:] = list(self._first_folder_done), []
        for then in waiting:
            then()

    def _settle_opened_folder(self) -> None:
        """The settings have come (apply_settings): finish what opening the folder before
        them left undone, and start the run pressed meanwhile."""
        from PySide6.QtCore import QTimer

        from app.gui.folder import first_start

        info, self._opened_unsettled = self._opened_unsettled, None
        if info is not None and info.folder == self.workspace:
            self._pick_engine_for(info)
            self.settings = first_start.remembered(self.settings, info.folder)
            self._save_settings()
        if self._run_when_settled:
            self._run_when_settled = False
            QTimer.singleShot(0, self.start_run)
