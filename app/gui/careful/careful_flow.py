"""Careful mode in the main window: the switch beside Run, the folder's safety settings,
and the approval dialog when the run asks.

The switch and the protected paths are the folder's own settings (.harness/folder.json),
read and written off the UI thread. When a policy asks, the run thread waits on the
`WindowApprover`; the dialog opens, the banner says a change waits, and a system
notification finds the person when the window is behind. Closing the dialog answers
nothing: the banner's Review opens it again. Stop, or closing the window, withdraws the
question: the run keeps the change unapplied and puts the question on the board. Such a
kept change, opened from the board, comes back in the same dialog (`show_kept`): its answer
is written for that change alone, never for another.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QCheckBox

from app.gui.look import look
from app.gui.background import run_for
from app.gui.careful.window_approver import Question, WindowApprover

if TYPE_CHECKING:  # pydantic: loaded with the first folder, not while the window is built
    from PySide6.QtWidgets import QMainWindow

    from app.core.workspace.folder_settings import FolderSettings
    from app.gui.look.notice_bar import NoticeBar
    from app.gui.run.notifications import Notifier
    from app.gui.run.run_panel import RunPanel
    from app.gui.run.runner import RunRunner


# folder_settings.FILE_NAME, named here so that a folder without it opens without pydantic
# (tests/gui/test_startup_reads.py holds the two alike).
FOLDER_FILE = "folder.json"


def _load(root: Path) -> FolderSettings | None:
    """The folder's settings, or None when it has none of its own (the defaults)."""
    from app.core.workspace.workspace import Workspace  # noqa: PLC0415 - window start-up (bench/startup.py)

    harness = Workspace(root).harness_dir
    if not (harness / FOLDER_FILE).exists():
        return None
    from app.core.workspace.folder_settings import (  # noqa: PLC0415 - window start-up (bench/startup.py)
        load_folder_settings)

    return load_folder_settings(harness)


def _change(root: Path, update: dict) -> FolderSettings:
    """Read, change and save the folder's settings in one go (on a worker thread)."""
    from app.core.workspace.folder_settings import (  # noqa: PLC0415 - window start-up (bench/startup.py)
        FolderSettings, load_folder_settings, save_folder_settings)
    from app.core.workspace.workspace import Workspace  # noqa: PLC0415 - window start-up (bench/startup.py)

    ws = Workspace(root)
    current = load_folder_settings(ws.harness_dir)
    changed = current.model_copy(update=update)
    changed = FolderSettings.model_validate(changed.model_dump())
    ws.ensure_harness_dir()
    save_folder_settings(ws.harness_dir, changed)
    return changed


def _mark_shown(root: Path, change_id: str) -> None:
    from app.core.policies import pending  # noqa: PLC0415 - window start-up (bench/startup.py)
    from app.core.workspace.workspace import Workspace  # noqa: PLC0415 - window start-up (bench/startup.py)

    kept = pending.find(Workspace(root).harness_dir / "pending", change_id)
    if kept is not None:
        pending.mark_shown(kept, "window")


def _decide_kept(root: Path, task_text: str, answer: str):
    from app.core.board.decide import decide  # noqa: PLC0415 - window start-up (bench/startup.py)

    return decide(root, answer, task_text=task_text, seen="window")


