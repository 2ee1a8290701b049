"""Issue 35: the window claims only what was done, and the one next step is the filled button."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from app.core.board.board import Board
from app.gui.look.look import TONE_PROPERTY
from tests.gui.helpers import demo_task_board, open_in, run_until_end

BAKERY_OWNER = ("# Rosie's own list\n\n"
                "- [ ] Update the price list for February\n"
                "  - Done when: prices.md has the new prices\n"
                "- [ ] Write a short summary of the brief\n"
                "- [ ] Draft the contact page\n")


def filled(button) -> bool:
    return button.property(TONE_PROPERTY) == "primary"


def own_folder(tmp_path: Path, board: str = BAKERY_OWNER) -> Path:
    folder = tmp_path / "Rosie"
    folder.mkdir()
    (folder / "TASKS.md").write_text(board, encoding="utf-8")
    (folder / "prices.md").write_text("Sourdough £3.20\n", encoding="utf-8")
    return folder


def test_the_demo_on_a_persons_folder_says_what_it_will_do_and_ticks_nothing(
        qtbot, window, tmp_path):
    folder = own_folder(tmp_path)
    before = (folder / "TASKS.md").read_bytes()
    open_in(qtbot, window, folder)
    panel = window.run_panel
    assert window.picker.engine_id == "demo"
    qtbot.waitUntil(lambda: panel.demo_samples, timeout=5000)
    # Before the run, one sentence says what Demo will do here, with the way to an AI engine.
    assert panel.state_label.text() == "Ready to show a sample"
    detail = panel.detail_label.text()
    assert "only shows how a run looks" in detail and "changing nothing of yours" in detail
    assert "choose an AI engine" in detail and panel.choose_engine.isVisible()
    assert panel.primary.text() == "Run"

    result = run_until_end(qtbot, window)
    assert (result.state, result.exit_reason) == ("stopped", "samples_shown")
    assert (folder / "TASKS.md").read_bytes() == before  # not one box ticked
    assert (folder / "prices.md").read_text(encoding="utf-8") == "Sourdough £3.20\n"
    assert panel.state_label.text() == "Shown as a sample, not done"
    assert "Done" not in panel.state_label.text().split(",")[0].split()
    assert "ticked no task" in panel.detail_label.text()
    assert panel.mode == "choose_engine" and panel.primary.text() == "Choose an AI engine…"
    assert panel.tasks_bar.value() == 0
    from app.gui.run.round_cards import RoundCard
    outcomes = [c.accessibleName() for c in window.cards.findChildren(RoundCard)]
    assert len(outcomes) == 3 and all("Shown as a sample, not done" in o for o in outcomes), \
        outcomes

    # The export says the same, task by task.
    from app.export.markdown import render_markdown
    from app.export.summary import build_summary
    text = render_markdown(build_summary(folder))
    assert "Shown as a sample, not done" in text
    assert "| Done |" not in text and "Every task on the board is done" not in text
    chinese = build_summary(folder, lang="zh_CN")
    assert [t.state for t in chinese.tasks] == ["只是示例，并未完成"] * 3
    assert chinese.ending.startswith("只是示例，并未完成。")

    # Opened again later, the folder says the same, with the same next step.
    other = tmp_path / "Other"
    other.mkdir()
    open_in(qtbot, window, other)
    assert panel.mode != "choose_engine"
    open_in(qtbot, window, folder)
    assert panel.state_label.text() == "Shown as a sample, not done"
    assert panel.mode == "choose_engine"

    # "Choose an AI engine…" opens the engine list; choosing one makes Run the next step,
    # with nothing to untick first.
    panel.primary.click()
    qtbot.waitUntil(lambda: window.picker.combo.view().isVisible(), timeout=3000)
    window.picker.combo.hidePopup()
    combo = window.picker.combo
    combo.setCurrentIndex(next(i for i in range(combo.count())
                               if combo.itemData(i) not in ("demo", None)))
    qtbot.waitUntil(lambda: panel.mode == "run", timeout=3000)
    assert panel.primary.text() == "Run" and not panel.choose_engine.isVisible()


def test_the_demos_scripts_are_imported_off_the_ui_thread_to_say_which_tasks_are_samples(
        qtbot, window, tmp_path, monkeypatch):
    # The Demo's scripts say which tasks are the bundled demo's: not loaded yet, the window
    # imports them on a pool thread (on the UI thread: 15-25 ms, bench/ui_stall_cold.py).
    import sys
    import threading

    import app.engines.demo as demo_package

    DEMO_SCRIPTS = "app.engines.demo.script"

    imported_on: list[bool] = []

    class Watch:
        def find_spec(self, name, path=None, target=None):
            if name == DEMO_SCRIPTS:
                imported_on.append(threading.current_thread() is threading.main_thread())
            return None  # the usual finders import it

    monkeypatch.delitem(sys.modules, DEMO_SCRIPTS, raising=False)
    monkeypatch.setattr(demo_package, "script", None, raising=False)  # put back after
    monkeypatch.setattr(sys, "meta_path", [Watch(), *sys.meta_path])
    open_in(qtbot, window, own_folder(tmp_path))
    qtbot.waitUntil(lambda: window.run_panel.demo_samples, timeout=5000)
    assert imported_on == [False]
    assert window.run_panel.state_label.text() == "Ready to show a sample"
    # An AI engine chosen: no samples, said at once; the Demo again: samples, now at once.
    combo = window.picker.combo
    combo.setCurrentIndex(combo.findData("anthropic"))
    assert window.run_panel.demo_samples is False
    combo.setCurrentIndex(combo.findData("demo"))
    assert window.run_panel.demo_samples is True


def test_run_with_nothing_left_says_so_and_starts_no_run(qtbot, window, tmp_path):
    folder = own_folder(tmp_path, "- [x] Bake the bread\n- [x] Open the shop\n")
    open_in(qtbot, window, folder)
    panel = window.run_panel
    qtbot.waitUntil(lambda: panel.total_tasks == 2, timeout=5000)
    window.start_run()
    assert not window.runner.running
    assert panel.state_label.text() == "Nothing left to do"
    assert not (folder / ".harness" / "runs").exists()
    assert panel.mode == "done" and panel.primary.text() == "Add a task" and filled(panel.primary)
    panel.primary.click()
    qtbot.waitUntil(lambda: window.board_view.add_field.hasFocus(), timeout=3000)


def test_everything_done_offers_export_as_the_filled_button(qtbot, window, tmp_path):
    folder = tmp_path / "Done"
    folder.mkdir()
    demo_task_board(folder)
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: window.run_panel.total_tasks == 1, timeout=5000)
    result = run_until_end(qtbot, window)
    panel = window.run_panel
    assert result.state == "done" and panel.mode == "done"
    assert panel.primary.text() == "Export summary…" and not panel.export_button.isVisible()


def test_a_waiting_decision_is_the_filled_button_and_says_your_decision(qtbot, window, tmp_path):
    folder = own_folder(tmp_path, "- [ ] HUMAN: Should we open on Sundays?\n- [ ] Tell the staff\n")
    open_in(qtbot, window, folder)
    panel = window.run_panel
    assert panel.mode == "answer" and panel.primary.text() == "Answer the question…"
    assert filled(panel.primary)
    with qtbot.waitSignal(window.decision_shown, timeout=5000) as shown:
        panel.primary.click()
    dialog = shown.args[0]
    words = [label.text() for label in dialog.findChildren(type(dialog.saved_text))]
    assert "Your decision:" in words and "The run stopped to ask you:" not in words
    assert [b.text() for b in dialog.option_buttons] == ["Yes", "No"]  # a yes/no question
    dialog.close()


def test_a_waiting_change_in_careful_mode_is_the_filled_button(qtbot, window, tmp_path):
    panel = window.run_panel
    panel.set_mode("running")
    panel.set_mode("review")
    assert panel.primary.text() == "Review the change…" and filled(panel.primary)
    with qtbot.waitSignal(panel.review_requested, timeout=1000):
        panel.primary.click()


def test_an_either_or_question_is_answered_in_its_own_words(qtbot, tmp_path):
    from app.gui import core_calls
    from app.gui.run.decision_dialog import DecisionDialog

    question = "Should we put the prices up on 1 February or wait until after Easter?"
    (tmp_path / "TASKS.md").write_text(f"- [ ] HUMAN: {question}\n", encoding="utf-8")
    task = core_calls.open_decision(tmp_path)
    dialog = DecisionDialog(task, tmp_path, lambda a: core_calls.decide(tmp_path, a, task.text))
    qtbot.addWidget(dialog)
    dialog.show()
    assert [b.text() for b in dialog.option_buttons] == [
        "Put the prices up on 1 February", "Wait until after Easter"]
    with qtbot.waitSignal(dialog.answered, timeout=5000):
        dialog.option_buttons[1].click()
    assert Board.load(tmp_path / "TASKS.md").tasks[0].answer == "Wait until after Easter"
    assert "Answer: Yes" not in (tmp_path / "TASKS.md").read_text(encoding="utf-8")


def test_a_chinese_either_or_and_an_open_question(qtbot, tmp_path):
    from app.gui import core_calls
    from app.gui.run.decision_dialog import DecisionDialog

    (tmp_path / "TASKS.md").write_text("- [ ] HUMAN: 二月一日涨价还是复活节后再涨？\n"
                                       "- [ ] HUMAN: Which supplier should we use?\n",
                                       encoding="utf-8")
    board = Board.load(tmp_path / "TASKS.md")
    first = DecisionDialog(board.tasks[0], tmp_path, lambda a: None)
    qtbot.addWidget(first)
    assert [b.text() for b in first.option_buttons] == ["二月一日涨价", "复活节后再涨"]
    second = DecisionDialog(board.tasks[1], tmp_path,
                            lambda a: core_calls.decide(tmp_path, a, board.tasks[1].text))
    qtbot.addWidget(second)
    second.show()
    assert second.option_buttons == [] and second.other_edit.isVisible()
    assert second.other_edit.hasFocus() or qtbot.waitUntil(second.other_edit.hasFocus) is None
    qtbot.keyClicks(second.other_edit, "Hartley Mill")
    with qtbot.waitSignal(second.answered, timeout=5000):
        qtbot.keyClick(second.other_edit, Qt.Key.Key_Return)
    assert Board.load(tmp_path / "TASKS.md").tasks[1].answer == "Hartley Mill"


def test_the_recommended_option_and_allow_are_the_filled_buttons(qtbot, tmp_path):
    from app.gui.careful.approval_dialog import ApprovalDialog
    from tests.gui.test_careful_window import request
    from app.gui.run.decision_dialog import DecisionDialog

    (tmp_path / "TASKS.md").write_text(
        "- [ ] HUMAN: Which colour?\n  - Option: blue\n  - Option: green\n"
        "  - Recommendation: green: it matches the logo\n", encoding="utf-8")
    task = Board.load(tmp_path / "TASKS.md").tasks[0]
    dialog = DecisionDialog(task, tmp_path, lambda a: None)
    qtbot.addWidget(dialog)
    blue, green = dialog.option_buttons
    assert filled(green) and green.isDefault() and not filled(blue)

    approval = ApprovalDialog(request())
    qtbot.addWidget(approval)
    approval.show()
    assert filled(approval.allow) and not filled(approval.deny)
    assert approval.focusWidget() in (approval.deny, None)  # the keyboard default stays
