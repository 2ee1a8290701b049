"""The run panel says what a real run is doing, in its own words, from the run's typed events."""

from __future__ import annotations

import pytest

from app.core.engine.port import TRANSIENT, EngineError
from app.gui.run.run_panel import RunPanel
from app.gui.run.runner import RunRunner
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits, text

BOARD = "# Shop\n\n- [ ] Write the opening hours\n  - Done when: hours.md lists them\n"


@pytest.fixture(autouse=True)
def config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))


@pytest.fixture
def panel(qtbot):
    widget = RunPanel()
    qtbot.addWidget(widget)
    widget.show()
    return widget


def watch(panel: RunPanel, runner: RunRunner, seen: list | None = None) -> None:
    runner.event_received.connect(panel.show_event)
    if seen is not None:
        runner.event_received.connect(lambda e: seen.append((e, panel.state_label.text())))
    runner.run_finished.connect(
        lambda r: panel.show_result(r.state, r.exit_reason, r.message))


def test_a_stuck_task_reads_stopped_no_progress_on_it(qtbot, tmp_path, panel):
    ws = board_workspace(tmp_path, BOARD)
    runner = RunRunner()
    watch(panel, runner)
    engine = ScriptedEngine([], then=text("Let me think about the hours."))
    with qtbot.waitSignal(runner.run_finished, timeout=30_000) as done:
        runner.start(ws.root, lambda: engine, fast_limits(stall_limit=1))
    assert done.args[0].exit_reason == "no_progress"
    assert panel.state_label.text() == "Stopped: no progress on “Write the opening hours”"
    assert "Choose what happens next" in panel.detail_label.text()


def test_a_busy_service_reads_waiting_then_working_again(qtbot, tmp_path, panel):
    ws = board_workspace(tmp_path, BOARD, {"notes.md": "Mon-Fri 8-18"})
    busy = EngineError("The service is overloaded.", code=TRANSIENT, retryable=True,
                       retry_after=1.2)
    engine = ScriptedEngine([busy, call("write_file", path="hours.md", content="Mon-Fri 8-18"),
                             call("complete_task", summary="Listed the hours.",
                                  evidence=["hours.md"])], price_per_token=0.0001)
    runner = RunRunner()
    seen: list = []
    watch(panel, runner, seen)
    with qtbot.waitSignal(runner.run_finished, timeout=30_000) as done:
        runner.start(ws.root, lambda: engine, fast_limits())
    assert done.args[0].state == "done"
    states = [state for _event, state in seen]
    assert "Waiting 1 s: the service is busy" in states
    waited = states.index("Waiting 1 s: the service is busy")
    assert "Working on: Write the opening hours" in states[waited + 1:]
    assert panel.state_label.text() == "Done"
    # Two billed replies of 120 tokens at $0.0001 a token.
    assert panel.meta_label.text().endswith("240 tokens · $0.02")


def test_the_demo_engine_says_it_costs_nothing(qtbot, tmp_path, panel):
    from app.core.engine.port import EngineConfig
    from app.engines.demo.engine import DemoEngine
    from tests.scripted import demo_copy

    ws = demo_copy(tmp_path)
    runner = RunRunner()
    watch(panel, runner)
    with qtbot.waitSignal(runner.run_finished, timeout=30_000):
        runner.start(ws.root, lambda: DemoEngine(EngineConfig()), fast_limits())
    assert panel.meta_label.text().endswith("no AI used, so no usage and no cost")
    assert panel.state_label.text() == "Needs your decision"


def test_the_narration_says_what_the_ai_is_doing_in_plain_words(qtbot, tmp_path, panel):
    ws = board_workspace(tmp_path, BOARD, {"notes.md": "Mon-Fri 8-18"})
    engine = ScriptedEngine([call("read_file", path="notes.md"),
                             call("write_file", path="hours.md", content="Mon-Fri 8-18"),
                             call("complete_task", summary="Listed the hours.",
                                  evidence=["hours.md"])])
    runner = RunRunner()
    lines: list[str] = []
    watch(panel, runner)
    runner.event_received.connect(lambda _e: lines.append(panel.narration.accessibleDescription()))
    with qtbot.waitSignal(runner.run_finished, timeout=30_000):
        runner.start(ws.root, lambda: engine, fast_limits())
    assert "Reading notes.md…" in lines and "Writing hours.md…" in lines


def test_the_narration_names_set_cells_in_plain_words(qtbot):
    from app.gui.words.wording import narration_for_tool

    assert narration_for_tool("set_cells", {"path": "prices.xlsx", "cells": {"B2": 1}}) == \
        "Changing cells in prices.xlsx…"


