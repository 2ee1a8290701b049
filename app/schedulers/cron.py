"""cron: a line per schedule in the person's crontab, and two catch-up lines.

cron runs nothing it missed while the computer was off or asleep, so two more lines catch
up: at every start (`@reboot`, after a minute and a half, when a desktop session is likely
up) and once an hour, `harness-desk schedule --catch-up` runs each schedule whose latest due
time has not been run yet, once (app.core.schedule.store.claim_due): a laptop asleep for
three Mondays runs the Monday job once when it wakes, within the hour. A wake on a day that
is not due (the monthly lines below) runs nothing.
"""

from __future__ import annotations

import shlex

from app.core.schedule.launch import app_environment, catch_up_command, output_log, run_command
from app.core.schedule.model import Schedule
from app.schedulers import run_tool

MARK = "# harness-desk-schedule"
CATCH_UP_MARK = "# harness-desk-catch-up"
CATCH_UP_MINUTE = 17


def when_fields(s: Schedule) -> str:
    """The five time fields. cron counts Sunday as 0; a monthly day past the 28th wakes on
    each day from the 28th up to it, and the run itself tells which is the month's."""
    if s.kind == "daily":
        days = "* * *"
    elif s.kind == "weekdays":
        days = "* * " + ",".join(str((d + 1) % 7) for d in s.days)
    elif s.day_of_month <= 28:
        days = f"{s.day_of_month} * *"
    else:
        days = f"28-{s.day_of_month} * *"
    return f"{s.minute} {s.hour} {days}"


def _shell(argv: list[str], log: str) -> str:
    env = " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted(app_environment().items()))
    line = f"{env + ' ' if env else ''}{shlex.join(argv)} >{shlex.quote(log)} 2>&1"
    return line.replace("%", "\\%")  # cron turns a bare % into a new line


def render(s: Schedule) -> str:
    """The schedule's crontab line."""
    log = output_log(s.id)
    command = f"mkdir -p {shlex.quote(str(log.parent))} && " + _shell(
        run_command(s.folder), str(log))
    return f"{when_fields(s)} {command} {MARK} {s.id}"


def catch_up_lines() -> list[str]:
    log = str(output_log("catch-up"))
    command = f"mkdir -p {shlex.quote(str(output_log('x').parent))} && " + _shell(
        catch_up_command(), log)
    return [f"@reboot sleep 90 && {command} {CATCH_UP_MARK}",
            f"{CATCH_UP_MINUTE} * * * * {command} {CATCH_UP_MARK}"]


def read_crontab() -> list[str]:
    done = run_tool(["crontab", "-l"], "read your crontab", ok_codes=(0, 1))
    # `crontab -l` exits 1 with "no crontab for NAME" when there is none.
    return done.stdout.splitlines() if done.returncode == 0 else []


def _ours(line: str, schedule_id: str | None = None) -> bool:
    if schedule_id is None:
        return MARK in line or CATCH_UP_MARK in line
    return line.endswith(f"{MARK} {schedule_id}")


def _write(lines: list[str]) -> None:
    others = [x for x in lines if CATCH_UP_MARK not in x]
    if any(MARK in x for x in others):
        others += catch_up_lines()
    text = "\n".join(others) + "\n" if others else ""
    run_tool(["crontab", "-"], "write your crontab", stdin=text)


def install(s: Schedule) -> None:
    lines = [x for x in read_crontab() if not _ours(x, s.id)]
    _write(lines + [render(s)])


def remove(schedule_id: str) -> None:
    lines = read_crontab()
    if any(_ours(x, schedule_id) for x in lines):
        _write([x for x in lines if not _ours(x, schedule_id)])


def installed_ids() -> list[str]:
    return [x.rsplit(" ", 1)[1] for x in read_crontab() if MARK in x and CATCH_UP_MARK not in x]
