"""How the window plans: "Plan with AI" and "Suggest next tasks".

A controller the main window composes (see main_window.py): it opens the PlanDialog with the
engine chosen in the window, puts a card for each planning round among the rounds, shows the
board again once the person has added tasks, and after a run that finished every task offers
"Suggest next tasks" (`offer_next_tasks`, withdrawn by `withdraw_next_tasks_offer`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QMainWindow

from app.core.run.outcomes import RunState
from app.gui import core_calls

if TYPE_CHECKING:
    from app.gui.plan.plan_dialog import PlanDialog
    from app.gui.window.workspace_page import WorkspacePage
    from app.gui.window.folder_flow import FolderFlow
    from app.gui.window.run_flow import RunFlow
    from app.gui.window.settings_flow import SettingsFlow


class PlanFlow(QObject):
    """Planning with the AI, for the main window."""

    def __init__(self, window: QMainWindow, settings: SettingsFlow, folder: FolderFlow,
                 run: RunFlow, page: WorkspacePage):
        super().__init__(window)
        self.window = window  # the dialog's parent
        self.settings, self.folder, self.run = settings, folder, run
        self.picker = settings.picker
        self.board_view, self.board_notice, self.cards = (page.board_view, page.board_notice,
                                                          page.cards)
        self.plan_dialog: PlanDialog | None = None
        self._kept_plan: tuple | None = None  # (root, mode, goal, note, proposals) kept
        self._next_tasks_offer: str | None = None  # the offer on the board's notice line
        page.board_view.plan_requested.connect(lambda: self.open_plan())

    def open_plan(self, mode: str = "goal"):
        """Open Plan with AI ("next": Suggest next tasks) on the open folder; the dialog."""
        root = self.folder.workspace
        if root is None or self.settings.settings is None:
            return None

        from app.gui.plan.plan_dialog import PlanDialog  # noqa: PLC0415 - window start-up (bench/startup.py)

        if self.plan_dialog is not None:
            self.plan_dialog.close()
        settings = self.settings.settings.model_copy(deep=True)
        engine_id, model = self.picker.engine_id, self.picker.model_name
        delay = self.run.demo_delay_s()
        choice = next((c for c in core_calls.engine_choices() if c.id == engine_id), None)
        label = self.picker.combo.currentText() or engine_id  # as the window names it
        is_ai = choice.is_ai if choice is not None else True
        dialog = PlanDialog(root, lambda: core_calls.build_engine(
            settings, root, engine_id, model=model, demo_delay=delay),
            core_calls.run_limits(settings), label, self.window, mode=mode, engine_is_ai=is_ai)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.tasks_added.connect(self._on_plan_added)
        dialog.planned.connect(lambda goal, outcome, seconds: self._on_planned(
            goal, outcome, seconds, is_ai))
        dialog.destroyed.connect(lambda *_: self._forget_plan_dialog(dialog))
        dialog.proposals_kept.connect(lambda goal, note, proposals: self._keep_proposals(
            root, mode, goal, note, proposals))
        kept = self._kept_plan
        if kept is not None and kept[0] == root and kept[1] == mode:
            dialog.show_kept(*kept[2:])  # the proposals of last time, until added or dismissed
        self.plan_dialog = dialog
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        if kept is not None and kept[0] == root and kept[1] == mode:
            dialog.list.tree.setFocus()
        elif mode == "next":
            dialog.start_planning()
        else:
            dialog.goal.setFocus()
        return dialog

    def _keep_proposals(self, root, mode: str, goal: str, note: str, proposals: list) -> None:
        """Proposals closed without adding are kept (for this folder) until added or
        dismissed, and the window says so once."""
        if not proposals:
            self._kept_plan = None
            return
        self._kept_plan = (root, mode, goal, note, list(proposals))
        if root == self.folder.workspace:  # said short: whole in two lines above the list
            self.board_notice.show_notice(  # at 800x600; its button says how to see them
                self.tr("The proposed tasks are kept."), self.tr("Show them"),
                lambda: self.open_plan(mode))

    def _forget_plan_dialog(self, dialog) -> None:
        if self.plan_dialog is dialog:
            self.plan_dialog = None

    def _on_planned(self, goal: str, outcome, seconds: float, is_ai: bool) -> None:
        if not outcome.plan_id:
            return  # planning never began (no engine): nothing was recorded
        if not outcome.ok and not outcome.steps:
            return  # a try that did nothing leaves no empty "0 steps" card among the rounds
        from app.gui.plan.plan_card import PlanCard  # noqa: PLC0415 - window start-up (bench/startup.py)

        self.cards.add_other(PlanCard(goal, len(outcome.proposals) if outcome.ok else None,
                                      outcome.steps, seconds,
                                      outcome.cost_usd if is_ai else None,
                                      upper=outcome.cost_is_upper_estimate))

    def _on_plan_added(self, count: int) -> None:
        self._kept_plan = None  # added: nothing is kept any more
        root = self.folder.workspace
        if root is None:
            return
        self.board_view.set_board(root / "TASKS.md")  # a new board, or the longer one
        words = (self.tr("Added 1 task to your list. Press Run when you are ready.") if count == 1
                 else self.tr("Added %1 tasks to your list. Press Run when you are ready.")
                 .replace("%1", str(count)))
        self.board_notice.show_notice(words, passing=True)  # also read out to a screen reader

    def offer_next_tasks(self, result) -> None:
        """After a run that finished every task: offer to suggest what comes next."""
        if result.state != RunState.DONE or self.folder.workspace is None:
            return
        offer = self.tr("Every task is done.")  # whole at 800x600: the button is the offer
        self.board_notice.show_notice(offer, self.tr("Suggest next tasks"),
                                      lambda: self.open_plan("next"))
        self._next_tasks_offer = offer

    def withdraw_next_tasks_offer(self, done: int, total: int) -> None:
        """A task unticked or added after that offer: every task is no longer done."""
        notice, offer = self.board_notice, self._next_tasks_offer
        if offer and done < total and notice.isVisible() and notice.text.text() == offer:
            self._next_tasks_offer = None
            notice.hide()
