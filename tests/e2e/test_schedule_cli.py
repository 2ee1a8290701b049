"""Scheduled runs through the headless command (issue 38): `harness-desk schedule` writes the
entry (here into a crontab kept by a stand-in `crontab` program), and each unattended rule of
`harness-desk run FOLDER --scheduled` holds: a budget is required, a decision stops it with
exit 3 on the board, careful mode keeps a change to a file that was there, the folder's lock
makes it skip, a missing key or a dead service ends it with a record, a folder gone removes
its schedule, and missed times run once."""

from __future__ import annotations

import json
import os
import stat
import uuid
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app.core.schedule import store
from app.core.schedule.model import Schedule, last_due
from tests.engines.fake_servers import claude_stream, claude_usage, tool_use

from .conftest import BLOCKED, DONE, FAILED, LOCKED, STOPPED, USAGE, jsonl, run_dirs, wait_until

BOARD = "# Tidy\n\n- [ ] Tidy my notes\n  - Done when: notes.md is tidy\n"
KEY = f"sk-ant-api03-E2E-{uuid.uuid4().hex}"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "My notes"
    root.mkdir()
    (root / "TASKS.md").write_text(BOARD, encoding="utf-8")
    (root / "notes.md").write_text("old notes\n", encoding="utf-8")
    return root


@pytest.fixture
def env(cli, tmp_path, monkeypatch) -> dict:
    """The CLI's environment with a stand-in crontab (a file) and no notifications; the test
    process reads the same schedules."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    tab = tmp_path / "crontab.txt"
    script = bindir / "crontab"
    script.write_text(f"""#!/bin/sh
if [ "$1" = "-l" ]; then [ -f '{tab}' ] && cat '{tab}' && exit 0; echo "no crontab" >&2; exit 1; fi
if [ "$1" = "-" ]; then cat > '{tab}'; exit 0; fi
exit 2
""")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(cli.config_dir))
    cli.env.update(PATH=f"{bindir}{os.pathsep}{cli.env['PATH']}", HARNESS_DESK_SCHEDULER="cron",
                   HARNESS_DESK_NO_NOTIFY="1")
    return cli.env


def crontab(tmp_path: Path) -> str:
    path = tmp_path / "crontab.txt"
    return path.read_text() if path.exists() else ""


def due_schedule(folder: Path, **kw) -> Schedule:
    """A daily schedule due an hour ago, made three days ago (three times missed)."""
    now = datetime.now()
    s = Schedule(folder=str(folder.resolve()), kind="daily",
                 time=(now - timedelta(hours=1)).strftime("%H:%M"), budget_usd=1.0,
                 engine="demo", created_at=(now - timedelta(days=3)).isoformat(), backend="cron")
    for k, v in kw.items():
        setattr(s, k, v)
    store.save(s)
    return s


def wakes(ws: Path) -> list[dict]:
    path = ws / ".harness" / "scheduled.jsonl"
    return jsonl(path) if path.exists() else []


def test_schedule_writes_lists_pauses_and_removes_its_crontab_entry(cli, env, ws, tmp_path):
    res = cli("schedule", ws, "--every", "mon,thu", "--at", "07:30", "--engine", "demo",
              "--budget-usd", "2")
    assert res.code == DONE, res
    assert f"Scheduled: {ws} every Monday and Thursday at 07:30, with the demo engine, at " \
           "most $2.00 per run, careful mode off." in res.out
    assert "Next run: " in res.out and "(cron)" in res.out
    lines = crontab(tmp_path).splitlines()
    sid = store.for_folder(ws).id
    assert next(x for x in lines if x.startswith("30 7 * * 1,4 ")).endswith(
        f"# harness-desk-schedule {sid}")
    assert sum("# harness-desk-catch-up" in x for x in lines) == 2
    listed = cli("schedule", "--list")
    assert str(ws) in listed.out and "every Monday and Thursday at 07:30" in listed.out
    assert cli("schedule", ws, "--pause").code == DONE
    assert store.for_folder(ws).paused
    assert "paused" in cli("schedule", "--list").out
    assert cli("schedule", ws, "--resume").code == DONE and not store.for_folder(ws).paused
    res = cli("schedule", ws, "--remove")
    assert res.code == DONE and "Removed the schedule of" in res.out
    assert "harness-desk" not in crontab(tmp_path)  # the catch-up lines went with the last
    assert store.all_schedules() == []
    assert cli("schedule", ws, "--remove").code == USAGE


def test_a_schedule_without_a_budget_is_refused_and_writes_nothing(cli, env, ws, tmp_path):
    res = cli("schedule", ws, "--every", "day", "--engine", "demo")
    assert res.code == USAGE, res
    assert res.err.strip() == ("A scheduled run needs a budget, so it can never spend more than "
                               "you meant: add --budget-usd X or --budget-tokens N.")
    assert crontab(tmp_path) == "" and store.all_schedules() == []


def test_a_scheduled_run_with_no_budget_runs_nothing(cli, env, ws):
    due_schedule(ws, budget_usd=None)  # a store edited by hand
    res = cli("run", ws, "--scheduled")
    assert res.code == USAGE, res
    assert run_dirs(ws) == []
    [wake] = wakes(ws)
    assert wake["outcome"] == "no_budget" and wake["exit_code"] == USAGE


@pytest.mark.parametrize("kind", ["folder", "engine"])
def test_a_scheduled_run_that_cannot_start_records_what_stopped_it(cli, env, ws, kind):
    """The window words a wake that ran nothing by its kind, not by the core's sentence."""
    if kind == "folder":
        due_schedule(ws)
        (ws / "TASKS.md").unlink()
    else:
        due_schedule(ws, engine="no-such-engine")
    res = cli("run", ws, "--scheduled")
    assert res.code != DONE, res
    assert run_dirs(ws) == []
    [wake] = wakes(ws)
    assert (wake["outcome"], wake["kind"]) == ("failed", kind) and wake["message"]


