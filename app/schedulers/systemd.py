"""A systemd user timer and its service per schedule, in ~/.config/systemd/user.

`Persistent=true`: a time missed while the computer was off or asleep runs once when it is
on again (systemd keeps the last trigger's time), never once per missed time.
"""

from __future__ import annotations

import os
from pathlib import Path

from app.core.workspace.files import atomic_write_text
from app.core.schedule.launch import app_environment, output_log, run_command
from app.core.schedule.model import DAY_NAMES, Schedule
from app.schedulers import run_tool

PREFIX = "harness-desk-schedule-"


def unit_folder() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "systemd" / "user"


def on_calendar(s: Schedule) -> list[str]:
    """OnCalendar= values. A monthly day past the 28th is that day, or the month's last
    (`~01`) in a shorter month; the run itself tells which of the two is due."""
    at = f"{s.hour:02d}:{s.minute:02d}:00"
    if s.kind == "daily":
        return [f"*-*-* {at}"]
    if s.kind == "weekdays":
        names = ",".join(DAY_NAMES[d].capitalize() for d in s.days)
        return [f"{names} *-*-* {at}"]
    if s.day_of_month <= 28:
        return [f"*-*-{s.day_of_month:02d} {at}"]
    return [f"*-*-{s.day_of_month:02d} {at}", f"*-*~01 {at}"]


def _quote(arg: str) -> str:
    # systemd's own quoting: double quotes, with \ " and $ (and % as %%) escaped.
    text = arg.replace("\\", "\\\\").replace('"', '\\"').replace("$", "$$").replace("%", "%%")
    return f'"{text}"'


def render(s: Schedule) -> dict[str, str]:
    """{file name: text} of the service and the timer."""
    name = PREFIX + s.id
    env = "".join(f"Environment={_quote(f'{k}={v}')}\n"
                  for k, v in sorted(app_environment().items()))
    log = output_log(s.id)
    service = (
        "[Unit]\n"
        f"Description=Harness Desk: scheduled run of {_plain(s.folder)}\n"
        "\n[Service]\n"
        "Type=oneshot\n"
        f"{env}"
        f"ExecStart={' '.join(_quote(a) for a in run_command(s.folder))}\n"
        f"StandardOutput=truncate:{_plain(str(log))}\n"
        "StandardError=inherit\n"
        # The run stops itself (budget, limits, decisions); this only guards against a hang.
        "TimeoutStartSec=12h\n")
    calendar = "".join(f"OnCalendar={v}\n" for v in on_calendar(s))
    timer = (
        "[Unit]\n"
        f"Description=Harness Desk: when to run {_plain(s.folder)}\n"
        "\n[Timer]\n"
        f"{calendar}"
        "Persistent=true\n"
        f"Unit={name}.service\n"
        "\n[Install]\n"
        "WantedBy=timers.target\n")
    return {f"{name}.service": service, f"{name}.timer": timer}


def _plain(text: str) -> str:
    return text.replace("%", "%%").replace("\n", " ")


def install(s: Schedule) -> None:
    folder = unit_folder()
    folder.mkdir(parents=True, exist_ok=True)
    output_log(s.id).parent.mkdir(parents=True, exist_ok=True)

    for file_name, text in render(s).items():
        atomic_write_text(folder / file_name, text)
    run_tool(["systemctl", "--user", "daemon-reload"], "reload your systemd timers")
    run_tool(["systemctl", "--user", "enable", "--now", f"{PREFIX}{s.id}.timer"],
             "start the schedule's systemd timer")


def remove(schedule_id: str) -> None:
    name = PREFIX + schedule_id
    folder = unit_folder()
    if not any((folder / f"{name}.{k}").exists() for k in ("timer", "service")):
        return
    run_tool(["systemctl", "--user", "disable", "--now", f"{name}.timer"],
             "stop the schedule's systemd timer", ok_codes=(0, 1, 5))
    for kind in ("timer", "service"):
        (folder / f"{name}.{kind}").unlink(missing_ok=True)
    run_tool(["systemctl", "--user", "daemon-reload"], "reload your systemd timers")


def installed_ids() -> list[str]:
    return sorted(p.name[len(PREFIX):-len(".timer")]
                  for p in unit_folder().glob(f"{PREFIX}*.timer"))

