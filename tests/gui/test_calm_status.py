"""A calm status a person trusts: it never says Ready with Run filled while the engine chosen
cannot run (its key refused, its server not answering) or while the list has no task; it
names the real next step, with that step's button as the filled one. English and Chinese."""

from __future__ import annotations

import pytest

from app.core.engine.port import Availability
from app.gui.look import look
from app.gui.run.run_panel import RunPanel
from app.gui.settings import language
from tests.gui.helpers import demo_copy, open_in


def filled(button) -> bool:
    return button.property(look.TONE_PROPERTY) == "primary"


@pytest.fixture(params=["en", "zh_CN"])
def lang(request, qapp):
    language.install(qapp, request.param)
    yield request.param
    language.install(qapp, "en")


def _say_not_ready(qtbot, window, engine_id: str, reason: str, facts=None) -> None:
    picker = window.picker
    picker.combo.setCurrentIndex(picker.combo.findData(engine_id))
    picker._on_checked(engine_id, Availability(False, "", reason=reason, facts=facts or {}))
    qtbot.waitUntil(lambda: window.run_panel.not_ready[0] == engine_id, timeout=5000)


@pytest.mark.parametrize("engine_id, reason", [("anthropic", "key_rejected"),
                                               ("anthropic", "engine_unreachable"),
                                               ("local", "engine_unreachable")])
def test_an_engine_that_cannot_run_is_not_ready_and_its_fix_is_the_filled_button(
        qtbot, window, tmp_path, lang, engine_id, reason):
    open_in(qtbot, window, demo_copy(tmp_path))
    _say_not_ready(qtbot, window, engine_id, reason, {"url": "http://127.0.0.1:11434"})
    panel = window.run_panel
    sentence = window.picker.not_ready_sentence(engine_id)
    assert sentence and panel.detail_label.text() == sentence  # the real next step
    assert panel.state_label.text() != window.run_panel.tr("Ready")
    if lang == "zh_CN":
        assert not panel.state_label.text().isascii()
    assert panel.engine_action.isVisible() and filled(panel.engine_action)
    assert not filled(panel.primary)
    assert not window.notice.isVisible()  # said once, in the status
    # The Demo can always run: Ready again, with Run filled.
    window.picker.combo.setCurrentIndex(window.picker.combo.findData("demo"))
    qtbot.waitUntil(lambda: panel.not_ready == ("", ""), timeout=5000)
    assert panel.detail_label.text() != sentence
    assert filled(panel.primary) and panel.engine_action.isHidden()


def test_a_task_list_with_no_task_asks_for_a_task_not_run(qtbot, lang):
    panel = RunPanel()
    qtbot.addWidget(panel)
    panel.show_ready()
    panel.show_counts(0, 0)
    words = panel.tr
    assert panel.state_label.text() == words("Nothing to run yet")
    assert panel.detail_label.text() == words("Add a task on the left, then press Run.")
    assert panel.tasks_count.text() == ""  # not "No tasks yet" a third time beside the bar
    if lang == "zh_CN":
        assert "你" in panel.detail_label.text() and "task" not in panel.detail_label.text()
    assert not filled(panel.primary)  # the board's Plan with AI… is the filled one
    panel.show_counts(0, 2)  # a task typed in
    assert panel.state_label.text() == words("Ready") and filled(panel.primary)


def test_an_engine_stop_is_said_once_not_again_in_the_notice(qtbot, window, tmp_path, lang):
    open_in(qtbot, window, demo_copy(tmp_path))
    panel = window.run_panel
    window.picker.combo.setCurrentIndex(window.picker.combo.findData("anthropic"))
    panel.show_result("failed", "engine_unreachable", "", engine_id="anthropic")
    panel.set_mode("run")
    said = panel.state_label.text(), panel.detail_label.text()
    window.picker._on_checked("anthropic", Availability(False, "", reason="engine_unreachable"))
    assert (panel.state_label.text(), panel.detail_label.text()) == said  # the stop stays
    assert not window.notice.isVisible()  # and is not said a third time below it


