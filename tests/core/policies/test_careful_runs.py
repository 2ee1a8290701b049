"""Careful mode through the loop: asking, waiting, the board question, and what the model hears."""

from __future__ import annotations

import threading
import time

from app.core.board.board import Board
from app.core.board.decide import decide
from app.core.records.events import (ChangeAnswered, ChangeAsked, ChangeRefused, ChangeWaiting,
                             HumanNeeded)
from app.core.workspace.folder_settings import FolderSettings, save_folder_settings
from app.core.run.loop import Harness
from app.core.policies.approver import Answer
from app.core.records.records import read_rounds
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

BOARD = "# Plan\n\n- [ ] Tidy the notes\n  - Done when: notes are tidy\n"
FILES = {"notes.md": "old notes\n", "draft.md": "my draft\n"}


class Person:
    """Answers each question from a list, and remembers what it was shown."""

    def __init__(self, *answers, delay: float = 0.0):
        self.answers = list(answers)
        self.shown = []
        self.delay = delay

    def ask(self, request, cancel):
        self.shown.append(request)
        time.sleep(self.delay)
        return self.answers.pop(0) if self.answers else None


def run(ws, script, approver=None, careful=True, **limits):
    events = []
    engine = ScriptedEngine(script, then=call("give_up", reason="stuck", findings=""))
    result = Harness(ws, engine, fast_limits(**limits), listeners=[events.append],
                     careful=careful, approver=approver).run()
    return result, events, engine


def look(ws) -> None:
    """The person looks at the changes waiting for them: `harness-desk approve` (no terminal,
    so it shows each change's diff and says how to answer)."""
    from argparse import Namespace

    from app.commands.approve import cmd_approve

    assert cmd_approve(Namespace(path=str(ws.root))) == 0


def results(engine, request_no):
    """The tool results the model was sent in request `request_no` (1-based)."""
    return [r.content for m in engine.requests[request_no - 1]["messages"] for r in m.tool_results]


def test_careful_run_asks_for_existing_files_and_not_for_new_ones(tmp_path):
    ws = board_workspace(tmp_path, BOARD, FILES)
    person = Person(Answer("allow"), Answer("deny"))
    script = [call("write_file", path="summary.md", content="new file\n"),
              call("edit_file", path="notes.md", old_text="old", new_text="tidy"),
              call("delete_file", path="draft.md"),
              call("write_file", path="summary.md", content="new file, again\n"),
              call("complete_task", summary="Tidied", evidence=["notes.md"])]
    result, events, engine = run(ws, script, person)
    assert result.state == "done"
    assert [(r.path, r.action) for r in person.shown] == [("notes.md", "change"),
                                                          ("draft.md", "delete")]
    assert person.shown[0].before == b"old notes\n" and person.shown[0].after == b"tidy notes\n"
    assert (ws.root / "notes.md").read_text() == "tidy notes\n"
    assert (ws.root / "draft.md").read_text() == "my draft\n"       # not allowed: still there
    assert (ws.root / "summary.md").read_text() == "new file, again\n"  # created: free
    told = results(engine, 4)[-1]
    assert "did not allow you to delete 'draft.md'" in told and "new file" in told
    answers = [(e.path, e.answer) for e in events if isinstance(e, ChangeAnswered)]
    assert answers == [("notes.md", "allowed"), ("draft.md", "not_allowed")]
    assert sum(isinstance(e, ChangeAsked) for e in events) == 2
    record = read_rounds(ws.run_files(result.run_id))[0]
    assert [(a.path, a.answer) for a in record.approvals] == [("notes.md", "allowed"),
                                                              ("draft.md", "not_allowed")]
    tools = {r["tools"] for r in engine.requests}
    assert len(tools) == 1  # the tool list is byte-identical whatever was answered


def test_edit_before_allowing_writes_the_persons_text_and_tells_the_model(tmp_path):
    ws = board_workspace(tmp_path, BOARD, FILES)
    person = Person(Answer("edit", "notes, tidied by me\n"))
    script = [call("write_file", path="notes.md", content="AI notes\n"),
              call("complete_task", summary="Tidied", evidence=["notes.md"])]
    result, events, engine = run(ws, script, person)
    assert person.shown[0].editable
    assert (ws.root / "notes.md").read_text() == "notes, tidied by me\n"
    assert "edited your change before allowing it" in results(engine, 2)[0]
    assert [e.answer for e in events if isinstance(e, ChangeAnswered)] == ["edited"]