class CarefulFlow(QObject):
    dialog_shown = Signal(object)       # the ApprovalDialog now on screen
    folder_settings_changed = Signal(object)  # the FolderSettings as saved
    folder_settings_known = Signal(object)    # the FolderSettings as read, or as now chosen
    protect_menu_shown = Signal(object)       # the QMenu offering "Protect this file"

    def __init__(self, window: QMainWindow, run_panel: RunPanel, notice: NoticeBar,
                 runner: RunRunner, notifier: Notifier):
        super().__init__(window)
        self.window = window  # the approval dialog's parent
        self.run_panel, self.notice, self.runner, self.notifier = run_panel, notice, runner, notifier
        button_row = run_panel.button_row
        self.root: Path | None = None
        self._changed_here = False
        self._folder: FolderSettings | None = None  # the defaults until the folder's are read
        self.approver = WindowApprover(self)
        self.approver.approval_needed.connect(self._on_approval_needed)
        self.approver.approval_withdrawn.connect(self._on_approval_withdrawn)
        self.question: Question | None = None
        self.dialog = None
        self.switch = QCheckBox(self.tr("&Careful mode"), window)
        self.switch.setObjectName("carefulSwitch")
        self.switch.setToolTip(self.tr("Careful mode: the AI asks you before it changes or "
                                       "deletes a file that was already in your folder. New "
                                       "files it makes need no answer. Remembered for this "
                                       "folder."))
        look.set_accessible(self.switch, self.tr("Careful mode"), self.switch.toolTip())
        self.switch.toggled.connect(self._on_switch_toggled)
        button_row.insertWidget(1, self.switch)

    @property
    def folder(self) -> FolderSettings:
        """The open folder's safety settings (the defaults until they have been read)."""
        if self._folder is None:
            from app.core.workspace.folder_settings import (  # noqa: PLC0415 - window start-up (bench/startup.py)
                FolderSettings)

            self._folder = FolderSettings()
        return self._folder

    @folder.setter
    def folder(self, settings: FolderSettings) -> None:
        self._folder = settings

    @property
    def careful(self) -> bool:
        return self.switch.isChecked()

    # -- the folder's settings ---------------------------------------------------------------
    def folder_opened(self, root: Path) -> None:
        self.root = Path(root)
        self._folder = None
        self._changed_here = False
        self._show_switch(False)
        # The defaults until the folder's are read. Before any FolderSettings was made
        # (module not loaded), none was ever told and the window holds the defaults already:
        # making one here would import pydantic on the UI thread as the folder opens.
        if "app.core.workspace.folder_settings" in sys.modules:
            self.folder_settings_known.emit(self.folder)
        run_for(self, lambda: _load(root), lambda s: self._on_folder_loaded(root, s))

    def _on_folder_loaded(self, root: Path, settings: FolderSettings | None) -> None:
        if self.root != Path(root) or self._changed_here:
            return  # another folder was opened meanwhile, or the person already chose
        if settings is None:  # none of its own: the defaults, shown since it opened
            return
        self.folder = settings
        self._show_switch(settings.careful)
        self.folder_settings_known.emit(settings)

    def _show_switch(self, on: bool) -> None:
        self.switch.blockSignals(True)
        self.switch.setChecked(on)
        self.switch.blockSignals(False)

    def _on_switch_toggled(self, on: bool) -> None:
        self.save({"careful": on})

    def save(self, update: dict) -> None:
        root = self.root
        if root is None:
            return
        self._changed_here = True
        self.folder = self.folder.model_copy(update=update)
        self.folder_settings_known.emit(self.folder)
        run_for(self, lambda: _change(root, update), self._on_saved, self._on_save_failed)

    def save_from(self, group) -> None:
        """Save what Settings' "This folder" group shows, and show it beside Run."""
        self._show_switch(group.careful.isChecked())
        self.save({"careful": group.careful.isChecked(), "protected": group.entries(),
                   "web": group.web.isChecked()})

    def protect(self, rel: str) -> None:
        """Add a file or folder (workspace-relative) to the protected paths."""
        from app.core.workspace.folder_settings import (  # noqa: PLC0415 - window start-up (bench/startup.py)
            normalise_entry)

        entry = normalise_entry(rel)
        if entry not in self.folder.protected:
            self.save({"protected": [*self.folder.protected, entry]})

    def offer_protection(self, actions) -> None:
        """A "Protect this file" item in the context menu of a list of the folder's files
        (`actions`: the list's FileActions, which also offers Open and Show in folder)."""

        def add(box, path: str) -> None:
            action = box.addAction(self.tr("Protect this file"))
            action.setToolTip(self.tr("Never let the AI change this file (Settings lists what "
                                      "is protected)"))
            action.setEnabled(path not in self.folder.protected)
            action.triggered.connect(lambda: self._protect_and_say(path))

        actions.extra_items.append(add)
        actions.menu_shown.connect(self.protect_menu_shown)

    def _protect_and_say(self, path: str) -> None:
        self.protect(path)
        self.notice.show_notice(
            self.tr("%1 is now protected: no run may ever change it.").replace("%1", path))

    def _on_saved(self, settings: FolderSettings) -> None:
        self.folder = settings
        self.folder_settings_known.emit(settings)
        self.folder_settings_changed.emit(settings)

    def _on_save_failed(self, exc: BaseException) -> None:
        reason = getattr(exc, "strerror", None) or str(exc)
        self.notice.show_notice(self.tr("The folder's settings could not be saved: %1")
                                       .replace("%1", reason),
                                       tone="attention")

    # -- the run asks ------------------------------------------------------------------------
    def _on_approval_needed(self, question: Question) -> None:
        self.question = question
        request = question.request
        verb = (self.tr("The run asks before deleting %1.") if request.action == "delete"
                else self.tr("The run asks before changing %1.")).replace("%1", request.path)
        self.run_panel.show_state(self.tr("Waiting for your approval"), verb,
                                         tone="attention")
        self.run_panel.set_mode("review")  # the one next step: the filled button
        self.notifier.notify(self.tr("Your approval is needed"), verb,
                                    self.tr("Review…"), self.show_dialog, attention=True)
        self.show_dialog()

    def show_dialog(self) -> None:
        question = self.question
        if question is None or not question.open:
            return
        if self.dialog is not None:
            self.dialog.raise_()
            self.dialog.activateWindow()
            return
        from app.gui.careful.approval_dialog import (  # noqa: PLC0415 - window start-up (bench/startup.py)
            ApprovalDialog)

        dialog = ApprovalDialog(question.request, self.window, is_ai=self.run_panel.is_ai)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.answered.connect(lambda answer: self._on_answered(question, answer))
        dialog.closed_unanswered.connect(lambda: self._on_closed_unanswered(question))
        self._open(dialog)

    def _open(self, dialog) -> None:
        """Show an approval dialog in front, said aloud, as the one open."""
        dialog.destroyed.connect(lambda *_: self._forget(dialog))
        self.dialog = dialog
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        look.announce(dialog, dialog.windowTitle(), assertive=True)
        self.dialog_shown.emit(dialog)

    def _forget(self, dialog) -> None:
        if self.dialog is dialog:
            self.dialog = None

    def _on_answered(self, question: Question, answer) -> None:
        question.answer(answer)
        if self.question is question:
            self.question = None
        self.notice.hide()
        self._back_to_running()
        self.run_panel.show_state(self.tr("Working…"))

    def _on_closed_unanswered(self, question: Question) -> None:
        self.dialog = None
        if question.open:  # never an answer: the change waits, and the banner brings it back
            self.notice.show_notice(
                self.tr("A change to %1 waits for your approval. The run waits too.")
                .replace("%1", question.request.path), self.tr("Review…"), self.show_dialog,
                tone="attention")

    # -- a change kept from an earlier run, opened from the board ------------------------------
    def show_kept(self, task, request, on_answered, is_ai: bool = True) -> None:
        """Show a kept change (`request`, from pending.kept_request) for the board's question
        `task`; once the answer is written, `on_answered(answer)` (Allow or Don't allow)."""
        from app.gui.careful.approval_dialog import (  # noqa: PLC0415 - window start-up (bench/startup.py)
            ApprovalDialog)

        root = self.root
        if root is None:
            return
        if self.dialog is not None:
            self.dialog.close()
        dialog = ApprovalDialog(request, self.window, kept=True, is_ai=is_ai)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.seen.connect(lambda: run_for(self, lambda: _mark_shown(root, request.change_id)))
        dialog.answered.connect(lambda answer: self._on_kept_answered(root, task, answer,
                                                                      on_answered))
        self._open(dialog)

    def _on_kept_answered(self, root: Path, task, answer, on_answered) -> None:
        from app.core.policies.pending import (  # noqa: PLC0415 - window start-up (bench/startup.py)
            ALLOW, DENY)

        word = ALLOW if answer.kind == "allow" else DENY
        run_for(self, lambda: _decide_kept(root, task.text, word), lambda _d: on_answered(word),
                self._on_kept_failed)

    def _on_kept_failed(self, exc: BaseException) -> None:
        self.notice.show_notice(
            self.tr("Your answer could not be saved: %1").replace(
                "%1", getattr(exc, "message", None) or str(exc)), tone="attention")

    def _on_approval_withdrawn(self, question: Question) -> None:
        if self.question is not question:
            return
        self.question = None
        if self.dialog is not None:
            dialog, self.dialog = self.dialog, None
            dialog.closed_unanswered.disconnect()
            dialog.close()
        self.notice.hide()
        self._back_to_running()

    def _back_to_running(self) -> None:
        panel = self.run_panel
        if panel.mode == "review":
            panel.set_mode("running" if self.runner.running else "continue")