def test_missed_times_run_once_and_a_paused_schedule_runs_nothing(cli, env, ws):
    due_schedule(ws, paused=True)
    assert cli("run", ws, "--scheduled").code == DONE
    assert run_dirs(ws) == [] and wakes(ws) == []
    s = due_schedule(ws)
    first = cli("run", ws, "--scheduled")
    assert first.code in (DONE, 4), first  # the Demo engine shows a sample and stops
    again = cli("run", ws, "--scheduled")
    assert again.code == DONE and "Nothing was run." in again.out
    assert len(run_dirs(ws)) == 1 and len(wakes(ws)) == 1
    # The latest of the three missed times, not the first.
    assert wakes(ws)[0]["due"] == last_due(s, datetime.now()).isoformat(timespec="minutes")


def test_a_decision_stops_the_run_with_exit_3_and_stays_on_the_board(cli, env, ws):
    (ws / "TASKS.md").write_text(
        "# Tidy\n\n- [ ] HUMAN: Keep the old notes?\n  - Option: keep\n  - Option: drop\n"
        "- [ ] Tidy my notes\n", encoding="utf-8")
    due_schedule(ws)
    res = cli("run", ws, "--scheduled")
    assert res.code == BLOCKED, res
    assert "- [ ] HUMAN: Keep the old notes?" in (ws / "TASKS.md").read_text()
    [wake] = wakes(ws)
    assert wake["outcome"] == "blocked_by_human" and wake["exit_code"] == BLOCKED
    assert wake["question"] == "Keep the old notes?"


