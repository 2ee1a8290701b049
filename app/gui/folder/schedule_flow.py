"""The folder's schedule in the window: a line on the folder's page (when it runs next, with
Change, Pause or Resume, and Remove), what scheduled runs did since the page last showed them,
and the "Run this folder on a schedule…" dialog. Reads and writes off the UI thread."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app.gui.folder import schedule_words as words
from app.gui.look import look


class ScheduleLine(QWidget):
    """Two short lines under the run panel: the schedule, and the runs since last looked."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 2, 0, 2)
        self.line = QLabel(self)
        self.line.setWordWrap(True)
        self.line.setTextFormat(Qt.TextFormat.RichText)
        self.line.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse
                                          | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
        self.since = QLabel(self)
        self.since.setWordWrap(True)
        self.since.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        look.set_tone(self.since, "attention")
        column.addWidget(self.line)
        column.addWidget(self.since)
        self.since.hide()


def _link(href: str, text: str) -> str:
    from html import escape

    return f'<a href="{href}">{escape(text)}</a>'


class ScheduleFlow(QObject):
    def __init__(self, window, page):
        super().__init__(window)
        self.window = window
        self.folder: Path | None = None
        self.schedule = None
        self.view = ScheduleLine(page)
        right = page.run_panel.parentWidget().layout()
        right.insertWidget(right.indexOf(page.run_panel) + 1, self.view)
        self.view.line.linkActivated.connect(self._on_link)
        window.workspace_opened.connect(self.folder_opened)
        self.view.hide()

    # -- reading -------------------------------------------------------------------------
    def folder_opened(self, folder: Path) -> None:
        from app.gui.background import run_in_background

        self.folder = Path(folder)
        shown_for = self.folder

        def read():
            from app.core.schedule import records, store
            from app.core.schedule.records import now_local

            schedule = store.for_folder(shown_for)
            key = str(shown_for.resolve())
            since = records.folder_records(shown_for, store.last_seen(key))
            if schedule is not None or since:
                store.mark_seen(key, now_local())
            return schedule, since

        run_in_background(read, lambda got: self._show(shown_for, *got), lambda exc: None)

    def _show(self, folder: Path, schedule, since) -> None:
        if folder != self.folder:
            return  # another folder was opened meanwhile
        self.schedule = schedule
        self._show_line()
        text = words.since_last_looked(since)
        self.view.since.setText(text)
        self.view.since.setVisible(bool(text))

    def _show_line(self) -> None:
        s = self.schedule
        if s is None:
            self.view.line.setText(_link("change", self.tr("Run this folder on a schedule…")))
        else:
            links = [_link("change", self.tr("Change…")),
                     _link("resume", self.tr("Resume")) if s.paused else
                     _link("pause", self.tr("Pause")),
                     _link("remove", self.tr("Remove"))]
            from html import escape

            self.view.line.setText(escape(words.summary(s)) + " " + " · ".join(links))
        self.view.show()

    # -- acting --------------------------------------------------------------------------
    def _on_link(self, href: str) -> None:
        if href == "change":
            self.open_dialog()
        elif href in ("pause", "resume"):
            self._set_paused(href == "pause")
        elif href == "remove":
            self._remove()

    def open_dialog(self):
        if self.folder is None:
            return None
        from app.engines.setup import engine_choices
        from app.gui.folder.schedule_dialog import ScheduleDialog

        settings = getattr(self.window, "settings", None)
        default = settings.engine if settings is not None else "demo"
        self.dialog = ScheduleDialog(self.folder.resolve(), self.schedule, engine_choices(),
                                     default, self.window)
        self.dialog.saved.connect(self._saved)
        self.dialog.removed.connect(lambda: self._saved(None))
        self.dialog.open()
        return self.dialog

    def _saved(self, schedule) -> None:
        self.schedule = schedule
        self._show_line()

    def _set_paused(self, paused: bool) -> None:
        from app.core.schedule import store
        from app.gui.background import run_in_background

        schedule = self.schedule
        schedule.paused = paused
        run_in_background(lambda: store.save(schedule), lambda _: self._saved(schedule))

    def _remove(self) -> None:
        from app.commands.schedule import remove
        from app.gui.background import run_in_background

        schedule = self.schedule
        run_in_background(lambda: remove(schedule), lambda _: self._saved(None),
                          self._remove_failed)

    def _remove_failed(self, exc: BaseException) -> None:
        said = getattr(exc, "message", None) or str(exc)
        self.window.notice.show_notice(self.tr("The schedule could not be removed: %1")
                                       .replace("%1", said), tone="attention")
