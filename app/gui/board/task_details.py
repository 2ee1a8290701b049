"""The selected task's details under the checklist: "Done when" lines, whether the person
decides it (HUMAN on the board) and its options."""

from __future__ import annotations

from PySide6.QtCore import QPersistentModelIndex, QTimer, Signal
from PySide6.QtWidgets import QCheckBox, QFrame, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from app.core.board.board import Task, one_line
from app.core.board.task import WEB_KEY, WEB_NO, WEB_YES
from app.gui.look import look
from app.gui.words import wording

DONE_WHEN = "Done when"
OPTION = "Option"


class _LinesEdit(QPlainTextEdit):
    """A few lines of text, one value per line, saved when the person pauses or moves on."""

    finished = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)  # Tab moves on, as everywhere else in the window
        self.setFixedHeight(self.fontMetrics().lineSpacing() * 4 + 12)
        self._idle = QTimer(self)
        self._idle.setSingleShot(True)
        self._idle.setInterval(1000)
        self._idle.timeout.connect(self.finished)
        self._loaded: list[str] = []
        self.textChanged.connect(self._on_text_changed)

    def values(self) -> list[str]:
        return [v for v in (one_line(line) for line in self.toPlainText().splitlines()) if v]

    def show_values(self, values: list[str]) -> None:
        self._loaded = list(values)
        self.blockSignals(True)
        self.setPlainText("\n".join(values))
        self.blockSignals(False)

    @property
    def changed(self) -> bool:
        return self.values() != self._loaded

    def mark_saved(self) -> None:
        self._loaded = self.values()
        self._idle.stop()

    def _on_text_changed(self) -> None:
        self._idle.start()

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.finished.emit()


