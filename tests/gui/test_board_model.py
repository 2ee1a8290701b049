"""The checklist's item model: rows follow a re-read board with the fewest changes, and stay valid."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QModelIndex, QPersistentModelIndex
from PySide6.QtTest import QAbstractItemModelTester

from app.core.board.board import Board
from app.gui.board.board_model import BoardItemModel

ROW = st.tuples(st.sampled_from("abcdef"), st.booleans())


def tasks(rows):
    text = "".join(f"- [{'x' if done else ' '}] {word}\n" for word, done in rows)
    return Board.parse(text).tasks


def shown(model: BoardItemModel):
    return [(t.text, t.checked) for t in model.tasks()]


@settings(max_examples=150, deadline=None)
@given(st.lists(ROW, max_size=12), st.lists(ROW, max_size=12))
def test_any_reread_board_is_shown_exactly(qapp, before, after):
    model = BoardItemModel()
    # Checks every signal the model sends against Qt's rules; alive as long as this name.
    _tester = QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    model.reset_tasks(tasks(before))
    assert model.apply_tasks(tasks(after))
    assert shown(model) == after


def test_rows_that_did_not_change_keep_their_identity(qapp):
    model = BoardItemModel()
    model.reset_tasks(tasks([("a", False), ("b", False), ("c", False)]))
    kept = QPersistentModelIndex(model.index(2))
    model.apply_tasks(tasks([("new", False), ("a", False), ("b", True), ("c", False)]))
    assert kept.row() == 3  # followed its task down, as an open editor or selection does


def test_a_read_that_would_change_the_row_being_edited_waits(qapp):
    model = BoardItemModel()
    model.reset_tasks(tasks([("a", False), ("b", False)]))
    editing = QPersistentModelIndex(model.index(1))
    assert not model.apply_tasks(tasks([("a", False), ("b2", False)]), keep=editing)
    assert shown(model) == [("a", False), ("b", False)]
    assert model.apply_tasks(tasks([("a", True), ("b", False)]), keep=editing)
    assert shown(model) == [("a", True), ("b", False)]


def test_a_long_scattered_change_is_applied_without_the_quadratic_matcher(qapp, monkeypatch):
    """difflib's SequenceMatcher takes seconds on a change scattered over 2,000 rows: such a
    change is one replace of the rows in between (the time itself is bench/board_view's)."""
    import app.gui.board.board_model as board_model

    def quadratic(*_a, **_kw):
        raise AssertionError("SequenceMatcher ran on a 2,000-row scattered change")

    model = BoardItemModel()
    model.reset_tasks(tasks([("a", False)] * 2000))
    monkeypatch.setattr(board_model, "SequenceMatcher", quadratic)
    changed = []
    model.dataChanged.connect(lambda first, last: changed.append((first.row(), last.row())))
    model.apply_tasks(tasks([("a", n % 2 == 0) for n in range(2000)]))
    assert model.counts() == (1000, 2000)
    assert changed == [(0, 1998)]  # one replace, rows kept: the head and tail that match stay


def test_moving_a_row_reports_its_old_ref_and_new_place(qapp):
    model = BoardItemModel()
    model.reset_tasks(tasks([("a", False), ("b", False), ("c", False)]))
    moves = []
    model.task_moved.connect(lambda ref, to: moves.append((ref.index, ref.text, to)))
    assert model.moveRows(QModelIndex(), 0, 1, QModelIndex(), 3)
    assert not model.moveRows(QModelIndex(), 1, 1, QModelIndex(), 2)  # onto itself: nothing
    assert moves == [(0, "a", 2)] and [t for t, _ in shown(model)] == ["b", "c", "a"]
