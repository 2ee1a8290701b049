"""Planning through the real Claude and OpenAI engines, against loopback servers on their wire formats."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from app.core.plan.records import read_plans
from app.core.plan.planning import Planner
from app.core.workspace.files import read_jsonl
from app.core.settings import Limits
from app.core.engine.port import EngineConfig
from app.engines.claude.engine import AnthropicEngine
from app.engines.openai.engine import OpenAIEngine
from tests.engines.conftest import CLAUDE_KEY, OPENAI_KEY
from tests.engines.fake_servers import (claude_stream, claude_usage, oa_call, oa_stream,
                                        text_block, tool_use)

MESSAGES = "/v1/messages"
RESPONSES = "/v1/responses"
READ_ONLY = {"list_files", "read_file", "search_files", "propose_tasks"}
CHANGES_FILES = {"write_file", "edit_file", "delete_file", "set_cells", "complete_task",
                 "ask_human", "give_up"}
GOOD = [{"text": "Write the guest list", "done_when": ["guests.md lists each guest"],
         "human": False, "options": []},
        {"text": "Indoor or outdoor?", "done_when": [], "human": True,
         "options": ["Indoor", "Outdoor"]}]
BAD = [{"text": "Write the guest list\nand the menu", "done_when": [], "human": False,
        "options": []},
       {"text": "Pick a cake", "done_when": [], "human": False, "options": ["Chocolate", "Lemon"]}]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    ws = tmp_path / "Party"
    ws.mkdir()
    (ws / "ideas.md").write_text("Garden party, about 12 children.\n", encoding="utf-8")
    (ws / "AGENTS.md").write_text("Keep every task small.\n", encoding="utf-8")
    return ws


@pytest.fixture
def claude(server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    return AnthropicEngine(EngineConfig(model="claude-sonnet-5-5", base_url=server.url,
                                        timeout_s=5))


@pytest.fixture
def gpt(server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    return OpenAIEngine(EngineConfig(model="gpt-6.1-sol", base_url=server.url + "/v1",
                                     cache_key="ws-1", timeout_s=5))


def claude_call(n: int, name: str, arguments: dict):
    return claude_stream([text_block("Looking."), tool_use(f"toolu_{n}", name, arguments)],
                         usage=claude_usage(input_tokens=1000, output_tokens=100))


def gpt_call(n: int, name: str, arguments: dict):
    return oa_stream([oa_call(f"call_{n}", name, arguments)])


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".harness" not in p.parts}


def test_claude_planning_offers_no_tool_that_changes_files(folder, server, claude):
    before = snapshot(folder)
    server.push(MESSAGES, claude_call(1, "list_files", {"path": "."}),
                claude_call(2, "read_file", {"path": "ideas.md"}),
                claude_call(3, "propose_tasks", {"tasks": GOOD}))
    outcome = Planner(folder, claude).plan("Plan a garden party")
    assert outcome.ok, outcome.message
    assert [p.board_text for p in outcome.proposals] == ["Write the guest list",
                                                         "HUMAN: Indoor or outdoor?"]
    bodies = server.bodies(MESSAGES)
    assert len(bodies) == 3
    for body in bodies:  # every request offers exactly the read-only tools and propose_tasks
        assert {t["name"] for t in body["tools"]} == READ_ONLY
        assert not {t["name"] for t in body["tools"]} & CHANGES_FILES
    assert len({json.dumps(b["tools"]) for b in bodies}) == 1
    assert len({json.dumps(b["system"]) for b in bodies}) == 1
    brief = bodies[0]["messages"][0]["content"]
    brief = brief if isinstance(brief, str) else " ".join(b.get("text", "") for b in brief)
    assert "Goal: Plan a garden party" in brief
    assert "ideas.md" in brief and "Keep every task small." in brief  # listing and AGENTS.md
    assert "no TASKS.md yet" in brief
    # Nothing in the folder changed, and no board appeared.
    assert snapshot(folder) == before and not (folder / "TASKS.md").exists()
    (record,) = read_plans(folder)
    assert record.result == "proposed" and record.steps == 3 and record.cost_usd > 0
    assert record.usage.input_tokens == 3000 and record.proposals[1]["human"] is True
    kinds = [e["type"] for e in read_jsonl(folder / ".harness" / "plans" / record.plan_id
                                           / "events.jsonl")]
    assert kinds[0] == "plan_started" and kinds[-1] == "plan_finished"
    assert kinds.count("model_replied") == 3
    assert not (folder / ".harness" / "status.json").exists()  # a plan is not a run


def test_openai_planning_offers_no_tool_that_changes_files(folder, server, gpt):
    server.push(RESPONSES, gpt_call(1, "search_files", {"query": "party"}),
                gpt_call(2, "propose_tasks", {"tasks": GOOD}))
    outcome = Planner(folder, gpt).plan("Plan a garden party")
    assert outcome.ok, outcome.message
    bodies = server.bodies(RESPONSES)
    assert len(bodies) == 2
    for body in bodies:
        assert {t["name"] for t in body["tools"]} == READ_ONLY
    outputs = [i for i in bodies[1]["input"] if i.get("type") == "function_call_output"]
    assert "ideas.md:1:" in outputs[0]["output"]  # the search really ran, through the sandbox


def test_a_bad_proposal_is_asked_again_once_with_the_reason(folder, server, gpt):
    server.push(RESPONSES, gpt_call(1, "propose_tasks", {"tasks": BAD}),
                gpt_call(2, "propose_tasks", {"tasks": GOOD}))
    outcome = Planner(folder, gpt).plan("Plan a garden party")
    assert outcome.ok, outcome.message
    second = server.bodies(RESPONSES)[1]
    (reply,) = [i for i in second["input"] if i.get("type") == "function_call_output"]
    assert "must be one line" in reply["output"]
    assert "not a decision" in reply["output"]
    assert "last chance" in reply["output"]
    (record,) = read_plans(folder)
    assert record.asked_again == 1 and "correction" in record.notices


def test_a_second_bad_proposal_ends_planning_without_a_third_request(folder, server, claude):
    server.push(MESSAGES, claude_call(1, "propose_tasks", {"tasks": BAD}),
                claude_call(2, "propose_tasks", {"tasks": []}),
                claude_call(3, "propose_tasks", {"tasks": GOOD}))
    outcome = Planner(folder, claude).plan("Plan a garden party")
    assert outcome.result == "rejected" and not outcome.proposals
    assert "twice" in outcome.message
    assert len(server.bodies(MESSAGES)) == 2
    second = server.bodies(MESSAGES)[1]["messages"][-1]["content"]
    assert second[0]["type"] == "tool_result" and second[0]["is_error"] is True


def test_a_call_to_a_writing_tool_is_refused_and_changes_nothing(folder, server, claude):
    before = snapshot(folder)
    server.push(MESSAGES, claude_call(1, "write_file", {"path": "plan.md", "content": "x"}),
                claude_call(2, "propose_tasks", {"tasks": GOOD}))
    outcome = Planner(folder, claude).plan("Plan a garden party")
    assert outcome.ok
    result = server.bodies(MESSAGES)[1]["messages"][-1]["content"][0]
    assert result["is_error"] is True and "not available while planning" in json.dumps(result)
    assert snapshot(folder) == before


def test_planning_stops_at_the_budget_before_spending_more(folder, server, claude):
    server.push(MESSAGES, claude_call(1, "list_files", {"path": "."}),
                claude_call(2, "list_files", {"path": "."}))
    outcome = Planner(folder, claude, Limits(budget_usd=0.003)).plan("Plan a garden party")
    assert outcome.result == "budget_exhausted"
    assert len(server.bodies(MESSAGES)) == 1  # the second step would have passed the budget
    (record,) = read_plans(folder)
    assert 0 < record.cost_usd <= 0.003


def test_planning_has_its_own_step_limit(folder, server, claude):
    for n in range(5):
        server.push(MESSAGES, claude_call(n, "read_file", {"path": "ideas.md", "offset": n + 1}))
    outcome = Planner(folder, claude, max_steps=4).plan("Plan a garden party")
    assert outcome.result == "step_limit"
    assert len(server.bodies(MESSAGES)) == 4
    sent = json.dumps(server.bodies(MESSAGES)[-1]["messages"])
    assert sent.count("call propose_tasks now") == 1  # warned once, before the end


def test_cancel_ends_planning_after_the_current_step(folder, server, claude):
    cancel = threading.Event()
    server.push(MESSAGES, claude_call(1, "list_files", {"path": "."}))
    planner = Planner(folder, claude, cancel=cancel, listeners=[
        lambda e: cancel.set() if e.type == "model_replied" else None])
    outcome = planner.plan("Plan a garden party")
    assert outcome.result == "cancelled" and len(server.bodies(MESSAGES)) == 1
