"""End-to-end: the CLI of docs/cli.md run as a subprocess on a copy of the demo workspace.

Covers issue 2's flow (init, run, status, decide, run, undo, watch), plain one-sentence errors
with the §9 exit codes, the limit flags, damaged records and settings (RELIABILITY case 10),
speed, and what the light commands import.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.core.board.board import Board
from app.core.records.events import HumanNeeded, RunFinished, RunStarted, parse_event
from app.core.records.narrate import describe_event

from .conftest import (BLOCKED, DEMO_WORKSPACE, DONE, STOPPED, USAGE, Cli, Result,
                       assert_plain_error, finish, jsonl, run_dirs,
                       snapshot, status_file, wait_for_round)

QUESTION_START = "Should the homepage lead with speed"
STATUS_KEYS = {"run_id", "state", "current_task", "round", "completed_tasks", "total_tasks",
               "last_event", "exit_reason", "message", "started_at", "updated_at", "engine",
               "model", "usage", "cost_usd"}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def event_lines(out: str) -> list[str]:
    """The run's per-event lines: everything up to and including the "Run ended" line."""
    lines = out.splitlines()
    end = next(i for i, ln in enumerate(lines) if ln.startswith("Run ended"))
    return lines[: end + 1]


@pytest.fixture
def blocked(cli: Cli, demo_ws: Path) -> tuple[Path, Result]:
    """The demo workspace after its first run, stopped at the demo's decision."""
    res = cli("run", demo_ws, "--engine", "demo")
    assert res.code == BLOCKED, res
    return demo_ws, res


# -- 1. the flow ---------------------------------------------------------------------

def test_init_creates_a_board_and_the_harness_folder_in_a_new_folder(cli, tmp_path):
    folder = tmp_path / "my folder" / "nested"
    res = cli("init", folder)
    assert res.code == 0, res
    assert "Traceback" not in res.err and res.err == "", res
    board = Board.load(folder / "TASKS.md")
    assert board.tasks and not any(t.checked for t in board.tasks)
    assert (folder / ".harness").is_dir()
    assert "TASKS.md" in res.out
    # The new folder is a workspace: status answers about it.
    st = cli("status", folder)
    assert st.code == 0 and "No run yet" in st.out, st


