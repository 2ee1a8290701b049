"""How the main window is put together: its controllers made, each given the widgets it
drives and the controllers it asks, and their signals wired to one another (`compose`); and
how the window's public names reach them (`Forward`).

The controllers, lower ones first (each may ask the ones above it, never one below):

    SettingsFlow   the person's settings, the engines' choice and setup, the layout
    FolderFlow     the open folder (`workspace`), opening one, its task list, the start-up
    RunFlow        Run and Stop, the run's events and its ending
    DecisionFlow   the decisions a run stops for, and the notices when a run ends
    PlanFlow       Plan with AI, and Suggest next tasks after a finished run
    EvidenceFlow   the run history, undo, export and lessons

beside the part controllers they share: CarefulFlow (careful mode and approvals),
HistoryFlow (the run history over the rounds) and ScheduleFlow (the folder's schedule).
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any

from app.gui.window.folder_flow import FolderFlow

if TYPE_CHECKING:
    from app.gui.window.workspace_page import WorkspacePage


class Forward:
    """A name of the window that is a controller's (or a widget's): read, and set, there."""

    def __init__(self, path: str, writable: bool = False):
        self.path, self.writable = path, writable
        owner, _, self.last = path.rpartition(".")
        self.owner = attrgetter(owner)

    def __get__(self, window: Any, _type: type | None = None) -> Any:
        return self if window is None else getattr(self.owner(window), self.last)

    def __set__(self, window: Any, value: Any) -> None:
        if not self.writable:
            raise AttributeError(f"{self.path} is set by its controller")
        setattr(self.owner(window), self.last, value)


def compose(window: Any, page: WorkspacePage) -> None:
    """The main window's controllers, each given what it drives, and their signals wired
    (main_window.finish_building, once its widgets are made). `window` is the MainWindow
    (not named: main_window.py imports this module)."""
    from app.gui.careful.careful_flow import CarefulFlow  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    from app.gui.look import theme  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    from app.gui.run.history_picker import HistoryFlow  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    from app.gui.run.notifications import Notifier  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    from app.gui.window.decision_flow import DecisionFlow  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    from app.gui.window.evidence_flow import EvidenceFlow  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    from app.gui.window.plan_flow import PlanFlow  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    from app.gui.window.run_flow import RunFlow  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    from app.gui.window.settings_flow import SettingsFlow  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    from app.gui.window_menus import build_menus  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

    runner, board, panel = window.runner, page.board_view, page.run_panel
    window.scheme = theme.follow_system_scheme(window)
    notifier = Notifier(window, window.notice)
    window.careful = CarefulFlow(window, panel, window.notice, runner, notifier)
    settings = window.settings_flow = SettingsFlow(window, window.top_bar.picker, window.notice,
                                                 panel, window.scheme, window.careful)
    folder = window.folder_flow = FolderFlow(window, window.pages, settings, runner, window.top_bar,
                                           window._welcome, page, window.notice, window.warm_up)
    history = HistoryFlow(window, page.history_picker, page.cards, runner, window.careful)
    run = window.run_flow = RunFlow(window, settings, folder, runner, page, window.notice,
                                  window.top_bar.open_button, history, window.careful,
                                  window._demo_delay)
    decisions = window.decision_flow = DecisionFlow(window, run, folder, page, window.notice,
                                                  notifier, window.careful)
    plans = window.plan_flow = PlanFlow(window, settings, folder, run, page)
    evidence = window.evidence_flow = EvidenceFlow(window, folder, run, history, page,
                                                 window.notice)
    runner.run_finished.connect(plans.offer_next_tasks)
    run.run_ended.connect(window.run_ended)
    decisions.decision_shown.connect(window.decision_shown)
    folder.folder_shown.connect(lambda info: settings.folder_opened(info.folder))
    folder.folder_shown.connect(lambda info: history.folder_opened(info.folder, list_now=False))
    folder.folder_shown.connect(lambda info: window.careful.folder_opened(info.folder))
    folder.workspace_opened.connect(window.workspace_opened)
    settings.picker.engine_changed.connect(run.update_demo_samples)
    settings.engine_shown.connect(run.update_demo_samples)  # chosen elsewhere: the settings
    board.counts_changed.connect(panel.show_counts)
    board.counts_changed.connect(plans.withdraw_next_tasks_offer)
    board.tasks_changed.connect(run.update_demo_samples)
    panel.run_requested.connect(run.start_run)
    panel.continue_requested.connect(decisions.continue_run)
    panel.stop_requested.connect(run.stop_run)
    panel.export_requested.connect(evidence.export_summary)
    panel.lessons_requested.connect(evidence.show_lessons)
    panel.answer_requested.connect(lambda: decisions.show_decision())
    panel.review_requested.connect(lambda: window.careful.show_dialog())
    panel.add_task_requested.connect(window.focus_new_task)
    panel.choose_engine_requested.connect(run.choose_engine)
    panel.engine_settings_requested.connect(
        lambda engine_id: settings.open_engine_settings(engine_id or None))
    # A task without a "Web:" line follows the folder's default.
    window.careful.folder_settings_known.connect(
        lambda folder_settings: board.set_web_default(folder_settings.web))
    build_menus(window)
    settings.install(window.menuBar().actions()[0].menu(), window.top_bar)


def compose_schedule(window: Any, page: WorkspacePage) -> None:
    """The folder's schedule (its line under the run panel), once compose has run: made after
    the folder is usable on start-up (main_window.finish_rest), so it is told of a folder
    already shown."""
    from app.gui.folder.schedule_flow import ScheduleFlow  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

    settings = window.settings_flow
    window.schedules = ScheduleFlow(window, page.run_panel, window.notice, lambda: settings.settings,
                                    window.workspace_opened)
    if window.folder_flow.opened_folder is not None:
        window.schedules.folder_opened(window.folder_flow.opened_folder)
