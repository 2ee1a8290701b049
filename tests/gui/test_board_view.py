"""The checklist edits TASKS.md through the board verbs, byte for byte, and follows outside edits."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QCheckBox, QLineEdit,
                               QPlainTextEdit, QWidget)

from app.gui.board.board_view import BoardView

HUMAN_BOX = "You decide this one (the run asks you)"

EOL = "\r\n"
LINES = [
    "# Homepage refresh",
    "",
    "Notes the person wrote stay exactly as they are.",
    "",
    "- [x] Draft the landing page copy",
    "- [ ] Compare the three strongest positioning options",
    "  - Done when: comparison.md lists pros and cons of each",
    "",
    "<!--",
    "- [ ] An idea for later, commented out",
    "-->",
    "",
    "- [ ] HUMAN: Should the homepage emphasize speed or trust?",
    "  - Option: speed",
    "  - Option: trust",
    "",
    "```",
    "- [ ] not a task: an example inside a code fence",
    "```",
    "",
    "- [ ] Rewrite the homepage based on that decision",
]
COMPARE = "Compare the three strongest positioning options"
QUESTION = "Should the homepage emphasize speed or trust?"
REWRITE = "Rewrite the homepage based on that decision"


def board(lines: list[str]) -> bytes:
    return (EOL.join(lines) + EOL).encode()


def with_lines(**changes) -> list[str]:
    """LINES with some lines replaced: line_<n>=new text (or None to drop it)."""
    out = []
    for n, line in enumerate(LINES):
        new = changes.get(f"line_{n}", line)
        if new is not None:
            out.append(new)
    return out


@pytest.fixture
def tasks_md(tmp_path) -> Path:
    path = tmp_path / "TASKS.md"
    path.write_bytes(board(LINES))
    return path


@pytest.fixture
def view(qtbot, tasks_md) -> BoardView:
    widget = BoardView()
    qtbot.addWidget(widget)
    widget.resize(480, 640)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_board(tasks_md)
    qtbot.waitUntil(lambda: widget.model.rowCount() == 4, timeout=3000)
    return widget


def texts(view: BoardView) -> list[str]:
    return [t.text for t in view.model.tasks()]


def wait_for_file(qtbot, view: BoardView, path: Path, expected: bytes) -> None:
    qtbot.waitUntil(lambda: not view.busy and path.read_bytes() == expected, timeout=5000)


def select(view: BoardView, row: int) -> QModelIndex:
    """Select a row with the keyboard focus in the list, as after clicking it."""
    index = view.model.index(row)
    view.list_view.setCurrentIndex(index)
    view.activateWindow()
    view.list_view.setFocus()
    return index


def child(view: QWidget, kind: type, name: str):
    """A control found the way a screen reader finds it: by its accessible name."""
    hits = [w for w in view.findChildren(kind) if w.accessibleName() == name]
    assert len(hits) == 1, f"{len(hits)} {kind.__name__} named {name!r}"
    return hits[0]


def outside_save(path: Path, data: bytes) -> None:
    """Another editor saves the board the usual way: a new file renamed over the old one."""
    tmp = path.with_name(".TASKS.md.swp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


# -- reading ------------------------------------------------------------------------------

def test_the_list_shows_the_tasks_and_skips_commented_and_fenced_lines(view):
    assert texts(view) == ["Draft the landing page copy", COMPARE, f"HUMAN: {QUESTION}", REWRITE]
    assert view.model.index(2).data() == QUESTION  # a decision shows its question


def test_a_missing_board_is_reported_with_its_path(qtbot, tmp_path):
    widget = BoardView()
    qtbot.addWidget(widget)
    with qtbot.waitSignal(widget.board_missing, timeout=3000) as missing:
        widget.set_board(tmp_path / "TASKS.md")
    assert missing.args == [tmp_path / "TASKS.md"]
    assert widget.model.rowCount() == 0
    assert not child(widget, QLineEdit, "Add a task").isEnabled()


def test_a_board_created_after_it_was_missing_shows_up(qtbot, tmp_path):
    widget = BoardView()
    qtbot.addWidget(widget)
    with qtbot.waitSignal(widget.board_missing, timeout=3000):
        widget.set_board(tmp_path / "TASKS.md")
    (tmp_path / "TASKS.md").write_bytes(b"# Tasks\n\n- [ ] First thing\n")
    qtbot.waitUntil(lambda: texts(widget) == ["First thing"], timeout=2000)
    assert child(widget, QLineEdit, "Add a task").isEnabled()


# -- each edit, byte for byte ----------------------------------------------------------------

def test_space_ticks_a_task_and_only_its_checkbox_changes(qtbot, view, tasks_md):
    select(view, 1)
    with qtbot.waitSignal(view.counts_changed, timeout=3000) as counts:
        qtbot.keyClick(view.list_view, Qt.Key.Key_Space)
    assert counts.args == [2, 4]
    wait_for_file(qtbot, view, tasks_md, board(with_lines(line_5=f"- [x] {COMPARE}")))


def test_a_task_is_renamed_in_place(qtbot, view, tasks_md):
    index = select(view, 3)
    qtbot.keyClick(view.list_view, Qt.Key.Key_F2)
    editor = view.list_view.indexWidget(index)
    assert isinstance(editor, QLineEdit) and editor.text() == REWRITE
    editor.selectAll()
    qtbot.keyClicks(editor, "Rewrite the homepage for trust")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    # Shown at once (the editor commits on the next turn of the event loop), saved after.
    qtbot.waitUntil(lambda: texts(view)[3] == "Rewrite the homepage for trust", timeout=1000)
    wait_for_file(qtbot, view, tasks_md,
                  board(with_lines(line_20="- [ ] Rewrite the homepage for trust")))


def test_a_task_typed_into_the_add_line_goes_at_the_end(qtbot, view, tasks_md):
    add = child(view, QLineEdit, "Add a task")
    qtbot.keyClicks(add, "Write the contact page")
    qtbot.keyClick(add, Qt.Key.Key_Return)
    assert add.text() == "" and texts(view)[-1] == "Write the contact page"
    wait_for_file(qtbot, view, tasks_md, board(LINES + ["- [ ] Write the contact page"]))


def test_delete_removes_the_task_with_its_details_and_undo_puts_it_back(qtbot, view, tasks_md):
    select(view, 1)
    qtbot.keyClick(view.list_view, Qt.Key.Key_Delete)
    assert COMPARE not in texts(view)
    wait_for_file(qtbot, view, tasks_md, board(with_lines(line_5=None, line_6=None)))
    bar_undo = child(view, QAbstractButton, "Undo")
    assert bar_undo.isVisible()
    qtbot.keyClick(view.list_view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert texts(view)[1] == COMPARE
    wait_for_file(qtbot, view, tasks_md, board(LINES))


def test_undo_right_after_delete_restores_the_file_exactly(qtbot, view, tasks_md):
    select(view, 2)
    qtbot.keyClick(view.list_view, Qt.Key.Key_Delete)
    qtbot.mouseClick(child(view, QAbstractButton, "Undo"), Qt.MouseButton.LeftButton)
    wait_for_file(qtbot, view, tasks_md, board(LINES))
    assert texts(view)[2] == f"HUMAN: {QUESTION}"


def test_alt_down_moves_a_task_with_its_details(qtbot, view, tasks_md):
    select(view, 1)
    qtbot.keyClick(view.list_view, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    assert texts(view)[2] == COMPARE and view.list_view.currentIndex().row() == 2
    moved = LINES[:5] + LINES[7:20] + LINES[5:7] + LINES[20:]
    wait_for_file(qtbot, view, tasks_md, board(moved))


def test_alt_up_moves_a_task_up(qtbot, view, tasks_md):
    select(view, 3)
    qtbot.keyClick(view.list_view, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert texts(view)[2] == REWRITE
    moved = LINES[:12] + [LINES[20]] + LINES[12:20]
    wait_for_file(qtbot, view, tasks_md, board(moved))


def test_a_drag_drop_moves_the_task_through_the_model(qtbot, view, tasks_md):
    model = view.model
    data = model.mimeData([model.index(3)])
    # Dropped between rows 0 and 1; the model moves it (the view must not delete anything).
    assert model.dropMimeData(data, Qt.DropAction.MoveAction, 1, 0, QModelIndex()) is False
    assert texts(view)[1] == REWRITE
    moved = LINES[:5] + [LINES[20]] + LINES[5:20]
    wait_for_file(qtbot, view, tasks_md, board(moved))
    assert model.moveRows(QModelIndex(), 1, 1, QModelIndex(), 4)  # last, as QListView does it
    assert texts(view)[3] == REWRITE
    # After the last task's details: the board verbs never put a task below a code block.
    wait_for_file(qtbot, view, tasks_md, board(LINES[:15] + [LINES[20]] + LINES[15:20]))


def test_a_task_is_marked_as_a_decision_from_the_details(qtbot, view, tasks_md):
    select(view, 3)
    human = child(view, QCheckBox, HUMAN_BOX)
    assert not human.isChecked()
    human.click()
    wait_for_file(qtbot, view, tasks_md, board(with_lines(line_20=f"- [ ] HUMAN: {REWRITE}")))
    assert view.model.task(3).is_human
    human.click()
    wait_for_file(qtbot, view, tasks_md, board(LINES))


def test_done_when_lines_are_written_when_the_person_moves_on(qtbot, view, tasks_md):
    select(view, 1)
    done_when = child(view, QPlainTextEdit, "Done when")
    assert done_when.toPlainText() == "comparison.md lists pros and cons of each"
    done_when.setPlainText("comparison.md lists pros and cons\nEach option has a price")
    select(view, 0)  # choosing another task saves what was typed for this one
    expected = with_lines(line_6="  - Done when: comparison.md lists pros and cons")
    expected.insert(7, "  - Done when: Each option has a price")
    wait_for_file(qtbot, view, tasks_md, board(expected))


def test_the_options_of_a_decision_are_edited(qtbot, view, tasks_md):
    select(view, 2)
    options = child(view, QPlainTextEdit, "Options")
    assert options.isVisibleTo(view) and options.toPlainText() == "speed\ntrust"
    done_when = child(view, QPlainTextEdit, "Done when")
    done_when.setFocus()
    options.setFocus()
    options.setPlainText("speed\ntrust\nboth, in two pages")
    done_when.setFocus()  # leaving the field saves it
    wait_for_file(qtbot, view, tasks_md, board(LINES[:15] + ["  - Option: both, in two pages"]
                                               + LINES[15:]))


def test_options_are_hidden_for_an_ordinary_task(view):
    select(view, 1)
    assert not child(view, QPlainTextEdit, "Options").isVisibleTo(view)


def test_two_identical_tasks_are_told_apart(qtbot, tmp_path):
    path = tmp_path / "TASKS.md"
    path.write_bytes(b"- [ ] Same words\n- [ ] Same words\n")
    widget = BoardView()
    qtbot.addWidget(widget)
    widget.show()
    widget.set_board(path)
    qtbot.waitUntil(lambda: widget.model.rowCount() == 2, timeout=3000)
    select(widget, 1)
    qtbot.keyClick(widget.list_view, Qt.Key.Key_Space)
    wait_for_file(qtbot, widget, path, b"- [ ] Same words\n- [x] Same words\n")
    select(widget, 0)
    qtbot.keyClick(widget.list_view, Qt.Key.Key_Delete)
    wait_for_file(qtbot, widget, path, b"- [x] Same words\n")


# -- decisions -----------------------------------------------------------------------------

def test_a_click_on_an_open_decision_asks_for_it(qtbot, view):
    rect = view.list_view.visualRect(view.model.index(2))
    with qtbot.waitSignal(view.decision_requested, timeout=2000) as asked:
        qtbot.mouseClick(view.list_view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    task = asked.args[0]
    assert task.is_human and task.question == QUESTION and task.ref.index == 2


def test_enter_opens_a_decision_and_edits_an_ordinary_task(qtbot, view):
    select(view, 2)
    with qtbot.waitSignal(view.decision_requested, timeout=2000):
        qtbot.keyClick(view.list_view, Qt.Key.Key_Return)
    index = select(view, 1)
    qtbot.keyClick(view.list_view, Qt.Key.Key_Return)
    assert isinstance(view.list_view.indexWidget(index), QLineEdit)


def test_an_open_decision_is_not_ticked_without_an_answer(qtbot, view, tasks_md):
    select(view, 2)
    with qtbot.waitSignal(view.decision_requested, timeout=2000):
        qtbot.keyClick(view.list_view, Qt.Key.Key_Space)
    assert not view.model.task(2).checked
    assert not view.busy and tasks_md.read_bytes() == board(LINES)


def test_a_decided_task_shows_its_answer(qtbot, view, tasks_md):
    outside_save(tasks_md, board(with_lines(line_12=f"- [x] HUMAN: {QUESTION}",
                                            line_14="  - Option: trust\r\n  - Answer: trust")))
    qtbot.waitUntil(lambda: view.model.task(2).checked, timeout=2000)
    assert view.list_view.itemDelegate().tag(view.model.index(2)) == "Decided: trust"


# -- the file changes elsewhere ----------------------------------------------------------------

def test_an_outside_edit_shows_within_a_second(qtbot, view, tasks_md):
    outside_save(tasks_md, board(with_lines(line_20="- [x] Rewrite it all")))
    start = time.monotonic()
    qtbot.waitUntil(lambda: texts(view)[3] == "Rewrite it all", timeout=1000)
    assert time.monotonic() - start < 1.0
    assert view.model.task(3).checked


def test_an_outside_edit_keeps_what_is_being_typed(qtbot, view, tasks_md):
    index = select(view, 1)
    qtbot.keyClick(view.list_view, Qt.Key.Key_F2)
    editor = view.list_view.indexWidget(index)
    editor.selectAll()
    qtbot.keyClicks(editor, "Compare the two best options")
    # Elsewhere, another task is ticked and a new one added at the top.
    outside = with_lines(line_20=f"- [x] {REWRITE}")
    outside.insert(4, "- [ ] Gather the brief")
    outside_save(tasks_md, board(outside))
    qtbot.waitUntil(lambda: len(texts(view)) == 5, timeout=2000)
    assert view.model.task(4).checked
    assert view.list_view.indexWidget(view.model.index(2)) is editor
    assert editor.text() == "Compare the two best options"
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    expected = list(outside)
    expected[6] = "- [ ] Compare the two best options"
    wait_for_file(qtbot, view, tasks_md, board(expected))


def test_an_outside_edit_of_the_row_being_typed_waits_for_the_edit(qtbot, view, tasks_md):
    index = select(view, 1)
    qtbot.keyClick(view.list_view, Qt.Key.Key_F2)
    editor = view.list_view.indexWidget(index)
    editor.selectAll()
    qtbot.keyClicks(editor, "My own words")
    outside_save(tasks_md, board(with_lines(line_5="- [ ] Their words")))
    qtbot.wait(700)  # the watcher has read it by now
    assert view.list_view.indexWidget(index) is editor and editor.text() == "My own words"
    with qtbot.waitSignal(view.error_raised, timeout=3000) as error:
        qtbot.keyClick(editor, Qt.Key.Key_Return)  # the task changed meanwhile: not saved
    assert "changed in another program" in error.args[0]
    qtbot.waitUntil(lambda: texts(view)[1] == "Their words", timeout=3000)
    assert tasks_md.read_bytes() == board(with_lines(line_5="- [ ] Their words"))


def test_an_edit_on_a_task_changed_elsewhere_is_refused_with_a_sentence(qtbot, view, tasks_md):
    # Saved elsewhere a moment before the watcher could tell: the list still shows the old text.
    outside_save(tasks_md, board(with_lines(line_5="- [ ] Compare two options")))
    select(view, 1)
    with qtbot.waitSignal(view.error_raised, timeout=3000) as error:
        qtbot.keyClick(view.list_view, Qt.Key.Key_Space)
    assert error.args[0].endswith(".") and "\n" not in error.args[0]
    qtbot.waitUntil(lambda: texts(view)[1] == "Compare two options", timeout=3000)
    assert not view.model.task(1).checked
    assert tasks_md.read_bytes() == board(with_lines(line_5="- [ ] Compare two options"))


# -- during a run ---------------------------------------------------------------------------

def test_the_task_being_worked_on_is_marked(view):
    view.set_current_task(COMPARE)
    index = view.model.index(1)
    assert index.data(view.model.CurrentRole)
    assert view.list_view.itemDelegate().tag(index) == "◀ now"
    view.set_current_task(None)
    assert not index.data(view.model.CurrentRole)


def test_a_round_of_the_task_already_marked_costs_the_list_nothing(view):
    # Every round of a run marks its task (a thousand rounds: bench/rounds_list.py); only a
    # move of the mark, or the run's end, re-reads the list's page and says tasks changed.
    changed: list[bool] = []
    view.tasks_changed.connect(lambda: changed.append(True))
    view.set_current_task(COMPARE)
    assert len(changed) == 1
    for _ in range(3):
        view.set_current_task(COMPARE)
    assert len(changed) == 1
    view.set_current_task("A task that is not on the list")  # the mark moves off the list
    assert len(changed) == 2
    for _ in range(3):
        view.set_current_task("Another task that is not on the list")
    assert len(changed) == 2
    view.set_current_task(None)  # the run's end
    assert len(changed) == 3
    assert not view.model.index(1).data(view.model.CurrentRole)


def test_during_a_run_the_current_task_keeps_its_text(qtbot, view, tasks_md):
    view.set_current_task(COMPARE)
    view.set_run_active(True)
    index = select(view, 1)
    with qtbot.waitSignal(view.error_raised, timeout=2000) as refused:
        qtbot.keyClick(view.list_view, Qt.Key.Key_Delete)
    assert refused.args == ["The run is working on this task. Stop the run to change or delete it."]
    with qtbot.waitSignal(view.error_raised, timeout=2000):
        qtbot.keyClick(view.list_view, Qt.Key.Key_F2)
    assert view.list_view.indexWidget(index) is None and texts(view)[1] == COMPARE
    assert not child(view, QCheckBox, HUMAN_BOX).isEnabled()
    qtbot.keyClick(view.list_view, Qt.Key.Key_Space)  # ticking it is still the person's call
    wait_for_file(qtbot, view, tasks_md, board(with_lines(line_5=f"- [x] {COMPARE}")))
    view.set_run_active(False)
    qtbot.keyClick(view.list_view, Qt.Key.Key_F2)
    assert isinstance(view.list_view.indexWidget(index), QLineEdit)


# -- for everyone -------------------------------------------------------------------------------

def test_every_control_has_an_accessible_name_matching_what_it_shows(view):
    select(view, 2)
    view.delete_task(0)  # so the undo bar is there too
    controls = [w for w in view.findChildren(QWidget)
                if isinstance(w, (QAbstractButton, QLineEdit, QPlainTextEdit, QAbstractItemView))]
    assert len(controls) >= 7
    for control in controls:
        assert control.accessibleName(), f"{type(control).__name__} has no accessible name"
        if isinstance(control, QAbstractButton) and any(c.isalpha() for c in control.text()):
            assert control.accessibleName() == control.text().replace("&", "")
        assert control.toolTip(), f"{control.accessibleName()} has no tooltip"


def test_the_rows_tell_a_screen_reader_their_state(view):
    view.set_current_task(COMPARE)

    def describe(row: int) -> str:
        return view.model.index(row).data(Qt.ItemDataRole.AccessibleDescriptionRole)

    assert describe(0) == "Done"
    assert describe(1) == "Not done, The run is working on this now"
    assert describe(2) == "A decision for you"


def test_the_row_menu_offers_every_edit_and_its_delete_can_be_undone(qtbot, view, tasks_md):
    menu = view.context_menu(view.model.index(1))
    actions = {a.text(): a for a in menu.actions() if not a.isSeparator()}
    assert list(actions) == ["Change text", "Mark as done", HUMAN_BOX,
                             "Move up", "Move down", "Delete"]
    assert actions["Delete"].shortcut().toString() == "Del"
    actions["Delete"].trigger()
    wait_for_file(qtbot, view, tasks_md, board(with_lines(line_5=None, line_6=None)))
    menu = view.context_menu(QModelIndex())  # below the rows
    [undo] = [a for a in menu.actions() if a.text() == "Undo delete"]
    undo.trigger()
    wait_for_file(qtbot, view, tasks_md, board(LINES))


def test_an_open_decision_is_decided_from_its_menu(qtbot, view):
    menu = view.context_menu(view.model.index(2))
    first = menu.actions()[0]
    assert first.text() == "Decide…"
    with qtbot.waitSignal(view.decision_requested, timeout=2000):
        first.trigger()


def double_click(qtbot, view: BoardView, row: int) -> None:
    """A person's double-click: a click, then the second press that makes it double."""
    viewport = view.list_view.viewport()
    center = view.list_view.visualRect(view.model.index(row)).center()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=center)
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=center)


def test_a_double_click_on_an_open_decision_does_not_start_retyping_it(qtbot, view):
    with qtbot.waitSignal(view.decision_requested, timeout=2000):
        double_click(qtbot, view, 2)
    assert view.list_view.indexWidget(view.model.index(2)) is None
    double_click(qtbot, view, 3)  # an ordinary task: the double-click edits it
    assert isinstance(view.list_view.indexWidget(view.model.index(3)), QLineEdit)