def test_a_model_without_a_known_price_reads_at_most_and_says_why(qtbot, tmp_path, panel):
    from tests.engines.test_unknown_price_run import ClaudeScript, reads

    ws = board_workspace(tmp_path, BOARD, {"notes.md": "x"})
    runner = RunRunner()
    watch(panel, runner)
    with qtbot.waitSignal(runner.run_finished, timeout=30_000):
        runner.start(ws.root, lambda: ClaudeScript(reads(2)), fast_limits(max_steps=2,
                                                                          stall_limit=1))
    # two turns of 100 input and 20 output tokens at the highest Claude price: $0.01
    assert panel.meta_label.text().endswith("240 tokens · about $0.01 at most")
    assert panel.price_note.isVisible()
    assert panel.price_note.text() == ("The price of claude-fable-9 is not known, so the "
                                       "highest price is used: the real cost is at most this.")
    panel.reset()
    assert not panel.price_note.isVisible()


def test_a_document_another_program_holds_asks_the_person_to_close_it(qtbot, tmp_path, panel,
                                                                      monkeypatch):
    import app.core.workspace.files as files
    from tests.core.documents.test_outside_saves import sharing_violation
    from tests.document_files import prices_xlsx

    ws = board_workspace(tmp_path, BOARD, {"notes.md": "x"})
    prices_xlsx(ws.root / "prices.xlsx")
    monkeypatch.setattr(files.os, "replace", sharing_violation("prices.xlsx"))
    runner = RunRunner()
    seen: list = []
    watch(panel, runner, seen)
    engine = ScriptedEngine([call("set_cells", path="prices.xlsx", cells={"B2": 9.99})],
                            then=text("Waiting for the person to close it."))
    with qtbot.waitSignal(runner.run_finished, timeout=30_000):
        runner.start(ws.root, lambda: engine, fast_limits(stall_limit=1))
    sentence = ("prices.xlsx is open in another program; close it there and the AI will try "
                "again next round.")
    assert sentence in [state for _event, state in seen]


def test_the_history_names_an_upper_estimate_as_at_most(qtbot):
    from app.core.records.records import RunInfo
    from app.gui.run.history_picker import HistoryPicker

    picker = HistoryPicker()
    qtbot.addWidget(picker)
    run = RunInfo(run_id="20261204-101500-000-aaaaaa", workspace="/w", engine="anthropic",
                  engine_label="Claude", model="claude-fable-9", started_at="2026-12-04T10:15:00Z",
                  state="done", cost_usd=0.42, cost_is_upper_estimate=True)
    assert picker.label_for(run).endswith(" · about $0.42 at most")
    known = run.model_copy(update={"model": "claude-opus-5", "cost_is_upper_estimate": False})
    assert picker.label_for(known).endswith(" · $0.42")


def test_a_round_card_names_an_upper_estimate_as_at_most(qtbot):
    from PySide6.QtWidgets import QLabel

    from app.gui.run.round_cards import RoundCard, RoundView

    texts = {}
    for upper in (False, True):
        card = RoundCard(RoundView(1, "Update the prices", "completed", ["prices.xlsx"], 12.0,
                                   0.42, "Done.", True, "r1", upper=upper))
        qtbot.addWidget(card)
        texts[upper] = [label.text() for label in card.findChildren(QLabel)]
    assert any(t.endswith("$0.42") and "at most" not in t for t in texts[False])
    assert any(t.endswith("about $0.42 at most") for t in texts[True])


def test_a_folder_already_running_elsewhere_is_said_once_in_the_windows_words(qtbot, qapp,
                                                                              tmp_path):
    """Run pressed in a second window on the same folder: the window's own sentence, once.
    The core's English sentence came under it (in a Chinese window, an English line)."""
    from app.core.workspace.workspace import Workspace
    from app.gui.settings import language
    from tests.gui.helpers import demo_copy
    from tests.gui.test_runner import demo

    ws = demo_copy(tmp_path)
    Workspace(ws).ensure_harness_dir()
    runner = RunRunner()
    with Workspace(ws).lock():
        with qtbot.waitSignal(runner.run_finished, timeout=30_000) as done:
            runner.start(ws, demo(), fast_limits())
    result = done.args[0]
    assert "Another run is already working" in result.message  # the core's, for the terminal
    for lang, said in (("en", "Wait for it to finish, then press Run."),
                       ("zh_CN", "等它结束后，再按“运行”。")):
        assert language.install(qapp, lang) == lang
        try:
            widget = RunPanel()
            qtbot.addWidget(widget)
            widget.show_result(result.state, result.exit_reason, result.message)
            detail = widget.detail_label.toolTip() or widget.detail_label.text()
            assert detail.endswith(said)
            assert result.message not in detail
        finally:
            language.install(qapp, "en")
