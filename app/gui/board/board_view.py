"""The checklist: TASKS.md as a list the person edits, each edit written at once through the board verbs."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QLabel, QLineEdit, QMenu,
                               QPushButton, QStackedLayout, QVBoxLayout, QWidget)

from app.core.board.board import Board, BoardError, Task, TaskRef, one_line
from app.core.board import verbs
from app.gui.board.board_file import BoardFile
from app.gui.board.board_text import has_plain_list, problem_sentence, text_problem
from app.gui.board.board_model import BoardItemModel
from app.gui.board.gone_page import GonePage
from app.gui.board.task_details import TaskDetailsPanel
from app.gui.board.task_list import TaskListView
from app.gui.look import look
from app.gui.board.undo_bar import UndoBar
from app.gui.plan.plan_button import make_plan_button


class BoardView(QWidget):
    """TASKS.md as a checklist. Every edit shows at once and is written in order off the UI
    thread; after each write the board is read again and the list follows the file.

    Keys in the list: Space ticks, Enter or F2 edits the text (Enter on an open decision
    opens it), Alt+Up and Alt+Down move the task, Delete removes it, Ctrl+Z puts the last
    deleted task back. During a run the task being worked on can be ticked, moved and its
    details edited, but not renamed, made (or unmade) a decision or deleted: the run finds
    its task by its text, so those would pull it from under the AI.
    """

    decision_requested = Signal(object)   # Task: an open HUMAN task the person wants to decide
    counts_changed = Signal(int, int)     # done, total
    tasks_changed = Signal()  # rows added, removed, edited or reloaded
    board_missing = Signal(object)        # Path: there is no TASKS.md there
    board_found = Signal(object)          # Path: a TASKS.md is there (again), readable
    create_requested = Signal()           # the person pressed "Create a task list"
    folder_gone = Signal(object)          # Path: the folder itself is gone (moved, deleted)
    open_other_requested = Signal()       # "Open another folder…" on the folder-gone page
    error_raised = Signal(str)            # one plain sentence for the person
    # Whether TASKS.md is text the list can read (board_text): its sentence, "" once it is.
    text_problem = Signal(str)
    plan_requested = Signal()             # "Plan with AI" was pressed

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._model = BoardItemModel(self)
        self._file = BoardFile(self)
        self._counts: tuple[int, int] | None = None
        self._read_once = False  # the board shown has been read (its counts are its own)
        self._deferred = None   # a board read while a row was being edited: applied after
        self._deleted: list[tuple[int, Task, dict]] = []   # (row, task, {"removed": ...})
        self._missing = False   # the folder has no TASKS.md
        self._text_problem = ""  # TASKS.md's text as board_text found it ("": readable)

        self._list = TaskListView(self._model, self)
        self._delegate = self._list.delegate

        self._empty = QWidget(self)  # an empty board: a line to start with, and Plan with AI
        empty_text = QLabel(self._empty)
        empty_text.setWordWrap(True)
        empty_text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._empty_text = empty_text
        self._say_empty(plain_list=False)
        self.empty_plan_button = make_plan_button(self._empty, prominent=True)
        self.empty_plan_button.clicked.connect(self.plan_requested)
        empty_layout = QVBoxLayout(self._empty)
        empty_layout.addStretch(1)
        empty_layout.addWidget(empty_text)
        empty_layout.addWidget(self.empty_plan_button, 0, Qt.AlignmentFlag.AlignHCenter)
        empty_layout.addStretch(1)
        self._no_board = self._build_no_board_page()
        self._missing = False  # the folder has no TASKS.md: the page above, not the list
        self._gone_page = GonePage(self)
        self._gone_page.open_button.clicked.connect(self.open_other_requested)
        self._gone = False     # the folder itself is gone: that page, nothing offered to make
        self._stack = QStackedLayout()
        self._stack.addWidget(self._list)
        self._stack.addWidget(self._empty)
        self._stack.addWidget(self._no_board)
        self._stack.addWidget(self._gone_page)

        self._undo_bar = UndoBar(self)
        self._add = QLineEdit(self)
        self._add.setPlaceholderText(self.tr("Add a task…"))
        self._add.setAccessibleName(self.tr("Add a task"))
        self._add.setToolTip(self.tr("Type what you want done and press Enter. It goes at "
                                     "the end of the list (Ctrl+N)."))
        self.plan_button = make_plan_button(self)
        self.plan_button.clicked.connect(self.plan_requested)
        self._details = TaskDetailsPanel(self)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addLayout(self._stack, 1)
        layout.addWidget(self._undo_bar)
        add_row = QHBoxLayout()
        add_row.addWidget(self._add, 1)
        add_row.addWidget(self.plan_button)
        layout.addLayout(add_row)
        layout.addSpacing(6)
        layout.addWidget(self._details)  # framed and titled: the selected task's, not a new one
        self._make_actions()

        self._model.task_checked.connect(self._on_task_checked)
        self._model.task_renamed.connect(self._on_task_renamed)
        self._model.task_moved.connect(self._on_task_moved)
        self._rows_changed = QTimer(self)  # many row changes at once: look at them once
        self._rows_changed.setSingleShot(True)
        self._rows_changed.setInterval(0)
        self._rows_changed.timeout.connect(self._on_rows_changed)
        for signal in (self._model.rowsInserted, self._model.rowsRemoved, self._model.rowsMoved,
                       self._model.dataChanged, self._model.modelReset):
            signal.connect(self._rows_changed.start)
        self._list.selectionModel().currentChanged.connect(self._on_current_changed)
        self._list.clicked.connect(self._on_clicked)
        self._list.row_activated.connect(self._on_row_activated)
        self._list.menu_requested.connect(self._on_menu_requested)
        self._delegate.closeEditor.connect(self._on_editor_closed)
        self._add.returnPressed.connect(self._on_add_return_pressed)
        self._undo_bar.undo_clicked.connect(self.undo_delete)
        self._details.human_toggled.connect(self._on_human_toggled)
        self._details.details_edited.connect(self._on_details_edited)
        self._file.board_read.connect(self._on_board_read)
        self._file.board_missing.connect(self._on_board_missing)
        self._file.folder_gone.connect(self.show_folder_gone)
        self._file.read_failed.connect(self._on_read_failed)
        self._file.write_failed.connect(self._on_write_failed)
        self.set_board(None)

    def _build_no_board_page(self) -> QWidget:
        """What a folder without TASKS.md shows in place of the list: what a task list is,
        and the one next step as a button. `no_board_actions` is the row of those buttons
        (Plan with AI, when the window offers it, goes beside "Create a task list")."""
        page = QWidget(self)
        layout = QVBoxLayout(page)
        layout.addStretch(1)
        title = QLabel(self.tr("This folder has no task list yet"), page)
        title.setWordWrap(True)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title.setFont(look.type_font(title, "section", semibold=True))
        text = QLabel(self.tr("The task list is where you write what you want done, one task "
                              "a line; the AI works through it from the top. It is saved in "
                              "this folder as TASKS.md."), page)
        text.setWordWrap(True)
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.create_button = QPushButton(self.tr("Create a task list"), page)
        self.create_button.setAutoDefault(True)
        self.create_button.setAccessibleName(self.tr("Create a task list"))
        self.create_button.setToolTip(self.tr("Start TASKS.md with two example tasks you can "
                                              "change or delete."))
        self.create_button.clicked.connect(self.create_requested)
        self.no_board_actions = QHBoxLayout()
        self.no_board_actions.addStretch(1)
        self.no_board_actions.addWidget(self.create_button)
        self.no_board_plan_button = make_plan_button(page, prominent=True)
        self.no_board_plan_button.clicked.connect(self.plan_requested)
        self.no_board_actions.addWidget(self.no_board_plan_button)
        self.no_board_actions.addStretch(1)
        layout.addWidget(title)
        layout.addWidget(text)
        layout.addLayout(self.no_board_actions)
        layout.addStretch(2)
        page.setAccessibleName(title.text())
        return page

    @property
    def has_no_board(self) -> bool:
        """The folder shown has no TASKS.md (the page that offers to create one is shown)."""
        return self._missing

    @property
    def unreadable(self) -> bool:
        """TASKS.md is there but its text cannot be read (UTF-16: board_text)."""
        return self._text_problem == "utf16"

    @property
    def folder_is_gone(self) -> bool:
        """The folder shown is gone (its page says so and offers to open another)."""
        return self._gone

    @property
    def first_read_done(self) -> bool:
        """The board shown has been read: its "0 of 0" is an empty list's, not the emptied
        list's before its read (folder_flow.after_first_folder)."""
        return self._read_once

    # -- the window's side of the contract -------------------------------------------------

    def set_board(self, path: Path | None, read: Board | None = None) -> None:
        """Show the TASKS.md at `path` (None: nothing). It is read off the UI thread, or is
        `read` (read off it already: see BoardFile.open)."""
        self._deferred = None
        self._read_once = False
        self._deleted.clear()
        self._missing = self._gone = False
        self._text_problem = ""  # another board: its own first read says
        self._undo_bar.hide()
        self._model.reset_tasks([])
        self._set_readable(False)  # until the first read says it is there
        self._missing = self._gone = False
        self.plan_button.setEnabled(path is not None)
        self._file.open(path, read)
        self._on_rows_changed()
        # Until its first read, "0 of 0" is no count: that read's is said even when it is
        # 0 of 0 again (a TASKS.md with no task), or the start-up that waits for the folder's
        # count (folder_flow.after_first_folder) waits for ever, its settings and its engine
        # checks with it.
        self._counts = None

    def release_file(self) -> None:
        """Stop watching TASKS.md and its folder (the window is closing), changing nothing
        shown: on Windows the watch holds the folder open."""
        self._file.open(None)

    def set_current_task(self, text: str | None) -> None:
        """Mark the task the AI is working on (None: no task, the run is over). Each round
        of a run marks its task: a round of the task already marked, or of one not on the
        list, changes nothing, and costs the UI thread nothing (a thousand rounds)."""
        before = self._model.current_row
        self._model.set_current_text(text)
        row = self._model.current_row
        if row == before and text is not None:
            return
        if row >= 0:
            self._list.scrollTo(self._model.index(row), QAbstractItemView.ScrollHint.EnsureVisible)
        self._on_rows_changed()

    def set_web_default(self, on: bool) -> None:
        """The folder's default for looking things up on the web (FolderSettings.web): what a
        task without its own "Web:" line may do, as the task details show it."""
        self._details.set_web_default(on)

    def set_run_active(self, active: bool) -> None:
        """While a run is on, the current task keeps its text (see the class docstring)."""
        self._model.set_run_active(active)
        self._on_rows_changed()

    @property
    def model(self) -> BoardItemModel:
        return self._model

    @property
    def add_field(self) -> QLineEdit:
        """The "Add a task…" line (Ctrl+N in the window puts the cursor there)."""
        return self._add

    @property
    def list_view(self) -> TaskListView:
        return self._list

    @property
    def busy(self) -> bool:
        """Writes or reads still on their way (tests and the window's close wait on this)."""
        return not self._file.idle

    # -- actions -------------------------------------------------------------------------

    def _action(self, text: str, slot, shortcuts=(), tip: str = "") -> QAction:
        action = QAction(text, self._list)
        action.setShortcuts([QKeySequence(s) for s in shortcuts])
        action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)  # not while typing
        action.setToolTip(tip or text)
        action.triggered.connect(slot)
        self._list.addAction(action)
        return action

    def _make_actions(self) -> None:
        current = lambda: self._list.currentIndex().row()  # noqa: E731
        self._act_decide = self._action(self.tr("Decide…"), lambda: self._on_row_activated(
            self._list.currentIndex()))
        self._act_edit = self._action(self.tr("Change text"), lambda: self.edit_task(current()),
                                      [Qt.Key.Key_F2])
        self._act_check = self._action(self.tr("Mark as done"), lambda: self._toggle_check(
            current()))
        self._act_human = self._action(self.tr("You decide this one (the run asks you)"),
                                       lambda on: self._set_human(current(), on),
                                       tip=self.tr("The AI stops at this task and asks you, "
                                                   "instead of doing it itself. In TASKS.md "
                                                   "such a task is marked HUMAN."))
        self._act_human.setCheckable(True)
        self._act_up = self._action(self.tr("Move up"), lambda: self._move(current(), -1),
                                    [Qt.Modifier.ALT | Qt.Key.Key_Up])
        self._act_down = self._action(self.tr("Move down"), lambda: self._move(current(), 1),
                                      [Qt.Modifier.ALT | Qt.Key.Key_Down])
        self._act_delete = self._action(self.tr("Delete"), lambda: self.delete_task(current()),
                                        [Qt.Key.Key_Delete, Qt.Key.Key_Backspace],
                                        self.tr("Delete this task (you can undo it)"))
        self._act_undo = QAction(self.tr("Undo delete"), self)
        self._act_undo.setShortcut(QKeySequence.StandardKey.Undo)
        self._act_undo.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._act_undo.triggered.connect(self.undo_delete)
        self.addAction(self._act_undo)

    def _on_menu_requested(self, index: QModelIndex, where) -> None:
        menu = self.context_menu(index)
        if not menu.isEmpty():
            menu.exec(where)
        menu.deleteLater()
        self._update_actions()

    def context_menu(self, index: QModelIndex) -> QMenu:
        """The menu for a row (or for the empty space below the rows)."""
        menu = QMenu(self)
        if index.isValid():
            self._list.setCurrentIndex(index)
            self._update_actions()
            task = self._model.task(index.row())
            if task.is_human and not task.checked:
                menu.addAction(self._act_decide)
            for action in (self._act_edit, self._act_check, self._act_human, None,
                           self._act_up, self._act_down, None, self._act_delete):
                menu.addAction(action) if action else menu.addSeparator()
        if self._deleted:
            menu.addAction(self._act_undo)
        if index.isValid() and self._model.is_locked(index.row()):
            for action in (self._act_edit, self._act_human, self._act_delete):
                action.setEnabled(False)  # in the menu; the keys say why instead
        return menu

    def _update_actions(self) -> None:
        row = self._list.currentIndex().row()
        has = 0 <= row < self._model.rowCount()
        task = self._model.task(row) if has else None
        self._act_edit.setEnabled(has)
        self._act_check.setEnabled(task is not None and not (task.is_human and not task.checked))
        self._act_check.setText(self.tr("Mark as not done") if task and task.checked
                                else self.tr("Mark as done"))
        self._act_human.setEnabled(has)
        self._act_human.setChecked(bool(task and task.is_human))
        self._act_up.setEnabled(has and row > 0)
        self._act_down.setEnabled(has and row < self._model.rowCount() - 1)
        self._act_delete.setEnabled(has)
        self._act_undo.setEnabled(bool(self._deleted))

    # -- the person's edits ------------------------------------------------------------------

    def _on_task_checked(self, ref: TaskRef, checked: bool) -> None:
        self._file.write(lambda path: verbs.set_checked(path, ref, checked))

    def _on_task_renamed(self, ref: TaskRef, text: str) -> None:
        self._file.write(lambda path: verbs.rename_task(path, ref, text))

    def _on_task_moved(self, ref: TaskRef, to_index: int) -> None:
        self._file.write(lambda path: verbs.move_task(path, ref, to_index))

    def _toggle_check(self, row: int) -> None:
        if 0 <= row < self._model.rowCount():
            checked = self._model.task(row).checked
            state = Qt.CheckState.Unchecked if checked else Qt.CheckState.Checked
            self._model.setData(self._model.index(row), state, Qt.ItemDataRole.CheckStateRole)

    def _on_add_return_pressed(self) -> None:
        text = one_line(self._add.text())
        if not text or self._file.path is None:
            return
        row = self._model.rowCount()
        self._model.insert_task(row, Task(row, -1, text, False))
        self._file.write(lambda path: verbs.add_task(path, text))
        self._add.clear()
        self._list.scrollTo(self._model.index(row))

    def _refuse_locked(self, row: int) -> bool:
        if self._model.is_locked(row):
            self.error_raised.emit(self.tr("The run is working on this task. Stop the run to "
                                           "change or delete it."))
            return True
        return False

    def edit_task(self, row: int) -> None:
        """Start editing the task's text in place."""
        if 0 <= row < self._model.rowCount() and not self._refuse_locked(row):
            self._list.edit(self._model.index(row))

    def delete_task(self, row: int) -> None:
        """Delete the task at `row` at once; Undo (the bar or Ctrl+Z) puts it back."""
        if not 0 <= row < self._model.rowCount():
            return
        if self._refuse_locked(row):
            return
        ref = self._model.ref(row)
        task = self._model.remove_task(row)
        entry: tuple[int, Task, dict[str, Any]] = (row, task, {})

        def delete(path: Path):
            entry[2]["removed"] = verbs.delete_task(path, ref)  # the undo, queued after, reads it
            return entry[2]["removed"]

        self._deleted.append(entry)
        self._file.write(delete, on_error=lambda _exc: self._forget_deleted(entry))
        self._undo_bar.show_deleted(task.question if task.is_human else task.text)
        self._update_actions()

    def undo_delete(self) -> None:
        """Put back the task deleted last."""
        if not self._deleted:
            return
        row, task, holder = self._deleted.pop()
        self._model.insert_task(row, task)
        self._list.setCurrentIndex(self._model.index(min(row, self._model.rowCount() - 1)))
        # Runs after the delete (one queue), so the deleted lines are known by then.
        self._file.write(lambda path: verbs.restore_task(path, holder["removed"])
                         if "removed" in holder else None)
        if self._deleted:
            last = self._deleted[-1][1]
            self._undo_bar.show_deleted(last.question if last.is_human else last.text)
        else:
            self._undo_bar.hide()
        self._update_actions()

    def _forget_deleted(self, entry) -> None:
        self._deleted = [e for e in self._deleted if e is not entry]
        if not self._deleted:
            self._undo_bar.hide()

    def _move(self, row: int, step: int) -> None:
        to = row + step
        if 0 <= row < self._model.rowCount() and 0 <= to < self._model.rowCount():
            self._model.moveRows(QModelIndex(), row, 1, QModelIndex(), to + (step > 0))
            self._list.setCurrentIndex(self._model.index(to))
            self._list.scrollTo(self._model.index(to))

    def _set_human(self, row: int, human: bool) -> None:
        if not 0 <= row < self._model.rowCount() or self._refuse_locked(row):
            return
        task = self._model.task(row)
        if task.is_human == human:
            return
        ref = self._model.ref(row)
        text = f"HUMAN: {task.text}" if human else task.question
        self._model.replace_task(row, replace(task, text=text))
        self._file.write(lambda path: verbs.set_human(path, ref, human))

    def _on_human_toggled(self, index: QPersistentModelIndex, human: bool) -> None:
        if index.isValid():
            self._set_human(index.row(), human)

    def _on_details_edited(self, index: QPersistentModelIndex, key: str, values: list) -> None:
        if index.isValid():
            ref = self._model.ref(index.row())
            self._file.write(lambda path: verbs.set_details(path, ref, key, values))

    # -- what the list shows -----------------------------------------------------------------

    def _on_clicked(self, index: QModelIndex) -> None:
        task = self._model.task(index.row())
        if task.is_human and not task.checked:
            self.decision_requested.emit(task)

    def _on_row_activated(self, index: QModelIndex) -> None:
        if not index.isValid():
            return
        task = self._model.task(index.row())
        if task.is_human and not task.checked:
            self.decision_requested.emit(task)
        else:
            self.edit_task(index.row())

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._show_details(current)

    def _show_details(self, index: QModelIndex) -> None:
        """The details panel shows only while a task is selected (WINDOW.md, Chrome)."""
        if index.isValid():
            row = index.row()
            self._details.show_task(QPersistentModelIndex(index), self._model.task(row),
                                    locked=self._model.is_locked(row))
        else:
            self._details.show_task(QPersistentModelIndex(), None)
        self._details.setVisible(index.isValid() and not self._missing and not self._gone)
        self._update_actions()

    def _on_rows_changed(self, *_args) -> None:
        empty = self._model.rowCount() == 0 and self._add.isEnabled()
        self._stack.setCurrentWidget(self._gone_page if self._gone else
                                     self._no_board if self._missing else
                                     self._empty if empty else self._list)
        # One "Plan with AI…", where a person looks first: the empty pages have their own,
        # in the middle; beside "Add a task…" only while the list itself is shown.
        self.plan_button.setVisible(self._stack.currentWidget() is self._list)
        self._show_details(self._list.currentIndex())
        self.tasks_changed.emit()
        counts = self._model.counts()
        if counts != self._counts:
            self._counts = counts
            self.counts_changed.emit(*counts)

    def tasks(self) -> list:
        """The list's tasks as the window shows them now (core Tasks, board order)."""
        return self._model.tasks()

    # -- the file ----------------------------------------------------------------------------

    def _set_readable(self, readable: bool) -> None:
        # Adding needs a board to add to; without one the page above offers to create it,
        # and no "Add a task…" line pretends it could take a task.
        self._add.setEnabled(readable)
        self._add.setVisible(not self._missing and not self._gone)
        self._rows_changed.start()

    def _say_empty(self, plain_list: bool) -> None:
        """What the empty list says: a list the person wrote without checkboxes (their own
        to-do list) is not "no tasks yet" to them."""
        text = self.tr(
            "TASKS.md has a list, but none of its lines is a task yet: a task line starts "
            "with “- [ ]”. Type a task below and press Enter, or let the AI propose some."
        ) if plain_list else self.tr(
            "No tasks yet. Type one below and press Enter, or let the AI propose some for a "
            "goal.")
        self._empty_text.setText(text)
        self._empty_text.setAccessibleName(text)

    def _on_board_read(self, board) -> None:
        self._read_once = True
        self._say_empty(plain_list=not board.tasks and has_plain_list(self._file.known_bytes))
        problem = text_problem(self._file.known_bytes)
        if problem != self._text_problem:
            self._text_problem = problem
            name = self._file.path.name if self._file.path else "TASKS.md"
            self.text_problem.emit(problem_sentence(problem, name))
        if not self._add.isEnabled() or self._missing or self._gone or problem == "utf16":
            self._missing = self._gone = False
            # UTF-16: a task added would go in as UTF-8, mixed into the person's file
            self._set_readable(problem != "utf16")
            self.board_found.emit(self._file.path)
        if self._model.apply_tasks(board.tasks, keep=self._delegate.editing):
            self._deferred = None
            # Now, not a turn later: the count ("0 of 5 done") is drawn with the rows
            # that make it, so it is there when the window becomes usable.
            self._rows_changed.stop()
            self._on_rows_changed()
        else:
            self._deferred = board  # the row being edited would change: after the edit

    def _on_editor_closed(self, *_args) -> None:
        # The editor is still being torn down; look again once Qt is done with it.
        QTimer.singleShot(0, self._apply_deferred)

    def _apply_deferred(self) -> None:
        board, self._deferred = self._deferred, None
        if board is None:
            return
        if self._file.writes_waiting:
            return  # the edit was saved: the read after that write brings the newer board
        self._on_board_read(board)

    def _on_board_missing(self, path: Path) -> None:
        if self._text_problem:  # the file it was about is gone
            self._text_problem = ""
            self.text_problem.emit("")
        self._model.reset_tasks([])
        self._missing = True  # an empty folder: its page offers a task list or Plan with AI
        self._gone = False
        self._set_readable(False)
        self.board_missing.emit(path)

    def show_folder_gone(self, path: Path | None = None) -> None:
        """The folder was moved or deleted: say so, and offer another folder, never to make
        this one again (also when making its task list found it gone)."""
        self._model.reset_tasks([])
        self._missing, self._gone = False, True
        self._undo_bar.hide()
        self._set_readable(False)
        self.folder_gone.emit(path if path is not None else self._file.path)

    def _on_read_failed(self, exc: BoardError) -> None:
        self.error_raised.emit(str(exc))

    def _on_write_failed(self, exc: BaseException) -> None:
        self.error_raised.emit(self._file.failure_sentence(exc))
        if not isinstance(exc, (BoardError, OSError)):
            # A bug, not the person's doing: the window's crash handler shows the details.
            sys.excepthook(type(exc), exc, exc.__traceback__)
