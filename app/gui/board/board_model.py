"""The board's tasks as a Qt list model: one row per task, edits reported as facts to write."""

from __future__ import annotations

from dataclasses import replace
from difflib import SequenceMatcher

from PySide6.QtCore import (QAbstractListModel, QByteArray, QMimeData, QModelIndex, QObject,
                            QPersistentModelIndex, Qt, Signal)

from app.core.board.board import Task, TaskRef, one_line
from app.gui.words import wording

_MIME = "application/x-harness-desk-task-row"
_MATCH_LIMIT = 200  # rows matched one by one when a read changed the list; more: replaced
HUMAN_PREFIX = "HUMAN: "


def _key(task: Task) -> tuple:
    # What a row shows and edits; two reads of an unchanged task compare equal.
    return task.text, task.checked, tuple(task.details)


def _row_changes(old: list[tuple], new: list[tuple]) -> list[tuple[str, int, int, int, int]]:
    """Opcodes (as difflib's, without "equal") taking `old` rows to `new`, cheaply.

    The common head and tail are skipped in linear time; a small middle is matched row by
    row (SequenceMatcher is quadratic when changes are scattered), a large one is replaced
    whole: one outside edit is almost always a few neighbouring rows.
    """
    n, m = len(old), len(new)
    head = 0
    while head < min(n, m) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(n, m) - head and old[n - 1 - tail] == new[m - 1 - tail]:
        tail += 1
    i2, j2 = n - tail, m - tail
    if head == i2 and head == j2:
        return []
    if max(i2, j2) - head > _MATCH_LIMIT:
        return [("replace", head, i2, head, j2)]
    ops = SequenceMatcher(None, old[head:i2], new[head:j2], autojunk=False).get_opcodes()
    return [(tag, i1 + head, k2 + head, j1 + head, l2 + head)
            for tag, i1, k2, j1, l2 in ops if tag != "equal"]


def human_prefix(task: Task) -> str:
    """The "HUMAN:" part of a HUMAN task's text as written (its case and spacing kept)."""
    question = task.question
    return task.text[:len(task.text) - len(question)] if question else task.text


def decision_answer(task: Task) -> str | None:
    """The answer of a decided HUMAN task, for "Decided: trust" (the harness's own options
    in the window's words)."""
    if not (task.is_human and task.checked) or task.answer is None:
        return None
    return wording.no_progress_option(task.answer) if is_no_progress(task) else task.answer


def is_no_progress(task: Task) -> bool:
    """A decision the harness wrote itself when a task made no progress (its options say so)."""
    from app.core.run.reports import (  # noqa: PLC0415 - window start-up (bench/startup.py)
        NO_PROGRESS_OPTIONS)

    return task.is_human and tuple(task.options) == NO_PROGRESS_OPTIONS


def shown_text(task: Task) -> str:
    """The row's words: a decision's question; the harness's own no-progress question is
    said by the window (the core writes it in English for the file)."""
    if not task.is_human:
        return task.text
    if is_no_progress(task):
        from app.core.run.reports import (  # noqa: PLC0415 - window start-up (bench/startup.py)
            no_progress_task)

        return wording.no_progress_question(no_progress_task(task.question))
    from app.gui.words.careful_words import (  # noqa: PLC0415 - window start-up (bench/startup.py)
        board_question)

    return board_question(task) or task.question


