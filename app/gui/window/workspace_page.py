"""The page of an open folder: its checklist on the left, its run and rounds on the right.

One left edge per column, so the eye finds each column's start at once: the checklist starts where the top bar's
"Open folder…" does (top_bar.EDGE), and everything in the right column (Run, the status,
the Rounds heading, the cards) starts at one x, 8 px past the divider.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QSplitter,
                               QVBoxLayout, QWidget)

from app.gui.board.board_view import BoardView
from app.gui.folder.top_bar import EDGE
from app.gui.look import look
from app.gui.look.notice_bar import NoticeBar
from app.gui.run.history_picker import HistoryPicker
from app.gui.run.round_cards import RoundCardList
from app.gui.run.run_panel import RunPanel
from app.gui.words import wording

GAP = 8  # the 8 px grid


class WorkspacePage(QSplitter):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(Qt.Orientation.Horizontal, parent)
        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(EDGE, 0, GAP, GAP)
        left_layout.setSpacing(GAP)
        tasks_title = QLabel(self.tr("Tasks"), left)
        tasks_title.setObjectName("tasksTitle")
        tasks_title.setFont(look.type_font(tasks_title, "section", semibold=True))
        tasks_title.setToolTip(self.tr("The list of what you want done, saved as TASKS.md in "
                                       "the folder. The AI works through it from the top."))
        self.board_notice = NoticeBar(left)
        self.board_view = BoardView(left)
        left_layout.addWidget(tasks_title)
        left_layout.addWidget(self.board_notice)
        left_layout.addWidget(self.board_view, 1)
        # No "Drop a folder" hint here: a folder is open, and the hint belongs to the empty
        # window (welcome_page) only (WINDOW.md, Chrome). Dropping still works everywhere.

        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(GAP, 0, EDGE, GAP)
        right_layout.setSpacing(GAP)
        self.run_panel = RunPanel(right)
        rounds_title = QLabel(self.tr("Rounds, newest first"), right)
        rounds_title.setObjectName("roundsTitle")
        rounds_title.setFont(look.type_font(rounds_title, "section", semibold=True))
        rounds_title.setToolTip(wording.tip(wording.ROUND_TIP))
        self.cards = RoundCardList(right)
        self.history_picker = HistoryPicker(right)
        rounds_row = QHBoxLayout()
        rounds_row.setContentsMargins(0, 0, 0, 0)
        rounds_row.addWidget(rounds_title)
        rounds_row.addStretch(1)
        show = QLabel(self.tr("H&istory:"), right)
        show.setBuddy(self.history_picker)
        rounds_row.addWidget(show)
        rounds_row.addWidget(self.history_picker)
        # The schedule's line (folder/schedule_flow.py) is built after the folder is usable:
        # its room is kept from the start, so "Rounds" and the cards never move when it comes.
        self.schedule_slot = QWidget(right)
        self.schedule_slot.setObjectName("scheduleSlot")
        slot_layout = QVBoxLayout(self.schedule_slot)
        slot_layout.setContentsMargins(0, 0, 0, 0)
        self.schedule_slot.setMinimumHeight(schedule_line_height(self.schedule_slot))
        right_layout.addWidget(self.run_panel)
        right_layout.addWidget(self.schedule_slot)
        right_layout.addLayout(rounds_row)
        right_layout.addWidget(self.cards, 1)

        self.addWidget(_scrolling(left))
        self.addWidget(_scrolling(right, run=True))
        self.setSizes([520, 660])
        self.setChildrenCollapsible(False)


def schedule_line_height(parent: QWidget) -> int:
    """The schedule line's height with its one flat button ("Run this folder on a
    schedule…"): a flat button's height in this style, and its 2 px above and below."""
    probe = QPushButton("Ag")  # none of the page's: gone when this returns
    probe.setFont(parent.font())
    probe.setFlat(True)
    return probe.sizeHint().height() + 4


class _RunColumn(QScrollArea):
    """The run's column is never narrower than what it shows with the vertical scroll bar
    beside it: on an 800 x 600 screen a run's status block makes it taller than the window,
    and the bar that came then took the last pixels of its width, so it scrolled sideways
    too, for the whole run. (The checklist's column gives way first.)"""

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        column = self.widget()
        width = column.minimumSizeHint().width() + self.verticalScrollBar().sizeHint().width() \
            if column is not None else 0
        return QSize(max(120, width), 120)


def _scrolling(column: QWidget, run: bool = False) -> QScrollArea:
    """A column that scrolls as a whole only when the window is shorter (or narrower) than
    all of it: at 200 % on a 1440 × 900 screen the window still fits, and nothing in it is
    squeezed below the size it needs (the status block keeps its height)."""
    area = _RunColumn() if run else QScrollArea()
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidgetResizable(True)
    area.setWidget(column)
    if run:
        area.setMinimumHeight(120)  # its width: minimumSizeHint
    else:
        area.setMinimumSize(120, 120)
    area.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to what is in it, not to it
    return area
