"""The main window's keyboard shortcuts: how its menu actions are made, and why these keys.

Ctrl+O open a folder, Ctrl+N new task, Ctrl+Shift+N plan with AI (tasks proposed for a
goal: new tasks, hence beside Ctrl+N), Ctrl+E export, Ctrl+R run or continue, Ctrl+. stop,
Ctrl+D answer the open decision (Cmd on a Mac). Ctrl+R presses the run panel's filled button
when it runs, continues, or (after the Demo showed samples) opens the choice of an AI engine;
while a decision waits it is greyed, Ctrl+D being the next step. Stop is deliberately not Esc: Esc closes
dialogs and cancels an edit in the checklist, and a stray Esc must never stop the AI; Ctrl+.
is the Mac's own "cancel the operation". Ctrl+R does not also stop, so pressing it twice
never undoes the first press. None of these clash with the checklist's keys (Space, Enter,
F2, Alt+Up/Down, Delete, Ctrl+Z), which only work while the list has the focus. The menus
show each shortcut; tooltips name it too.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from app.gui.look import icons


def add_action(menu: QMenu, text: str, slot: Callable[[], object],
               keys: QKeySequence.StandardKey | str | None = None, icon: str = "") -> QAction:
    """An action in `menu`, owned by the window, with its shortcut and SVG icon."""
    action = QAction(text, menu.parent())
    if keys is not None:
        action.setShortcut(QKeySequence(keys))
    if icon:
        icons.set_icon(action, icon)
    action.triggered.connect(slot)
    menu.addAction(action)
    return action


# The run panel's modes whose filled button Ctrl+R presses: Run, Continue, and after a Demo
# run that showed samples "Choose an AI engine…" (the next step it names).
PRIMARY_MODES = ("run", "continue", "choose_engine")


def press_primary(panel, modes: tuple[str, ...]) -> None:
    """Press the run panel's one button, if it now does what the shortcut names."""
    if panel.mode in modes and panel.primary.isEnabled():
        panel.primary.click()


def open_schedule(window) -> None:
    """The schedule's dialog: its controller is made after the folder is usable on start-up
    (main_window.finish_rest), so made now if the menu is used before."""
    window.finish_rest()
    window.schedules.open_dialog()


def build_menus(window) -> None:
    """The main window's menus (File, Run, Help), over its controllers (main_window.py).
    Their words are the window's ("MainWindow" in the translations)."""
    folder, run, decisions = window.folder_flow, window.run_flow, window.decision_flow
    plans, evidence = window.plan_flow, window.evidence_flow
    panel = window.run_panel
    file_menu = window.menuBar().addMenu(QCoreApplication.translate("MainWindow", "&File"))
    window.open_action = add_action(
        file_menu, QCoreApplication.translate("MainWindow", "&Open folder…"),
        folder.choose_folder, QKeySequence.StandardKey.Open, "open-folder")
    file_menu.addMenu(window.recent_menu)
    add_action(file_menu, QCoreApplication.translate("MainWindow",
                                                     "Open a fresh copy of the &demo"),
               folder.open_demo)
    file_menu.addSeparator()
    window.new_task_action = add_action(
        file_menu, QCoreApplication.translate("MainWindow", "&New task"), window.focus_new_task,
        QKeySequence.StandardKey.New)
    window.plan_action = add_action(
        file_menu, QCoreApplication.translate("MainWindow", "&Plan with AI…"),
        lambda: plans.open_plan(), "Ctrl+Shift+N")
    window.export_action = add_action(
        file_menu, QCoreApplication.translate("MainWindow", "&Export summary…"),
        evidence.export_summary, "Ctrl+E", "export")
    file_menu.addSeparator()
    add_action(file_menu, QCoreApplication.translate("MainWindow", "&Quit"), window.close,
               QKeySequence.StandardKey.Quit)
    run_menu = window.menuBar().addMenu(QCoreApplication.translate("MainWindow", "&Run"))
    window.primary_action = add_action(
        run_menu, QCoreApplication.translate("MainWindow", "&Run or continue"),
        lambda: press_primary(panel, PRIMARY_MODES), "Ctrl+R", "run")
    window.stop_action = add_action(
        run_menu, QCoreApplication.translate("MainWindow", "&Stop"),
        lambda: press_primary(panel, ("running",)) if panel.mode == "running" else
        run.stop_run(), "Ctrl+.", "stop")
    window.decision_action = add_action(
        run_menu, QCoreApplication.translate("MainWindow", "Answer the open &decision…"),
        lambda: decisions.show_decision(), "Ctrl+D", "decision")
    window.history_action = add_action(
        run_menu, QCoreApplication.translate("MainWindow", "Run &history"),
        evidence.show_history)
    window.history_action.setToolTip(QCoreApplication.translate(
        "MainWindow", "Every earlier run of this folder: pick one to see its rounds"))
    window.lessons_action = add_action(
        run_menu, QCoreApplication.translate("MainWindow", "&Lessons from this folder's runs…"),
        evidence.show_lessons)
    window.schedule_action = add_action(
        run_menu, QCoreApplication.translate("MainWindow", "Run this folder on a s&chedule…"),
        lambda: open_schedule(window))
    help_menu = window.menuBar().addMenu(QCoreApplication.translate("MainWindow", "&Help"))
    window.about_action = add_action(
        help_menu, QCoreApplication.translate("MainWindow", "&About Harness Desk…"),
        window.show_about)
    window.about_action.setMenuRole(window.about_action.MenuRole.AboutRole)
    _keep_states(window, (file_menu, run_menu))


