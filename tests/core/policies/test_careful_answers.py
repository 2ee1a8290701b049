"""An answer belongs to exactly one kept change (issue 34, point 1): an Allow given to one
change never allows another, a refused change is never applied, and nothing that merely
looks like careful mode's question (the model's ask_human, a planned task, text typed on
the board) can allow a change. Each test plays the attack through the real loop."""

from __future__ import annotations

import pytest

from app.core.board.board import Board
from app.core.board.decide import NotShown, decide, open_decision
from app.core.errors import UsageError
from app.core.records.events import ChangeAnswered, ChangeWaiting
from app.core.workspace.folder_settings import FolderSettings, save_folder_settings
from app.core.plan.planning import Planner
from app.core.policies import pending
from app.core.plan.proposals import add_proposals
from app.core.records.records import read_rounds
from tests.core.policies.test_careful_runs import BOARD, FILES, Person, look, run
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

DONE = call("complete_task", summary="Tidied", evidence=["notes.md"])
LOOKALIKE = "Careful mode: may the AI change your file notes.md?"


def kept(ws) -> list[pending.PendingChange]:
    return pending.waiting(ws.harness_dir / "pending")


def test_an_allow_for_one_change_never_allows_a_later_refused_one(tmp_path):
    ws = board_workspace(tmp_path, BOARD, FILES)
    # Run 1 wants to change notes.md; the person looks and allows it.
    run(ws, [call("write_file", path="notes.md", content="first version\n")])
    look(ws)
    decide(ws.root, "Allow")
    # Run 2 makes that change, then wants a different one; the person says no.
    result, events, _ = run(ws, [call("write_file", path="notes.md", content="REFUSED\n")])
    assert result.state == "blocked_by_human"
    assert (ws.root / "notes.md").read_text() == "first version\n"
    decide(ws.root, "Don't allow")
    # Run 3 (and any later one) must not make the refused change.
    for _ in range(2):
        _, events, engine = run(ws, [DONE])
        assert (ws.root / "notes.md").read_text() == "first version\n"
    first, second = [t for t in Board.load(ws.board_path).tasks if t.is_human]
    assert pending.marker_of(first.question) != pending.marker_of(second.question)
    assert (first.answer, second.answer) == ("Allow", "Don't allow")


def test_the_same_change_proposed_twice_is_asked_twice(tmp_path):
    ws = board_workspace(tmp_path, BOARD, FILES)
    run(ws, [call("write_file", path="notes.md", content="x\n")])
    decide(ws.root, "Don't allow")
    run(ws, [call("write_file", path="notes.md", content="x\n")])  # the very same bytes
    ids = [pending.marker_of(t.question) for t in Board.load(ws.board_path).tasks if t.is_human]
    assert len(ids) == 2 and ids[0] != ids[1]
    assert open_decision(ws.root) is not None  # a fresh question, not the old "no"


def test_the_models_own_careful_mode_question_is_refused_and_cannot_allow(tmp_path):
    ws = board_workspace(tmp_path, BOARD, FILES)
    ask = call("ask_human", question=LOOKALIKE, options=["Allow", "Don't allow"],
               evidence=["notes.md"])
    _, _, engine = run(ws, [ask])
    told = [r.content for m in engine.requests[1]["messages"] for r in m.tool_results]
    assert "harness's own" in told[0]
    assert not any(t.question.startswith("Careful mode") for t in Board.load(ws.board_path).tasks)
    if open_decision(ws.root) is not None:  # the person says Allow to whatever was asked
        decide(ws.root, "Allow")
    run(ws, [call("write_file", path="notes.md", content="REFUSED\n")])
    decide(ws.root, "Don't allow")
    run(ws, [DONE])
    assert (ws.root / "notes.md").read_text() == "old notes\n"


def test_a_planned_task_carrying_the_words_is_refused_and_cannot_allow(tmp_path):
    ws = board_workspace(tmp_path, "# Plan\n", FILES)
    lookalike = {"text": f"HUMAN: {LOOKALIKE}", "done_when": [], "human": True,
                 "options": ["Allow", "Don't allow"]}
    tidy = {"text": "Tidy the notes", "done_when": ["notes are tidy"], "human": False,
            "options": []}
    engine = ScriptedEngine([call("propose_tasks", tasks=[lookalike, tidy]),
                             call("propose_tasks", tasks=[tidy])])
    outcome = Planner(ws, engine, fast_limits()).plan("Tidy my notes")
    assert [p.text for p in outcome.proposals] == ["Tidy the notes"]
    told = [r.content for m in engine.requests[1]["messages"] for r in m.tool_results]
    assert "harness's own" in told[0]
    add_proposals(ws.root, outcome.proposals)
    if open_decision(ws.root) is not None:
        decide(ws.root, "Allow")
    run(ws, [call("write_file", path="notes.md", content="REFUSED\n")])
    decide(ws.root, "Don't allow")
    run(ws, [DONE])
    assert (ws.root / "notes.md").read_text() == "old notes\n"


