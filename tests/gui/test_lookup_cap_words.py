"""A task that used up its web lookups (issue 37): its round's card and the run's stop say so
in plain words, not "Ran out of steps"."""

from __future__ import annotations

import pytest

from app.core.run.loop import Harness
from app.core.records.records import read_rounds
from app.gui.words import wording
from app.gui.run.round_cards import RoundCard, RoundCardList, RoundView
from app.gui.run.run_panel import RunPanel
from tests.core.run.test_web_tasks import BOARD, Looker, searched, write
from tests.gui.test_web_sources import in_chinese  # noqa: F401  (the fixture)
from tests.scripted import board_workspace, fast_limits

TASK = "Check what the other bakeries charge for sourdough"


@pytest.fixture
def capped(tmp_path, monkeypatch):
    """A run whose task used up its 4 lookups in round 1: (the result, its events, its
    rounds' records)."""
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    ws = board_workspace(tmp_path, BOARD)
    events: list = []
    engine = Looker([], then=searched(write(), searches=2))
    result = Harness(ws, engine, fast_limits(max_lookups=4), listeners=[events.append]).run()
    return result, events, read_rounds(ws.run_files(result.run_id))


def head(card: RoundCard) -> str:
    return card.accessibleName()


def test_the_card_says_the_task_reached_its_limit_of_lookups(qtbot, capped):
    _, events, rounds = capped
    cards = RoundCardList()
    qtbot.addWidget(cards)
    finished = next(e for e in events if e.type == "round_finished")
    live = cards.round_finished(finished, is_ai=True)   # as the run goes
    kept = RoundCard(RoundView.from_record(rounds[0]))  # read back from the records
    qtbot.addWidget(kept)
    for card in (live, kept):
        assert head(card).startswith("Round 1   ! Reached this task's limit of 4 web lookups")
        assert "Ran out of steps" not in head(card)
        text = card.accessibleDescription()
        assert ("No lookups are left for this task in this run. Raise “Web lookups per task” "
                "in Settings to let it look further.") in text
        assert "so the round stopped" not in text  # the core's English sentence is not shown


def test_a_round_out_of_steps_still_says_so(qtbot):
    card = RoundCard(RoundView(2, TASK, "step_limit", summary="The round used all 8 steps."))
    qtbot.addWidget(card)
    assert head(card).startswith("Round 2   ! Ran out of steps")
    assert wording.round_outcome("step_limit", 1)[1] == "Reached this task's limit of 1 web lookup"


def test_the_runs_stop_says_the_task_used_up_its_lookups(qtbot, capped):
    result, _, _ = capped
    panel = RunPanel()
    qtbot.addWidget(panel)
    headline = panel.show_result(result.state, result.exit_reason, result.message, TASK,
                                 cause=result.cause)
    assert headline == f"Stopped: “{TASK}” used up its web lookups"
    assert wording.finished(result.state, result.exit_reason, TASK, cause=result.cause)[1] == (
        "The task reached its limit of web lookups for this run. Raise “Web lookups per task” "
        "in Settings, then choose what happens next.")
    # Any other run without progress keeps its own words.
    assert wording.finished("blocked_by_human", "no_progress", TASK)[0] == \
        f"Stopped: no progress on “{TASK}”"


def test_in_chinese_the_card_and_the_stop_speak_chinese(qtbot, in_chinese, capped):
    result, _, rounds = capped
    card = RoundCard(RoundView.from_record(rounds[0]))
    qtbot.addWidget(card)
    assert "已达到这个任务的上网查询上限：4 次" in head(card)
    assert "这个任务在本次运行中已经没有上网查询次数了" in card.accessibleDescription()
    assert wording.finished(result.state, result.exit_reason, "任务", cause=result.cause)[0] \
        == "已停止：“任务”用完了上网查询次数"
