"""A LaunchAgent per schedule, in ~/Library/LaunchAgents, with StartCalendarInterval.

launchd runs a calendar time missed while the Mac slept once when it wakes (several missed
times are run as one). A time missed while it was shut down is not run by launchd; the app
says so in docs/cli.md.
"""

from __future__ import annotations

import os
import plistlib
from pathlib import Path

from app.core.workspace.files import atomic_write_bytes
from app.core.schedule.launch import app_environment, output_log, run_command
from app.core.schedule.model import Schedule
from app.schedulers import run_tool

LABEL_PREFIX = "io.harnessdesk.schedule."


def agents_folder() -> Path:
    return Path.home() / "Library" / "LaunchAgents"


def label(schedule_id: str) -> str:
    return LABEL_PREFIX + schedule_id


def intervals(s: Schedule) -> list[dict]:
    """StartCalendarInterval's dictionaries (launchd counts Sunday as 0). A monthly day past
    the 28th wakes on each day from the 28th up to it; the run tells which is the month's."""
    at = {"Hour": s.hour, "Minute": s.minute}
    if s.kind == "daily":
        return [at]
    if s.kind == "weekdays":
        return [{**at, "Weekday": (d + 1) % 7} for d in s.days]
    if s.day_of_month <= 28:
        return [{**at, "Day": s.day_of_month}]
    return [{**at, "Day": d} for d in range(28, s.day_of_month + 1)]


def render(s: Schedule) -> bytes:
    log = str(output_log(s.id))
    job = {
        "Label": label(s.id),
        "ProgramArguments": run_command(s.folder),
        "StartCalendarInterval": intervals(s),
        "RunAtLoad": False,
        "ProcessType": "Background",
        "StandardOutPath": log,
        "StandardErrorPath": log,
    }
    env = app_environment()
    if env:
        job["EnvironmentVariables"] = env
    return plistlib.dumps(job, fmt=plistlib.FMT_XML)


def _domain() -> str:
    return f"gui/{os.getuid()}"


def install(s: Schedule) -> None:
    path = agents_folder() / f"{label(s.id)}.plist"
    path.parent.mkdir(parents=True, exist_ok=True)
    output_log(s.id).parent.mkdir(parents=True, exist_ok=True)

    # A loaded agent must be taken out before its file changes, or launchd keeps the old one.
    run_tool(["launchctl", "bootout", f"{_domain()}/{label(s.id)}"], "stop the old schedule",
             ok_codes=tuple(range(256)))
    atomic_write_bytes(path, render(s))
    run_tool(["launchctl", "bootstrap", _domain(), str(path)], "load the schedule into launchd")


def remove(schedule_id: str) -> None:
    path = agents_folder() / f"{label(schedule_id)}.plist"
    if not path.exists():
        return
    run_tool(["launchctl", "bootout", f"{_domain()}/{label(schedule_id)}"],
             "take the schedule out of launchd", ok_codes=tuple(range(256)))
    path.unlink(missing_ok=True)


def installed_ids() -> list[str]:
    return sorted(p.stem[len(LABEL_PREFIX):]
                  for p in agents_folder().glob(f"{LABEL_PREFIX}*.plist"))
