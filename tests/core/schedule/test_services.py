"""The core services the window calls: limits with overrides, decisions, undo by round number."""

from __future__ import annotations

import os

import pytest

from app.core.board.board import Board
from app.core.board.decide import Decided, EmptyAnswer, decide, open_decision
from app.core.errors import EXIT_USAGE, NotAWorkspace, UsageError, WorkspaceLocked
from app.core.run.loop import Harness
from app.core.settings import LimitError, Limits
from app.core.undo.undo import undo_round
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

TWO_TASKS = "# Plan\n\n- [ ] Write a.md\n  - Done when: a.md exists\n- [ ] Write b.md\n"
WITH_DECISION = ("# Plan\n\n- [x] Draft\n- [ ] HUMAN: Speed or trust?\n  - Option: speed\n"
                 "  - Option: trust\n- [ ] Rewrite the page\n- [ ] HUMAN: Which photo?\n")


# -- limits --------------------------------------------------------------------------------

def test_overrides_replace_only_the_limits_given_and_none_leaves_a_limit_alone():
    base = Limits(max_steps=10, budget_usd=2.0)
    changed = base.with_overrides(max_steps=4, max_rounds=None, budget_usd=None, stall_limit=5)
    assert (changed.max_steps, changed.stall_limit) == (4, 5)
    assert (changed.max_rounds, changed.budget_usd) == (base.max_rounds, 2.0)
    assert base.max_steps == 10, "the original limits are left as they were"


@pytest.mark.parametrize("field, value, words", [
    ("max_steps", 1000, "Steps per round must be at most 500."),
    ("max_rounds", 0, "Rounds per run must be at least 1."),
    ("stall_limit", 1.5, "Rounds without progress must be a whole number."),
    ("budget_usd", -1, "The budget in US dollars must be at least 0."),
    ("budget_usd", "lots", "The budget in US dollars must be a number."),
    ("round_seconds", 0, "Seconds per round must be more than 0."),
])
def test_a_bad_limit_is_refused_with_a_sentence_naming_it(field, value, words):
    with pytest.raises(LimitError) as caught:
        Limits().with_overrides(**{field: value})
    err = caught.value
    assert isinstance(err, UsageError) and err.exit_code == EXIT_USAGE
    assert err.field == field
    assert err.message == words
    assert err.reason and "\n" not in err.reason  # the bare rule the CLI puts after a flag


def test_a_name_that_is_no_limit_is_a_programming_error_not_a_sentence():
    with pytest.raises(TypeError, match="max_stepz"):
        Limits().with_overrides(max_stepz=3)


# -- decisions -----------------------------------------------------------------------------

def test_open_decision_is_the_first_unchecked_human_task(tmp_path):
    ws = board_workspace(tmp_path, WITH_DECISION)
    task = open_decision(ws.root)
    assert task is not None and task.question == "Speed or trust?"
    assert task.options == ["speed", "trust"]


def test_open_decision_is_none_when_nothing_waits_for_the_person(tmp_path):
    ws = board_workspace(tmp_path, TWO_TASKS)
    assert open_decision(ws.root) is None


def test_decide_checks_the_decision_and_writes_the_answer_under_it(tmp_path):
    ws = board_workspace(tmp_path, WITH_DECISION)
    decided = decide(ws.root, "  trust,\n  with   the story ")
    assert decided == Decided(question="Speed or trust?", answer="trust, with the story")
    board = Board.load(ws.board_path)
    first = next(t for t in board.tasks if t.is_human)
    assert first.checked and first.answer == "trust, with the story"
    # The next open decision is the later one, untouched.
    assert open_decision(ws.root).question == "Which photo?"
    text = ws.board_path.read_text(encoding="utf-8")
    assert text.count("Answer:") == 1 and "- [ ] Rewrite the page" in text


