"""The Demo engine's planner: offline and scripted, in English and Chinese, with the real tools."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.core.board.board import Board
from app.core.run.loop import Harness
from app.core.plan.prompt import PlanContext
from app.core.plan.planning import Planner
from app.core.plan.proposals import add_proposals
from app.core.workspace.workspace import Workspace
from app.engines.demo.engine import DemoEngine

CJK = re.compile(r"[\u4e00-\u9fff]")


def plan(folder: Path, goal: str, mode: str = "goal", **context):
    events = []
    outcome = Planner(folder, DemoEngine(), listeners=[events.append]).plan(
        goal, mode, PlanContext(**context))
    assert outcome.ok, outcome.message
    return outcome, events


def test_english_goal_gives_an_english_plan_with_one_decision(tmp_path):
    (tmp_path / "ideas.md").write_text("Garden, 12 children.\n", encoding="utf-8")
    outcome, events = plan(tmp_path, "Plan a birthday party for my daughter")
    texts = [p.board_text for p in outcome.proposals]
    assert len(texts) == 5 and not any(CJK.search(t) for t in texts)
    assert "Plan a birthday party for my daughter" in texts[0]
    assert [p.human for p in outcome.proposals] == [False, False, True, False, False]
    assert all(p.done_when for p in outcome.proposals if not p.human)
    # It used the real read-only tools: listed the folder, read its first text file.
    calls = [(e.tool, e.arguments.get("path")) for e in events if e.type == "tool_called"]
    assert calls[:2] == [("list_files", "."), ("read_file", "ideas.md")]
    assert outcome.cost_usd == 0.0


def test_chinese_goal_gives_a_chinese_plan(tmp_path):
    outcome, _ = plan(tmp_path, "为女儿筹办一场生日聚会")
    assert len(outcome.proposals) == 5
    for p in outcome.proposals:
        assert CJK.search(p.text), p
        assert all(CJK.search(x) for x in p.done_when + p.options), p
    assert outcome.proposals[0].text.startswith("写下")  # an empty folder: start from scratch
    decision = next(p for p in outcome.proposals if p.human)
    assert len(decision.options) == 2


def test_a_note_changes_the_plan_and_tasks_already_on_the_list_are_left_out(tmp_path):
    first, _ = plan(tmp_path, "Write a newsletter")
    add_proposals(tmp_path, first.proposals[:2])
    again, _ = plan(tmp_path, "Write a newsletter", note="Keep it to one page",
                    previous=first.proposals)
    texts = [p.board_text for p in again.proposals]
    assert first.proposals[0].board_text not in texts and len(texts) == 3
    first_brief = first.proposals[1].done_when
    assert first_brief and not any("one page" in d for d in first_brief)


def test_the_note_reaches_the_outline_when_it_is_still_proposed(tmp_path):
    again, _ = plan(tmp_path, "Write a newsletter", note="Keep it to one page")
    outline = again.proposals[1]
    assert any("Keep it to one page" in d for d in outline.done_when)


@pytest.mark.parametrize("summary, chinese", [("Write the greeting: wrote hello.md", False),
                                              ("写问候语：写好了 hello.md", True)])
def test_next_suggestions_follow_a_finished_run(tmp_path, summary, chinese):
    outcome, _ = plan(tmp_path, "", "next", run_summaries=[summary])
    assert len(outcome.proposals) == 3 and outcome.proposals[1].human
    assert bool(CJK.search(outcome.proposals[0].text)) is chinese


def test_added_demo_tasks_run_with_the_demo_engine_up_to_the_decision(tmp_path):
    # The person's own tasks: the Demo shows the first two as samples (never ticked, issue
    # 35) and stops at the decision, the person's to answer.
    from app.core.records.records import read_rounds

    outcome, _ = plan(tmp_path, "Plan a garden party")
    add_proposals(tmp_path, outcome.proposals)
    ws = Workspace(tmp_path)
    result = Harness(ws, DemoEngine()).run()
    assert result.state == "blocked_by_human"
    board = Board.load(tmp_path / "TASKS.md")
    assert [t.checked for t in board.tasks] == [False] * 5 and board.next_task().is_human is False
    assert [r.result_state for r in read_rounds(ws.run_files(result.run_id))] == ["sample"] * 2
