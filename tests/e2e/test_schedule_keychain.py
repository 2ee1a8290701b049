"""A scheduled run and the person's keychain: cron starts the run with no D-Bus session
(DBUS_SESSION_BUS_ADDRESS unset), so the Secret Service is out of reach unless the run finds
the person's own bus (XDG_RUNTIME_DIR/bus, /run/user/<uid>/bus). The command cron runs is
run here as cron runs it: its own line, under `sh -c`, with only HOME, LOGNAME, PATH and SHELL
(and what the line sets itself). When no bus is there (the person logged out) the run stops
at once with one sentence, spending nothing."""

from __future__ import annotations

import getpass
import json
import os
import subprocess
import sys
import uuid
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app.core.schedule import records as R
from app.core.schedule import store
from app.core.schedule.launch import output_log
from app.core.schedule.model import Schedule
from app.core.schedule.notify import words
from app.schedulers import cron
from tests.engines.fake_servers import claude_stream, claude_usage, tool_use

from .conftest import BLOCKED, FAILED, jsonl, run_dirs

KEY = f"sk-ant-api03-Cron-{uuid.uuid4().hex}"
LOGGED_OUT = ("{}'s API key could not be read from the keychain: a scheduled run needs you "
              "logged in on this computer, with its keychain unlocked.")
real_keychain = pytest.mark.skipif(
    os.environ.get("HARNESS_DESK_REAL_KEYCHAIN") != "1",
    reason="needs the real Secret Service: run under `bash .ci/keyring-session.sh ...`")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="cron and the D-Bus session bus are Linux's")


@pytest.fixture
def config(tmp_path: Path, monkeypatch) -> Path:
    folder = tmp_path / "config"
    folder.mkdir()
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(folder))  # the cron line carries it
    return folder


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "My notes"
    root.mkdir()
    (root / "TASKS.md").write_text("# Tidy\n\n- [ ] Tidy my notes\n  - Done when: notes.md is "
                                   "tidy\n", encoding="utf-8")
    (root / "notes.md").write_text("old notes\n", encoding="utf-8")
    return root


def due_schedule(folder: Path, engine: str) -> Schedule:
    now = datetime.now()
    s = Schedule(folder=str(folder.resolve()), kind="daily",
                 time=(now - timedelta(hours=1)).strftime("%H:%M"), budget_usd=1.0,
                 engine=engine, created_at=(now - timedelta(days=1)).isoformat(), backend="cron")
    store.save(s)
    return s


def base_url(config: Path, engine: str, url: str) -> None:
    (config / "settings.json").write_text(json.dumps({"engines": {engine: {"base_url": url}}}),
                                          encoding="utf-8")


def cron_line(s: Schedule, home: Path) -> tuple[str, dict[str, str]]:
    """The schedule's own crontab command, and the environment cron gives it (env -i, then
    HOME, LOGNAME, PATH and SHELL)."""
    command = cron.render(s).split(" ", 5)[5].removesuffix(f" {cron.MARK} {s.id}")
    home.mkdir(exist_ok=True)
    return command, {"HOME": str(home), "LOGNAME": getpass.getuser(), "PATH": "/usr/bin:/bin",
                     "SHELL": "/bin/sh",
                     "HARNESS_DESK_NO_NOTIFY": "1"}  # the test session has no notifications