def test_decide_can_answer_the_decision_the_window_showed_not_just_the_first(tmp_path):
    ws = board_workspace(tmp_path, WITH_DECISION)
    decided = decide(ws.root, "the storefront", task_text="HUMAN: Which photo?")
    assert decided == Decided(question="Which photo?", answer="the storefront")
    assert open_decision(ws.root).question == "Speed or trust?"  # still open
    with pytest.raises(UsageError, match="no longer on the board"):
        decide(ws.root, "x", task_text="HUMAN: A question someone deleted")
    with pytest.raises(UsageError, match="no longer on the board"):
        decide(ws.root, "x", task_text="Rewrite the page")  # a task, not a decision


def test_decide_with_no_open_decision_says_so_and_changes_nothing(tmp_path):
    ws = board_workspace(tmp_path, TWO_TASKS)
    before = ws.board_path.read_bytes()
    with pytest.raises(UsageError, match="no open decision"):
        decide(ws.root, "trust")
    assert ws.board_path.read_bytes() == before


def test_an_empty_answer_is_refused_and_the_board_is_unchanged(tmp_path):
    ws = board_workspace(tmp_path, WITH_DECISION)
    before = ws.board_path.read_bytes()
    with pytest.raises(EmptyAnswer) as caught:
        decide(ws.root, " \n\t ")
    assert caught.value.message.endswith(".") and "--" not in caught.value.message
    assert ws.board_path.read_bytes() == before


def test_decide_on_a_folder_that_is_not_a_workspace_is_one_sentence(tmp_path):
    with pytest.raises(NotAWorkspace, match="does not exist"):
        decide(tmp_path / "missing", "trust")
    (tmp_path / "empty").mkdir()
    with pytest.raises(NotAWorkspace, match=r"TASKS\.md"):
        open_decision(tmp_path / "empty")


# -- undo by round number ------------------------------------------------------------------

def _run(ws, script):
    engine = ScriptedEngine(script, then=call("give_up", reason="-", findings="-"))
    return Harness(ws, engine, fast_limits(stall_limit=1)).run()


def _two_runs(tmp_path):
    """Run 1: round 1 writes a.md and completes its task, round 2 asks a decision.
    Run 2 stops at once on that open decision, so it has no rounds at all."""
    ws = board_workspace(tmp_path, TWO_TASKS)
    first = _run(ws, [call("write_file", path="a.md", content="A"),
                      call("complete_task", summary="wrote a", evidence=["a.md"]),
                      call("ask_human", question="Speed or trust?", options=["speed", "trust"],
                           evidence=["a.md"])])
    second = _run(ws, [])
    assert (first.state, second.state) == ("blocked_by_human", "blocked_by_human")
    assert first.run_id != second.run_id and ws.run_ids()[-1] == second.run_id
    return ws, first.run_id, second.run_id


def test_undo_uses_the_latest_run_that_has_the_round(tmp_path):
    ws, first, _ = _two_runs(tmp_path)
    report = undo_round(ws.root, 1)
    assert report.run_id == first and report.round == 1
    assert report.removed == ["a.md"] and not (ws.root / "a.md").exists()
    assert report.restored == [] and report.kept_both == [] and report.failed == []
    # Undo puts files back; the task it completed stays checked, and the report says which.
    assert report.task_kept_checked == "Write a.md"
    assert Board.load(ws.board_path).tasks[0].checked


def test_undo_of_a_named_run_without_that_round_says_so(tmp_path):
    ws, _, second = _two_runs(tmp_path)
    with pytest.raises(UsageError, match=f"Round 1 of run {second} changed no files"):
        undo_round(ws.root, 1, second)
    with pytest.raises(UsageError, match="no run 'nope'"):
        undo_round(ws.root, 1, "nope")
    with pytest.raises(UsageError, match="Round 9 of any run"):
        undo_round(ws.root, 9)
    assert (ws.root / "a.md").exists(), "nothing was undone"


def test_undo_in_a_folder_without_runs_says_there_is_none_yet(tmp_path):
    ws = board_workspace(tmp_path, TWO_TASKS)
    with pytest.raises(UsageError, match="no run to undo"):
        undo_round(ws.root, 1)


