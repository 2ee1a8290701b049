"""The window's decisions: the `DecisionDialog` for a run that stopped for the person, a
change kept for the board shown with its diff, Continue (which answers a waiting decision
first), and the banner and system notification when a run needs the person or has ended.

A controller the main window composes (see main_window.py), over the run (run_flow.py):
it follows `RunFlow.run_shown` and `run_ended`, and starts runs with `RunFlow.start_run`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QMainWindow

from app.core.run.outcomes import RunState
from app.gui import core_calls
from app.gui.background import run_for
from app.gui.look.slices import GAP_MS, later
from app.gui.words import wording

if TYPE_CHECKING:
    from app.gui.careful.careful_flow import CarefulFlow
    from app.gui.window.workspace_page import WorkspacePage
    from app.gui.look.notice_bar import NoticeBar
    from app.gui.run.decision_dialog import DecisionDialog
    from app.gui.run.notifications import Notifier
    from app.gui.window.folder_flow import FolderFlow
    from app.gui.window.run_flow import RunFlow


_NOT_READ = object()  # a decision's lookups not read with it: its dialog reads them
DIALOG_HOLD_MS = 1000  # the after-usable work waits at most this long for the dialog


class DecisionFlow(QObject):
    """Decisions and the words about a run's end, for the main window."""

    decision_shown = Signal(object)  # the DecisionDialog now on screen

    def __init__(self, window: QMainWindow, run: RunFlow, folder: FolderFlow,
                 page: WorkspacePage, notice: NoticeBar, notifier: Notifier,
                 careful: CarefulFlow):
        super().__init__(window)
        self.window = window  # the dialog's parent
        self.run, self.folder, self.careful = run, folder, careful
        self.panel, self.board_view = page.run_panel, page.board_view
        self.notice = notice
        self.notifier = notifier  # the system notification when the window is behind
        self.decision_dialog: DecisionDialog | None = None
        self._asked_now = False  # the dialog opened by the run's stop: "The AI stopped to ask"
        self._banner = False  # the notice line says a decision waits
        self._opening = 0  # the dialogs asked for: only the latest is made
        run.run_ended.connect(self._notify_run_ended)
        run.run_shown.connect(self._on_run_shown)
        page.board_view.decision_requested.connect(
            lambda task: self.show_decision(getattr(task, "text", None)))

    def _on_run_shown(self, result) -> None:
        if result.state == RunState.BLOCKED_BY_HUMAN:
            self._asked_now = True  # "The AI stopped to ask you:" (else "Your decision:")
            # The rest of the run's end (the notice, the history, the lessons: their reading
            # on the pool held the GIL the dialog's layout waits on) after the dialog shows.
            later().hold(DIALOG_HOLD_MS)
            self.show_decision()

    # -- Continue --------------------------------------------------------------------------
    def continue_run(self) -> None:
        """Continue: a decision that is the next task first (a run would stop at it at once);
        a decision further down waits until the run reaches it."""
        root = self.folder.workspace
        if root is None:
            return
        from app.gui.folder.workspace_info import decision_context  # noqa: PLC0415 - window start-up (bench/startup.py)

        run_for(self, lambda: decision_context(root, next_only=True), self._show_or_run,
                lambda _exc: self.run.start_run())

    def _show_or_run(self, found) -> None:
        task, about = found
        if task is not None and task.is_human:
            self._open_dialog(task, about)
        else:
            self.run.start_run()

    # -- the dialog ------------------------------------------------------------------------
    def show_decision(self, task_text: str | None = None) -> None:
        """Open the dialog for the open decision (the one named, else the first)."""
        from app.gui.folder.workspace_info import decision_context  # noqa: PLC0415 - window start-up (bench/startup.py)

        root = self.folder.workspace
        if root is None:
            return
        run_for(self, lambda: _with_web(root, decision_context(root, task_text)),
                lambda found: self._open_dialog(found[0], found[1], web=found[2]),
                self.folder.board_failed)

    def _open_dialog(self, task, about: str, plain: bool = False,
                     web: object = _NOT_READ) -> None:
        """The dialog for `task`; `web` the lookups it rests on when read with it (else the
        dialog reads them, and grows to take them once on screen)."""
        root = self.folder.workspace
        if task is None or root is None:
            return
        if not plain and "(change " in task.question:
            # A change kept for the board: shown with its diff, answered for it alone.
            run_for(self, lambda: _kept_request(root, task),
                    lambda found: self._open_kept(task, about, *found),
                    self.folder.board_failed)
            return

        # Made on a turn of its own, then shown on another, each at least a turn of the event
        # loop after the last (look/slices.py's GAP_MS): made, shown and first drawn in the
        # turn the run's end was said in, they were one turn of 25-35 ms of the UI thread's
        # own CPU (bench/ui_stall_cold.py --where). Unseen until it is whole.
        self._opening += 1
        ticket = self._opening
        QTimer.singleShot(GAP_MS, self, lambda: self._make_dialog(ticket, root, task, about,
                                                                  web))

    def _make_dialog(self, ticket: int, root: Path, task, about: str, web: object) -> None:
        """Make the dialog asked for, unseen (unless another was asked for since)."""
        if ticket != self._opening or self.folder.workspace != root:
            return
        from app.gui.run.decision_dialog import UNREAD, DecisionDialog  # noqa: PLC0415 - window start-up (bench/startup.py)

        self._close_dialog()
        asked_now, self._asked_now = self._asked_now, False
        dialog = DecisionDialog(task, root, lambda answer: core_calls.decide(root, answer,
                                                                             task.text),
                                self.window, about_task=about, asked_now=asked_now,
                                web=UNREAD if web is _NOT_READ else web)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.answered.connect(self._on_answered)
        dialog.continue_requested.connect(self.continue_run)
        dialog.rewrite_requested.connect(self._rewrite_task)
        dialog.finished.connect(lambda *_: self._forget_dialog(dialog))  # closed: not shown
        dialog.destroyed.connect(lambda *_: self._forget_dialog(dialog))
        self.decision_dialog = dialog
        self._update_banner(task.question)
        QTimer.singleShot(GAP_MS, dialog, lambda: self._show_dialog(dialog))

    def _show_dialog(self, dialog: DecisionDialog) -> None:
        """Show the dialog made a turn before, unless it was closed or replaced since."""
        if self.decision_dialog is not dialog or dialog.isVisible():
            return
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        self.decision_shown.emit(dialog)
        QTimer.singleShot(0, self, later().release)  # after its first paint

    def _rewrite_task(self, text: str) -> None:
        """Open the stuck task for editing in the list ("Rewrite the task")."""
        rows = [t.index for t in self.board_view.tasks() if t.text == text and not t.checked]
        if rows:
            self.board_view.list_view.setFocus()
            self.board_view.edit_task(rows[0])

    def _open_kept(self, task, about: str, request, is_ai: bool = True) -> None:
        if request is None:  # no longer kept, or the file changed since: the plain question
            self._open_dialog(task, about, plain=True)
            return
        self._opening += 1  # a dialog asked for before this is not made
        self._close_dialog()
        from app.gui.words.careful_words import board_question  # noqa: PLC0415 - window start-up (bench/startup.py)

        self._update_banner(board_question(task) or task.question)
        self.careful.show_kept(task, request, self._on_kept_answered, is_ai=is_ai)

    def _on_kept_answered(self, answer: str) -> None:
        self._hide_banner()
        self.continue_run()  # answering carries on, as a decision does

    def _close_dialog(self) -> None:
        """Close the dialog open (or made and not yet shown): it is no longer the one."""
        dialog, self.decision_dialog = self.decision_dialog, None
        if dialog is not None:
            dialog.close()

    def _forget_dialog(self, dialog) -> None:
        if self.decision_dialog is dialog:
            self.decision_dialog = None

    def _on_answered(self, answer: str) -> None:
        self._hide_banner()
        dialog = self.decision_dialog
        if dialog is not None and not dialog.needs_the_person(answer):
            return  # the dialog carries on at once (continue_requested)
        if not self.run.runner.running:
            self.panel.show_state(self.tr("Answered: %1").replace("%1", answer),
                                  self.tr("Press Continue to carry on."))
            self.panel.set_mode("continue")

    # -- the banner and the notification ---------------------------------------------------
    def _decision_words(self, question: str) -> str:
        return (self.tr("Your decision is needed: %1").replace("%1", question)
                if question else self.tr("Your decision is needed."))

    def _update_banner(self, question: str) -> None:
        """The banner about a waiting decision names its question (known once it is open)."""
        if self._banner and question:
            self.notice.show_notice(self._decision_words(question), self.tr("Answer…"),
                                    self.show_decision, tone="attention")

    def _hide_banner(self) -> None:
        if self._banner:
            self._banner = False
            self.notice.hide()

    def _notify_run_ended(self, result) -> None:
        run = self.run
        if run.close_after_stop:
            return
        task = run.last_human.task if run.last_human else ""
        engine_id, model = run.run_engine or ("", "")
        headline, _hint = wording.finished(result.state, result.exit_reason, task,
                                           engine_id=engine_id, model=model,
                                           cause=getattr(result, "cause", ""))
        if result.state == RunState.BLOCKED_BY_HUMAN:
            question = run.last_human.question if run.last_human else ""
            title = self.tr("Harness Desk needs your decision")
            self._banner = True
            self.notifier.notify(title, self._decision_words(question), self.tr("Answer…"),
                                 self.show_decision, attention=True)
            return
        root = self.folder.workspace
        folder = root.name if root else ""
        title = self.tr("Harness Desk: the run has ended")
        text = self.tr("The run in “%1” has ended: %2.").replace("%1", folder).replace(
            "%2", headline)
        self.notifier.notify(title, text, attention=result.state != RunState.DONE)


