"""Issue 35 point 3: one status, said once, in a block that never changes height while a run
goes (between runs it is as tall as what it shows: test_status_fits.py); passing
notices leave by themselves; a stale engine stop goes; one slim task bar with its count beside
it and no Steps bar; the status line and the exported summary agree on time and runs."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QProgressBar, QWidget

from app.gui.look import notice_bar
from tests.gui.helpers import demo_copy, open_in, run_past_the_decision

LONG = ("A sentence long enough to wrap over several lines of the status block on any window, "
        "saying what happened and what to do next, with a file name or two in it: "
        "notes/customer-comments.md and drafts/homepage.md, and then some more words.")


def rounds_top(window) -> int:
    title = next(label for label in window.splitter.findChildren(QLabel)
                 if label.text() == "Rounds, newest first")
    return title.mapTo(window, title.rect().topLeft()).y()


def test_nothing_below_the_status_moves_as_messages_come_and_go(qtbot, window, tmp_path):
    """Between runs the rounds follow the block, just under what it shows; while a run goes
    nothing below it moves."""
    open_in(qtbot, window, demo_copy(tmp_path))
    panel = window.run_panel
    block = panel.status_block
    qtbot.wait(50)
    tops = []

    def settle_and_measure():
        qtbot.wait(30)  # the layouts a change posts are done
        tops.append(rounds_top(window))
        shown = [w for w in block.findChildren(QWidget) if w.isVisible() and w.height() > 0]
        lowest = max(w.mapTo(window, w.rect().bottomLeft()).y() for w in shown)
        line = panel.meta_label.fontMetrics().lineSpacing()
        assert lowest < tops[-1] <= lowest + 2 * line + 40  # the schedule's line between

    panel.show_welcome(LONG)  # the untouched demo's welcome
    settle_and_measure()
    panel.show_state("Ready")
    settle_and_measure()
    panel.show_state("Stopped: Claude could not be reached", LONG, tone="attention")
    panel.show_engine_action("engine_unreachable", "", "local")
    settle_and_measure()
    window.notice.show_notice(LONG, "Engine settings…", lambda: None, tone="attention")
    settle_and_measure()
    panel.show_lessons(2)
    settle_and_measure()
    window.notice.hide()
    panel.show_lessons(0)
    panel.show_state("Done")
    settle_and_measure()

    # While a run goes, its live line and the price note come and go and move nothing.
    panel.set_mode("running")
    settle_and_measure()
    running = tops[-1]
    panel.show_price(True, "claude-fable-9")
    panel.show_narration(LONG)
    settle_and_measure()
    window.notice.show_notice(LONG, "Engine settings…", lambda: None, tone="attention")
    settle_and_measure()
    window.notice.hide()
    panel.show_price(False)
    panel.show_narration("")
    settle_and_measure()
    assert tops[-4:] == [running] * 4


def test_between_runs_the_block_has_no_empty_room_for_a_live_line(qtbot, window, tmp_path):
    """No run going, no live line: the block ends under the time and cost with only the
    notice's place below it (no band of empty room above the schedule and the rounds)."""
    open_in(qtbot, window, demo_copy(tmp_path))
    panel = window.run_panel
    block = panel.status_block
    panel.show_state("Done", "Every task on the list is checked.", tone="ok")
    panel.set_mode("done")
    panel.meta_label.setText("14 s · no AI used, so no usage and no cost")
    qtbot.wait(30)
    meta_bottom = panel.meta_label.mapTo(block, panel.meta_label.rect().bottomLeft()).y()
    spacing = block.layout().spacing()
    assert block.height() - meta_bottom <= block.notice_slot.height() + 2 * spacing + 1
    idle = block.height()
    panel.set_mode("running")  # a run's live line has its room again
    assert block.height() >= idle + 2 * panel.narration.fontMetrics().lineSpacing()


def test_a_passing_notice_leaves_by_itself_and_one_that_asks_stays(qtbot, window, tmp_path,
                                                                    monkeypatch):
    monkeypatch.setattr(notice_bar, "PASSING_MS", 200)
    open_in(qtbot, window, demo_copy(tmp_path))
    window.notice.show_notice("Saved the summary as summary.pdf", passing=True)
    assert window.notice.isVisible()
    qtbot.waitUntil(lambda: not window.notice.isVisible(), timeout=3000)
    window.notice.show_notice("Your settings could not be saved: disk full", tone="attention")
    qtbot.wait(500)
    assert window.notice.isVisible()  # it asks for something: it stays until acted on


def test_a_clean_undo_during_a_run_is_a_passing_notice(qtbot, window, tmp_path, monkeypatch):
    """While a run is going the status is the run's: the undo is said in the notice (between
    runs it is said in the status alone: tests/gui/test_calm_status.py)."""
    from types import SimpleNamespace

    monkeypatch.setattr(notice_bar, "PASSING_MS", 200)
    monkeypatch.setattr("app.gui.words.undo_words.undo_report_headline",
                        lambda report: "Round 2 undone.")
    monkeypatch.setattr("app.gui.words.undo_words.undo_report_sentences", lambda r: [])
    open_in(qtbot, window, demo_copy(tmp_path))
    monkeypatch.setattr(window.evidence_flow, "runner", SimpleNamespace(running=True))
    window.evidence_flow.show_round_undone(SimpleNamespace(ok=True, kept_both=False, round=2))
    assert window.notice.text.text() == "Round 2 undone."
    qtbot.waitUntil(lambda: not window.notice.isVisible(), timeout=3000)


