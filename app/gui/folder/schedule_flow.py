"""The folder's schedule in the window: a line on the folder's page (when it runs next, with
Change…, Pause or Resume, and Remove), what scheduled runs did since the page last showed them,
and the "Run this folder on a schedule…" dialog. Reads and writes off the UI thread."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, cast

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (QApplication, QBoxLayout, QHBoxLayout, QLabel, QPushButton,
                               QSizePolicy, QVBoxLayout, QWidget)

from app.core.schedule.records import now_local
from app.gui.background import run_in_background
from app.gui.look import look
from app.gui.words import schedule_words as words

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtWidgets import QMainWindow

    from app.core.schedule.model import Schedule
    from app.core.settings import Settings
    from app.gui.look.notice_bar import NoticeBar


class ScheduleLine(QWidget):
    """Under the run panel: the schedule in a sentence with its buttons, and below it what
    scheduled runs did since the page last showed them."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 2, 0, 2)
        # The sentence over the whole column, its buttons under it: beside them, in a narrow
        # column (800x600, or Chinese), it was squeezed to four short lines between wide gaps.
        row = QHBoxLayout()
        self.line = QLabel(self)
        self.line.setWordWrap(True)
        self.line.setTextFormat(Qt.TextFormat.PlainText)
        self.change_button = QPushButton(self)
        self.pause_button = QPushButton(self)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.setToolTip(self.tr("Remove this folder's schedule"))
        for button in (self.change_button, self.pause_button, self.remove_button):
            button.setFlat(True)
            # As wide as its words: a flat button stretched over the column reads as a
            # line of text floating in the middle of it.
            button.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
            row.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
        row.addStretch(1)  # the buttons keep to the column's left edge
        self.since = QLabel(self)
        self.since.setWordWrap(True)
        self.since.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        look.set_tone(self.since, "attention")
        column.addWidget(self.line)
        column.addLayout(row)
        column.addWidget(self.since)
        self.since.hide()


class ScheduleFlow(QObject):
    def __init__(self, window: QMainWindow, run_panel: QWidget, notice: NoticeBar,
                 settings_now: Callable[[], Settings | None], workspace_opened: SignalInstance):
        """`settings_now()`: the person's settings (None until loaded); `workspace_opened`:
        the signal (a Path) that a folder is now shown. The schedule's line goes under
        `run_panel`, in its column."""
        super().__init__(window)
        self.window = window  # the dialog's parent
        self.notice, self.settings_now = notice, settings_now
        self.folder: Path | None = None
        self.schedule: Schedule | None = None
        column = cast(QWidget, run_panel.parentWidget())  # the page's right column
        self.view = ScheduleLine(column)
        slot = column.findChild(QWidget, "scheduleSlot")  # its room, kept by the page
        if slot is not None:
            cast(QBoxLayout, slot.layout()).addWidget(self.view)
        else:
            right = cast(QBoxLayout, column.layout())
            right.insertWidget(right.indexOf(run_panel) + 1, self.view)
        self.view.change_button.clicked.connect(self.open_dialog)
        self.view.pause_button.clicked.connect(
            lambda: self._set_paused(not self.schedule.paused) if self.schedule else None)
        self.view.remove_button.clicked.connect(self._remove)
        workspace_opened.connect(self.folder_opened)
        self.view.hide()

    # -- reading -------------------------------------------------------------------------
    def folder_opened(self, folder: Path) -> None:
        self.folder = Path(folder)
        shown_for = self.folder
        # Its place at once (the button to make one), so nothing below moves when the read
        # comes back: only a folder that has a schedule then gains its sentence.
        self.schedule = None
        self._show_line()
        self.view.since.hide()

        def read():
            from app.core.schedule import records, store  # noqa: PLC0415 - window start-up (bench/startup.py)

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
        s, v = self.schedule, self.view
        v.line.setText("" if s is None else words.summary(s))
        v.line.setVisible(s is not None)
        v.change_button.setText(self.tr("Run this folder on a schedule…") if s is None
                                else self.tr("Change…"))
        if s is not None:
            v.pause_button.setText(self.tr("Resume") if s.paused else self.tr("Pause"))
        v.pause_button.setVisible(s is not None)
        v.remove_button.setVisible(s is not None)
        v.show()

    # -- acting --------------------------------------------------------------------------
    def open_dialog(self):
        if self.folder is None:
            return None
        from app.engines.setup import engine_choices  # noqa: PLC0415 - window start-up (bench/startup.py)
        from app.gui.folder.schedule_dialog import ScheduleDialog  # noqa: PLC0415 - window start-up (bench/startup.py)

        from app.gui.settings.budget_rules import budget_of  # noqa: PLC0415 - window start-up (bench/startup.py)

        settings = self.settings_now()
        default = settings.engine if settings is not None else "demo"
        flow = getattr(self.window, "settings_flow", None)  # the engines' readiness, if known
        picker = flow.picker if flow is not None else None
        self.dialog = ScheduleDialog(self.folder.resolve(), self.schedule, engine_choices(),
                                     default, self.window,
                                     budget_of(settings) if settings is not None else None,
                                     picker.not_ready_sentence if picker is not None else None,
                                     self._folder_careful())
        self.dialog.saved.connect(self._saved)
        self.dialog.removed.connect(self._removed)
        self.dialog.open()
        return self.dialog

    def _folder_careful(self) -> bool:
        """The folder's careful mode (Settings, This folder): a new schedule keeps it."""
        folder_settings = getattr(getattr(self.window, "careful", None), "folder", None)
        return bool(getattr(folder_settings, "careful", False))

    def _saved(self, schedule) -> None:
        self.schedule = schedule
        self._show_line()

    def _removed(self, _result: object = None) -> None:
        """Gone from the scheduler and the list: said once, and the keyboard stays on the
        line (its Remove button, which had it, is hidden now)."""
        focus = QApplication.focusWidget()
        on_the_line = focus is not None and self.view.isAncestorOf(focus)
        self._saved(None)
        if on_the_line:
            self.view.change_button.setFocus(Qt.FocusReason.OtherFocusReason)
        self.notice.show_notice(self.tr("The schedule is removed: this folder no longer runs "
                                        "on its own."), passing=True)

    def _set_paused(self, paused: bool) -> None:
        from app.core.schedule import store  # noqa: PLC0415 - window start-up (bench/startup.py)

        schedule = self.schedule
        if schedule is None:  # the button shows only beside a schedule
            return
        schedule.paused = paused
        run_in_background(lambda: store.save(schedule), lambda _: self._saved(schedule))

    def _remove(self) -> None:
        from app.schedulers.service import remove  # noqa: PLC0415 - window start-up (bench/startup.py)

        schedule = self.schedule
        if schedule is None:  # the button shows only beside a schedule
            return
        run_in_background(lambda: remove(schedule), self._removed, self._remove_failed)

    def _remove_failed(self, exc: BaseException) -> None:
        said = words.scheduler_failure(exc)
        text = said if getattr(exc, "kind", "") == "no_scheduler" else \
            self.tr("The schedule could not be removed: %1").replace("%1", said)
        self.notice.show_notice(text, tone="attention")
