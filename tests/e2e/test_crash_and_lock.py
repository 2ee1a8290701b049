"""End-to-end: one run per workspace (RELIABILITY case 11), kill -9 mid-run (case 8), and
Ctrl+C / SIGTERM mid-run, with the CLI as real subprocesses."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.core.board.board import Board
from app.core.records.events import RunFinished
from app.core.records.records import read_events

from .conftest import (BLOCKED, LOCKED, STOPPED, assert_plain_error, finish, jsonl,
                       only_checkboxes_changed, run_dirs, status_file, wait_for_round,
                       wait_until)

posix_signals = pytest.mark.skipif(sys.platform == "win32",
                                   reason="kill -9 and POSIX signals")


def no_temp_files(root: Path) -> list[str]:
    """Leftovers of an interrupted atomic write (`.hd-<random>.tmp`, or `.<name>.<random>.tmp` before), anywhere."""
    return [p.relative_to(root).as_posix() for p in root.rglob("*.tmp")]


# -- case 11: a second run on the same workspace ------------------------------------------

def test_a_second_run_is_refused_at_once_with_5_and_the_first_run_is_undisturbed(
        cli, demo_ws, procs):
    first = cli.start("run", demo_ws, "--engine", "demo", "--demo-delay", "0.3")
    procs.append(first)
    running = wait_for_round(demo_ws, first, at_least=1, step=1)

    second = cli("run", demo_ws, "--engine", "demo")
    sentence = assert_plain_error(second, LOCKED)
    assert "another run" in sentence.lower()
    assert second.seconds < 5, f"refused after {second.seconds:.1f}s, not at once"
    assert second.out == "", second

    # The refused run left no trace: no second run folder, status still the first run's.
    assert len(run_dirs(demo_ws)) == 1
    now = status_file(demo_ws)
    assert now["run_id"] == running["run_id"] and now["state"] == "running"
    # status during the run says it is running (not interrupted).
    st = cli("status", demo_ws, "--json")
    assert st.code == 0 and json.loads(st.out)["state"] == "running", st

    done = finish(first)
    assert done.code == BLOCKED, done
    assert "Traceback" not in done.err and done.err == "", done
    rounds = jsonl(run_dirs(demo_ws)[0] / "rounds.jsonl")
    assert [r["result_state"] for r in rounds] == ["completed", "completed", "needs_human"]
    assert Board.load(demo_ws / "TASKS.md").counts() == (2, 6)


def test_undo_during_a_run_is_refused_with_5_and_changes_nothing(cli, demo_ws, procs):
    first = cli.start("run", demo_ws, "--engine", "demo", "--demo-delay", "0.5")
    procs.append(first)
    wait_for_round(demo_ws, first, at_least=2, step=1)  # round 1's manifest exists by now
    res = cli("undo", demo_ws, "--round", "1")
    assert_plain_error(res, LOCKED)
    assert res.seconds < 5
    # Round 1 created the brief summary; the refused undo left it alone.
    assert (demo_ws / "notes" / "brief-summary.md").exists()
    assert finish(first).code == BLOCKED


def test_a_run_is_not_refused_because_status_or_watch_is_looking_at_the_folder(
        cli, demo_ws, procs):
    # A reader that checks "is a run active?" as fast as it can, like many status/watch polls.
    (demo_ws / ".harness").mkdir(exist_ok=True)
    (demo_ws / ".harness" / "lock").touch()
    spinner = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time\n"
         "from app.core.workspace.workspace import Workspace\n"
         "lock = Workspace(sys.argv[1]).lock()\n"
         "lock.is_held_elsewhere()\n"
         "print('probing', flush=True)\n"
         "end = time.monotonic() + float(sys.argv[2])\n"
         "while time.monotonic() < end:\n"
         "    lock.is_held_elsewhere()\n",
         str(demo_ws), "30"], cwd=cli.cwd, env=cli.env, stdout=subprocess.PIPE, text=True)
    procs.append(spinner)
    assert spinner.stdout.readline().strip() == "probing"
    # A board with every task checked: each run takes the lock, finds nothing to do, ends.
    board = demo_ws / "TASKS.md"
    board.write_bytes(board.read_bytes().replace(b"- [ ]", b"- [x]"))
    # Many `run`s through the real entry point, in one process so each costs milliseconds.
    tries = cli.python(
        "import contextlib, io, sys, time\n"
        "from app.cli import main\n"
        "codes = []\n"
        "end = time.monotonic() + 25\n"  # as many as fit: a loaded machine does fewer
        "while len(codes) < 300 and time.monotonic() < end:\n"
        "    with contextlib.redirect_stdout(io.StringIO()), "
        "contextlib.redirect_stderr(io.StringIO()):\n"
        "        codes.append(main(['run', sys.argv[1], '--engine', 'demo']))\n"
        "    if codes[-1] == 5:\n"
        "        break\n"
        "print(codes)\n", demo_ws, timeout=60)
    spinner.kill()
    spinner.wait()
    assert tries.code == 0, tries
    codes = json.loads(tries.out)
    assert len(codes) >= 20, f"only {len(codes)} runs in 25 s"
    assert LOCKED not in codes, f"a run was refused as locked while no run was active: {codes}"


# -- case 8: kill -9 in the middle of a run -----------------------------------------------

@posix_signals
def test_kill_9_mid_run_leaves_the_board_and_status_intact_and_the_next_run_starts(
        cli, demo_ws, procs):
    board_before = (demo_ws / "TASKS.md").read_bytes()
    run = cli.start("run", demo_ws, "--engine", "demo", "--demo-delay", "0.3")
    procs.append(run)
    wait_for_round(demo_ws, run, at_least=1, step=2)
    os.kill(run.pid, signal.SIGKILL)
    run.communicate(timeout=10)
    assert run.returncode == -signal.SIGKILL

    board_after = (demo_ws / "TASKS.md").read_bytes()
    Board.load(demo_ws / "TASKS.md")  # still parses
    assert board_after == board_before or only_checkboxes_changed(board_before, board_after)
    status = status_file(demo_ws)  # valid JSON
    assert status["state"] == "running"  # what the dead process last wrote
    assert no_temp_files(demo_ws) == []
    (dead_run,) = run_dirs(demo_ws)
    json.loads((dead_run / "run.json").read_text(encoding="utf-8"))
    events = jsonl(dead_run / "events.jsonl")
    # status.json tells the truth of the moment it was written, at most 0.25 s behind the
    # stream (docs/records.md): the round the stream was in, no later step than it had.
    rounds = [e for e in events if e["type"] == "round_started"]
    steps = [e for e in events if e["type"] == "step_started"]
    # (The kill may fall between a line's append and the status it moves at once.)
    assert status["run_id"] == dead_run.name
    assert status["round"] in [r["round"] for r in rounds[-2:]]
    in_round = [e["step"] for e in steps if e["round"] == status["round"]]
    assert 0 <= status["step"] <= max(in_round, default=0)

    # status reports the run as interrupted, not running.
    st = cli("status", demo_ws, "--json")
    assert st.code == 0 and "Traceback" not in st.err, st
    reported = json.loads(st.out)
    assert reported["state"] == "stopped"
    assert "interrupted" in reported["message"].lower()
    words = cli("status", demo_ws)
    assert words.code == 0 and "interrupted" in words.out.lower(), words
    assert "Running" not in words.out

    # No stale lock: the next run starts at once and carries on to the decision.
    nxt = cli("run", demo_ws, "--engine", "demo", timeout=60)
    assert nxt.code == BLOCKED, nxt
    assert nxt.out.startswith("Run started"), nxt
    assert len(run_dirs(demo_ws)) == 2
    assert status_file(demo_ws)["state"] == "blocked_by_human"
    assert Board.load(demo_ws / "TASKS.md").counts() == (2, 6)


@posix_signals
def test_watch_of_a_run_that_is_killed_ends_and_says_it_was_interrupted(cli, demo_ws, procs):
    run = cli.start("run", demo_ws, "--engine", "demo", "--demo-delay", "0.3")
    procs.append(run)
    wait_for_round(demo_ws, run, at_least=1, step=1)
    watch = cli.start("watch", demo_ws)
    procs.append(watch)
    # Kill the run once watch is following it (its first line is the run's first event).
    first_line = watch.stdout.readline()
    assert first_line.startswith("Run started"), first_line
    assert run.poll() is None, "the run ended before watch caught up; raise --demo-delay"
    os.kill(run.pid, signal.SIGKILL)
    run.communicate(timeout=10)
    res = finish(watch, timeout=15)
    assert res.code != 0, res
    assert "interrupted" in res.out.lower(), res
    assert "Traceback" not in res.err, res


# -- Ctrl+C and SIGTERM: stop after the current step -------------------------------------

@posix_signals
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stop_signal_mid_run_stops_after_the_step_with_4_and_nothing_half_written(
        cli, demo_ws, procs, sig):
    board_before = (demo_ws / "TASKS.md").read_bytes()
    run = cli.start("run", demo_ws, "--engine", "demo", "--demo-delay", "0.3")
    procs.append(run)
    wait_for_round(demo_ws, run, at_least=1, step=2)
    sent = time.perf_counter()
    run.send_signal(sig)
    res = finish(run, timeout=15)
    assert res.code == STOPPED, res
    assert time.perf_counter() - sent < 5, "the run should stop after the current step"
    assert "Traceback" not in res.err and "Traceback" not in res.out, res
    status = status_file(demo_ws)
    assert status["state"] == "stopped" and status["exit_reason"] == "stopped_by_user"
    (run_dir,) = run_dirs(demo_ws)
    info = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    assert info["state"] == "stopped" and info["exit_reason"] == "stopped_by_user"
    assert isinstance(read_events(run_dir)[-1], RunFinished)
    rounds = jsonl(run_dir / "rounds.jsonl")
    assert rounds and rounds[-1]["result_state"] == "cancelled"
    # Nothing half-written: no temp files, the board parses with at most checks changed,
    # and every file the cancelled round touched is whole (matches its recorded post-image).
    assert no_temp_files(demo_ws) == []
    Board.load(demo_ws / "TASKS.md")
    assert only_checkboxes_changed(board_before, (demo_ws / "TASKS.md").read_bytes())
    for manifest in (run_dir / "undo").glob("*.json"):
        for rel, entry in json.loads(manifest.read_text(encoding="utf-8"))["files"].items():
            data = (demo_ws / rel).read_bytes()
            assert hashlib.sha256(data).hexdigest() == entry["after"], rel
            assert data.endswith(b"\n"), rel
    # status afterwards: stopped by the person, not interrupted.
    st = json.loads(cli("status", demo_ws, "--json").out)
    assert st["state"] == "stopped" and "interrupted" not in (st["message"] or "").lower()
    # And the next run carries on from the board.
    assert cli("run", demo_ws, "--engine", "demo").code == BLOCKED


@posix_signals
def test_undo_puts_back_what_a_round_cut_short_by_kill_9_had_written(cli, demo_ws, procs):
    run = cli.start("run", demo_ws, "--engine", "demo", "--demo-delay", "0.3")
    procs.append(run)
    summary = demo_ws / "notes" / "brief-summary.md"  # written at round 1's third step
    wait_until(lambda: summary.exists() or run.poll() is not None, what="round 1's write")
    os.kill(run.pid, signal.SIGKILL)
    run.communicate(timeout=10)
    assert summary.exists()
    res = cli("undo", demo_ws, "--round", "1")
    assert res.code == 0, res
    assert not summary.exists(), "the manifest is written before each change, so undo works"
    assert sorted(p.name for p in (demo_ws / "notes").iterdir()) == ["customer-comments.md"]


def test_the_persons_edits_to_the_board_during_a_run_are_kept(cli, demo_ws, procs):
    board = demo_ws / "TASKS.md"
    run = cli.start("run", demo_ws, "--engine", "demo", "--demo-delay", "0.5")
    procs.append(run)
    wait_for_round(demo_ws, run, at_least=1, step=2)
    # Rosie edits the board in her editor (saved atomically, as most editors do): she
    # rewrites the intro and adds a task at the end.
    text = board.read_bytes().decode("utf-8")
    intro = "The new website copy for the bakery."
    assert intro in text
    edited = text.replace(intro, "The NEW website copy — Rosie edited this.") + \
        "- [ ] Write a thank-you card for the regulars\n"
    tmp = board.with_name(".TASKS.md.rosie")
    tmp.write_bytes(edited.encode("utf-8"))
    os.replace(tmp, board)

    res = finish(run)
    assert res.code == BLOCKED, res
    after = board.read_bytes().decode("utf-8")
    assert "The NEW website copy — Rosie edited this." in after
    assert after.endswith("- [ ] Write a thank-you card for the regulars\n")
    b = Board.load(board)
    assert b.counts() == (2, 7)
    assert b.next_task().is_human


@posix_signals
def test_ctrl_c_on_watch_stops_watching_quietly_and_leaves_the_run_alone(cli, demo_ws, procs):
    run = cli.start("run", demo_ws, "--engine", "demo", "--demo-delay", "0.4")
    procs.append(run)
    wait_for_round(demo_ws, run, at_least=1, step=1)
    watch = cli.start("watch", demo_ws)
    procs.append(watch)
    assert watch.stdout.readline().startswith("Run started")
    watch.send_signal(signal.SIGINT)
    res = finish(watch, timeout=10)
    assert res.code in (0, 130), res
    assert "Traceback" not in res.err, res
    assert finish(run).code == BLOCKED


@posix_signals
def test_ctrl_c_during_a_slow_model_turn_stops_within_seconds(cli, demo_ws, procs):
    # A 30 s "model turn": Stop must not wait it out (the engine call watches the cancel flag).
    run = cli.start("run", demo_ws, "--engine", "demo", "--demo-delay", "30")
    procs.append(run)
    wait_for_round(demo_ws, run, at_least=1, step=1)
    sent = time.perf_counter()
    run.send_signal(signal.SIGINT)
    res = finish(run, timeout=40)
    waited = time.perf_counter() - sent
    assert res.code == STOPPED, res
    assert waited < 10, f"Ctrl+C took {waited:.1f}s to stop the run"
    assert status_file(demo_ws)["exit_reason"] == "stopped_by_user"
