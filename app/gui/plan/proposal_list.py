"""The proposed tasks as a list the person ticks, edits in place, reorders and removes.

Nothing here writes anywhere: the list holds `Proposal`s in memory until "Add to my list".
Keys: Space ticks, F2 or double-click edits the text, Alt+Up / Alt+Down move, Delete removes.
The selected task's Done-when lines and, for a decision, its options are edited below.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QAbstractItemView, QFormLayout, QHBoxLayout, QLabel,
                               QPlainTextEdit, QPushButton, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

from app.core.plan.proposals import Proposal

_PROPOSAL = Qt.ItemDataRole.UserRole


class ProposalList(QWidget):
    """Proposals to tick (all ticked at first), edit, reorder and remove."""

    ticked_changed = Signal(int)  # how many are ticked now

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.tree = QTreeWidget(self)
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels([self.tr("Task"), self.tr("How to tell it is done")])
        self.tree.setRootIsDecorated(False)
        self.tree.setAccessibleName(self.tr("Proposed tasks"))
        self.tree.setToolTip(self.tr("Tick the tasks you want. Double-click or press F2 to "
                                     "change a task's words; drag, or Alt+Up and Alt+Down, "
                                     "to change the order; Delete removes one."))
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.tree.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setWordWrap(True)
        self.tree.header().setStretchLastSection(True)
        self.tree.setColumnWidth(0, 540)

        self.up = QPushButton(self.tr("Move up"), self)
        self.down = QPushButton(self.tr("Move down"), self)
        self.remove = QPushButton(self.tr("Remove"), self)
        for button, tip in ((self.up, self.tr("Move the selected task up (Alt+Up)")),
                            (self.down, self.tr("Move the selected task down (Alt+Down)")),
                            (self.remove, self.tr("Take the selected task off this list "
                                                  "(Delete)"))):
            button.setToolTip(tip)
            button.setAccessibleName(button.text())
        self.done_when = QPlainTextEdit(self)
        self.done_when.setAccessibleName(self.tr("Done when, one per line"))
        self.done_when.setPlaceholderText(self.tr("One line each: what shows the task is done"))
        self.done_when.setFixedHeight(56)
        self.options = QPlainTextEdit(self)
        self.options.setAccessibleName(self.tr("Options, one per line"))
        self.options.setPlaceholderText(self.tr("2 to 4 answers, one per line"))
        self.options.setFixedHeight(56)
        for box in (self.done_when, self.options):
            box.setTabChangesFocus(True)  # Tab moves on, as in every other field
        self._options_label = QLabel(self.tr("Options:"), self)
        self._options_label.setToolTip(self.tr("A decision is a task only you answer; the run "
                                               "stops and asks you to choose."))

        buttons = QHBoxLayout()
        for b in (self.up, self.down, self.remove):
            buttons.addWidget(b)
        buttons.addStretch(1)
        form = QFormLayout()
        form.addRow(self.tr("Done when:"), self.done_when)
        form.addRow(self._options_label, self.options)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tree, 1)
        layout.addLayout(buttons)
        layout.addLayout(form)

        self.up.clicked.connect(lambda: self.move_selected(-1))
        self.down.clicked.connect(lambda: self.move_selected(1))
        self.remove.clicked.connect(self.remove_selected)
        for keys, slot in (("Alt+Up", lambda: self.move_selected(-1)),
                           ("Alt+Down", lambda: self.move_selected(1)),
                           (QKeySequence.StandardKey.Delete, self.remove_selected)):
            shortcut = QShortcut(QKeySequence(keys), self.tree)
            shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)
            shortcut.activated.connect(slot)
        self.tree.itemChanged.connect(self._on_item_changed)
        self.tree.currentItemChanged.connect(self._on_current_changed)
        self.done_when.textChanged.connect(self._on_details_edited)
        self.options.textChanged.connect(self._on_details_edited)
        self._filling = False
        self._on_current_changed(None, None)

    # -- contents --------------------------------------------------------------------------
    def set_proposals(self, proposals: list[Proposal]) -> None:
        self._filling = True
        self.tree.clear()
        for p in proposals:
            self.tree.addTopLevelItem(self._item(Proposal(p.text, list(p.done_when), p.human,
                                                          list(p.options))))
        self._filling = False
        first = self.tree.topLevelItem(0)
        if first is not None:
            self.tree.setCurrentItem(first)
        self.ticked_changed.emit(len(self.ticked()))

    def proposals(self) -> list[Proposal]:
        """Every proposal in the list's order, as edited."""
        return [self._proposal(item) for item in self._items()]

    def ticked(self) -> list[Proposal]:
        """The ticked proposals, in the list's order, as edited."""
        out = []
        for item in self._items():
            if item.checkState(0) == Qt.CheckState.Checked:
                out.append(self._proposal(item))
        return out

    def _items(self) -> list[QTreeWidgetItem]:
        items = [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())]
        return [item for item in items if item is not None]  # each index is in range

    def _item(self, p: Proposal) -> QTreeWidgetItem:
        item = QTreeWidgetItem()
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                      | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEditable
                      | Qt.ItemFlag.ItemIsDragEnabled)
        item.setCheckState(0, Qt.CheckState.Checked)
        item.setData(0, _PROPOSAL, p)
        item.setText(0, p.text)
        self._show_details(item, p)
        return item

    def _show_details(self, item: QTreeWidgetItem, p: Proposal) -> None:
        if p.human:
            words = self.tr("Your decision: %1").replace("%1", " / ".join(p.options))
            item.setToolTip(0, self.tr("A decision: the run stops here and asks you."))
        else:
            words = "; ".join(p.done_when)
            item.setToolTip(0, p.text)
        item.setText(1, words)
        item.setToolTip(1, words)
        font = item.font(0)
        font.setWeight(font.Weight.DemiBold if p.human else font.Weight.Normal)
        item.setFont(0, font)

    @staticmethod
    def _proposal(item: QTreeWidgetItem) -> Proposal:
        p: Proposal = item.data(0, _PROPOSAL)
        return Proposal(p.text, list(p.done_when), p.human, list(p.options))

    # -- editing ---------------------------------------------------------------------------
    def _on_item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._filling:
            return
        p: Proposal = item.data(0, _PROPOSAL)
        if p is None:
            return
        text = " ".join(item.text(0).split())
        if column == 0 and text != p.text:
            if text:
                p.text = text
            self._filling = True
            item.setText(0, p.text)  # an emptied text goes back to what it was
            self._filling = False
        self.ticked_changed.emit(len(self.ticked()))

    def _on_current_changed(self, current, _previous) -> None:
        p = current.data(0, _PROPOSAL) if current is not None else None
        self._filling = True
        self.done_when.setPlainText("\n".join(p.done_when) if p else "")
        self.options.setPlainText("\n".join(p.options) if p else "")
        self._filling = False
        for w in (self.done_when, self.up, self.down, self.remove):
            w.setEnabled(p is not None)
        human = bool(p and p.human)
        self.options.setVisible(human)
        self._options_label.setVisible(human)
        self.done_when.setEnabled(p is not None and not human)

    def _on_details_edited(self) -> None:
        item = self.tree.currentItem()
        if self._filling or item is None:
            return
        p: Proposal = item.data(0, _PROPOSAL)
        lines = lambda w: [" ".join(x.split()) for x in w.toPlainText().splitlines()  # noqa: E731
                           if x.strip()]
        if p.human:
            options = lines(self.options)
            if len(options) >= 2:  # a decision keeps at least two answers
                p.options = options[:4]
        else:
            p.done_when = lines(self.done_when)
        self._filling = True
        self._show_details(item, p)
        self._filling = False

    def move_selected(self, delta: int) -> None:
        item = self.tree.currentItem()
        if item is None:
            return
        row = self.tree.indexOfTopLevelItem(item)
        to = row + delta
        if not 0 <= to < self.tree.topLevelItemCount():
            return
        self._filling = True
        checked = item.checkState(0)
        self.tree.takeTopLevelItem(row)
        self.tree.insertTopLevelItem(to, item)
        item.setCheckState(0, checked)
        self._filling = False
        self.tree.setCurrentItem(item)

    def remove_selected(self) -> None:
        item = self.tree.currentItem()
        if item is None:
            return
        self.tree.takeTopLevelItem(self.tree.indexOfTopLevelItem(item))
        self.ticked_changed.emit(len(self.ticked()))
