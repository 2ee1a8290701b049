"""The list of tasks itself: one row per task, keys and drag-and-drop set up for a checklist."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QAbstractItemView, QListView

from app.gui.board.board_delegate import TaskItemDelegate
from app.gui.board.board_model import BoardItemModel


def _open_decision(index: QModelIndex) -> bool:
    return bool(index.data(BoardItemModel.HumanRole)) and \
        index.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked


class TaskListView(QListView):
    """Rows of a BoardItemModel. Space ticks (the delegate), F2 or a double-click edits the
    text, a drag moves a task (through the model's moveRows). Enter, and Space on an open
    decision, report the row as activated: BoardView decides or edits."""

    row_activated = Signal(QModelIndex)
    menu_requested = Signal(QModelIndex, QPoint)  # the row (maybe invalid), where (global)

    def __init__(self, model: BoardItemModel, parent=None):
        super().__init__(parent)
        self.delegate = TaskItemDelegate(self)
        self.setModel(model)
        self.setItemDelegate(self.delegate)
        self.setUniformItemSizes(True)  # one row height for all: 2,000 rows lay out at once
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                             | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.setDropIndicatorShown(True)
        self.setAccessibleName(self.tr("Tasks"))
        self.setToolTip(self.tr("Your tasks, in the order the AI does them."))

    def edit(self, index, trigger=None, event=None):
        # A double-click on an open decision is a click that opened it, not a wish to retype
        # it (F2 still edits its question).
        if trigger is None:
            return super().edit(index)
        if trigger == QAbstractItemView.EditTrigger.DoubleClicked and _open_decision(index):
            return False
        return super().edit(index, trigger, event)

    def keyPressEvent(self, event) -> None:
        index = self.currentIndex()
        if index.isValid() and self.state() != QAbstractItemView.State.EditingState \
                and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) or \
                    (event.key() == Qt.Key.Key_Space and _open_decision(index)):
                self.row_activated.emit(index)
                return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event) -> None:
        # From the keyboard (the Menu key, Shift+F10) the menu is for the current row and
        # opens on it; from the mouse, for the row under the pointer.
        if event.reason() == QContextMenuEvent.Reason.Keyboard:
            index = self.currentIndex()
            where = self.viewport().mapToGlobal(self.visualRect(index).center()) \
                if index.isValid() else event.globalPos()
        else:
            index = self.indexAt(self.viewport().mapFromGlobal(event.globalPos()))
            where = event.globalPos()
        self.menu_requested.emit(index, where)
        event.accept()