# -- what each action can do now ----------------------------------------------------------------

def _states(window) -> dict[str, str]:
    """Each action that cannot act now, by its attribute on the window, with why (one
    sentence the person can act on). Cheap: no disk, read from what the window shows."""
    runner, panel = window.runner, window.run_panel
    needs_folder = ("new_task_action", "plan_action", "export_action", "primary_action",
                    "stop_action", "decision_action", "history_action", "lessons_action",
                    "schedule_action")
    if window.folder_flow.workspace is None:
        return dict.fromkeys(needs_folder, QCoreApplication.translate(
            "MainWindow", "Open a folder first (Ctrl+O)."))
    off: dict[str, str] = {}
    if not runner.running:
        off["stop_action"] = QCoreApplication.translate("MainWindow",
                                                        "Nothing is running now.")
    elif runner.stopping or panel.mode == "stopping":
        off["stop_action"] = QCoreApplication.translate("MainWindow",
                                                        "Stopping after this step…")
    if runner.running:
        off["primary_action"] = QCoreApplication.translate(
            "MainWindow", "The AI is working now: Stop ends the run (Ctrl+.).")
    if not panel.export_button.isEnabled():  # no run in this folder yet: nothing to tell
        off["export_action"] = QCoreApplication.translate(
            "MainWindow", "Nothing to export yet: the summary tells what a run did.")
    if not runner.running and panel.mode == "answer":  # its button answers: Ctrl+D does that
        off["primary_action"] = QCoreApplication.translate(
            "MainWindow", "A decision is waiting for you: answer it first (Ctrl+D).")
    tasks = window.board_view.tasks()
    if not any(t.is_human and not t.checked for t in tasks):
        off["decision_action"] = QCoreApplication.translate(
            "MainWindow", "No decision is waiting for you.")
    if window.board_view.has_no_board:  # Run is greyed, and there is no "Add a task…" yet
        off["primary_action"] = off["new_task_action"] = QCoreApplication.translate(
            "MainWindow", "This folder has no task list yet: create one on the left, or "
            "Plan with AI (Ctrl+Shift+N).")
    elif window.board_view.unreadable:  # said above the list: save it as UTF-8
        off["primary_action"] = off["new_task_action"] = QCoreApplication.translate(
            "MainWindow", "The task list cannot be read: save TASKS.md as UTF-8 first.")
    elif not runner.running and not any(not t.checked for t in tasks):
        off["primary_action"] = QCoreApplication.translate(
            "MainWindow", "There is no task left to do: add one first (Ctrl+N).")
    return off


def refresh_states(window) -> None:
    """Enable each menu action that can act now; a disabled one says why in its tooltip and
    status tip (its usual tooltip when enabled)."""
    off = _states(window)
    for name in ("new_task_action", "plan_action", "export_action", "primary_action",
                 "stop_action", "decision_action", "history_action", "lessons_action",
                 "schedule_action"):
        action: QAction = getattr(window, name)
        if action.property("usual_tip") is None:  # its own tip, or none ("": Qt's, the text)
            own = action.toolTip()
            action.setProperty("usual_tip", "" if own == action.text().replace("&", "") else own)
        why = off.get(name, "")
        action.setEnabled(not why)
        action.setToolTip(why or action.property("usual_tip"))
        action.setStatusTip(why)


def _keep_states(window, menus: tuple[QMenu, ...]) -> None:
    """Refresh the states when a menu opens and at once when what they depend on changes
    (a folder shown, a run begun or ended: the board is told of both, the checklist changed),
    so a shortcut pressed next finds its action as it should be; on a run's events (many a
    second) once per turn of the event loop, in case its start was missed."""
    timer = QTimer(window)
    timer.setSingleShot(True)
    timer.setInterval(0)
    timer.timeout.connect(lambda: refresh_states(window))
    for menu in menus:
        menu.setToolTipsVisible(True)  # a greyed action says why when the pointer rests on it
        menu.aboutToShow.connect(lambda: refresh_states(window))
    panel, runner = window.run_panel, window.runner
    for signal in (panel.run_requested, panel.continue_requested, panel.stop_requested,
                   runner.run_finished, window.run_ended, window.folder_flow.folder_shown,
                   window.folder_flow.workspace_opened, window.board_view.tasks_changed):
        signal.connect(lambda *_: refresh_states(window))
    runner.event_received.connect(timer.start)
    refresh_states(window)