def test_allow_all_for_this_task_asks_once(tmp_path):
    ws = board_workspace(tmp_path, BOARD, FILES)
    person = Person(Answer("allow_task"))
    script = [call("write_file", path="notes.md", content="1\n"),
              call("write_file", path="draft.md", content="2\n"),
              call("delete_file", path="notes.md"),
              call("complete_task", summary="Tidied", evidence=["draft.md"])]
    result, events, _ = run(ws, script, person)
    assert len(person.shown) == 1 and result.state == "done"
    assert not (ws.root / "notes.md").exists() and (ws.root / "draft.md").read_text() == "2\n"


def test_no_answer_keeps_the_change_and_puts_the_question_on_the_board(tmp_path):
    ws = board_workspace(tmp_path, BOARD, FILES)
    script = [call("edit_file", path="notes.md", old_text="old", new_text="tidy")]
    result, events, _ = run(ws, script, approver=None)
    assert (result.state, result.exit_reason) == ("blocked_by_human", "human_decision_needed")
    assert (ws.root / "notes.md").read_text() == "old notes\n"      # never applied
    assert not any(isinstance(e, ChangeAnswered) for e in events)    # not taken as yes or no
    waiting = [e for e in events if isinstance(e, ChangeWaiting)]
    assert waiting and waiting[0].path == "notes.md"
    human = next(e for e in events if isinstance(e, HumanNeeded))
    assert human.reason == "approval" and human.options == ["Allow", "Don't allow"]
    task = Board.load(ws.board_path).next_task()
    assert task.is_human and "notes.md" in task.question
    kept = list((ws.harness_dir / "pending").iterdir())
    assert len(kept) == 1 and (kept[0] / "after").read_bytes() == b"tidy notes\n"
    assert task.question.endswith(f"(change {kept[0].name})") and waiting[0].change_id == \
        kept[0].name

    look(ws)
    decide(ws.root, "Allow")
    script = [call("complete_task", summary="Tidied", evidence=["notes.md"])]
    result, events, engine = run(ws, script, approver=None)
    assert result.state == "done"
    assert (ws.root / "notes.md").read_text() == "tidy notes\n"      # exactly what was shown
    report = engine.requests[0]["messages"][0].text
    assert "allowed your earlier change: 'notes.md'" in report
    assert [(e.answer, e.on_board) for e in events if isinstance(e, ChangeAnswered)] == \
        [("allowed", True)]
    assert not any((ws.harness_dir / "pending").iterdir())
    record = read_rounds(ws.run_files(result.run_id))[0]
    assert "notes.md" in record.changed_artifacts  # undo of this round takes it back


def test_a_change_refused_on_the_board_is_not_made_and_the_model_hears_why(tmp_path):
    ws = board_workspace(tmp_path, BOARD, FILES)
    run(ws, [call("delete_file", path="draft.md")], approver=None)
    decide(ws.root, "Don't allow — I still need it")
    result, events, engine = run(ws, [call("complete_task", summary="ok",
                                           evidence=["notes.md"])])
    assert (ws.root / "draft.md").exists()
    report = engine.requests[0]["messages"][0].text
    assert "did not allow you to delete 'draft.md'" in report and "I still need it" in report


def test_a_file_changed_while_the_question_waited_is_not_overwritten(tmp_path):
    ws = board_workspace(tmp_path, BOARD, FILES)
    run(ws, [call("write_file", path="notes.md", content="AI\n")], approver=None)
    look(ws)
    (ws.root / "notes.md").write_text("the person's newer notes\n")
    decide(ws.root, "Allow")
    _, _, engine = run(ws, [call("complete_task", summary="ok", evidence=["notes.md"])])
    assert (ws.root / "notes.md").read_text() == "the person's newer notes\n"
    assert "the file changed after it was shown" in engine.requests[0]["messages"][0].text


def test_a_question_taken_off_the_board_is_neither_yes_nor_no(tmp_path):
    ws = board_workspace(tmp_path, BOARD, FILES)
    run(ws, [call("write_file", path="notes.md", content="AI\n")], approver=None)
    ws.board_path.write_text(BOARD)   # the person deleted the question
    _, events, engine = run(ws, [call("complete_task", summary="ok", evidence=["notes.md"])])
    assert (ws.root / "notes.md").read_text() == "old notes\n"
    assert not any(isinstance(e, ChangeAnswered) for e in events)
    assert "without an answer" in engine.requests[0]["messages"][0].text


def test_stop_while_the_person_decides_is_no_answer(tmp_path):
    ws = board_workspace(tmp_path, BOARD, FILES)
    cancel = threading.Event()

    class Waits:
        def ask(self, request, cancel):
            cancel.wait(10)
            return None

    threading.Timer(0.3, cancel.set).start()
    engine = ScriptedEngine([call("write_file", path="notes.md", content="AI\n")])
    result = Harness(ws, engine, fast_limits(), cancel=cancel, careful=True,
                     approver=Waits()).run()
    assert result.state == "blocked_by_human"
    assert (ws.root / "notes.md").read_text() == "old notes\n"
    assert Board.load(ws.board_path).next_task().is_human