class TaskDetailsPanel(QFrame):
    """Shows one task's details and reports the person's changes, naming the task by its
    row in the list (a persistent index, so a row that moves meanwhile is still found)."""

    human_toggled = Signal(object, bool)         # QPersistentModelIndex, is HUMAN
    details_edited = Signal(object, str, list)   # QPersistentModelIndex, key, values

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._row = QPersistentModelIndex()
        self._task: Task | None = None
        self.setFrameShape(QFrame.Shape.StyledPanel)  # a box of its own, apart from "Add"
        # Whose details these are, in words: the selected task, never a new one being typed.
        self.title = QLabel(self)
        self.title.setWordWrap(True)
        self.title.setFont(look.type_font(self.title, "body", semibold=True))
        # Plain words on the box; the board's own mark for it is named only in the tooltip.
        self._human = QCheckBox(self.tr("You decide this one (the run asks you)"))
        self._human.setToolTip(self.tr("The AI stops at this task and asks you, instead of "
                                       "doing it itself. In TASKS.md such a task is marked "
                                       "HUMAN."))
        self._human.setAccessibleName(self._human.text())
        self._human.toggled.connect(self._on_human_toggled)
        # The task's "Web: yes/no" line, shown as what the task may do (its line,
        # else the folder's default, see set_web_default).
        self._web_default = False
        self._web = QCheckBox(self.tr("This task may look things up on the web"))
        self._web_tip = self.tr("The AI service may search the web and read pages for this "
                                "task. Searches cost money and count in the budget; every "
                                "page used is shown with the round.")
        self._web.setToolTip(self._web_tip)
        self._web.setAccessibleName(self._web.text())
        self._web.toggled.connect(self._on_web_toggled)
        self._done_label = QLabel(self.tr("Done when"))
        self._done_when = _LinesEdit()
        self._done_when.setAccessibleName(self.tr("Done when"))
        self._done_when.setPlaceholderText(self.tr("One check per line, e.g. overview.md "
                                                   "lists every file"))
        self._done_when.setToolTip(self.tr("How to tell this task is finished, one check "
                                           "per line. The AI must meet each one."))
        self._done_label.setBuddy(self._done_when)
        self._options_label = QLabel(self.tr("Options"))
        self._options = _LinesEdit()
        self._options.setAccessibleName(self.tr("Options"))
        self._options.setPlaceholderText(self.tr("One choice per line"))
        self._options.setToolTip(self.tr("The answers you want to choose from, one per line."))
        self._options_label.setBuddy(self._options)
        self._done_when.finished.connect(lambda: self._save(self._done_when, DONE_WHEN))
        self._options.finished.connect(lambda: self._save(self._options, OPTION))

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        for widget in (self.title, self._human, self._web, self._done_label, self._done_when,
                       self._options_label, self._options):
            layout.addWidget(widget)
        self.show_task(QPersistentModelIndex(), None)

    def show_task(self, row: QPersistentModelIndex, task: Task | None,
                  locked: bool = False) -> None:
        """Show `task` (None: nothing selected). A field the person is typing in keeps its text."""
        same = task is not None and QPersistentModelIndex(row) == self._row
        if not same:
            self.save_pending()
        self._row, self._task = QPersistentModelIndex(row), task

        self.title.setText(self.tr("Details of the selected task: “%1”").replace(
            "%1", wording.short(task.text, 70)) if task is not None else
            self.tr("Select a task in the list to see its details here."))
        self.title.setAccessibleName(self.title.text())
        for widget in (self._human, self._web, self._done_label, self._done_when,
                       self._options_label, self._options):
            widget.setEnabled(task is not None)
        self._web.blockSignals(True)
        self._web.setChecked(bool(task and task.may_look_up(self._web_default)))
        self._web.blockSignals(False)
        self._show_web_tip(task)
        self._web.setVisible(not (task and task.is_human))  # a decision looks nothing up
        is_human = bool(task and task.is_human)
        self._human.blockSignals(True)
        self._human.setChecked(is_human)
        self._human.blockSignals(False)
        # Marking or unmarking HUMAN rewrites the task's text, which the loop looks it up by.
        self._human.setEnabled(task is not None and not locked)
        self._options_label.setVisible(is_human)
        self._options.setVisible(is_human)
        for edit, values in ((self._done_when, task.done_when if task else []),
                             (self._options, task.options if task else [])):
            if same and edit.hasFocus() and edit.changed:
                continue  # never overwrite what the person is typing
            if not same or edit.values() != values:
                edit.show_values(values)

    def save_pending(self) -> None:
        """Report typed changes not yet saved (before another task is shown)."""
        self._save(self._done_when, DONE_WHEN)
        if self._task is not None and self._task.is_human:
            self._save(self._options, OPTION)

    def _save(self, edit: _LinesEdit, key: str) -> None:
        if self._task is None or not self._row.isValid() or not edit.changed:
            return
        values = edit.values()
        edit.mark_saved()
        self.details_edited.emit(QPersistentModelIndex(self._row), key, values)

    def set_web_default(self, on: bool) -> None:
        """The folder's default for tasks without a "Web:" line (FolderSettings.web)."""
        self._web_default = bool(on)
        self.show_task(self._row, self._task)

    def _show_web_tip(self, task: Task | None) -> None:
        """The switch's tooltip says whether it shows the task's own "Web:" line or follows
        the folder's default (Settings, "This folder")."""
        tip = self._web_tip
        if task is not None and task.web is None:
            tip += "\n" + (self.tr("This follows the folder: its tasks may look things up "
                                   "(Settings, This folder). Untick it to keep this task off "
                                   "the web.") if self._web_default else
                           self.tr("This follows the folder: its tasks do not look things "
                                   "up (Settings, This folder). Tick it to let this task look "
                                   "things up."))
        self._web.setToolTip(tip)
        self._web.setAccessibleDescription(tip)

    def _on_web_toggled(self, checked: bool) -> None:
        """One "Web:" line, or none when the wish is the folder's default (board_verbs.set_web)."""
        if self._task is not None and self._row.isValid():
            values = [] if checked == self._web_default else [WEB_YES if checked else WEB_NO]
            self.details_edited.emit(QPersistentModelIndex(self._row), WEB_KEY, values)

    def _on_human_toggled(self, checked: bool) -> None:
        if self._task is not None and self._row.isValid():
            self._options_label.setVisible(checked)
            self._options.setVisible(checked)
            self.human_toggled.emit(QPersistentModelIndex(self._row), checked)
