"""A Task Scheduler task per schedule, for the person, in the task folder \\Harness Desk\\,
registered with `schtasks /Create /XML`.

StartWhenAvailable: a start missed while the computer was off or asleep runs as soon as
possible afterwards, once. IgnoreNew: a wake while the last run is still going starts
nothing. The task runs only while the person is logged on (InteractiveToken), so no
password is stored and the notification reaches them.
"""

from __future__ import annotations

import subprocess
import tempfile
from datetime import datetime
from pathlib import Path
from xml.sax.saxutils import escape

from app.core.schedule.launch import app_environment, output_log, run_command
from app.core.schedule.model import Schedule
from app.schedulers import run_tool

NS = "http://schemas.microsoft.com/windows/2004/02/mit/task"
TASK_FOLDER = "\\Harness Desk\\"
DAY_ELEMENTS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


def task_name(schedule_id: str) -> str:
    return TASK_FOLDER + schedule_id


def _trigger_schedule(s: Schedule) -> str:
    if s.kind == "daily":
        return "<ScheduleByDay><DaysInterval>1</DaysInterval></ScheduleByDay>"
    if s.kind == "weekdays":
        days = "".join(f"<{DAY_ELEMENTS[d]} />" for d in s.days)
        return (f"<ScheduleByWeek><DaysOfWeek>{days}</DaysOfWeek>"
                "<WeeksInterval>1</WeeksInterval></ScheduleByWeek>")
    days = f"<Day>{s.day_of_month}</Day>"
    if s.day_of_month > 28:  # a shorter month: its last day (the run tells which is due)
        days += "<Day>Last</Day>"
    months = "".join(f"<{m} />" for m in MONTHS)
    return (f"<ScheduleByMonth><DaysOfMonth>{days}</DaysOfMonth>"
            f"<Months>{months}</Months></ScheduleByMonth>")


def _command_line(argv: list[str]) -> str:
    return subprocess.list2cmdline(argv)


def render(s: Schedule, now: datetime | None = None) -> str:
    """The task's XML (Task Scheduler schema 1.2), as text."""
    start = (now or datetime.now()).replace(hour=s.hour, minute=s.minute, second=0,
                                            microsecond=0)
    argv = run_command(s.folder)
    command, arguments = argv[0], _command_line(argv[1:])
    env = app_environment()
    if env:  # Task Scheduler has no environment of its own: cmd sets it (/s: the line as is)
        sets = " && ".join(f'set "{k}={v}"' for k, v in sorted(env.items()))
        command, arguments = "cmd.exe", f'/d /s /c "{sets} && {_command_line(argv)}"'
    return (
        '<?xml version="1.0" encoding="UTF-16"?>\n'
        f'<Task version="1.2" xmlns="{NS}">\n'
        "  <RegistrationInfo>\n"
        f"    <Description>{escape(f'Harness Desk: scheduled run of {s.folder}')}</Description>\n"
        f"    <URI>{escape(task_name(s.id))}</URI>\n"
        "  </RegistrationInfo>\n"
        "  <Triggers>\n"
        "    <CalendarTrigger>\n"
        f"      <StartBoundary>{start.isoformat(timespec='seconds')}</StartBoundary>\n"
        "      <Enabled>true</Enabled>\n"
        f"      {_trigger_schedule(s)}\n"
        "    </CalendarTrigger>\n"
        "  </Triggers>\n"
        "  <Principals>\n"
        '    <Principal id="Author">\n'
        "      <LogonType>InteractiveToken</LogonType>\n"
        "      <RunLevel>LeastPrivilege</RunLevel>\n"
        "    </Principal>\n"
        "  </Principals>\n"
        "  <Settings>\n"
        "    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>\n"
        "    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>\n"
        "    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>\n"
        "    <StartWhenAvailable>true</StartWhenAvailable>\n"
        "    <RunOnlyIfNetworkAvailable>false</RunOnlyIfNetworkAvailable>\n"
        "    <Enabled>true</Enabled>\n"
        "    <ExecutionTimeLimit>PT12H</ExecutionTimeLimit>\n"
        "  </Settings>\n"
        '  <Actions Context="Author">\n'
        "    <Exec>\n"
        f"      <Command>{escape(command)}</Command>\n"
        f"      <Arguments>{escape(arguments)}</Arguments>\n"
        "    </Exec>\n"
        "  </Actions>\n"
        "</Task>\n")


def install(s: Schedule) -> None:

    output_log(s.id).parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "task.xml"
        xml.write_text(render(s), encoding="utf-16")  # schtasks reads UTF-16 XML
        run_tool(["schtasks", "/Create", "/TN", task_name(s.id), "/XML", str(xml), "/F"],
                 "register the schedule with Task Scheduler")


def remove(schedule_id: str) -> None:
    run_tool(["schtasks", "/Delete", "/TN", task_name(schedule_id), "/F"],
             "remove the schedule from Task Scheduler", ok_codes=(0, 1))