def test_the_round_clock_does_not_run_while_the_person_decides(tmp_path):
    ws = board_workspace(tmp_path, BOARD, FILES)
    person = Person(Answer("allow"), delay=1.2)
    script = [call("write_file", path="notes.md", content="AI\n"),
              call("complete_task", summary="ok", evidence=["notes.md"])]
    result, events, _ = run(ws, script, person, round_seconds=0.6)
    assert result.state == "done", result.message
    assert (ws.root / "notes.md").read_text() == "AI\n"


def test_a_protected_folder_is_refused_in_any_mode(tmp_path):
    for careful in (False, True):
        (tmp_path / str(careful)).mkdir()
        ws = board_workspace(tmp_path / str(careful), BOARD,
                             {**FILES, "private/diary.md": "dear diary\n"})
        save_folder_settings(ws.harness_dir, FolderSettings(protected=["private"]))
        person = Person(Answer("allow"))
        script = [call("write_file", path="private/diary.md", content="x"),
                  call("write_file", path="private/new.md", content="x"),
                  call("complete_task", summary="ok", evidence=["notes.md"])]
        result, events, engine = run(ws, script, person, careful=careful)
        assert (ws.root / "private/diary.md").read_text() == "dear diary\n"
        assert not (ws.root / "private/new.md").exists()
        assert person.shown == []  # refused, never asked
        refused = [e for e in events if isinstance(e, ChangeRefused)]
        assert [e.path for e in refused] == ["private/diary.md", "private/new.md"]
        assert "never to be changed" in results(engine, 2)[0]


def test_many_changes_at_once_ask_once_without_careful_mode(tmp_path):
    files = {f"n{i}.md": f"{i}\n" for i in range(4)}
    ws = board_workspace(tmp_path, BOARD, files)
    save_folder_settings(ws.harness_dir, FolderSettings(many_changes=2))
    person = Person(Answer("allow"))
    script = [call("write_file", path=f"n{i}.md", content="x\n") for i in range(4)]
    script.append(call("complete_task", summary="ok", evidence=["n0.md"]))
    result, events, _ = run(ws, script, person, careful=False)
    assert result.state == "done"
    assert [r.path for r in person.shown] == ["n2.md"]
    assert person.shown[0].policies == ["many_changes_at_once"]
    assert all((ws.root / f"n{i}.md").read_text() == "x\n" for i in range(4))


def test_the_export_lists_what_the_person_allowed_and_refused(tmp_path):
    from app.export.markdown import render_markdown
    from app.export.summary import build_summary

    ws = board_workspace(tmp_path, BOARD, {**FILES, "private/x.md": "x\n"})
    save_folder_settings(ws.harness_dir, FolderSettings(protected=["private"]))
    script = [call("edit_file", path="notes.md", old_text="old", new_text="tidy"),
              call("delete_file", path="draft.md"),
              call("write_file", path="private/x.md", content="y"),
              call("complete_task", summary="Tidied", evidence=["notes.md"])]
    run(ws, script, Person(Answer("allow"), Answer("deny")))
    summary = build_summary(ws.root)
    assert [(a.path, a.answer) for a in summary.approvals] == [
        ("notes.md", "allowed"), ("draft.md", "not_allowed"), ("private/x.md", "refused")]
    text = render_markdown(summary)
    assert "## What you allowed and refused" in text
    assert "| 1 | `draft.md` | Delete | Not allowed |" in text
    assert "Refused: a protected file" in text


def test_a_question_left_past_the_rounds_time_limit_is_no_answer_and_no_timeout(tmp_path):
    ws = board_workspace(tmp_path, BOARD, FILES)
    cancel = threading.Event()

    class Away:
        def ask(self, request, cancel):
            cancel.wait(10)   # nobody answers, long past the round's 0.3 s
            return None

    threading.Timer(1.0, cancel.set).start()
    events = []
    engine = ScriptedEngine([call("edit_file", path="notes.md", old_text="old", new_text="x")])
    result = Harness(ws, engine, fast_limits(round_seconds=0.3), listeners=[events.append],
                     cancel=cancel, careful=True, approver=Away()).run()
    assert result.state == "blocked_by_human"
    record = read_rounds(ws.run_files(result.run_id))[0]
    assert record.result_state == "needs_human"          # not "timeout"
    assert [a.answer for a in record.approvals] == ["waiting"]
    assert not any(isinstance(e, ChangeAnswered) for e in events)  # neither yes nor no
    assert (ws.root / "notes.md").read_text() == "old notes\n"