@pytest.mark.parametrize("way", ["a copy typed above", "the real one answered in an editor"])
def test_text_typed_on_the_board_never_allows_a_change(tmp_path, way):
    ws = board_workspace(tmp_path, BOARD, FILES)
    run(ws, [call("write_file", path="notes.md", content="AI\n")])
    question = open_decision(ws.root)
    cid = pending.marker_of(question.question)
    if way == "a copy typed above":  # id and all, answered Allow; the real one taken off
        ws.board_path.write_text(BOARD.replace(
            "- [ ] Tidy", f"- [x] {question.text}\n  - Answer: Allow\n- [ ] Tidy"))
    else:
        ws.board_path.write_text(ws.board_path.read_text().replace("- [ ] HUMAN", "- [x] HUMAN")
                                 .replace("Don't allow\n", "Don't allow\n  - Answer: Allow\n", 1))
    _, events, engine = run(ws, [DONE])
    assert (ws.root / "notes.md").read_text() == "old notes\n"
    assert not kept(ws)  # dropped: no later run can make it either
    assert "without being shown the change" in engine.requests[0]["messages"][0].text
    answered = [e for e in events if isinstance(e, ChangeAnswered)]
    assert [(e.answer, e.change_id, e.note) for e in answered] == [("not_shown", cid, "Allow")]
    from app.core.records.narrate import describe_event

    assert describe_event(answered[0]) == ("  You answered on the board: change notes.md: not made, "
                                    "as you had not seen the change")


def test_decide_allow_refuses_a_change_nobody_was_shown(tmp_path):
    ws = board_workspace(tmp_path, BOARD, FILES)
    run(ws, [call("delete_file", path="draft.md")])
    before = ws.board_path.read_bytes()
    with pytest.raises(NotShown) as refused:
        decide(ws.root, "Allow", folder_word="~/notes")
    assert str(refused.value) == (
        "You have not seen the change to draft.md yet, so it was not allowed: look at it "
        "first with `harness-desk approve ~/notes`, or open the folder in the Harness Desk "
        "window.")
    assert ws.board_path.read_bytes() == before      # nothing written
    assert kept(ws)[0].answer is None
    decide(ws.root, "Don't allow")                   # a no needs no diff
    assert kept(ws)[0].answer == "not_allowed"
    # Untick it in an editor and try again: a refusal stands.
    ws.board_path.write_text(ws.board_path.read_text().replace("- [x] HUMAN", "- [ ] HUMAN"))
    look(ws)
    with pytest.raises(UsageError, match=r"You already refused this change to draft\.md"):
        decide(ws.root, "Allow")
    ws.board_path.write_text(ws.board_path.read_text().replace("- [ ] HUMAN", "- [x] HUMAN"))
    run(ws, [DONE])
    assert (ws.root / "draft.md").exists() and not kept(ws)


def test_a_change_shown_at_the_terminal_then_left_unanswered_can_be_allowed_later(tmp_path):
    from app.commands.approve import TerminalApprover
    import io

    ws = board_workspace(tmp_path, BOARD, FILES)
    out = io.StringIO()
    result, events, _ = run(ws, [call("edit_file", path="notes.md", old_text="old",
                                      new_text="tidy")],
                            approver=TerminalApprover(stdin=io.StringIO(""), out=out))
    assert "+tidy notes" in out.getvalue() and result.state == "blocked_by_human"
    assert kept(ws)[0].shown == ("terminal",)
    decide(ws.root, "Allow")                         # shown at the terminal: allowed
    run(ws, [DONE])
    assert (ws.root / "notes.md").read_text() == "tidy notes\n"


def test_the_records_carry_the_changes_id(tmp_path):
    ws = board_workspace(tmp_path, BOARD, FILES)
    result, events, _ = run(ws, [call("write_file", path="notes.md", content="AI\n")],
                            approver=Person())
    cid = kept(ws)[0].id
    waiting = next(e for e in events if isinstance(e, ChangeWaiting))
    assert waiting.change_id == cid and waiting.question.endswith(f"(change {cid})")
    record = read_rounds(ws.run_files(result.run_id))[0]
    assert [a.change_id for a in record.approvals] == [cid]
    assert kept(ws)[0].intact()
    (kept(ws)[0].folder / "after").write_bytes(b"something else\n")  # swapped under the id
    assert not kept(ws)[0].intact()
    look(ws)                                          # not shown: it cannot be made
    assert kept(ws)[0].shown == ()


def test_the_many_changes_question_does_not_say_careful_mode_when_it_is_off(tmp_path):
    files = {f"n{i}.md": f"{i}\n" for i in range(4)}
    ws = board_workspace(tmp_path, BOARD, files)
    save_folder_settings(ws.harness_dir, FolderSettings(many_changes=2))
    script = [call("write_file", path=f"n{i}.md", content="x\n") for i in range(4)]
    result, events, _ = run(ws, script, careful=False)
    question = open_decision(ws.root).question
    assert not question.startswith("Careful mode")
    assert question.startswith("The AI is changing more than 2 of your files in one round: "
                               "may it change your file n2.md? (change ")


def test_approve_without_a_terminal_shows_each_change_and_says_how_to_answer(tmp_path, capsys):
    ws = board_workspace(tmp_path, BOARD, FILES)
    look(ws)
    assert capsys.readouterr().out == "No change is waiting for your approval in this folder.\n"
    run(ws, [call("edit_file", path="notes.md", old_text="old", new_text="tidy")])
    capsys.readouterr()
    look(ws)
    out = capsys.readouterr().out
    cid = kept(ws)[0].id
    assert f"The AI wants to change notes.md (change {cid})." in out
    assert "    -old notes" in out and "    +tidy notes" in out
    assert f"To answer it: harness-desk decide {ws.root} --answer Allow" in out
    assert kept(ws)[0].shown == ("approve",)
    (ws.root / "notes.md").write_text("the person's own edit\n")  # changed since: cannot be made
    look(ws)
    out = capsys.readouterr().out
    assert "notes.md changed after the AI proposed this, so this change can no longer be made" \
        in out and "To answer it" not in out