def test_careful_mode_keeps_a_change_to_an_existing_file_as_a_decision(cli, env, ws, server):
    server.push("/v1/messages",
                claude_stream([tool_use("toolu_1", "edit_file", {
                    "path": "notes.md", "old_text": "old notes", "new_text": "tidy notes"})],
                    usage=claude_usage()))
    due_schedule(ws, engine="anthropic", careful=True)
    env.update(ANTHROPIC_API_KEY=KEY, ANTHROPIC_BASE_URL=server.url,
               NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost")
    res = cli("run", ws, "--scheduled", timeout=90)
    assert res.code == BLOCKED, res
    assert (ws / "notes.md").read_text() == "old notes\n"  # never applied
    assert len(list((ws / ".harness" / "pending").iterdir())) == 1
    assert "HUMAN: Careful mode: may the AI change your file notes.md?" in (
        ws / "TASKS.md").read_text()
    assert wakes(ws)[0]["outcome"] == "blocked_by_human"


def test_the_schedules_budget_stops_the_run(cli, env, ws, server):
    server.push("/v1/messages", *[claude_stream([tool_use(f"toolu_{n}", "list_files", {})],
                                                usage=claude_usage(input_tokens=4000))
                                  for n in range(6)])
    due_schedule(ws, engine="anthropic", budget_usd=None, budget_tokens=5000)
    env.update(ANTHROPIC_API_KEY=KEY, ANTHROPIC_BASE_URL=server.url,
               NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost")
    res = cli("run", ws, "--scheduled", timeout=90)
    assert res.code == STOPPED, res
    [wake] = wakes(ws)
    assert wake["outcome"] == "stopped" and "token limit" in wake["message"], wake
    assert "of 5,000" in wake["message"]
    run = json.loads((run_dirs(ws)[0] / "run.json").read_text())
    assert run["limits"]["budget_tokens"] == 5000
    assert len(server.requests) <= 2  # stopped at the budget, not after six turns


def test_a_run_already_going_makes_the_scheduled_run_skip_with_a_record(cli, env, ws):
    from app.core.workspace.workspace import Workspace

    due_schedule(ws)
    w = Workspace(ws)
    w.ensure_harness_dir()
    with w.lock():
        res = cli("run", ws, "--scheduled")
    assert res.code == LOCKED, res
    assert run_dirs(ws) == []
    [wake] = wakes(ws)
    assert wake["outcome"] == "skipped_busy"
    assert wake["message"] == ("Another run was already working in the folder, so this "
                               "scheduled run did not start.")
    assert cli("run", ws, "--scheduled").code == DONE  # that time is not run twice later


@pytest.mark.parametrize("case", ["no key", "no service"])
def test_a_missing_key_or_a_dead_service_ends_with_a_record_and_no_retry(cli, env, ws, case):
    due_schedule(ws, engine="anthropic")
    if case == "no service":
        env.update(ANTHROPIC_API_KEY=KEY, ANTHROPIC_BASE_URL="http://127.0.0.1:9",
                   NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost")
    res = cli("run", ws, "--scheduled", timeout=120)
    assert res.code == FAILED, res
    assert res.seconds < 60
    [wake] = wakes(ws)
    assert wake["outcome"] == "failed" and wake["exit_code"] == FAILED
    assert ("API key" in wake["message"]) if case == "no key" else (
        "Could not connect" in wake["message"])
    assert KEY not in json.dumps(wake)
    assert cli("run", ws, "--scheduled").code == DONE  # no second try for that time


def test_a_folder_gone_removes_its_schedule_and_entry_with_a_record(cli, env, ws, tmp_path):
    assert cli("schedule", ws, "--every", "day", "--engine", "demo",
               "--budget-tokens", "5000").code == DONE
    sid = store.for_folder(ws).id
    moved = ws.with_name("Moved notes")
    ws.rename(moved)
    res = cli("run", ws, "--scheduled")
    assert res.code == USAGE, res
    assert store.all_schedules() == [] and sid not in crontab(tmp_path)
    [wake] = jsonl(cli.config_dir / "scheduled-log.jsonl")
    assert wake["outcome"] == "removed_folder_gone" and wake["folder"] == str(ws.resolve())
    assert "is no longer there" in res.err


def test_cron_catch_up_starts_a_missed_run_once(cli, env, ws):
    due_schedule(ws)
    res = cli("schedule", "--catch-up")
    assert res.code == DONE and "Started 1 missed scheduled run." in res.out, res
    wait_until(lambda: len(wakes(ws)) == 1, timeout=60, what="the caught-up run's record")
    assert cli("schedule", "--catch-up").out.strip() == "Started 0 missed scheduled runs."


def test_scheduling_again_replaces_the_entry(cli, env, ws, tmp_path):
    for at in ("07:30", "18:45"):
        assert cli("schedule", ws, "--every", "day", "--at", at, "--engine", "demo",
                   "--budget-usd", "1").code == DONE
    ours = [x for x in crontab(tmp_path).splitlines() if "# harness-desk-schedule " in x]
    assert len(ours) == 1 and ours[0].startswith("45 18 * * * ")
    assert len(store.all_schedules()) == 1


def test_the_run_summary_covers_a_scheduled_run(cli, env, demo_ws, tmp_path):
    due_schedule(demo_ws)
    res = cli("run", demo_ws, "--scheduled")
    assert res.code in (DONE, BLOCKED), res
    [wake] = wakes(demo_ws)
    out = tmp_path / "summary.md"
    assert cli("export", demo_ws, "--format", "md", "--output", out, "--run", "all").code == DONE
    assert wake["run_id"] in out.read_text(encoding="utf-8")
