"""The scheduler entries a schedule writes (issue 38), read back the way each scheduler reads
them: launchd's plist with plistlib, the Task Scheduler XML against the schema's required
elements, the systemd units with `systemd-analyze verify`, the crontab line field by field."""

from __future__ import annotations

import os
import plistlib
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from datetime import datetime

import pytest

from app.core.schedule.model import Schedule
from app.schedulers import cron, launchd, systemd, windows

FOLDER = "/home/rosie/Bakery 100% \"best\" $HOME"


def sched(**kw) -> Schedule:
    base = dict(folder=FOLDER, kind="weekdays", days=[0, 3], time="07:05", budget_usd=2.5)
    base.update(kw)
    return Schedule(**base).check()


KINDS = [dict(kind="daily"), dict(kind="weekdays", days=[0, 3]),
         dict(kind="weekdays", days=[6]), dict(kind="monthly", day_of_month=1),
         dict(kind="monthly", day_of_month=31)]


@pytest.fixture(autouse=True)
def config(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))


# -- launchd ------------------------------------------------------------------------------

def test_launchd_plist_reads_back_with_its_keys():
    job = plistlib.loads(launchd.render(sched()))
    assert job["Label"] == f"io.harnessdesk.schedule.{sched().id}"
    assert job["ProgramArguments"] == [sys.executable, "-m", "app", "run", FOLDER, "--scheduled"]
    # launchd counts Sunday as 0: Monday 1, Thursday 4.
    assert job["StartCalendarInterval"] == [{"Hour": 7, "Minute": 5, "Weekday": 1},
                                            {"Hour": 7, "Minute": 5, "Weekday": 4}]
    assert job["RunAtLoad"] is False
    assert job["EnvironmentVariables"]["HARNESS_DESK_CONFIG_DIR"].endswith("config")
    assert job["StandardOutPath"] == job["StandardErrorPath"]
    assert set(job) <= {"Label", "ProgramArguments", "StartCalendarInterval", "RunAtLoad",
                        "ProcessType", "StandardOutPath", "StandardErrorPath",
                        "EnvironmentVariables"}


def test_launchd_intervals_of_each_kind():
    assert launchd.intervals(sched(kind="daily")) == [{"Hour": 7, "Minute": 5}]
    assert launchd.intervals(sched(kind="weekdays", days=[6])) == [
        {"Hour": 7, "Minute": 5, "Weekday": 0}]
    assert [i["Day"] for i in launchd.intervals(sched(kind="monthly", day_of_month=30))] == [
        28, 29, 30]


# -- Task Scheduler -----------------------------------------------------------------------

NS = {"t": "http://schemas.microsoft.com/windows/2004/02/mit/task"}
# The elements the schema (MS-TSCH, taskType and settingsType, both xs:all: any order, each
# at most once) allows as the Task's children and the Settings' children.
TASK_CHILDREN = ["RegistrationInfo", "Triggers", "Settings", "Data", "Principals", "Actions"]
SETTINGS_CHILDREN = ["AllowStartOnDemand", "RestartOnFailure", "MultipleInstancesPolicy",
                  "DisallowStartIfOnBatteries", "StopIfGoingOnBatteries",
                  "AllowHardTerminate", "StartWhenAvailable", "NetworkProfileName",
                  "RunOnlyIfNetworkAvailable", "WakeToRun", "Enabled", "Hidden",
                  "DeleteExpiredTaskAfter", "IdleSettings", "NetworkSettings",
                  "ExecutionTimeLimit", "Priority", "RunOnlyIfIdle", "UseUnifiedSchedulingEngine",
                  "DisallowStartOnRemoteAppSession", "MaintenanceSettings", "Volatile"]


def _local(el) -> str:
    return el.tag.split("}", 1)[1]


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: f"{k['kind']}{k.get('days', '')}"
                         f"{k.get('day_of_month', '')}")
def test_task_scheduler_xml_has_what_the_schema_requires(kind, tmp_path):
    text = windows.render(sched(**kind), now=datetime(2026, 12, 4, 12, 0))
    # As schtasks reads it: a UTF-16 file that says so.
    path = tmp_path / "task.xml"
    path.write_text(text, encoding="utf-16")
    root = ET.parse(path).getroot()
    assert root.tag == "{%s}Task" % NS["t"] and root.get("version") == "1.2"
    names = [_local(c) for c in root]
    assert "Actions" in names  # the one child the schema requires
    assert set(names) <= set(TASK_CHILDREN) and len(names) == len(set(names)), names
    trig = root.find("t:Triggers/t:CalendarTrigger", NS)
    assert trig.find("t:StartBoundary", NS).text == "2026-12-04T07:05:00"
    datetime.fromisoformat(trig.find("t:StartBoundary", NS).text)  # xs:dateTime
    by = [c for c in trig if _local(c).startswith("ScheduleBy")]
    assert len(by) == 1  # a CalendarTrigger has exactly one
    if kind["kind"] == "weekdays":
        days = [_local(d) for d in by[0].find("t:DaysOfWeek", NS)]
        assert days == [windows.DAY_ELEMENTS[d] for d in kind["days"]]
        assert by[0].find("t:WeeksInterval", NS).text == "1"
    elif kind["kind"] == "monthly":
        days = [d.text for d in by[0].find("t:DaysOfMonth", NS)]
        assert days == (["31", "Last"] if kind["day_of_month"] == 31 else ["1"])
        assert len(by[0].find("t:Months", NS)) == 12
    else:
        assert by[0].find("t:DaysInterval", NS).text == "1"
    settings = root.find("t:Settings", NS)
    names = [_local(c) for c in settings]
    assert set(names) <= set(SETTINGS_CHILDREN) and len(names) == len(set(names)), names
    assert settings.find("t:StartWhenAvailable", NS).text == "true"  # a missed start runs
    assert settings.find("t:MultipleInstancesPolicy", NS).text == "IgnoreNew"
    principal = root.find("t:Principals/t:Principal", NS)
    assert principal.find("t:LogonType", NS).text == "InteractiveToken"
    actions = root.find("t:Actions", NS)
    assert actions.get("Context") == principal.get("id")
    exec_ = actions.find("t:Exec", NS)
    assert exec_.find("t:Command", NS).text  # required inside Exec


