"""The Demo engine: offline, deterministic, through the real tools, sensible on any board."""

from __future__ import annotations

from app.core.board import Board, update_board
from app.core.files import read_jsonl
from app.core.loop import Harness
from app.engines.demo import DemoEngine
from app.engines.registry import create_engine
from tests.scripted import board_workspace, demo_copy, fast_limits


def events_of(ws, run_id):
    return list(read_jsonl(ws.run_dir(run_id) / "events.jsonl"))


def test_demo_is_labelled_as_no_ai_and_costs_nothing():
    engine = create_engine("demo")
    assert engine.is_ai is False and "no AI" in engine.label
    assert engine.availability().ready


def test_bakery_demo_asks_one_decision_then_finishes_with_the_answer(tmp_path):
    ws = demo_copy(tmp_path)
    first = Harness(ws, DemoEngine(), fast_limits()).run()
    assert (first.state, first.exit_reason) == ("blocked_by_human", "human_decision_needed")
    human = Board.load(ws.board_path).next_task()
    assert human.is_human and human.options == ["speed", "trust"]
    update_board(ws.board_path, lambda b: b.answer_human("speed"))
    second = Harness(ws, DemoEngine(), fast_limits()).run()
    assert (second.state, second.exit_reason) == ("done", "all_tasks_done")
    assert all(t.checked for t in Board.load(ws.board_path).tasks)
    homepage = (ws.root / "drafts" / "homepage.md").read_text(encoding="utf-8")
    assert homepage.startswith("# Order your celebration cake")  # the answer shaped the draft
    assert "Tuesday to Friday 7:00–16:00" in (ws.root / "drafts" / "contact.md").read_text(
        encoding="utf-8")  # taken from the brief it read


def test_demo_is_deterministic(tmp_path):
    outputs = []
    for name in ("a", "b"):
        ws = demo_copy(tmp_path, name)
        Harness(ws, DemoEngine(), fast_limits()).run()
        outputs.append({p.relative_to(ws.root).as_posix(): p.read_bytes()
                        for p in ws.root.rglob("*.md") if ".harness" not in p.parts})
    assert outputs[0] == outputs[1]


def test_on_any_board_each_task_gets_one_draft_written_once(tmp_path):
    board = ("# 计划\n\n- [ ] 整理会议记录\n- [ ] Summarise plan.txt for the team\n"
             "  - Done when: summary/plan-summary.md exists\n")
    ws = board_workspace(tmp_path, board, {"plan.txt": "Open a second shop.\nBudget is tight.\n"})
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    assert result.state == "done"
    writes = [e["path"] for e in events_of(ws, result.run_id) if e["type"] == "file_changed"]
    assert len(writes) == len(set(writes)) == 2
    summary = (ws.root / "summary" / "plan-summary.md").read_text(encoding="utf-8")
    assert "> Open a second shop." in summary and "no AI was used" in summary


def test_a_refused_step_makes_the_demo_give_up_honestly(tmp_path):
    board = "- [ ] Write the notes\n  - Done when: .env.md has them\n"
    ws = board_workspace(tmp_path, board)
    result = Harness(ws, DemoEngine(), fast_limits(stall_limit=1)).run()
    assert result.exit_reason == "no_progress"
    finished = [e for e in events_of(ws, result.run_id) if e["type"] == "round_finished"]
    assert finished[0]["result_state"] == "gave_up"