def _kept_request(root, task) -> tuple:
    """The kept change the board's question names, as the approval dialog shows it (None
    when it is no longer kept or can no longer be made), and whether an AI engine proposed
    it (not the Demo engine: the dialog then names it), off the UI thread."""
    from app.core.policies import pending  # noqa: PLC0415 - window start-up (bench/startup.py)
    from app.core.records.records import read_run  # noqa: PLC0415 - window start-up (bench/startup.py)
    from app.core.workspace.workspace import Workspace  # noqa: PLC0415 - window start-up (bench/startup.py)

    ws = Workspace(root)
    kept = pending.find(ws.harness_dir / "pending", pending.marker_of(task.question))
    if kept is None:
        return None, True
    run = read_run(ws.run_dir(kept.run_id)) if kept.run_id else None
    is_ai = bool(run.is_ai and run.engine != "demo") if run else True
    return pending.kept_request(root, kept), is_ai


def _with_web(root, found: tuple) -> tuple:
    """The decision and its task, with the lookups of the round that asked it (off the UI
    thread): the dialog then lays them out once, before it shows, rather than growing to take
    them just after (a second layout of it, with its focus ring: 20-27 ms of the UI thread's
    own CPU in bench/ui_stall_cold.py --where)."""
    from app.gui.evidence.sources_view import asked_round_web  # noqa: PLC0415 - off the UI thread: reads records
    import app.gui.run.decision_dialog  # noqa: F401, PLC0415 - off the UI thread: the dialog's module, not imported in its first opening (start-up's warm-up may not have come yet)

    task, about = found
    if task is None or "(change " in task.question:
        return task, about, None  # no dialog, or a kept change's: no lookups to show
    try:
        web = asked_round_web(root, task.question)
    except Exception:  # noqa: BLE001 - records not readable: nothing looked up to show, as the dialog does
        return task, about, None
    return task, about, web
