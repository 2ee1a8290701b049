"""The computer's own schedulers, each writing and removing the entries that wake a
schedule's runs: Task Scheduler (Windows), launchd (macOS), a systemd user timer
(Linux with a user session of systemd), cron (other Linux and Unix).

Each backend module has `render(schedule)` (the entry's text, pure, what the tests check),
`install(schedule)` and `remove(schedule_id)`; nothing keeps running between wakes.
"""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys

from app.core.errors import HarnessError

BACKENDS = ("windows", "launchd", "systemd", "cron")
TIMEOUT_S = 20


class SchedulerError(HarnessError):
    """The computer's scheduler refused or is missing: one sentence, and for the window's own
    words its kind ("no_scheduler", "missing", "timeout", "refused", "unknown"), the
    scheduler's program and what it said."""

    def __init__(self, message: str, kind: str = "unknown", program: str = "", said: str = ""):
        super().__init__(message)
        self.kind, self.program, self.said = kind, program, said


def backend_module(name: str):
    if name not in BACKENDS:
        raise SchedulerError(f"“{name}” is not a scheduler this app knows.")
    return importlib.import_module(f"app.schedulers.{name}")


def choose_backend() -> str:
    """The scheduler this computer has (HARNESS_DESK_SCHEDULER picks one, for tests)."""
    forced = os.environ.get("HARNESS_DESK_SCHEDULER")
    if forced:
        return forced
    if sys.platform == "win32":
        return "windows"
    if sys.platform == "darwin":
        return "launchd"
    if systemd_user_session():
        return "systemd"
    if shutil.which("crontab"):
        return "cron"
    raise SchedulerError("This computer has no scheduler the app can use: install cron "
                         "(on Debian and Ubuntu: sudo apt install cron) or log in to a "
                         "desktop session, then try again.", kind="no_scheduler")


def systemd_user_session() -> bool:
    if not shutil.which("systemctl"):
        return False
    try:
        done = subprocess.run(["systemctl", "--user", "show-environment"], capture_output=True,
                              timeout=5)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def run_tool(argv: list[str], what: str, stdin: str | None = None,
             ok_codes: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess:
    """Run a scheduler's own tool; a refusal becomes one sentence naming what failed."""
    try:
        done = subprocess.run(argv, input=stdin, capture_output=True, text=True,
                              timeout=TIMEOUT_S)
    except FileNotFoundError:
        raise SchedulerError(f"Could not {what}: the program {argv[0]} is not on this "
                             "computer.", kind="missing", program=argv[0]) from None
    except subprocess.TimeoutExpired:
        raise SchedulerError(f"Could not {what}: {argv[0]} did not answer within "
                             f"{TIMEOUT_S} seconds.", kind="timeout", program=argv[0]) from None
    if done.returncode not in ok_codes:
        said = " ".join((done.stderr or done.stdout or "").split())[:200].rstrip(".")
        raise SchedulerError(f"Could not {what}: {argv[0]} said “{said or done.returncode}”.",
                             kind="refused", program=argv[0], said=said or str(done.returncode))
    return done