def test_init_leaves_an_existing_board_byte_identical(cli, tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    original = ("\ufeff# Mine\r\n\r\nMy own notes.\r\n\r\n* [X] done thing\r\n"
                "+ [ ] 做点什么\r\n\t- odd detail\r\n").encode("utf-8")
    (folder / "TASKS.md").write_bytes(original)
    res = cli("init", folder)
    assert res.code == 0, res
    assert (folder / "TASKS.md").read_bytes() == original
    assert (folder / ".harness").is_dir()
    assert "already exists" in res.out
    # A second init on the same folder is also harmless.
    assert cli("init", folder).code == 0
    assert (folder / "TASKS.md").read_bytes() == original


def test_run_prints_one_line_per_event_and_exits_3_at_the_demo_decision(cli, demo_ws):
    before = (demo_ws / "TASKS.md").read_bytes()
    res = cli("run", demo_ws, "--engine", "demo")
    assert res.code == BLOCKED, res
    assert "Traceback" not in res.err
    (run,) = run_dirs(demo_ws)
    events = [parse_event(e) for e in jsonl(run / "events.jsonl")]
    lines = event_lines(res.out)
    # One line per recorded event; the live view's own kinds (step_started...) print none.
    assert lines == [line for line in map(describe_event, events) if line is not None]
    assert {"step_started", "tasks_counted"} <= {e.type for e in events}
    assert isinstance(events[0], RunStarted) and isinstance(events[-1], RunFinished)
    assert lines[0].startswith("Run started")
    assert any(isinstance(e, HumanNeeded) for e in events)
    # After the events, the decision is spelled out with the command that answers it.
    tail = res.out.split(lines[-1], 1)[1]
    assert QUESTION_START in tail and "speed" in tail and "trust" in tail
    assert "harness-desk decide" in tail
    # The board: two tasks checked and the decision inserted; nothing else changed.
    board = Board.load(demo_ws / "TASKS.md")
    assert board.counts() == (2, 6)
    nxt = board.next_task()
    assert nxt.is_human and nxt.question.startswith(QUESTION_START)
    assert nxt.options == ["speed", "trust"]
    diff = [op for op in difflib.SequenceMatcher(
        a=before.decode().splitlines(), b=board.to_bytes().decode().splitlines()).get_opcodes()
        if op[0] != "equal"]
    assert [op[0] for op in diff] == ["replace", "replace", "insert"], diff
    # Rounds were recorded, one line each.
    rounds = jsonl(run / "rounds.jsonl")
    assert [r["result_state"] for r in rounds] == ["completed", "completed", "needs_human"]


def test_status_json_is_the_status_object_of_the_contract(cli, blocked):
    ws, _ = blocked
    res = cli("status", ws, "--json")
    assert res.code == 0 and res.err == "", res
    status = json.loads(res.out)
    missing = STATUS_KEYS - set(status)
    assert not missing, missing
    assert status["state"] == "blocked_by_human"
    assert status["exit_reason"] == "human_decision_needed"
    assert status["completed_tasks"] == 2 and status["total_tasks"] == 6
    assert QUESTION_START in status["message"]
    assert status["engine"] == "demo"
    assert status["cost_usd"] == 0
    (run,) = run_dirs(ws)
    assert status["run_id"] == run.name
    run_json = json.loads((run / "run.json").read_text(encoding="utf-8"))
    assert run_json["state"] == "blocked_by_human"
    assert run_json["exit_reason"] == "human_decision_needed"
    # The file on disk is the same object.
    on_disk = status_file(ws)
    assert {k: on_disk[k] for k in STATUS_KEYS} == {k: status[k] for k in STATUS_KEYS}


def test_status_in_words_says_a_decision_is_waiting(cli, blocked):
    ws, _ = blocked
    res = cli("status", ws)
    assert res.code == 0 and res.err == "", res
    assert "decision" in res.out.lower()
    assert "2 of 6" in res.out
    assert "{" not in res.out.splitlines()[0]


def test_decide_checks_the_human_task_and_adds_the_answer_line(cli, blocked):
    ws, _ = blocked
    before = (ws / "TASKS.md").read_bytes().decode("utf-8").splitlines(keepends=True)
    res = cli("decide", ws, "--answer", "trust")
    assert res.code == 0, res
    assert "trust" in res.out
    after = (ws / "TASKS.md").read_bytes().decode("utf-8").splitlines(keepends=True)
    ops = [op for op in difflib.SequenceMatcher(a=before, b=after).get_opcodes()
           if op[0] != "equal"]
    human = next(i for i, ln in enumerate(before) if ln.startswith("- [ ] HUMAN:"))
    # Exactly: the HUMAN line checked, and one answer line at the end of its details.
    assert len(ops) == 2, ops
    assert after[human] == before[human].replace("- [ ]", "- [x]", 1)
    inserted = [after[j] for op in ops if op[0] == "insert" for j in range(op[3], op[4])]
    assert inserted == ["  - Answer: trust\n"]
    task = next(t for t in Board.load(ws / "TASKS.md").tasks if t.is_human)
    assert task.checked and task.answer == "trust"


def test_run_after_the_decision_finishes_with_0_and_every_task_checked(cli, blocked):
    ws, _ = blocked
    assert cli("decide", ws, "--answer", "trust").code == 0
    res = cli("run", ws, "--engine", "demo")
    assert res.code == DONE, res
    board = Board.load(ws / "TASKS.md")
    assert board.tasks and all(t.checked for t in board.tasks)
    assert board.next_task() is None
    status = status_file(ws)
    assert status["state"] == "done" and status["exit_reason"] == "all_tasks_done"
    assert status["completed_tasks"] == status["total_tasks"] == 6
    homepage = (ws / "drafts" / "homepage.md").read_text(encoding="utf-8")
    assert "Baked by hand" in homepage  # the 'trust' direction was followed
    # A run on a finished board is done at once.
    again = cli("run", ws, "--engine", "demo")
    assert again.code == DONE, again


def test_undo_round_5_restores_what_the_latest_runs_second_round_changed(cli, blocked):
    # The run after the decision numbers its rounds on from the first run's three: 4, 5, 6.
    ws, _ = blocked
    assert cli("decide", ws, "--answer", "trust").code == 0
    before_run = snapshot(ws)
    assert cli("run", ws, "--engine", "demo").code == DONE
    after_run = snapshot(ws)
    run_id = status_file(ws)["run_id"]
    manifest = json.loads((ws / ".harness" / "runs" / run_id / "undo" / "5.json")
                          .read_text(encoding="utf-8"))
    changed = manifest["files"]
    assert changed, manifest

    res = cli("undo", ws, "--round", "5")
    assert res.code == 0, res
    assert "round 5" in res.out.lower()
    now = snapshot(ws)
    for rel, entry in changed.items():
        if entry["before"] == "absent":
            assert rel not in now, f"{rel} was created by round 5 and should be gone"
            assert rel not in before_run
        else:
            assert now[rel] == before_run[rel], rel
            assert sha256(now[rel]) == entry["before"]
    # Nothing else moved: every other file is as the run left it.
    others = {k: v for k, v in after_run.items() if k not in changed}
    assert {k: v for k, v in now.items() if k not in changed} == others


def test_undo_round_4_puts_back_the_earlier_content_of_a_file_the_round_rewrote(cli, blocked):
    ws, _ = blocked
    assert cli("decide", ws, "--answer", "trust").code == 0
    options_before = (ws / "notes" / "homepage-options.md").read_bytes()
    assert cli("run", ws, "--engine", "demo").code == DONE
    assert (ws / "notes" / "homepage-options.md").read_bytes() != options_before
    res = cli("undo", ws, "--round", "4")  # the second run's first round
    assert res.code == 0, res
    assert (ws / "notes" / "homepage-options.md").read_bytes() == options_before


def test_undo_of_an_earlier_run_is_reachable_with_run_id(cli, blocked):
    ws, _ = blocked
    first_run = status_file(ws)["run_id"]
    assert cli("decide", ws, "--answer", "trust").code == 0
    assert cli("run", ws, "--engine", "demo").code == DONE
    assert (ws / "drafts" / "about-us.md").exists()
    res = cli("undo", ws, "--round", "2", "--run", first_run)
    assert res.code == 0, res
    assert not (ws / "drafts" / "about-us.md").exists()  # round 2 of the first run created it
    assert (ws / "drafts" / "homepage.md").exists()


def test_undo_without_run_id_picks_the_latest_run_even_when_runs_follow_within_a_second(
        cli, tmp_path):
    # The issue-2 flow as fast as it goes (in one process, well under a second per flow),
    # several times: run ids must sort in start order, so `undo --round 2` without --run
    # undoes the latest run's round 2 (it once picked the older run when two runs started
    # in the same second).
    code = r"""
import shutil, sys
from pathlib import Path
from app.cli import main
from app.core.workspace.workspace import Workspace
src, base = Path(sys.argv[1]), Path(sys.argv[2])
for i in range(4):
    ws = base / f"flow {i}"
    shutil.copytree(src, ws)
    assert main(["run", str(ws), "--engine", "demo"]) == 3
    assert main(["decide", str(ws), "--answer", "trust"]) == 0
    assert main(["run", str(ws), "--engine", "demo"]) == 0
    ids = Workspace(ws).run_ids()
    assert len(ids) == 2 and ids == sorted(ids), ids
    assert main(["undo", str(ws), "--round", "5"]) == 0
    # Round 5 (the latest run's second, numbered on after the decision) wrote
    # drafts/homepage.md; round 2 of the first run wrote drafts/about-us.md.
    assert not (ws / "drafts" / "homepage.md").exists(), ("latest run not undone", ids)
    assert (ws / "drafts" / "about-us.md").exists(), ("the OLDER run was undone", ids)
"""
    res = cli.python(code, DEMO_WORKSPACE, tmp_path, timeout=60)
    assert res.code == 0, res


def test_watch_follows_a_run_started_in_another_process_and_exits_with_its_code(
        cli, demo_ws, procs):
    run = cli.start("run", demo_ws, "--engine", "demo", "--demo-delay", "0.2")
    procs.append(run)
    wait_for_round(demo_ws, run, at_least=1, step=1)
    watch = cli("watch", demo_ws, timeout=60)
    ran = finish(run)
    assert ran.code == BLOCKED, ran
    assert watch.code == ran.code, watch
    assert "Traceback" not in watch.err, watch
    # watch shows the same stream: the run's event lines, in order, from its first event.
    assert event_lines(watch.out) == event_lines(ran.out), (watch.out, ran.out)


def test_watch_with_no_active_run_says_so_and_exits_0(cli, blocked, tmp_path):
    ws, _ = blocked
    res = cli("watch", ws, timeout=20)
    assert res.code == 0, res
    assert "no run is active" in res.out.lower()
    assert res.seconds < 10
    # And on a folder that never had a run.
    never = tmp_path / "never run"
    never.mkdir()
    fresh = cli("watch", never, timeout=20)
    assert fresh.code == 0 and "no run is active" in fresh.out.lower(), fresh


def test_undo_never_overwrites_a_file_the_person_changed_after_the_round(cli, blocked):
    ws, _ = blocked
    assert cli("decide", ws, "--answer", "trust").code == 0
    options_before = (ws / "notes" / "homepage-options.md").read_bytes()
    assert cli("run", ws, "--engine", "demo").code == DONE
    # Rosie edits a file round 4 rewrote and a file round 5 created (the second run's first
    # two rounds: numbered on after the decision).
    mine = (ws / "notes" / "homepage-options.md").read_bytes() + "Rosie: agreed.\n".encode()
    (ws / "notes" / "homepage-options.md").write_bytes(mine)
    homepage = (ws / "drafts" / "homepage.md").read_bytes() + "Rosie's line.\n".encode()
    (ws / "drafts" / "homepage.md").write_bytes(homepage)

    one = cli("undo", ws, "--round", "4")
    assert one.code == 0, one
    assert (ws / "notes" / "homepage-options.md").read_bytes() == mine
    saved = [p for p in (ws / "notes").iterdir() if "before round 4" in p.name]
    assert len(saved) == 1 and saved[0].read_bytes() == options_before, saved
    assert "homepage-options.md" in one.out

    two = cli("undo", ws, "--round", "5")
    assert two.code == 0, two
    assert (ws / "drafts" / "homepage.md").read_bytes() == homepage
    assert "Kept drafts/homepage.md" in two.out


def test_undo_summary_does_not_call_a_kept_file_already_as_before(cli, blocked):
    ws, _ = blocked
    assert cli("decide", ws, "--answer", "trust").code == 0
    assert cli("run", ws, "--engine", "demo").code == DONE
    with open(ws / "drafts" / "homepage.md", "ab") as fh:
        fh.write(b"Rosie's line.\n")
    res = cli("undo", ws, "--round", "5")
    assert res.code == 0, res
    assert "already as before" not in res.out, res


def test_watch_wait_follows_the_next_run_that_starts(cli, demo_ws, procs):
    (demo_ws / ".harness").mkdir()
    watch = cli.start("watch", demo_ws, "--wait")
    procs.append(watch)
    assert "Waiting for a run" in watch.stdout.readline()
    ran = cli("run", demo_ws, "--engine", "demo", "--demo-delay", "0.02")
    assert ran.code == BLOCKED, ran
    res = finish(watch, timeout=30)
    assert res.code == BLOCKED, res
    assert event_lines(res.out) == event_lines(ran.out)


def test_init_then_run_on_a_new_folder_shows_samples_and_ticks_nothing(cli, tmp_path):
    # Issue 35: on a person's own board the Demo engine never ticks a task. It shows how a
    # run looks, writes sample notes under demo-output/, and says so: exit 4 (stopped).
    folder = tmp_path / "my-folder"
    assert cli("init", folder).code == 0
    before = (folder / "TASKS.md").read_bytes()
    res = cli("run", folder, "--engine", "demo")
    assert res.code == 4, res
    assert "shown as a sample, not done" in res.out
    assert "The Demo engine showed 2 tasks as a sample and ticked none" in res.out
    assert (folder / "TASKS.md").read_bytes() == before
    assert not (folder / "overview.md").exists() and not (folder / "titles.md").exists()
    notes = list((folder / "demo-output").iterdir())
    assert len(notes) == 2 and all("Demo engine" in n.read_text(encoding="utf-8") for n in notes)
    status = cli("status", folder)
    assert "The Demo engine showed 2 tasks as a sample and ticked none" in status.out, status

# -- 2. errors: one plain sentence, the §9 exit code, never a traceback ---------------------

@pytest.mark.parametrize("command", [
    ["run", "{missing}", "--engine", "demo"], ["status", "{missing}"],
    ["decide", "{missing}", "--answer", "x"], ["undo", "{missing}", "--round", "1"],
    ["watch", "{missing}"],
])
def test_a_folder_that_does_not_exist_is_one_sentence_and_exit_2(cli, tmp_path, command):
    missing = tmp_path / "no such folder"
    res = cli(*[a.format(missing=missing) for a in command])
    sentence = assert_plain_error(res, USAGE)
    assert "does not exist" in sentence
    assert not missing.exists(), "a failed command must not create the folder"


@pytest.mark.parametrize("command", [["run", "{ws}", "--engine", "demo"],
                                     ["decide", "{ws}", "--answer", "x"]])
def test_a_folder_without_a_board_is_one_sentence_and_exit_2(cli, tmp_path, command):
    ws = tmp_path / "empty"
    ws.mkdir()
    res = cli(*[a.format(ws=ws) for a in command])
    sentence = assert_plain_error(res, USAGE)
    assert "TASKS.md" in sentence and "init" in sentence
    assert not (ws / "TASKS.md").exists()


def test_a_file_given_as_the_folder_is_one_sentence_and_exit_2(cli, demo_ws):
    res = cli("run", demo_ws / "brief.md", "--engine", "demo")
    assert "not a folder" in assert_plain_error(res, USAGE)


def test_an_unknown_engine_is_one_sentence_and_exit_2(cli, demo_ws):
    before = snapshot(demo_ws)
    res = cli("run", demo_ws, "--engine", "gpt-17")
    sentence = assert_plain_error(res, USAGE)
    assert "gpt-17" in sentence and "demo" in sentence
    assert snapshot(demo_ws) == before
    assert run_dirs(demo_ws) == []


BAD_FLAGS = [
    ["--max-rounds", "0"], ["--max-rounds", "x"], ["--max-steps", "0"], ["--max-steps", "-3"],
    ["--stall-limit", "1.5"], ["--budget-usd", "lots"], ["--budget-usd", "-1"],
    ["--demo-delay", "-1"],
]


@pytest.mark.parametrize("flag", BAD_FLAGS, ids=lambda f: " ".join(f))
def test_a_bad_flag_value_is_one_sentence_naming_the_flag_and_exit_2(cli, demo_ws, flag):
    before = snapshot(demo_ws)
    res = cli("run", demo_ws, "--engine", "demo", *flag)
    sentence = assert_plain_error(res, USAGE)
    assert res.out == "", res
    assert flag[0] in sentence, res
    assert "usage:" not in res.err.lower()
    assert snapshot(demo_ws) == before and run_dirs(demo_ws) == []


def test_decide_with_no_open_decision_is_one_sentence_and_exit_2(cli, demo_ws):
    before = (demo_ws / "TASKS.md").read_bytes()
    res = cli("decide", demo_ws, "--answer", "trust")
    assert "no open decision" in assert_plain_error(res, USAGE)
    assert (demo_ws / "TASKS.md").read_bytes() == before


def test_decide_with_an_empty_answer_is_one_sentence_and_exit_2(cli, blocked):
    ws, _ = blocked
    before = (ws / "TASKS.md").read_bytes()
    assert_plain_error(cli("decide", ws, "--answer", "   "), USAGE)
    assert (ws / "TASKS.md").read_bytes() == before


def test_undo_of_a_round_that_does_not_exist_is_one_sentence_and_exit_2(cli, blocked):
    ws, _ = blocked
    before = snapshot(ws)
    assert "9" in assert_plain_error(cli("undo", ws, "--round", "9"), USAGE)
    assert_plain_error(cli("undo", ws, "--round", "1", "--run", "20000101-000000-abcdef"), USAGE)
    assert_plain_error(cli("undo", ws, "--round", "1", "--run", "../../etc"), USAGE)
    assert snapshot(ws) == before


def test_undo_with_no_run_yet_is_one_sentence_and_exit_2(cli, demo_ws):
    assert "no run" in assert_plain_error(cli("undo", demo_ws, "--round", "1"), USAGE).lower()


def test_a_board_that_is_a_folder_is_one_sentence_and_exit_2(cli, tmp_path):
    ws = tmp_path / "odd"
    (ws / "TASKS.md").mkdir(parents=True)
    assert_plain_error(cli("run", ws, "--engine", "demo"), USAGE)
    assert_plain_error(cli("decide", ws, "--answer", "x"), USAGE)
    assert (ws / "TASKS.md").is_dir()


def test_a_board_that_is_a_folder_is_named_as_a_folder(cli, tmp_path):
    ws = tmp_path / "odd"
    (ws / "TASKS.md").mkdir(parents=True)
    # Named as a folder, not "there is no TASKS.md, run init" (init could not fix that).
    sentence = assert_plain_error(cli("run", ws, "--engine", "demo"), USAGE)
    assert "is a folder" in sentence and "There is no" not in sentence
    init = cli("init", ws)
    assert "is a folder" in assert_plain_error(init, USAGE)
    assert (ws / "TASKS.md").is_dir()


def _make_board_unreadable(ws: Path) -> None:
    board = ws / "TASKS.md"
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        board.chmod(0)
    elif Path("/proc/self/mem").exists():
        # root reads any file whatever its mode; reading /proc/self/mem at offset 0 fails
        # with EIO, which reaches the same "could not read" path as a permission error.
        board.unlink()
        board.symlink_to("/proc/self/mem")
    else:
        pytest.skip("cannot make a file unreadable here")


def test_an_unreadable_board_is_one_sentence_and_no_traceback(cli, demo_ws):
    _make_board_unreadable(demo_ws)
    try:
        res = cli("run", demo_ws, "--engine", "demo")
        assert res.code in (1, 2), res  # failed, or not a usable workspace
        assert_plain_error(res, res.code)
        assert "TASKS.md" in res.err
        if (demo_ws / ".harness" / "status.json").exists():
            assert status_file(demo_ws)["state"] != "running"
        dec = cli("decide", demo_ws, "--answer", "x")
        assert "TASKS.md" in assert_plain_error(dec, USAGE)
        assert cli("status", demo_ws).code == 0
    finally:
        if (demo_ws / "TASKS.md").exists() and not (demo_ws / "TASKS.md").is_symlink():
            (demo_ws / "TASKS.md").chmod(0o644)


def test_a_board_with_a_non_utf8_byte_runs_and_keeps_the_byte(cli, tmp_path):
    # A Latin-1 "café" from an old editor: once crashed the run (UnicodeEncodeError writing
    # status.json) and left status.json claiming "running".
    ws = tmp_path / "latin1"
    ws.mkdir()
    original = "# Menu\n\n- [ ] Write the caf\xe9 menu\n".encode("latin-1")
    (ws / "TASKS.md").write_bytes(original)
    res = cli("run", ws, "--engine", "demo")
    assert res.code == STOPPED, res  # the Demo on a person's board: a sample, not done
    assert "Traceback" not in res.err and "Something went wrong" not in res.err, res
    assert status_file(ws)["state"] == "stopped"
    assert status_file(ws)["exit_reason"] == "samples_shown"
    assert (ws / "TASKS.md").read_bytes() == original  # the person's byte kept, nothing ticked
    # A change the board does get (a tick by the person, here through decide's board verbs
    # on a decision) keeps the byte too.
    (ws / "TASKS.md").write_bytes(original + b"- [ ] HUMAN: Open the caf\xe9 on Sundays?\n")
    assert cli("decide", ws, "--answer", "yes").code == 0
    after = (ws / "TASKS.md").read_bytes()
    assert after.startswith(original) and b"caf\xe9" in after[len(original):]
    assert cli("status", ws).code == 0


# -- 3. limits ---------------------------------------------------------------------------

def test_max_rounds_1_stops_with_4_and_exit_reason_max_rounds(cli, demo_ws):
    res = cli("run", demo_ws, "--engine", "demo", "--max-rounds", "1")
    assert res.code == STOPPED, res
    status = status_file(demo_ws)
    assert status["state"] == "stopped" and status["exit_reason"] == "max_rounds"
    assert status["completed_tasks"] == 1
    (run,) = run_dirs(demo_ws)
    assert len(jsonl(run / "rounds.jsonl")) == 1
    # The stop is not an error: nothing on stderr.
    assert res.err == "", res


def test_max_steps_2_ends_blocked_by_no_progress_with_a_human_task_before_the_task(
        cli, demo_ws):
    before = (demo_ws / "TASKS.md").read_bytes().decode("utf-8").splitlines(keepends=True)
    res = cli("run", demo_ws, "--engine", "demo", "--max-steps", "2")
    assert res.code == BLOCKED, res
    status = status_file(demo_ws)
    assert status["state"] == "blocked_by_human" and status["exit_reason"] == "no_progress"
    (run,) = run_dirs(demo_ws)
    assert {r["result_state"] for r in jsonl(run / "rounds.jsonl")} == {"step_limit"}

    after = (demo_ws / "TASKS.md").read_bytes().decode("utf-8").splitlines(keepends=True)
    first_task = next(i for i, ln in enumerate(before) if ln.startswith("- [ ] "))
    ops = [op for op in difflib.SequenceMatcher(a=before, b=after).get_opcodes()
           if op[0] != "equal"]
    # One insertion, right before the task; every other line of the person's board untouched.
    assert len(ops) == 1 and ops[0][0] == "insert" and ops[0][1] == first_task, ops
    inserted = after[ops[0][3]:ops[0][4]]
    task_text = before[first_task][len("- [ ] "):].rstrip("\n")
    assert inserted[0] == (f"- [ ] HUMAN: The AI made no progress on “{task_text}”. What "
                           "should happen next?\n")
    assert all(ln.startswith("  - ") for ln in inserted[1:]), inserted
    assert any("Evidence:" in ln for ln in inserted)
    # The run's decision epilogue names the same question.
    assert "The AI made no progress on" in res.out


# -- 6. damaged records and settings (RELIABILITY case 10) ---------------------------------

@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "not an object"])
def test_a_damaged_status_file_is_reported_in_one_sentence_and_rewritten_by_the_next_run(
        cli, demo_ws, damage):
    path = demo_ws / ".harness" / "status.json"
    path.parent.mkdir()
    good = json.dumps({"run_id": "x", "state": "done", "completed_tasks": 1})
    path.write_bytes({"garbage": b"\x00\xff\xfe garbage \x9c\n",
                      "truncated": good[: len(good) // 2].encode(),
                      "empty": b"",
                      "not an object": b"[1, 2, 3]\n"}[damage])
    res = cli("status", demo_ws)
    assert res.code == 0, res
    sentence = assert_plain_error(Result(0, res.out, res.err, 0), 0)
    assert "damaged" in sentence
    js = cli("status", demo_ws, "--json")
    assert js.code == 0 and "Traceback" not in js.err, js
    json.loads(js.out)  # still JSON on stdout

    ran = cli("run", demo_ws, "--engine", "demo")
    assert ran.code == BLOCKED, ran
    status = status_file(demo_ws)
    assert status["state"] == "blocked_by_human" and status["run_id"] == run_dirs(demo_ws)[0].name
    after = cli("status", demo_ws)
    assert after.code == 0 and after.err == "", after


def _truncate_last_line(path: Path) -> None:
    data = path.read_bytes()
    assert data.endswith(b"\n")
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(data[: last_start + (len(data) - last_start) // 2])


def test_a_truncated_last_line_in_events_and_rounds_breaks_nothing(cli, blocked):
    ws, _ = blocked
    (run,) = run_dirs(ws)
    _truncate_last_line(run / "events.jsonl")
    _truncate_last_line(run / "rounds.jsonl")
    st = cli("status", ws)
    assert st.code == 0 and st.err == "", st
    watch = cli("watch", ws)
    assert watch.code == 0 and "Traceback" not in watch.err, watch
    assert cli("decide", ws, "--answer", "trust").code == 0
    ran = cli("run", ws, "--engine", "demo")
    assert ran.code == DONE, ran
    assert "Traceback" not in ran.err
    # The earlier run's surviving rounds can still be undone.
    und = cli("undo", ws, "--round", "1", "--run", run.name)
    assert und.code == 0, und


@pytest.mark.parametrize("damage", [b"{\"engine\": \"demo\", \"limits\": {\"max_st",
                                    b"\xff\xfe\x00garbage",
                                    b"{\"limits\": {\"max_steps\": \"lots\"}}",
                                    b"[]"],
                         ids=["truncated", "garbage", "wrong type", "not an object"])
def test_a_damaged_settings_file_warns_once_is_kept_aside_and_the_run_uses_defaults(
        cli, demo_ws, damage):
    cli.config_dir.mkdir()
    (cli.config_dir / "settings.json").write_bytes(damage)
    # No --engine: the default engine (demo) must be what runs.
    res = cli("run", demo_ws)
    assert res.code == BLOCKED, res
    warning = assert_plain_error(Result(0, res.out, res.err, 0), 0)
    assert "settings" in warning.lower() and "settings.damaged.json" in warning
    assert (cli.config_dir / "settings.damaged.json").read_bytes() == damage
    assert status_file(demo_ws)["engine"] == "demo"
    # The warning is given once: the damaged file is no longer in the way.
    assert cli("decide", demo_ws, "--answer", "trust").code == 0
    again = cli("run", demo_ws)
    assert again.code == DONE and again.err == "", again


# -- 7. speed ------------------------------------------------------------------------------

def test_a_full_demo_run_and_status_are_quick(cli, demo_ws, capsys):
    start = time.perf_counter()
    first = cli("run", demo_ws, "--engine", "demo")
    decide = cli("decide", demo_ws, "--answer", "trust")
    second = cli("run", demo_ws, "--engine", "demo")
    total = time.perf_counter() - start
    assert (first.code, decide.code, second.code) == (BLOCKED, 0, DONE)
    status_times = []
    for _ in range(3):
        res = cli("status", demo_ws)
        assert res.code == 0
        status_times.append(res.seconds)
    with capsys.disabled():
        print(f"\n[e2e timing] full demo (run→3 {first.seconds:.2f}s, decide {decide.seconds:.2f}s,"
              f" run→0 {second.seconds:.2f}s): {total:.2f}s; status: best "
              f"{min(status_times):.3f}s of {len(status_times)}")
    assert total < 60, "a full offline demo run should take seconds"
    assert min(status_times) < 5


# -- 8. what the light commands import ----------------------------------------------------

IMPORT_CHECK = r"""
import sys
from app.cli import main
rc = main(sys.argv[1:])
heavy = sorted(m for m in sys.modules
               if m.split('.')[0] in ('PySide6', 'shiboken6', 'anthropic', 'openai', 'docx',
                                      'openpyxl', 'pptx', 'pypdf', 'lxml', 'PIL')
               or m.split('.')[:2] in (['app', 'gui'], ['app', 'export']))
assert not heavy, heavy
assert rc == 0, rc
"""


@pytest.mark.parametrize("command", [["status", "{ws}"], ["status", "{ws}", "--json"],
                                     ["decide", "{ws}", "--answer", "trust"],
                                     ["undo", "{ws}", "--round", "1"]],
                         ids=lambda c: " ".join(c[:1] + c[2:]))
def test_status_decide_and_undo_do_not_import_qt_or_the_ai_sdks(cli, blocked, command):
    ws, _ = blocked
    res = cli.python(IMPORT_CHECK, *[a.format(ws=ws) for a in command])
    assert res.code == 0, res


# Beyond Qt and the SDKs: what each light command has no use for. `status` of a finished run
# probes no lock and parses no board, and it reads status.json without pydantic (issue 23);
# `decide` reads no records, so it needs no pydantic.
NOT_NEEDED = {
    "status": ("platformdirs", "keyring", "filelock", "httpx", "httpx2", "asyncio", "pydantic",
               "app.engines", "app.commands.run", "app.core.run.loop", "app.core.board.board",
               "app.core.records.records"),
    "decide": ("platformdirs", "keyring", "filelock", "httpx", "httpx2", "asyncio", "pydantic",
               "app.engines", "app.commands", "app.core.run.loop", "app.core.records.records"),
    "undo": ("platformdirs", "keyring", "httpx", "httpx2", "asyncio", "app.engines",
             "app.commands", "app.core.run.loop", "app.core.board.board"),
}
NOT_NEEDED_CHECK = r"""
import sys
from app.cli import main
rc = main(sys.argv[2:])
unwanted = sys.argv[1].split(",")
loaded = sorted(m for m in sys.modules
                if any(m == u or m.startswith(u + ".") for u in unwanted))
assert not loaded, loaded
assert rc == 0, rc
"""


@pytest.mark.parametrize("command", [["status", "{ws}"], ["decide", "{ws}", "--answer", "trust"],
                                     ["undo", "{ws}", "--round", "1"]],
                         ids=lambda c: c[0])
def test_the_light_commands_load_only_what_they_use(cli, blocked, command):
    ws, _ = blocked
    unwanted = ",".join(NOT_NEEDED[command[0]])
    res = cli.python(NOT_NEEDED_CHECK, unwanted, *[a.format(ws=ws) for a in command])
    assert res.code == 0, res


def test_status_of_a_running_run_probes_the_lock_without_filelock_or_pydantic(cli, blocked, procs):
    ws, _ = blocked
    status = json.loads((ws / ".harness" / "status.json").read_text(encoding="utf-8"))
    status["state"] = "running"
    (ws / ".harness" / "status.json").write_text(json.dumps(status), encoding="utf-8")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys\nfrom app.core.workspace.workspace import Workspace\n"
         "lock = Workspace(sys.argv[1]).lock()\nlock.acquire()\nprint('held', flush=True)\n"
         "sys.stdin.read()\n", str(ws)],
        cwd=cli.cwd, env=cli.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    procs.append(holder)
    assert holder.stdout.readline().strip() == "held"
    res = cli.python(NOT_NEEDED_CHECK, ",".join(NOT_NEEDED["status"]), "status", str(ws))
    assert res.code == 0, res
    assert "State: Running" in res.out, res  # the probe saw the run: not "interrupted"
    holder.stdin.close()
    holder.wait(10)
    after = cli("status", ws)
    assert after.code == 0 and "interrupted" in after.out, after


def test_importing_app_creates_no_files_and_prints_nothing(cli, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = dict(cli.env, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_DATA_HOME=str(home / ".local" / "share"))
    code = ("import app, sys\n"
            "import app.cli, app.core.workspace.workspace, app.core.settings, app.core.run.loop\n"
            "assert app.__version__ and app.NAME\n")
    res = Cli(env, cli.cwd, cli.config_dir).python(code)
    assert res.code == 0, res
    assert res.out == "" and res.err == "", res
    assert list(cli.cwd.iterdir()) == []
    assert not cli.config_dir.exists() or list(cli.config_dir.iterdir()) == []
    assert list(home.rglob("*")) == []


def test_undo_uses_the_latest_run_that_has_the_round(cli, demo_ws):
    assert cli("run", demo_ws, "--engine", "demo").code == BLOCKED
    # A second run that stops at once on the open decision has no rounds at all.
    assert cli("run", demo_ws, "--engine", "demo").code == BLOCKED
    res = cli("undo", demo_ws, "--round", "2")
    assert res.code == DONE, res
    assert not (demo_ws / "drafts" / "about-us.md").exists()  # round 2 of the first run
    assert "stays checked" in res.out


@pytest.mark.parametrize("flag", ["--max-steps 1000", "--max-rounds 20000",
                                  "--stall-limit 500", "--max-attempts 101"])
def test_out_of_range_limits_are_one_sentence_and_exit_2(cli, demo_ws, flag):
    message = assert_plain_error(cli("run", demo_ws, "--engine", "demo", *flag.split()), USAGE)
    assert flag.split()[0] in message