class BoardItemModel(QAbstractListModel):
    """Rows are core `Task`s in board order; a row's TaskRef is (row, its text).

    The model changes itself at once when the person edits a row (optimistic), then reports
    the edit as a fact with the ref the task had *before* the edit; BoardView writes it. A
    ref taken from the rows is valid on disk once the writes already queued have run.
    """

    TaskRole = Qt.ItemDataRole.UserRole + 1
    HumanRole = Qt.ItemDataRole.UserRole + 2
    CurrentRole = Qt.ItemDataRole.UserRole + 3
    AnswerRole = Qt.ItemDataRole.UserRole + 4

    task_checked = Signal(object, bool)   # TaskRef before the edit, checked
    task_renamed = Signal(object, str)    # TaskRef before the edit, new text
    task_moved = Signal(object, int)      # TaskRef before the move, its new position

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks: list[Task] = []
        self._current_text: str | None = None
        self._current_row = -1
        self._run_active = False

    # -- reading ---------------------------------------------------------------------------

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._tasks)

    def task(self, row: int) -> Task:
        return replace(self._tasks[row], index=row)

    def tasks(self) -> list[Task]:
        return [self.task(row) for row in range(len(self._tasks))]

    def ref(self, row: int) -> TaskRef:
        return TaskRef(row, self._tasks[row].text)

    def counts(self) -> tuple[int, int]:
        return sum(t.checked for t in self._tasks), len(self._tasks)

    @property
    def current_row(self) -> int:
        return self._current_row

    def is_locked(self, row: int) -> bool:
        """The task the AI is working on keeps its text during a run (the loop finds it by it)."""
        return self._run_active and row == self._current_row

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not 0 <= index.row() < len(self._tasks):
            return None
        task, row = self._tasks[index.row()], index.row()
        if role == Qt.ItemDataRole.DisplayRole:
            return shown_text(task)
        if role == Qt.ItemDataRole.EditRole:
            return task.question if task.is_human else task.text
        if role == Qt.ItemDataRole.CheckStateRole:
            return Qt.CheckState.Checked if task.checked else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(task, row)
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:
            return self._description(task, row)
        if role == self.TaskRole:
            return self.task(row)
        if role == self.HumanRole:
            return task.is_human
        if role == self.CurrentRole:
            return row == self._current_row
        if role == self.AnswerRole:
            return decision_answer(task)
        return None

    def _description(self, task: Task, row: int) -> str:
        parts = []
        if task.is_human:
            answer = decision_answer(task)
            parts.append(self.tr("Decided: %1").replace("%1", answer) if answer
                         else self.tr("A decision for you") if not task.checked
                         else self.tr("Decided"))
        else:
            parts.append(self.tr("Done") if task.checked else self.tr("Not done"))
        if row == self._current_row:
            parts.append(self.tr("The run is working on this now"))
        return ", ".join(parts)

    def _tooltip(self, task: Task, row: int) -> str:
        if task.is_human and not task.checked:
            return self.tr("A decision only you can make. Click it (or press Enter) to decide.")
        if self.is_locked(row):
            return self.tr("The run is working on this task now. You can change its text "
                           "when the run stops.")
        return self.tr("Double-click or press F2 to change the text. Drag, or press "
                       "Alt+Up and Alt+Down, to move it.")

    def flags(self, index):
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled  # drops land between rows, never onto one
        flags = (Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                 | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsDragEnabled
                 | Qt.ItemFlag.ItemNeverHasChildren)
        if not self.is_locked(index.row()):
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    # -- the person's edits ------------------------------------------------------------------

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid():
            return False
        row, task = index.row(), self._tasks[index.row()]
        if role == Qt.ItemDataRole.CheckStateRole:
            checked = Qt.CheckState(value) == Qt.CheckState.Checked
            # An open decision is closed by answering it (the view opens it), never by a tick.
            if checked == task.checked or (task.is_human and checked):
                return False
            self._replace(row, replace(task, checked=checked))
            self.task_checked.emit(TaskRef(row, task.text), checked)
            return True
        if role == Qt.ItemDataRole.EditRole:
            text = one_line(value or "")
            if task.is_human:
                text = human_prefix(task) + text if text else ""
            if not text or text == task.text or self.is_locked(row):
                return False
            self._replace(row, replace(task, text=text))
            self.task_renamed.emit(TaskRef(row, task.text), text)
            return True
        return False

    def moveRows(self, source_parent, source_row, count, destination_parent, destination) -> bool:
        """Move one row so it ends up before `destination` (Qt's numbering, before the move)."""
        n = len(self._tasks)
        if (source_parent.isValid() or destination_parent.isValid() or count != 1
                or not 0 <= source_row < n or not 0 <= destination <= n
                or destination in (source_row, source_row + 1)):
            return False
        if not self.beginMoveRows(QModelIndex(), source_row, source_row, QModelIndex(),
                                  destination):
            return False
        to_index = destination if destination < source_row else destination - 1
        ref = self.ref(source_row)
        self._tasks.insert(to_index, self._tasks.pop(source_row))
        self._current_row = self._find_current()
        self.endMoveRows()
        self.task_moved.emit(ref, to_index)
        return True

    def supportedDropActions(self):
        return Qt.DropAction.MoveAction

    def supportedDragActions(self):
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:
        return [_MIME]

    def mimeData(self, indexes) -> QMimeData:
        mime = QMimeData()
        rows = sorted({i.row() for i in indexes if i.isValid()})
        mime.setData(_MIME, QByteArray(",".join(map(str, rows)).encode()))
        return mime

    def canDropMimeData(self, data, action, row, column, parent) -> bool:
        return action == Qt.DropAction.MoveAction and data.hasFormat(_MIME)

    def dropMimeData(self, data, action, row, column, parent) -> bool:
        """A task dragged within the list: a move. Returns False so the view removes nothing
        afterwards (QListView moves rows with moveRows itself; this serves other views)."""
        if not self.canDropMimeData(data, action, row, column, parent):
            return False
        try:
            rows = [int(r) for r in bytes(data.data(_MIME).data()).decode().split(",") if r]
        except ValueError:
            return False
        if len(rows) != 1:
            return False
        destination = parent.row() if row < 0 and parent.isValid() else row
        destination = len(self._tasks) if destination < 0 else destination
        self.moveRows(QModelIndex(), rows[0], 1, QModelIndex(), destination)
        return False

    # -- optimistic changes the view makes (delete, restore, add, HUMAN) ---------------------

    def insert_task(self, row: int, task: Task) -> None:
        row = min(max(row, 0), len(self._tasks))
        self.beginInsertRows(QModelIndex(), row, row)
        self._tasks.insert(row, task)
        self._current_row = self._find_current()
        self.endInsertRows()

    def remove_task(self, row: int) -> Task:
        self.beginRemoveRows(QModelIndex(), row, row)
        task = self._tasks.pop(row)
        self._current_row = self._find_current()
        self.endRemoveRows()
        return task

    def _replace(self, row: int, task: Task) -> None:
        self._tasks[row] = task
        self._changed(row, row)
        self._refresh_current()

    def replace_task(self, row: int, task: Task) -> None:
        self._replace(row, task)

    # -- the board as read from disk ---------------------------------------------------------

    def reset_tasks(self, tasks: list[Task]) -> None:
        self.beginResetModel()
        self._tasks = list(tasks)
        self._current_row = self._find_current()
        self.endResetModel()

    def apply_tasks(self, tasks: list[Task], keep: QPersistentModelIndex | None = None) -> bool:
        """Bring the rows to `tasks` with the fewest row changes, so selection, scrolling
        and an open editor survive. Returns False, changing nothing, when the row `keep`
        (one being edited in place) would change or go: the caller applies it later."""
        old, new = [_key(t) for t in self._tasks], [_key(t) for t in tasks]
        if not self._tasks:
            if tasks:
                self.reset_tasks(tasks)
            return True
        if old == new:
            self._tasks = list(tasks)  # fresh line numbers; nothing a view shows
            return True
        ops = _row_changes(old, new)
        if keep is not None and keep.isValid():
            kept = keep.row()
            if any(i1 <= kept < i2 for _tag, i1, i2, _j1, _j2 in ops):
                return False
        for tag, i1, i2, j1, j2 in reversed(ops):  # from the end: earlier rows keep their place
            if tag == "replace" and i2 - i1 == j2 - j1:
                self._tasks[i1:i2] = tasks[j1:j2]
                self._changed(i1, i2 - 1)
                continue
            if i2 > i1:
                self.beginRemoveRows(QModelIndex(), i1, i2 - 1)
                del self._tasks[i1:i2]
                self.endRemoveRows()
            if j2 > j1:
                self.beginInsertRows(QModelIndex(), i1, i1 + j2 - j1 - 1)
                self._tasks[i1:i1] = tasks[j1:j2]
                self.endInsertRows()
        self._tasks = list(tasks)
        self._refresh_current()
        return True

    def _changed(self, first: int, last: int) -> None:
        self.dataChanged.emit(self.index(first), self.index(last))

    # -- the task being worked on ------------------------------------------------------------

    def set_current_text(self, text: str | None) -> None:
        self._current_text = text
        self._refresh_current()

    def set_run_active(self, active: bool) -> None:
        self._run_active = active
        if self._current_row >= 0:
            self._changed(self._current_row, self._current_row)

    def _find_current(self) -> int:
        # As the loop finds it (Board.find): by text, an unchecked one first, then any.
        if not self._current_text:
            return -1
        target = self._current_text.strip()
        norm = " ".join(target.split()).casefold()
        for same in (lambda t: t.text == target,
                     lambda t: " ".join(t.text.split()).casefold() == norm):
            hits = [row for row, t in enumerate(self._tasks) if same(t)]
            if hits:
                return next((r for r in hits if not self._tasks[r].checked), hits[0])
        return -1

    def _refresh_current(self) -> None:
        before, self._current_row = self._current_row, self._find_current()
        if before != self._current_row:
            for row in (before, self._current_row):
                if 0 <= row < len(self._tasks):
                    self._changed(row, row)