def test_undo_is_refused_while_a_run_holds_the_folder(tmp_path):
    ws, _, _ = _two_runs(tmp_path)
    with ws.lock():
        with pytest.raises(WorkspaceLocked):
            undo_round(ws.root, 1)
    assert (ws.root / "a.md").exists()


def test_a_round_number_is_required_not_a_record_path(tmp_path):
    ws, first, _ = _two_runs(tmp_path)
    with pytest.raises(TypeError, match="undo_manifest"):
        undo_round(ws.root, ws.harness_dir, ws.run_dir(first) / "undo" / "1.json")


def test_the_report_names_restored_kept_both_and_failed_files(tmp_path):
    ws = board_workspace(tmp_path, TWO_TASKS, {"notes.md": "mine\n", "plan.md": "plan v1\n",
                                               "old.md": "old\n"})
    result = _run(ws, [call("write_file", path="notes.md", content="AI notes\n"),
                       call("write_file", path="plan.md", content="plan v2\n"),
                       call("write_file", path="old.md", content="changed\n"),
                       call("write_file", path="a.md", content="A"),
                       call("complete_task", summary="a", evidence=["a.md"])])
    assert result.state in ("done", "blocked_by_human", "stopped")
    (ws.root / "notes.md").write_text("edited by me after the round\n", encoding="utf-8")
    # The saved copy of old.md's earlier version is lost (a damaged or deleted blob).
    blob = next(p for p in (ws.harness_dir / "blobs").iterdir()
                if p.read_bytes() == b"old\n")
    os.remove(blob)

    report = undo_round(ws.root, 1)
    assert report.run_id == result.run_id and report.round == 1
    assert report.restored == ["plan.md"]
    assert (ws.root / "plan.md").read_text(encoding="utf-8") == "plan v1\n"
    assert report.removed == ["a.md"]
    assert report.kept_both == [("notes.md", "notes (before round 1).md")]
    assert (ws.root / "notes.md").read_text(encoding="utf-8") == "edited by me after the round\n"
    assert (ws.root / "notes (before round 1).md").read_text(encoding="utf-8") == "mine\n"
    assert report.failed == ["old.md"]
    why = next(m for m in report.messages if "old.md" in m)
    assert why.startswith("Could not restore old.md") and why.endswith(".")
    assert (ws.root / "old.md").read_text(encoding="utf-8") == "changed\n"
    assert "1 restored" in report.summary() and "Could not restore old.md" in report.summary()


def test_undo_says_a_later_rounds_version_was_kept_not_the_persons(tmp_path):
    # Issue 16, point 5: round 2 rewrote plan.md after round 1; undoing round 1 keeps round
    # 2's text, and must not call it "your version".
    ws = board_workspace(tmp_path, TWO_TASKS, {"plan.md": "plan v1\n"})
    result = _run(ws, [call("write_file", path="plan.md", content="plan v2\n"),
                       call("complete_task", summary="a", evidence=["plan.md"]),
                       call("write_file", path="plan.md", content="plan v3\n"),
                       call("complete_task", summary="b", evidence=["plan.md"])])
    assert result.state == "done"
    report = undo_round(ws.root, 1)
    assert report.kept_both == [("plan.md", "plan (before round 1).md")]
    assert report.kept_by_round == {"plan.md": 2}
    assert (ws.root / "plan.md").read_text(encoding="utf-8") == "plan v3\n"
    [sentence] = [m for m in report.messages if m.startswith("plan.md")]
    assert "round 2" in sentence and "your version" not in sentence, sentence

    # The person's own edit after the rounds is still called theirs.
    (ws.root / "plan.md").write_text("mine\n", encoding="utf-8")
    report = undo_round(ws.root, 2)
    assert report.kept_by_round == {}
    assert any("your version" in m for m in report.messages), report.messages
