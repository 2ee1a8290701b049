"""The planning round: its brief, what it may touch, what it records, and the run it follows."""

from __future__ import annotations

import os

import pytest

from app.core.engine.port import TRANSIENT, EngineError
from app.core.run.loop import Harness
from app.core.plan.prompt import PLAN_SYSTEM_PROMPT, PlanContext
from app.core.plan.records import read_plans
from app.core.plan.planning import Planner, last_run_summaries
from app.core.workspace.workspace import Workspace
from app.engines.demo.engine import DemoEngine
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits, text

GOOD = [{"text": "Write the menu", "done_when": ["menu.md lists dishes"], "human": False,
         "options": []}]


def brief_of(engine: ScriptedEngine) -> str:
    return engine.requests[0]["messages"][0].text


def test_the_brief_holds_the_goal_the_listing_the_board_and_agents_md(tmp_path):
    ws = board_workspace(tmp_path, "- [x] Book the hall\n- [ ] Send invitations\n",
                         {"AGENTS.md": "Write in British English.\n", "notes/guests.md": "x\n"})
    engine = ScriptedEngine([call("propose_tasks", tasks=GOOD)])
    outcome = Planner(ws, engine, fast_limits()).plan("  Plan the   summer fair ")
    assert outcome.ok
    brief = brief_of(engine)
    assert "Goal: Plan the summer fair" in brief
    assert "notes/" in brief and "AGENTS.md" in brief  # the folder's listing
    assert "- [x] Book the hall" in brief and "- [ ] Send invitations" in brief
    assert "Write in British English." in brief
    assert engine.requests[0]["system"] == PLAN_SYSTEM_PROMPT


def test_agents_md_is_read_through_the_sandbox_so_a_link_outside_is_not(tmp_path):
    outside = tmp_path / "secret.txt"
    outside.write_text("the bank password is hunter2\n", encoding="utf-8")
    ws = board_workspace(tmp_path, "- [ ] A task\n")
    os.symlink(outside, ws.root / "AGENTS.md")
    engine = ScriptedEngine([call("propose_tasks", tasks=GOOD)])
    Planner(ws, engine, fast_limits()).plan("Plan")
    assert "hunter2" not in brief_of(engine)
    assert "AGENTS.md was not read" in brief_of(engine)


def test_a_plan_is_not_a_run_and_never_touches_the_board(tmp_path):
    board = b"# Fair\r\n\r\n- [ ] Send invitations\r\n"
    ws = board_workspace(tmp_path, "")
    ws.board_path.write_bytes(board)
    engine = ScriptedEngine([call("read_file", path="TASKS.md"), call("propose_tasks", tasks=GOOD)])
    outcome = Planner(ws, engine, fast_limits()).plan("Plan the fair")
    assert outcome.ok and ws.board_path.read_bytes() == board
    assert ws.run_ids() == [] and not ws.status_path.exists()
    assert [p.result for p in read_plans(ws.root)] == ["proposed"]


def test_replies_without_a_tool_are_nudged_then_planning_ends(tmp_path):
    ws = board_workspace(tmp_path, "- [ ] A task\n")
    engine = ScriptedEngine([], then=text("Here is my plan: do things."))
    outcome = Planner(ws, engine, fast_limits()).plan("Plan")
    assert outcome.result == "no_proposal" and len(engine.requests) == 3
    assert "[harness] Your reply used no tool" in engine.requests[1]["messages"][-1].text
    assert read_plans(ws.root)[0].notices == ["nudge", "nudge"]


def test_transient_errors_are_retried_by_the_one_retry_layer(tmp_path):
    ws = board_workspace(tmp_path, "- [ ] A task\n")
    busy = EngineError("Busy.", code=TRANSIENT, retryable=True, retry_after=0.0)
    engine = ScriptedEngine([busy, call("propose_tasks", tasks=GOOD)])
    events = []
    outcome = Planner(ws, engine, fast_limits(), listeners=[events.append]).plan("Plan")
    assert outcome.ok and len(engine.requests) == 2
    assert [e.type for e in events].count("retry_waiting") == 1


def test_cost_is_counted_and_recorded(tmp_path):
    ws = board_workspace(tmp_path, "- [ ] A task\n")
    turn = call("propose_tasks", tasks=GOOD)
    turn.usage.input_tokens, turn.usage.output_tokens = 1000, 200
    engine = ScriptedEngine([turn], price_per_token=0.00001)
    outcome = Planner(ws, engine, fast_limits()).plan("Plan")
    assert outcome.cost_usd == pytest.approx(0.012)
    assert read_plans(ws.root)[0].cost_usd == pytest.approx(0.012)


def test_suggesting_next_tasks_gives_the_model_the_last_runs_summaries(tmp_path):
    ws = board_workspace(tmp_path, "- [ ] Write the greeting\n  - Done when: a file says hello\n")
    Harness(ws, DemoEngine(), fast_limits()).run()
    summaries = last_run_summaries(ws)
    assert len(summaries) == 1 and summaries[0].startswith("Write the greeting: ")
    assert "demo-output/" in summaries[0]  # the files the round wrote
    engine = ScriptedEngine([call("propose_tasks", tasks=GOOD)])
    Planner(ws, engine, fast_limits()).plan("", "next", PlanContext(run_summaries=summaries))
    brief = brief_of(engine)
    assert "Mode: next" in brief and "What the last run did:" in brief
    assert summaries[0] in brief


def test_try_again_sends_the_note_and_the_earlier_proposal(tmp_path):
    ws = board_workspace(tmp_path, "")
    first = Planner(ws, DemoEngine(), fast_limits()).plan("Write a newsletter")
    engine = ScriptedEngine([call("propose_tasks", tasks=GOOD)])
    Planner(ws, engine, fast_limits()).plan(
        "Write a newsletter", context=PlanContext(note="Fewer tasks, please",
                                                  previous=first.proposals))
    brief = brief_of(engine)
    assert "Note from the person: Fewer tasks, please" in brief
    assert first.proposals[2].board_text in brief  # the decision, as HUMAN:


def test_a_folder_that_does_not_exist_is_one_sentence(tmp_path):
    from app.core.errors import NotAWorkspace

    with pytest.raises(NotAWorkspace):
        Planner(Workspace(tmp_path / "gone"), DemoEngine()).plan("Plan")


def test_planning_never_works_on_the_whole_disk():
    from app.core.errors import NotAWorkspace

    with pytest.raises(NotAWorkspace, match="whole disk"):
        Planner(Workspace("/"), DemoEngine()).plan("Plan")