def test_a_stale_engine_stop_goes_when_the_engine_changes(qtbot, window, tmp_path):
    open_in(qtbot, window, demo_copy(tmp_path))
    panel, picker = window.run_panel, window.picker
    picker.select("local")
    panel.show_result("failed", "engine_unreachable", "", engine_id="local")
    panel.set_mode("run")
    assert panel.state_label.text().startswith("Stopped")
    picker.readiness_checked.emit("local")  # the same engine, not put right: still true
    assert panel.state_label.text().startswith("Stopped")
    picker.combo.setCurrentIndex(picker.combo.findData("demo"))  # the person picks another
    qtbot.waitUntil(lambda: not panel.state_label.text().startswith("Stopped"), timeout=2000)
    assert panel.state_label.text() in ("Ready", "Ready to show a sample")
    assert not panel.engine_action.isVisible()


def test_an_engine_stop_goes_once_the_engine_is_put_right(qtbot, window, tmp_path, monkeypatch):
    open_in(qtbot, window, demo_copy(tmp_path))
    panel, picker = window.run_panel, window.picker
    picker.select("anthropic")
    panel.show_result("failed", "auth_failed", "", engine_id="anthropic", cause="no_key")
    panel.set_mode("run")
    monkeypatch.setattr(picker, "is_ready", lambda engine_id=None: True)
    monkeypatch.setattr(picker, "check", lambda engine_id: None)
    picker.readiness_checked.emit("anthropic")  # a check after the stop, nothing changed
    assert panel.state_label.text().startswith("Stopped")
    window.settings_flow.recheck("anthropic")  # a key saved in Engine settings
    picker.readiness_checked.emit("anthropic")  # ... and its check says it works
    assert panel.state_label.text() == "Ready"


def test_one_slim_task_bar_with_its_count_beside_it_and_no_steps_bar(qtbot, window, tmp_path):
    open_in(qtbot, window, demo_copy(tmp_path))
    panel = window.run_panel
    qtbot.waitUntil(lambda: panel.tasks_bar.maximum() == 5, timeout=5000)
    qtbot.wait(30)
    assert panel.findChildren(QProgressBar) == [panel.tasks_bar]  # the Steps bar is gone
    bar, count = panel.tasks_bar, panel.tasks_count
    assert not bar.isTextVisible() and bar.height() <= 8  # slim; no words on the fill
    assert count.isVisible() and count.text() == "0 of 5 done"
    left_of_count = count.mapTo(panel, count.rect().topLeft()).x()
    assert bar.mapTo(panel, bar.rect().topRight()).x() < left_of_count  # beside, not on it


def test_the_status_line_and_the_exported_summary_agree(qtbot, window, tmp_path):
    from app.export.markdown import format_duration
    from app.export.summary import build_summary

    window.demo_delay = 0.12  # runs of a few seconds each, the decision in between
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    panel = window.run_panel

    def think():  # the person takes a while to answer: not the AI's time
        qtbot.wait(1500)

    _first, second = run_past_the_decision(qtbot, window, folder, between=think)
    assert second.state == "done"
    summary = build_summary(folder, second.run_id)
    said = format_duration(summary.duration_s)
    qtbot.waitUntil(lambda: panel.meta_label.text().startswith(said + " · "), timeout=5000)
    assert summary.duration_s is not None and summary.duration_s >= 1
    # Two runs, one Run and one answer: the summary says so in those words.
    assert not any("2 runs" in note for note in summary.notes)
    assert any("after your decision," in note for note in summary.notes)


def test_in_front_a_finished_run_is_said_once(qtbot, window, tmp_path, monkeypatch):
    monkeypatch.setattr(window.notifier, "in_front", lambda: True)
    folder = demo_copy(tmp_path)
    open_in(qtbot, window, folder)
    _first, second = run_past_the_decision(qtbot, window, folder)
    assert second.state == "done"
    assert window.run_panel.state_label.text() == "Done"
    assert not window.notice.isVisible()  # not "The run in Bakery has ended: Done." as well


def test_a_heading_on_two_lines_shows_both(qtbot):
    """The Chinese run heading is 正在处理 with the task on the next line."""
    from app.gui.run.run_panel import RunPanel

    panel = RunPanel()
    qtbot.addWidget(panel)
    panel.resize(700, 400)
    panel.show()
    panel.show_state("正在处理\n写“关于我们”页面的初稿", "第 2 轮")
    qtbot.wait(30)
    label = panel.state_label
    assert label.shown_text() == "正在处理\n写“关于我们”页面的初稿"
    assert label.height() >= 2 * label.fontMetrics().lineSpacing()
