"""A schedule run by a real cron daemon (issue 38): `harness-desk schedule` writes the entry
into the person's crontab for a minute ahead, cron (Debian's `cron`, started by .ci/run) wakes
the headless run with the window closed, and the run's records appear. Skipped with the
reason where no cron daemon runs; with HARNESS_DESK_CRON_EXPECTED=1 (CI) a missing cron
fails instead. The entry is taken out of the crontab whatever happens."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from .conftest import DONE, jsonl, run_dirs

WAIT_S = 150


def cron_daemon_pid() -> int | None:
    for pid_file in ("/run/crond.pid", "/var/run/crond.pid"):
        try:
            pid = int(Path(pid_file).read_text().split()[0])
            os.kill(pid, 0)
            return pid
        except (OSError, ValueError, IndexError):
            continue
    return None


@pytest.fixture
def cron_running():
    missing = None
    if shutil.which("crontab") is None:
        missing = "the crontab program is not installed (Debian: apt install cron)"
    elif cron_daemon_pid() is None:
        missing = "no cron daemon is running (start it with `cron` as root)"
    if missing:
        if os.environ.get("HARNESS_DESK_CRON_EXPECTED") == "1":
            pytest.fail(f"CI expects a running cron daemon, but {missing}.")
        pytest.skip(missing)


def _strip_ours(marker: str) -> None:
    """Take every crontab line this test wrote (they name its own config folder) away."""
    done = subprocess.run(["crontab", "-l"], capture_output=True, text=True)
    if done.returncode != 0:
        return
    kept = [x for x in done.stdout.splitlines() if marker not in x]
    if len(kept) != len(done.stdout.splitlines()):
        subprocess.run(["crontab", "-"], input="\n".join(kept) + "\n" if kept else "",
                       text=True, check=True)


def test_cron_runs_a_schedule_set_a_minute_ahead(cron_running, cli, demo_ws):
    cli.env.update(HARNESS_DESK_SCHEDULER="cron")
    now = datetime.now()
    at = (now + timedelta(minutes=1 if now.second < 40 else 2)).strftime("%H:%M")
    marker = str(cli.config_dir)
    records = demo_ws / ".harness" / "scheduled.jsonl"
    try:
        res = cli("schedule", demo_ws, "--every", "day", "--at", at, "--engine", "demo",
                  "--budget-usd", "1")
        assert res.code == DONE, res
        tab = subprocess.run(["crontab", "-l"], capture_output=True, text=True).stdout
        assert " --scheduled " in tab and marker in tab, tab
        deadline = time.monotonic() + WAIT_S
        while not records.exists() and time.monotonic() < deadline:
            time.sleep(1)
        logs = "\n".join(p.read_text(errors="replace")
                         for p in (cli.config_dir / "schedule-output").glob("*.log"))
        assert records.exists(), f"cron did not run the schedule at {at} within {WAIT_S} s; " \
                                 f"its output:\n{logs}"
        [wake] = jsonl(records)
        assert wake["due"].endswith("T" + at)
        assert wake["outcome"] in ("done", "stopped", "blocked_by_human"), wake
        assert wake["run_id"] and [p.name for p in run_dirs(demo_ws)] == [wake["run_id"]]
        assert (demo_ws / ".harness" / "runs" / wake["run_id"] / "rounds.jsonl").exists()
    finally:
        cli("schedule", demo_ws, "--remove")
        _strip_ours(marker)
    tab = subprocess.run(["crontab", "-l"], capture_output=True, text=True).stdout
    assert marker not in tab
