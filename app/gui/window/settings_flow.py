"""The window's settings and engines: the person's `Settings` (held here, saved in the
background), the engine picker's choices and readiness, the "Settings…" (Ctrl+,) and
"Engine settings…" dialogs with the gear beside the engine picker, and the window's layout.

A controller the main window composes (see main_window.py). The other controllers read
`settings` and change it with `change`; this one tells them with `settings_changed`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QToolButton

from app.gui.background import SerialQueue, while_alive
from app.gui.look import icons, look

if TYPE_CHECKING:
    from app.core.settings import Settings
    from app.gui.careful.careful_flow import CarefulFlow
    from app.gui.engines.engine_picker import EnginePicker
    from app.gui.engines.engine_settings import EngineSettingsDialog
    from app.gui.folder.top_bar import TopBar
    from app.gui.look.notice_bar import NoticeBar
    from app.gui.run.run_panel import RunPanel
    from app.gui.settings.settings_dialog import SettingsDialog
    from app.gui.window_state import WindowStateKeeper


class SettingsFlow(QObject):
    """The person's settings and the engines' setup, for the main window."""

    settings_changed = Signal(object)  # the Settings now in force, once changed (being saved)
    # The picker shows another engine the person did not choose there (their settings came,
    # a run's engine is shown): what depends on the engine is worked out again. Without it,
    # a folder read before the settings kept the Demo's "Ready to show a sample" beside OpenAI.
    engine_shown = Signal(str)

    def __init__(self, window: QMainWindow, picker: EnginePicker, notice: NoticeBar,
                 run_panel: RunPanel, scheme, careful: CarefulFlow):
        super().__init__(window)
        self.window = window  # the dialogs' parent, and the layout it keeps
        self.picker, self.notice, self.run_panel = picker, notice, run_panel
        self.scheme, self.careful = scheme, careful
        self.settings: Settings | None = None  # see apply
        self.workspace: Path | None = None  # the open folder (folder_opened)
        self.writes = SerialQueue()
        self.settings_dialog: SettingsDialog | None = None
        self.engine_settings_dialog: EngineSettingsDialog | None = None
        self._rechecked: set[str] = set()  # engines whose key or settings just changed
        self._engine_notice = False  # the notice line says the engine cannot run
        self._layout_keeper: WindowStateKeeper | None = None
        self.picker.settings_now = lambda: self.settings
        self.picker.engine_changed.connect(self._on_engine_changed)
        self.picker.model_changed.connect(self._on_model_changed)
        self.picker.readiness_checked.connect(self.show_readiness)

    def install(self, file_menu, top_bar: TopBar) -> None:
        """The two menu items (above Quit) and the gear button in the engine chip."""

        self.settings_action = QAction(self.tr("&Settings…"), self.window)
        self.settings_action.setShortcut(QKeySequence("Ctrl+,"))
        self.settings_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.settings_action.triggered.connect(self.open_settings)
        icons.set_icon(self.settings_action, "settings")
        self.engine_settings_action = QAction(self.tr("En&gine settings…"), self.window)
        self.engine_settings_action.triggered.connect(lambda: self.open_engine_settings())
        separators = [a for a in file_menu.actions() if a.isSeparator()]
        before = separators[-1] if separators else None  # above Quit
        file_menu.insertAction(before, self.settings_action)
        file_menu.insertAction(before, self.engine_settings_action)

        self.engine_settings_button = QToolButton(top_bar)
        self.engine_settings_button.setObjectName("engineSettingsButton")
        icons.set_icon(self.engine_settings_button, "settings")  # redrawn on a light/dark switch
        self.engine_settings_button.setAutoRaise(True)
        look.set_accessible(self.engine_settings_button, self.tr("Engine settings…"))
        self.engine_settings_button.setToolTip(self.tr("Engine settings: your API key, the local "
                                                       "server's address, the model, and a "
                                                       "connection test."))
        self.engine_settings_button.clicked.connect(lambda: self.open_engine_settings())
        top_bar.add_to_chip(self.engine_settings_button)

    def apply(self, settings: Settings, splitter) -> None:
        """The person's settings have loaded: their look, layout, engine and model."""
        self.settings = settings
        self.scheme.set_mode(settings.look)
        self._restore_layout(settings, splitter)
        before = self.picker.engine_id
        self.picker.select(settings.engine, {k: v.model for k, v in settings.engines.items()})
        if self.picker.engine_id != before:
            self.engine_shown.emit(self.picker.engine_id)

    def folder_opened(self, folder: Path) -> None:
        self.workspace = folder

    # -- keeping them ----------------------------------------------------------------------
    def change(self, settings: Settings) -> None:
        """Put `settings` in force and save them (in the background, in order)."""
        self.settings = settings
        self.save()
        self.settings_changed.emit(settings)

    def save(self) -> None:
        from app.core.settings import save_settings  # noqa: PLC0415 - window start-up (bench/startup.py)

        if self.settings is None:
            return
        snapshot = self.settings.model_copy(deep=True)
        self.writes.submit(lambda: save_settings(snapshot), None,
                           while_alive(self, self._on_settings_failed))

    def _on_settings_failed(self, exc: BaseException) -> None:
        self.notice.show_notice(self.tr("Your settings could not be saved: %1").replace(
            "%1", getattr(exc, "strerror", None) or str(exc)), tone="attention")

    # -- the engine picker -----------------------------------------------------------------
    def _on_engine_changed(self, engine_id: str) -> None:
        self.show_readiness(engine_id)  # a known answer shows at once
        if self.settings is not None:
            self.change(self.settings.model_copy(update={"engine": engine_id}))

    def show_readiness(self, engine_id: str) -> None:
        """The chosen engine cannot run: say so where it is seen, with how to make it ready."""
        if engine_id != self.picker.engine_id:
            return
        fixed = engine_id in self._rechecked  # its key or settings changed
        if fixed and self.picker.is_ready(engine_id) is not None:
            self._rechecked.discard(engine_id)  # that check's answer is in: used once
        found = self.picker.readiness.get(engine_id)
        key = found.reason if found is not None and found.reason in ("no_key", "no_keychain") \
            else ""
        ready = self.picker.is_ready(engine_id)
        why = self.picker.not_ready_sentence(engine_id) if ready is False else ""
        said = self.run_panel.engine_now(engine_id, ready, fixed, key, why)
        if ready is False and not said:  # said once, in the panel
            self.notice.show_notice(self.picker.not_ready_sentence(engine_id),
                                    self.tr("Engine settings…"),
                                    lambda: self.open_engine_settings(engine_id),
                                    tone="attention")
            self._engine_notice = True
        elif self._engine_notice:
            self.notice.hide()
            self._engine_notice = False

    def _on_model_changed(self, model: str) -> None:
        if self.settings is None:
            return
        engines = dict(self.settings.engines)
        current = self.settings.engine_settings(self.picker.engine_id)
        engines[self.picker.engine_id] = current.model_copy(update={"model": model})
        self.change(self.settings.model_copy(update={"engines": engines}))

    def pick_engine(self, engine_id: str) -> None:
        """Show `engine_id` in the picker with the person's model for it."""
        if self.settings is not None and self.picker.engine_id != engine_id:
            self.picker.select(engine_id, {k: v.model for k, v in self.settings.engines.items()})
            self.show_readiness(engine_id)
            self.engine_shown.emit(engine_id)

    # -- the window's layout ---------------------------------------------------------------
    def _restore_layout(self, settings: Settings, splitter) -> None:
        from app.gui import window_state  # noqa: PLC0415 - window start-up (bench/startup.py)

        if self._layout_keeper is None:  # once: later settings are ours
            self._layout_keeper = window_state.restore_and_keep(
                self.window, splitter, settings.ui.get(window_state.KEY), self._on_layout_changed)

    def _on_layout_changed(self, state: dict, now: bool = False) -> None:
        from app.gui.window_state import remembered  # noqa: PLC0415 - window start-up (bench/startup.py)

        updated = remembered(self.settings, state, save_now=now)
        if updated is not None:
            self.settings = updated
            if not now:
                self.save()

    def keep_layout_now(self) -> None:
        """The window is closing: its layout is saved now, not after a pause."""
        if self._layout_keeper is not None:
            self._on_layout_changed(self._layout_keeper.stop(), now=True)

    # -- the dialogs -----------------------------------------------------------------------
    def open_settings(self) -> None:
        from app.core.settings import Settings  # noqa: PLC0415 - window start-up (bench/startup.py)
        from app.gui.settings.settings_dialog import SettingsDialog  # noqa: PLC0415 - window start-up (bench/startup.py)

        dialog = SettingsDialog(self.settings or Settings(), self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.settings_saved.connect(self._on_settings_saved)
        dialog.language_changed.connect(self._on_language_chosen)
        if self.workspace is not None:  # careful mode is the folder's
            from app.gui.careful.folder_safety import FolderSafetyGroup  # noqa: PLC0415 - window start-up (bench/startup.py)

            careful = self.careful
            group = FolderSafetyGroup(self.workspace, careful.folder, dialog)
            dialog.show_folder_safety(group)
            dialog.settings_saved.connect(lambda _s: careful.save_from(group))
        self.settings_dialog = dialog
        dialog.open()

    def open_engine_settings(self, engine_id: str | None = None) -> None:
        from app.core.settings import Settings  # noqa: PLC0415 - window start-up (bench/startup.py)
        from app.gui.engines.engine_settings import SETUP_ENGINES, EngineSettingsDialog  # noqa: PLC0415 - window start-up (bench/startup.py)

        chosen = engine_id or self.picker.engine_id
        dialog = EngineSettingsDialog(self.settings or Settings(),
                                      chosen if chosen in SETUP_ENGINES else "anthropic",
                                      self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.settings_saved.connect(self._on_engine_settings_saved)
        dialog.key_changed.connect(self.recheck)
        self.engine_settings_dialog = dialog
        dialog.open()

    def _on_settings_saved(self, chosen: Settings) -> None:
        if self.settings is None:
            return
        self.scheme.set_mode(chosen.look)  # the look changes at once
        self.change(self.settings.model_copy(update={
            "limits": chosen.limits, "demo_delay_s": chosen.demo_delay_s,
            "language": chosen.language, "look": chosen.look,
            "ui": {**self.settings.ui, **{k: v for k, v in chosen.ui.items()
                                          if k == "budget_chosen"}}}))

    def _on_language_chosen(self, language: str) -> None:
        self.notice.show_notice(self.tr("The new language shows the next time you start "
                                        "Harness Desk."), passing=True)

    def _on_engine_settings_saved(self, chosen: Settings) -> None:
        if self.settings is None:
            return
        self.change(self.settings.model_copy(update={"engines": chosen.engines}))
        self.picker.select(self.picker.engine_id,
                           {k: v.model for k, v in self.settings.engines.items()})
        for engine_id in ("anthropic", "openai", "local"):
            self.recheck(engine_id)

    def recheck(self, engine_id: str) -> None:
        """A key or an engine's settings changed: check it again (off the UI thread). Its
        answer may clear a stop that blamed this engine (see RunPanel.engine_now)."""
        self._rechecked.add(engine_id)
        self.picker.check(engine_id)  # an earlier answer no longer counts