def as_cron_runs_it(s: Schedule, runtime: Path) -> subprocess.CompletedProcess:
    command, env = cron_line(s, runtime.parent / "home")
    # The folder the bus is looked for in (cron itself gives none: /run/user/<uid>).
    env["XDG_RUNTIME_DIR"] = str(runtime)
    return subprocess.run(["/bin/sh", "-c", command], env=env, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


def socket_of(address: str) -> str | None:
    """The socket file of a D-Bus address (`unix:path=/tmp/dbus-…,guid=…`), if it has one."""
    if not address.startswith("unix:"):
        return None
    return dict(p.split("=", 1) for p in address[5:].split(",") if "=" in p).get("path")


@real_keychain
def test_a_cron_run_reads_the_key_from_the_keychain_over_the_persons_bus(
        config, ws, tmp_path, server):
    from app.engines.keys import delete_key, set_key

    address = os.environ.get("DBUS_SESSION_BUS_ADDRESS", "")
    socket_path = socket_of(address)
    if not socket_path:
        pytest.skip(f"the test session's bus has no socket file to point at ({address})")
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    (runtime / "bus").symlink_to(socket_path)  # as /run/user/<uid>/bus is the person's bus
    server.push("/v1/messages", claude_stream([tool_use("toolu_1", "ask_human", {
        "question": "Keep the old notes?", "options": ["keep", "drop"],
        "evidence": ["notes.md"], "recommendation": "keep"})], usage=claude_usage()))
    base_url(config, "anthropic", server.url)
    s = due_schedule(ws, "anthropic")
    assert set_key("anthropic", KEY) is None  # the app's own keychain code, as Engine settings
    try:
        done = as_cron_runs_it(s, runtime)
    finally:
        delete_key("anthropic")
    log = output_log(s.id).read_text(encoding="utf-8")
    assert done.returncode == BLOCKED, (done, log)
    assert server.requests and all(  # the key the keychain holds, as the SDK sends it
        KEY in r.headers.get("authorization", "") + r.headers.get("x-api-key", "")
        for r in server.requests)
    [wake] = jsonl(ws / ".harness" / R.FOLDER_FILE)
    assert wake["outcome"] == "blocked_by_human" and wake["question"] == "Keep the old notes?"
    assert KEY not in log and KEY not in json.dumps(wake)


@pytest.mark.parametrize("engine,vendor", [("anthropic", "Claude"), ("openai", "OpenAI")])
def test_logged_out_a_cron_run_stops_at_once_with_one_sentence(
        config, ws, tmp_path, server, engine, vendor):
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)  # the person's runtime folder, with no bus: not logged in
    base_url(config, engine, server.url + ("/v1" if engine == "openai" else ""))
    s = due_schedule(ws, engine)
    done = as_cron_runs_it(s, runtime)
    said = LOGGED_OUT.format(vendor)
    assert done.returncode == FAILED, done
    assert output_log(s.id).read_text(encoding="utf-8").strip() == said  # nothing else
    assert server.requests == [] and run_dirs(ws) == []  # nothing reached, nothing spent
    [wake] = jsonl(ws / ".harness" / R.FOLDER_FILE)
    assert (wake["outcome"], wake["exit_code"], wake["kind"]) == ("failed", FAILED, "key")
    assert wake["message"] == said and wake["exit_reason"] == "auth_failed"
    rec = R.WakeRecord(**wake)
    assert words(rec) == ("Scheduled run stopped", f"“My notes”: {said}")


# Inside a keychain session of its own: store the key, lock the keychain (as it is after the
# screen locks, on many desktops), then run the cron line over that session's bus.
LOCKED = r"""
import os, subprocess, sys
from pathlib import Path

import secretstorage

from app.engines.keys import set_key
from tests.e2e.test_schedule_keychain import socket_of

key, runtime, command, env = sys.argv[1], Path(sys.argv[2]), sys.argv[3], dict(
    item.split("=", 1) for item in sys.argv[4:])
assert set_key("anthropic", key) is None
collection = secretstorage.get_default_collection(secretstorage.dbus_init())
collection.lock()
assert collection.is_locked()
(runtime / "bus").symlink_to(socket_of(os.environ["DBUS_SESSION_BUS_ADDRESS"]))
sys.exit(subprocess.run(["/bin/sh", "-c", command], env={**env, "XDG_RUNTIME_DIR": str(runtime)},
                        stdin=subprocess.DEVNULL, timeout=120).returncode)
"""


@real_keychain
def test_a_locked_keychain_stops_a_cron_run_at_once_with_one_sentence(config, ws, tmp_path,
                                                                      server):
    base_url(config, "anthropic", server.url)
    s = due_schedule(ws, "anthropic")
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    command, env = cron_line(s, tmp_path / "home")
    outer = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run(  # a session of its own: the one the other tests use stays unlocked
        ["bash", ".ci/keyring-session.sh", sys.executable, "-c", LOCKED, KEY, str(runtime),
         command, *(f"{k}={v}" for k, v in env.items())],
        cwd=outer["PYTHONPATH"], env=outer, capture_output=True, text=True, timeout=180)
    said = LOGGED_OUT.format("Claude")
    assert done.returncode == FAILED, done
    assert output_log(s.id).read_text(encoding="utf-8").strip() == said
    assert server.requests == [] and run_dirs(ws) == []
    [wake] = jsonl(ws / ".harness" / R.FOLDER_FILE)
    assert (wake["message"], wake["kind"], wake["exit_code"]) == (said, "key", FAILED)
