"""The decision dialog: options as buttons, the recommendation marked, another answer, evidence,
decide later, and the no-progress decision."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.board.board import Board
from app.gui import core_calls
from app.gui.run.decision_dialog import DecisionDialog
from app.gui.evidence.file_preview import FilePreviewDialog, looks_like_file

BOARD = """# Shop

- [x] Write the brief
- [ ] HUMAN: Which colour for the logo?
  - Option: blue
  - Option: green
  - Evidence: notes/colours.md
  - Evidence: the customers liked both
  - Recommendation: green: it matches the shop front.
- [ ] Draw the logo
"""

STUCK = """# Shop

- [ ] HUMAN: The loop stopped because no progress was detected on: Draw the logo
  - Option: Try again
  - Option: Skip this task (check it yourself)
  - Option: Rewrite the task
  - Evidence: step_limit in round 2
- [ ] Draw the logo
"""


def dialog_for(qtbot, root: Path, text: str, about: str = "") -> DecisionDialog:
    (root / "TASKS.md").write_text(text, encoding="utf-8")
    task = core_calls.open_decision(root)
    dialog = DecisionDialog(task, root, lambda a: core_calls.decide(root, a, task.text),
                            about_task=about)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_each_option_is_a_button_and_the_recommendation_is_marked(qtbot, tmp_path):
    dialog = dialog_for(qtbot, tmp_path, BOARD)
    assert [b.text() for b in dialog.option_buttons] == ["blue", "green  (recommended)"]
    assert dialog.recommended_button is dialog.option_buttons[1]
    assert dialog.recommended_button.isDefault()
    assert all(b.accessibleName() == b.text() for b in dialog.option_buttons)


def test_clicking_an_option_writes_the_answer_and_carries_on_at_once(qtbot, tmp_path):
    dialog = dialog_for(qtbot, tmp_path, BOARD)
    answers = []
    dialog.answered.connect(answers.append)
    with qtbot.waitSignal(dialog.continue_requested, timeout=5000):
        dialog.option_buttons[0].click()
    assert answers == ["blue"]
    task = Board.load(tmp_path / "TASKS.md").tasks[1]
    assert task.checked and task.answer == "blue"
    assert not dialog.isVisible()  # no "Saved … Continue" page: the README says it carries on


def test_another_answer_is_written_as_typed(qtbot, tmp_path):
    dialog = dialog_for(qtbot, tmp_path, BOARD)
    dialog.other_button.click()
    assert dialog.other_edit.isVisible()
    dialog.other_edit.setText("  teal,  like the door ")
    with qtbot.waitSignal(dialog.answered, timeout=5000):
        dialog.other_use.click()
    assert Board.load(tmp_path / "TASKS.md").tasks[1].answer == "teal, like the door"


def test_an_empty_other_answer_is_not_taken(qtbot, tmp_path):
    dialog = dialog_for(qtbot, tmp_path, BOARD)
    dialog.other_button.click()
    dialog.other_use.click()
    assert dialog.problem.isVisible() and dialog.pages.currentIndex() == 0
    assert "Answer:" not in (tmp_path / "TASKS.md").read_text(encoding="utf-8")


def test_decide_later_leaves_the_board_as_it_was(qtbot, tmp_path):
    dialog = dialog_for(qtbot, tmp_path, BOARD)
    dialog.later_button.click()
    assert not dialog.isVisible()
    assert (tmp_path / "TASKS.md").read_text(encoding="utf-8") == BOARD


def test_evidence_files_open_in_a_preview_and_sentences_stay_text(qtbot, tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "colours.md").write_text("Blue is calm. Green is fresh.",
                                                   encoding="utf-8")
    dialog = dialog_for(qtbot, tmp_path, BOARD)
    from PySide6.QtWidgets import QPushButton

    links = [b for b in dialog.findChildren(QPushButton) if b.objectName() == "evidence"]
    assert [b.text() for b in links] == ["Open notes/colours.md"]
    links[0].click()
    preview = dialog.findChild(FilePreviewDialog)
    qtbot.waitUntil(lambda: "Green is fresh" in preview.text.toPlainText(), timeout=5000)


def test_a_preview_never_shows_a_file_outside_the_folder(qtbot, tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("do not show", encoding="utf-8")
    preview = FilePreviewDialog(root, "../secret.txt")
    qtbot.addWidget(preview)
    qtbot.waitUntil(lambda: "cannot be shown" in preview.note.text(), timeout=5000)
    assert "do not show" not in preview.text.toPlainText()


@pytest.mark.parametrize("item, is_file", [("notes/colours.md", True), ("brief.md", True),
                                            ("the customers liked both", False),
                                            ("step_limit in round 2", False),
                                            ("It ran out of steps.", False)])
def test_evidence_that_names_a_file_is_told_from_a_sentence(item, is_file):
    assert looks_like_file(item) is is_file


def test_a_no_progress_decision_names_the_stuck_task_and_says_what_to_do(qtbot, tmp_path):
    dialog = dialog_for(qtbot, tmp_path, STUCK, about="Draw the logo")
    assert "Draw the logo" in dialog.findChild(type(dialog.saved_text), "question").text()
    assert [b.text() for b in dialog.option_buttons] == [
        "Try again", "Skip this task (check it yourself)", "Rewrite the task"]
    # Issue 35: "Rewrite the task" opens the task itself for editing, not a page about it.
    with qtbot.waitSignal(dialog.rewrite_requested, timeout=5000) as rewrite:
        dialog.option_buttons[2].click()
    assert rewrite.args == ["Draw the logo"] and not dialog.isVisible()
    assert Board.load(tmp_path / "TASKS.md").tasks[0].answer == "Rewrite the task"


LONG = """# Shop

- [ ] HUMAN: Which direction should the homepage take, given what the customers said last spring?
  - Option: speed: order a cake online in one minute
  - Option: trust: our story and our bakers
  - Option: both, one after the other
  - Recommendation: trust: the customers came back for the people behind the counter.
""" + "".join(f"  - Evidence: the survey said thing number {n}, which matters here because "
              "it tells what the customers want from the page\n" for n in range(30)) + """- [ ] Draw the logo
"""


@pytest.mark.parametrize("chinese", [False, True])
def test_decide_later_stays_on_a_small_screen_and_the_question_scrolls(qtbot, tmp_path,
                                                                        qapp, chinese):
    """A question with more evidence than the screen (offscreen: 800 px) holds is no taller
    than the screen: the question scrolls, Decide later is always in view."""
    from app.gui.settings import language

    language.install(qapp, "zh_CN" if chinese else "en")
    try:
        dialog = dialog_for(qtbot, tmp_path, LONG)
        qtbot.waitExposed(dialog)
        area = dialog.screen().availableGeometry()
        assert dialog.frameGeometry().height() <= area.height()
        assert area.top() <= dialog.frameGeometry().top()
        assert dialog.frameGeometry().bottom() <= area.bottom()
        later = dialog.later_button
        assert later.isVisible() and later.text() == ("稍后再决定" if chinese else "Decide later")
        bottom = later.mapTo(dialog, later.rect().bottomLeft()).y()
        assert bottom <= dialog.height()
        page = dialog.pages.widget(0)
        assert page.verticalScrollBar().maximum() > 0  # the question's page scrolls instead
    finally:
        language.install(qapp, "en")
