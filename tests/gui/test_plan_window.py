"""Plan with AI in the window: the Demo planner proposes, the person ticks, edits, reorders,
removes and adds; the board never changes before that; Suggest next tasks after Done."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from app.core.board.board import Board
from app.core.engine.port import EngineConfig
from app.core.settings import Limits
from app.engines.demo.engine import DemoEngine
from app.gui.plan.plan_card import PlanCard
from app.gui.plan.plan_dialog import PlanDialog
from tests.gui.helpers import open_in, demo_task_board
from tests.gui.test_chinese import chinese  # noqa: F401  (the fixture)

BOARD = b"# Party\r\n\r\nMy notes.\r\n\r\n- [x] Book the garden\r\n"


@pytest.fixture
def folder(tmp_path) -> Path:
    f = tmp_path / "Party"
    f.mkdir()
    (f / "ideas.md").write_text("Garden party for 12 children.\n", encoding="utf-8")
    return f


def plan_in(qtbot, dialog: PlanDialog, goal: str) -> None:
    dialog.goal.setText(goal)
    with qtbot.waitSignal(dialog.runner.plan_finished, timeout=10_000):
        qtbot.mouseClick(dialog.plan_button, Qt.MouseButton.LeftButton)


def texts(dialog: PlanDialog) -> list[str]:
    return [p.text for p in dialog.list.proposals()]


def standalone(qtbot, folder: Path, delay: float = 0.0, mode: str = "goal") -> PlanDialog:
    dialog = PlanDialog(folder, lambda: DemoEngine(EngineConfig(options={"delay_s": delay})),
                        Limits(), "Demo (offline, no AI)", mode=mode, engine_is_ai=False)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_an_empty_folder_plans_ticks_edits_and_adds_in_the_window(qtbot, window, folder):
    open_in(qtbot, window, folder)
    view = window.board_view
    qtbot.waitUntil(lambda: view.no_board_plan_button.isVisible(), timeout=5000)
    assert view.plan_button.isEnabled()  # beside "Add a task…" as well
    qtbot.mouseClick(view.no_board_plan_button, Qt.MouseButton.LeftButton)
    dialog = window.plan_dialog
    assert dialog is not None and dialog.isVisible()
    plan_in(qtbot, dialog, "Plan a birthday party")
    assert len(texts(dialog)) == 5 and not (folder / "TASKS.md").exists()
    tree = dialog.list.tree

    # Edit the first task in place: F2, type, Enter.
    tree.setCurrentItem(tree.topLevelItem(0))
    tree.setFocus()
    qtbot.keyClick(tree, Qt.Key.Key_F2)
    (editor,) = tree.viewport().findChildren(QLineEdit)
    editor.selectAll()
    qtbot.keyClicks(editor, "Read ideas.md and list what is decided")
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the delegate commits it a moment later
    qtbot.waitUntil(lambda: texts(dialog)[0] == "Read ideas.md and list what is decided",
                    timeout=3000)
    # Untick the second, move the last one up, remove the fourth with Delete.
    tree.topLevelItem(1).setCheckState(0, Qt.CheckState.Unchecked)
    tree.setCurrentItem(tree.topLevelItem(4))
    qtbot.mouseClick(dialog.list.up, Qt.MouseButton.LeftButton)
    tree.setCurrentItem(tree.topLevelItem(3))
    tree.setFocus()
    removed = texts(dialog)[3]
    qtbot.keyClick(tree, Qt.Key.Key_Delete)
    assert removed not in texts(dialog) and len(texts(dialog)) == 4
    # Change the Done-when line of the first task.
    tree.setCurrentItem(tree.topLevelItem(0))
    dialog.list.done_when.setPlainText("decisions.md lists what is decided")
    wanted = [p for p in dialog.list.ticked()]
    assert len(wanted) == 3 and "(3)" in dialog.add_button.text()
    assert not (folder / "TASKS.md").exists()  # nothing written yet

    with qtbot.waitSignal(dialog.tasks_added, timeout=5000):
        qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    board = Board.load(folder / "TASKS.md")
    assert [t.text for t in board.tasks] == [p.board_text for p in wanted]
    assert board.tasks[0].done_when == ["decisions.md lists what is decided"]
    assert board.tasks[1].is_human and len(board.tasks[1].options) == 2
    assert board.tasks[2].text.startswith("Write the first version")  # moved above review
    qtbot.waitUntil(lambda: len(view.model.tasks()) == 3, timeout=5000)
    assert window.board_notice.isVisible() and "Added 3 tasks" in window.board_notice.text.text()
    qtbot.waitUntil(lambda: window.plan_dialog is None, timeout=5000)
    # The planning round is a card among the rounds.
    cards = window.cards.findChildren(PlanCard)
    assert len(cards) == 1 and "5 tasks proposed" in cards[0].accessibleName()


def test_the_board_never_changes_until_the_person_adds(qtbot, window, folder):
    (folder / "TASKS.md").write_bytes(BOARD)
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: len(window.board_view.model.tasks()) == 1, timeout=5000)
    qtbot.mouseClick(window.board_view.plan_button, Qt.MouseButton.LeftButton)
    dialog = window.plan_dialog
    plan_in(qtbot, dialog, "为女儿筹办生日聚会")
    assert all("\u4e00" <= p.text[0] <= "\u9fff" or p.text[0] == "“" for p in
               dialog.list.proposals())
    dialog.close()
    assert (folder / "TASKS.md").read_bytes() == BOARD


def test_try_again_with_a_note_plans_again_and_keeps_the_list_apart(qtbot, folder):
    dialog = standalone(qtbot, folder)
    plan_in(qtbot, dialog, "Write a newsletter")
    assert dialog.again_button.isEnabled()
    dialog.note.setText("Keep it to one page")
    with qtbot.waitSignal(dialog.runner.plan_finished, timeout=10_000):
        qtbot.mouseClick(dialog.again_button, Qt.MouseButton.LeftButton)
    outline = dialog.list.proposals()[1]
    assert any("Keep it to one page" in d for d in outline.done_when)
    assert not (folder / "TASKS.md").exists()


def test_planning_can_be_stopped_and_the_window_never_waits(qtbot, folder):
    dialog = standalone(qtbot, folder, delay=5.0)
    dialog.goal.setText("Plan a party")
    qtbot.mouseClick(dialog.plan_button, Qt.MouseButton.LeftButton)
    assert dialog.runner.running and dialog.stop_button.isVisible()
    with qtbot.waitSignal(dialog.runner.plan_finished, timeout=3000) as got:
        qtbot.mouseClick(dialog.stop_button, Qt.MouseButton.LeftButton)
    assert got.args[0].result == "cancelled"
    assert "stopped" in dialog.status.text() and not dialog.add_button.isEnabled()


def test_an_empty_goal_asks_for_one(qtbot, folder):
    dialog = standalone(qtbot, folder)
    qtbot.mouseClick(dialog.plan_button, Qt.MouseButton.LeftButton)
    assert not dialog.runner.running and "goal" in dialog.status.text()


def test_adding_a_task_already_on_the_list_adds_nothing_and_says_so(qtbot, folder):
    dialog = standalone(qtbot, folder)
    plan_in(qtbot, dialog, "Plan a party")
    first = dialog.list.proposals()[0]
    (folder / "TASKS.md").write_text(f"- [ ] {first.text}\n", encoding="utf-8")
    before = (folder / "TASKS.md").read_bytes()
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "already on your list" in dialog.status.text(), timeout=5000)
    assert (folder / "TASKS.md").read_bytes() == before and dialog.isVisible()


def test_suggest_next_tasks_after_a_finished_run(qtbot, window, folder):
    demo_task_board(folder)  # a task the Demo engine finishes
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: len(window.board_view.model.tasks()) == 1, timeout=5000)
    with qtbot.waitSignal(window.run_ended, timeout=20_000):
        window.start_run()
    notice = window.board_notice
    assert notice.isVisible() and notice.action.text() == "Suggest next tasks"
    qtbot.mouseClick(notice.action, Qt.MouseButton.LeftButton)
    dialog = window.plan_dialog
    assert dialog.windowTitle() == "Suggest next tasks"
    qtbot.waitUntil(lambda: not dialog.runner.running and bool(dialog.list.proposals()),
                    timeout=10_000)
    assert len(dialog.list.proposals()) == 3 and dialog.list.proposals()[1].human


def test_plan_with_ai_in_chinese_shows_no_english_word_of_ours(qtbot, chinese, tmp_path,
                                                                monkeypatch):
    from app.core.settings import Settings
    from app.gui.main_window import MainWindow
    from tests.gui.test_chinese import english_words, visible_texts

    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    folder = tmp_path / "聚会"
    folder.mkdir()
    window = MainWindow(Settings(), demo_delay=0.0, check_engines=False)
    window.show()
    try:
        open_in(qtbot, window, folder)
        qtbot.waitUntil(lambda: window.board_view.no_board_plan_button.isVisible(), timeout=5000)
        texts = visible_texts(window.board_view)
        dialog = window.open_plan()
        texts.update(visible_texts(dialog))
        plan_in(qtbot, dialog, "为女儿筹办一场生日聚会")
        for row in range(dialog.list.tree.topLevelItemCount()):
            item = dialog.list.tree.topLevelItem(row)
            dialog.list.tree.setCurrentItem(item)
            texts.update({f"row {row} {c}": item.text(c) for c in (0, 1)})
            texts.update({f"row {row} tip {c}": item.toolTip(c) for c in (0, 1)})
            texts.update(visible_texts(dialog))
        with qtbot.waitSignal(dialog.tasks_added, timeout=5000):
            dialog.add_button.click()
        texts.update(visible_texts(window.board_notice))
        texts.update(visible_texts(window.cards))
        english = {where: english_words(text) for where, text in texts.items()
                   if english_words(text)}
        assert "\n".join(f"{k} -> {v}" for k, v in english.items()) == ""
        assert len(texts) > 40
    finally:
        window.close()


def test_closing_the_dialog_while_planning_stops_it_quietly(qtbot, folder, tmp_path,
                                                            monkeypatch):
    from app.core.records.crash import crash_dir
    from app.core.plan.records import read_plans

    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    dialog = PlanDialog(folder, lambda: DemoEngine(EngineConfig(options={"delay_s": 0.3})),
                        Limits(), "Demo", engine_is_ai=False)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    dialog.goal.setText("Plan a party")
    dialog.start_planning()
    runner = dialog.runner
    qtbot.waitUntil(lambda: (folder / ".harness" / "plans").is_dir(), timeout=5000)
    dialog.close()
    qtbot.wait(50)  # the dialog is deleted while planning still runs on its thread
    assert runner.wait(5)  # the worker ends after its current step
    qtbot.waitUntil(lambda: read_plans(folder) and read_plans(folder)[0].result != "planning",
                    timeout=5000)
    assert read_plans(folder)[0].result == "cancelled"
    assert not crash_dir().exists() or not any(crash_dir().iterdir())
    assert not (folder / "TASKS.md").exists()


def test_planning_cards_come_back_among_the_rounds_when_the_folder_opens_again(
        qtbot, window, folder):
    # Before: a folder opened again showed its rounds but no planning round at all.
    from app.gui.run.round_cards import RoundCard
    from tests.gui.helpers import run_until_end

    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: window.board_view.no_board_plan_button.isVisible(), timeout=5000)
    qtbot.mouseClick(window.board_view.no_board_plan_button, Qt.MouseButton.LeftButton)
    dialog = window.plan_dialog
    plan_in(qtbot, dialog, "Plan a birthday party")
    for n in range(2, 5):  # keep only the first task: one the Demo engine can do
        dialog.list.tree.topLevelItem(n).setCheckState(0, Qt.CheckState.Unchecked)
    dialog.list.tree.topLevelItem(1).setCheckState(0, Qt.CheckState.Unchecked)
    with qtbot.waitSignal(dialog.tasks_added, timeout=5000):
        qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(window.board_view.model.tasks()) == 1, timeout=5000)
    window.picker.select("demo", {})
    run_until_end(qtbot, window)
    before = [type(w).__name__ for w in _cards_in_order(window)]
    assert "PlanCard" in before and "RoundCard" in before

    other = folder.parent / "Other"
    other.mkdir()
    open_in(qtbot, window, other)
    assert _cards_in_order(window) == []  # another folder: none of these cards
    open_in(qtbot, window, folder)
    again = _cards_in_order(window)
    assert [type(w).__name__ for w in again] == before  # the same story, in the same order
    (card,) = [w for w in again if isinstance(w, PlanCard)]
    assert "5 tasks proposed" in card.accessibleName() and "Plan a birthday party" in \
        card.accessibleName()
    assert isinstance(again[0], RoundCard)  # the run came after the planning: it is on top


def _cards_in_order(window):
    from app.gui.run.round_cards import RoundCard

    layout = window.cards._layout
    widgets = [layout.itemAt(i).widget() for i in range(layout.count())]
    return [w for w in widgets if isinstance(w, (PlanCard, RoundCard))]


def test_a_task_unticked_after_a_finished_run_takes_back_done_and_the_offer(qtbot, window, folder):
    """Done says every task is checked: untick one (or add one) and it is not so any more,
    so the panel says Ready again and the offer of next tasks goes."""
    demo_task_board(folder)  # a task the Demo engine finishes
    open_in(qtbot, window, folder)
    qtbot.waitUntil(lambda: len(window.board_view.model.tasks()) == 1, timeout=5000)
    with qtbot.waitSignal(window.run_ended, timeout=20_000):
        window.start_run()
    panel, notice = window.run_panel, window.board_notice
    assert panel.state_label.text() == "Done" and notice.isVisible()
    qtbot.waitUntil(lambda: window.board_view.model.task(0).checked, timeout=5000)
    model = window.board_view.model
    model.setData(model.index(0), Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)
    qtbot.waitUntil(lambda: panel.state_label.text() == "Ready", timeout=5000)
    assert not notice.isVisible()
    assert panel.tasks_bar.value() == 0 and panel.mode == "run"


def test_proposals_closed_by_esc_are_kept_and_shown_again_until_added_or_dismissed(
        qtbot, window, folder):
    """Issue 35: Esc lost paid proposals without a word."""
    open_in(qtbot, window, folder)
    dialog = window.open_plan()
    plan_in(qtbot, dialog, "Plan a birthday party")
    proposed = texts(dialog)
    assert proposed
    qtbot.keyClick(dialog.list.tree, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: window.plan_dialog is None or not window.plan_dialog.isVisible(),
                    timeout=3000)
    notice = window.board_notice
    assert notice.isVisible() and "kept" in notice.text.text()
    again = window.open_plan()
    assert texts(again) == proposed and again.goal.text() == "Plan a birthday party"
    assert not again.runner.running and again.add_button.isEnabled()
    again.dismiss_button.click()
    qtbot.waitUntil(lambda: window.plan_dialog is None or not window.plan_dialog.isVisible(),
                    timeout=3000)
    fresh = window.open_plan()
    assert texts(fresh) == [] and not fresh.list.isVisible()  # dismissed: gone
    fresh.close()


def test_tab_in_done_when_moves_on_and_a_try_that_did_nothing_leaves_no_card(
        qtbot, window, folder):
    open_in(qtbot, window, folder)
    dialog = window.open_plan()
    plan_in(qtbot, dialog, "Plan a birthday party")
    details = dialog.list
    details.tree.setCurrentItem(details.tree.topLevelItem(0))
    details.done_when.setFocus()
    before = details.done_when.toPlainText()
    qtbot.keyClick(details.done_when, Qt.Key.Key_Tab)
    assert details.done_when.toPlainText() == before and not details.done_when.hasFocus()
    cards = len(window.cards.findChildren(PlanCard))
    from app.core.plan.planning import PlanOutcome
    failed = PlanOutcome("plan-x", "engine_error", "The engine could not be reached.")
    dialog.planned.emit("Plan a birthday party", failed, 0.1)
    assert len(window.cards.findChildren(PlanCard)) == cards  # no empty "0 steps" card
    dialog._show_card(failed)
    assert not dialog.card.isVisible()


@pytest.mark.parametrize("mode", ["goal", "next"])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_with_the_demo_no_sentence_says_an_ai_will_look(qtbot, qapp, folder, mode, lang):
    """The Demo uses no AI: the dialog's first sentence said "The AI looks at the files in
    this folder and proposes tasks" right above "The Demo engine uses no AI"."""
    from app.gui.settings import language

    assert language.install(qapp, lang) == lang
    try:
        dialog = standalone(qtbot, folder, mode=mode)
        said = [dialog.intro.text(), dialog.plan_button.toolTip()]
        assert not any("AI" in text for text in said), said
        assert dialog.no_ai_note.isVisible()  # what the Demo does, said there once
        if lang == "zh_CN":
            assert dialog.intro.text().endswith("。") and "在你挑选之前" in dialog.intro.text()
        ai = PlanDialog(folder, lambda: DemoEngine(EngineConfig()), Limits(), "Claude",
                        mode=mode, engine_is_ai=True)
        qtbot.addWidget(ai)
        assert "AI" in ai.intro.text()  # an AI engine: said as before
    finally:
        language.install(qapp, "en")