def test_an_undo_is_said_once_in_the_status(qtbot, window, tmp_path, lang):
    from app.core.undo.undo import UndoReport

    open_in(qtbot, window, demo_copy(tmp_path))
    window.evidence_flow.show_round_undone(UndoReport(round=1, removed=["demo-output/a.md"]))
    panel = window.run_panel
    assert panel.state_label.text() == window.evidence_flow.tr("Round %1 undone").replace(
        "%1", "1")
    assert "demo-output/a.md" in panel.detail_label.text()
    assert not window.notice.isVisible()  # not the same again in the notice below


def test_an_undo_after_a_run_ended_clears_the_run_end_notice(qtbot, window, tmp_path, lang,
                                                            monkeypatch):
    """The window was behind when the run ended: its notice "The run in … has ended: Done."
    is still there when the person undoes a round. The status says the undo; the notice does
    not go on saying the run's end beside it. A notice put there since stays."""
    from app.core.undo.undo import UndoReport
    from tests.gui.helpers import run_past_the_decision

    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    run_past_the_decision(qtbot, window, folder, between=lambda: monkeypatch.setattr(
        window.notifier, "in_front", lambda: False))
    ended = window.decision_flow.tr("The run in “%1” has ended: %2.").replace(
        "%1", folder.name)
    notice = window.notice
    assert notice.isVisible() and notice.text.text().startswith(ended.split("%2")[0])
    undo = window.run_flow.history  # what the evidence dialog's Undo emits through
    undo.round_undone.emit(UndoReport(round=1, removed=["demo-output/a.md"]))
    panel = window.run_panel
    assert panel.state_label.text() == window.evidence_flow.tr("Round %1 undone").replace(
        "%1", "1")
    assert not notice.isVisible()  # the run's end is not said again beside the undo

    window.settings_flow._on_settings_failed(OSError(28, "No space left on device"))
    assert notice.isVisible()
    undo.round_undone.emit(UndoReport(round=2, removed=["demo-output/b.md"]))
    assert notice.isVisible()  # not a run's end: it stays


def test_the_notes_above_the_task_list_are_whole_at_800_by_600(qtbot, window, tmp_path, lang):
    """The note bar above the task list shows two lines: at 800x600 its sentences are whole
    there, not cut with the rest only in a tooltip; each one's button says what it offers."""
    from types import SimpleNamespace

    window.resize(800, 600)
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    plans, notice = window.plan_flow, window.board_notice
    root = window.folder_flow.workspace

    def shown_whole(show) -> str:
        show()
        qtbot.waitUntil(notice.isVisible, timeout=2000)
        qtbot.wait(50)  # laid out at the bar's width
        assert not notice.text.is_elided(), notice.text.shown_text()
        assert notice.action.isVisible()
        return notice.text.text()

    kept = shown_whole(lambda: plans._keep_proposals(root, "goal", "A launch", "", ["a task"]))
    done = shown_whole(lambda: plans.offer_next_tasks(SimpleNamespace(state="done")))
    if lang == "zh_CN":
        assert "你" in kept and not done.isascii()


def test_a_task_added_after_an_undo_on_a_finished_list_makes_run_the_next_step(
        qtbot, window, tmp_path, lang):
    """Every task done, then a round undone (the status says the undo, not "Done"), then a
    task added or unticked: Run is the filled button again, not Export summary…"""
    from app.core.run.outcomes import ExitReason, RunState
    from app.core.undo.undo import UndoReport

    open_in(qtbot, window, demo_copy(tmp_path))
    panel = window.run_panel
    panel.show_counts(5, 5)
    panel.show_result(RunState.DONE, ExitReason.ALL_TASKS_DONE, "")
    panel.set_mode("done")
    window.evidence_flow.show_round_undone(UndoReport(round=4, restored=["notes/a.md"]))
    assert panel.mode == "done"  # the undo is said; the list is still all done
    panel.show_counts(5, 6)  # "Sum up my notes in one page", typed in
    assert panel.mode == "run"
    assert panel.primary.text() == panel.tr("Run") and filled(panel.primary)
    assert panel.state_label.text() == panel.tr("Ready")