def test_task_scheduler_action_runs_the_installed_app_on_the_folder(monkeypatch):
    monkeypatch.delenv("HARNESS_DESK_CONFIG_DIR")
    monkeypatch.setattr(sys, "frozen", True, raising=False)  # as the installed Windows app is
    root = ET.fromstring(windows.render(sched()).split("\n", 1)[1])
    exec_ = root.find("t:Actions/t:Exec", NS)
    assert exec_.find("t:Command", NS).text == sys.executable
    assert exec_.find("t:Arguments", NS).text == subprocess.list2cmdline(
        ["run", FOLDER, "--scheduled"])


def test_task_scheduler_action_of_a_checkout_sets_its_environment():
    root = ET.fromstring(windows.render(sched()).split("\n", 1)[1])
    exec_ = root.find("t:Actions/t:Exec", NS)
    assert exec_.find("t:Command", NS).text == "cmd.exe"
    args = exec_.find("t:Arguments", NS).text
    assert 'set "PYTHONPATH=' in args and 'set "HARNESS_DESK_CONFIG_DIR=' in args
    assert args.startswith('/d /s /c "set "HARNESS_DESK_CONFIG_DIR=')
    assert " -m app run " in args and args.endswith(' --scheduled"')


# -- systemd ------------------------------------------------------------------------------

def test_systemd_timer_is_persistent_and_names_its_service():
    units = systemd.render(sched())
    name = f"harness-desk-schedule-{sched().id}"
    timer, service = units[f"{name}.timer"], units[f"{name}.service"]
    assert "Persistent=true\n" in timer and f"Unit={name}.service\n" in timer
    assert "OnCalendar=Mon,Thu *-*-* 07:05:00\n" in timer
    assert "Type=oneshot\n" in service and "--scheduled" in service
    assert systemd.on_calendar(sched(kind="monthly", day_of_month=30)) == [
        "*-*-30 07:05:00", "*-*~01 07:05:00"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed on this machine")
@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k["kind"])
def test_systemd_units_pass_systemd_analyze_verify(kind, tmp_path):
    units = systemd.render(sched(**kind))
    for name, text in units.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime))
    done = subprocess.run(["systemd-analyze", "verify", "--user",
                           *sorted(str(tmp_path / n) for n in units)],
                          capture_output=True, text=True, env=env, timeout=60)
    # verify exits 0 even for an OnCalendar it ignores; anything it says is a fault here.
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr
    for value in systemd.on_calendar(sched(**kind)):
        cal = subprocess.run(["systemd-analyze", "calendar", value], capture_output=True,
                             text=True, timeout=30)
        assert cal.returncode == 0, cal.stderr


# -- cron ---------------------------------------------------------------------------------

def _cron_field_ok(field: str, low: int, high: int) -> bool:
    if field == "*":
        return True
    for part in field.split(","):
        ends = [int(x) for x in part.split("-")]
        if not all(low <= x <= high for x in ends) or ends != sorted(ends):
            return False
    return True


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k["kind"])
def test_cron_line_has_five_valid_fields_and_the_command(kind):
    line = cron.render(sched(**kind))
    fields = line.split(" ", 5)
    for field, (low, high) in zip(fields[:5], [(0, 59), (0, 23), (1, 31), (1, 12), (0, 7)]):
        assert _cron_field_ok(field, low, high), line
    assert fields[0] == "5" and fields[1] == "7"
    command = fields[5]
    assert "%" not in command.replace("\\%", "")  # cron would cut the line at a bare %
    assert command.endswith(f"# harness-desk-schedule {sched().id}")
    assert "-m app run " in command and " --scheduled " in command
    if kind["kind"] == "weekdays" and kind["days"] == [6]:
        assert fields[4] == "0"  # Sunday


def test_cron_catch_up_lines():
    reboot, hourly = cron.catch_up_lines()
    assert reboot.startswith("@reboot sleep 90 && ") and "schedule --catch-up" in reboot
    assert hourly.startswith("17 * * * * ") and hourly.endswith("# harness-desk-catch-up")
