"""How the window reaches its settings and tells the person about a run's end.

A mixin of `MainWindow` (like run_flow.py): the "Settings…" (Ctrl+,) and "Engine settings…"
menu items, the gear button beside the engine picker, the two dialogs and what their Save
does, and the banner/system notification when a run needs the person or has ended.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.outcomes import RunState

if TYPE_CHECKING:
    from app.core.settings import Settings


class SettingsFlow:
    """Settings, engine settings and notifications, for `MainWindow` (which provides
    `settings`, `picker`, `notice`, `top_bar`, `_save_settings` and `run_ended`)."""

    def _install_settings(self) -> None:
        from PySide6.QtGui import QAction, QKeySequence
        from PySide6.QtWidgets import QToolButton

        from app.gui.look import icons, look
        from app.gui.run.notifications import Notifier

        self.settings_action = QAction(self.tr("&Settings…"), self)
        self.settings_action.setShortcut(QKeySequence("Ctrl+,"))
        self.settings_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.settings_action.triggered.connect(self.open_settings)
        icons.set_icon(self.settings_action, "settings")
        self.engine_settings_action = QAction(self.tr("&Engine settings…"), self)
        self.engine_settings_action.triggered.connect(lambda: self.open_engine_settings())
        file_menu = self.menuBar().actions()[0].menu()
        separators = [a for a in file_menu.actions() if a.isSeparator()]
        before = separators[-1] if separators else None  # above Quit
        file_menu.insertAction(before, self.settings_action)
        file_menu.insertAction(before, self.engine_settings_action)

        self.engine_settings_button = QToolButton(self.top_bar)
        self.engine_settings_button.setObjectName("engineSettingsButton")
        icons.set_icon(self.engine_settings_button, "settings")  # redrawn on a light/dark switch
        self.engine_settings_button.setAutoRaise(True)
        look.set_accessible(self.engine_settings_button, self.tr("Engine settings…"))
        self.engine_settings_button.setToolTip(self.tr("Engine settings: your API key, the local "
                                                       "server's address, the model, and a "
                                                       "connection test."))
        self.engine_settings_button.clicked.connect(lambda: self.open_engine_settings())
        self.top_bar.add_to_chip(self.engine_settings_button)

        self.notifier = Notifier(self, self.notice)
        self.run_ended.connect(self._on_run_ended_notify)

    # -- the dialogs -----------------------------------------------------------------------
    def open_settings(self) -> None:
        from PySide6.QtCore import Qt

        from app.core.settings import Settings
        from app.gui.settings.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.settings or Settings(), self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.settings_saved.connect(self._on_settings_saved)
        dialog.language_changed.connect(self._on_language_chosen)
        careful = getattr(self, "careful", None)
        if self.workspace is not None and careful is not None:  # careful mode is the folder's
            from app.gui.careful.folder_safety import FolderSafetyGroup

            group = FolderSafetyGroup(self.workspace, careful.folder, dialog)
            dialog.layout().insertWidget(2, group)
            dialog.folder_safety = group
            dialog.settings_saved.connect(lambda _s: careful.save_from(group))
        self.settings_dialog = dialog
        dialog.open()

    def open_engine_settings(self, engine_id: str | None = None) -> None:
        from PySide6.QtCore import Qt

        from app.core.settings import Settings
        from app.gui.engines.engine_settings import SETUP_ENGINES, EngineSettingsDialog

        chosen = engine_id or self.picker.engine_id
        dialog = EngineSettingsDialog(self.settings or Settings(),
                                      chosen if chosen in SETUP_ENGINES else "anthropic", self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.settings_saved.connect(self._on_engine_settings_saved)
        dialog.key_changed.connect(self._on_key_changed)
        self.engine_settings_dialog = dialog
        dialog.open()

    def _on_settings_saved(self, chosen: Settings) -> None:
        if self.settings is None:
            return
        self.settings = self.settings.model_copy(update={
            "limits": chosen.limits, "demo_delay_s": chosen.demo_delay_s,
            "language": chosen.language, "look": chosen.look,
            "ui": {**self.settings.ui, **{k: v for k, v in chosen.ui.items()
                                          if k == "budget_chosen"}}})
        self.scheme.set_mode(chosen.look)  # the look changes at once
        self._save_settings()

    def _on_language_chosen(self, language: str) -> None:
        self.notice.show_notice(self.tr("The new language shows the next time you start "
                                        "Harness Desk."), passing=True)

    def _on_engine_settings_saved(self, chosen: Settings) -> None:
        if self.settings is None:
            return
        self.settings = self.settings.model_copy(update={"engines": chosen.engines})
        self._save_settings()
        self.picker.select(self.picker.engine_id,
                           {k: v.model for k, v in self.settings.engines.items()})
        for engine_id in ("anthropic", "openai", "local"):
            self._recheck(engine_id)

    def _on_key_changed(self, engine_id: str) -> None:
        self._recheck(engine_id)

    def _recheck(self, engine_id: str) -> None:
        # Its answer may clear a stop that blamed this engine (see RunPanel.engine_now).
        self._rechecked = {*getattr(self, "_rechecked", ()), engine_id}
        self.picker.check(engine_id)  # off the UI thread; an earlier answer no longer counts

    # -- notifications ---------------------------------------------------------------------
    def _decision_words(self, question: str) -> str:
        return (self.tr("Your decision is needed: %1").replace("%1", question)
                if question else self.tr("The AI needs a decision from you."))

    def _update_decision_banner(self, question: str) -> None:
        """The banner about a waiting decision names its question (known once it is open)."""
        if getattr(self, "_decision_banner", False) and question:
            self.notice.show_notice(self._decision_words(question), self.tr("Answer…"),
                                    self.show_decision, tone="attention")

    def _hide_decision_banner(self) -> None:
        if getattr(self, "_decision_banner", False):
            self._decision_banner = False
            self.notice.hide()

    def _on_run_ended_notify(self, result) -> None:
        from app.gui.run import wording

        if self._close_after_stop:
            return
        task = self._last_human.task if self._last_human else ""
        engine_id, model = getattr(self, "_run_engine", ("", ""))
        headline, _hint = wording.finished(result.state, result.exit_reason, task,
                                           engine_id=engine_id, model=model,
                                           cause=getattr(result, "cause", ""))
        if result.state == RunState.BLOCKED_BY_HUMAN:
            question = self._last_human.question if self._last_human else ""
            title = self.tr("Harness Desk needs your decision")
            self._decision_banner = True
            self.notifier.notify(title, self._decision_words(question), self.tr("Answer…"),
                                 self.show_decision, attention=True)
            return
        folder = self.workspace.name if self.workspace else ""
        title = self.tr("Harness Desk: the run has ended")
        text = self.tr("The run in %1 has ended: %2.").replace("%1", folder).replace(
            "%2", headline)
        self.notifier.notify(title, text, attention=result.state != RunState.DONE)

