"""The Task Scheduler entry registered and removed for real, by Wine's own `schtasks`
(issue 38), through app.schedulers.windows' install and remove: Wine parses the task XML as
Task Scheduler does, refuses a value or namespace it does not know, and keeps the task
under \\Harness Desk\\. Wine's Task Scheduler stores what it understood (the settings, not
yet the triggers or the action), so the tests read back StartWhenAvailable and the
description. Skipped where Wine is not installed (scripts/build_windows.sh installs it)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from app.core.schedule.model import Schedule
from app.schedulers import SchedulerError, windows

pytestmark = pytest.mark.skipif(shutil.which("wine") is None,
                                reason="Wine is not installed (scripts/build_windows.sh "
                                       "installs it)")

KINDS = [dict(kind="daily"), dict(kind="weekdays", days=[0, 3]),
         dict(kind="monthly", day_of_month=31)]


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    """A Wine prefix of its own, fully started (its services run only once wineboot has
    finished), with no display."""
    where = tmp_path_factory.mktemp("wine")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(WINEPREFIX=str(where), WINEDEBUG="-all")
    subprocess.run(["wineboot", "-i"], env=env, capture_output=True, timeout=600)
    subprocess.run(["wineserver", "-w"], env=env, capture_output=True, timeout=300)
    yield where, env
    subprocess.run(["wineserver", "-k"], env=env, capture_output=True, timeout=60)


def _dos(arg: str) -> str:
    return "Z:" + arg.replace("/", "\\") if arg.startswith("/") and Path(arg).exists() else arg


@pytest.fixture
def under_wine(prefix, monkeypatch):
    """windows.install and remove, their `schtasks` run by Wine, paths as Wine names them."""
    where, env = prefix
    real = windows.run_tool

    def run_tool(argv, what, stdin=None, ok_codes=(0,)):
        old = dict(os.environ)
        os.environ.clear()
        os.environ.update(env)
        try:
            return real(["wine", *map(_dos, argv)], what, stdin=stdin, ok_codes=ok_codes)
        finally:
            os.environ.clear()
            os.environ.update(old)

    monkeypatch.setattr(windows, "run_tool", run_tool)
    monkeypatch.setattr("sys.frozen", True, raising=False)  # as the installed app is
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(where / "config"))
    return where / "drive_c" / "windows" / "system32" / "tasks" / "Harness Desk"


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k["kind"])
def test_wine_schtasks_registers_and_deletes_the_task(under_wine, kind):
    s = Schedule(folder="C:\\Users\\rosie\\Bakery & Co", time="07:05", budget_usd=1.0,
                 **kind).check()
    windows.install(s)
    stored = (under_wine / s.id).read_bytes().decode("utf-8-sig")
    assert "<StartWhenAvailable>true</StartWhenAvailable>" in stored
    assert "<MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>" in stored
    # Our &amp; read back as the folder's "&" (Wine writes it out again unescaped).
    assert "<Description>Harness Desk: scheduled run of C:\\Users\\rosie\\Bakery & Co<" in stored
    windows.remove(s.id)
    assert not (under_wine / s.id).exists()


def test_wine_schtasks_refuses_a_task_it_cannot_read(under_wine, monkeypatch):
    """The check can fail: a value the schema does not allow is refused, in a sentence."""
    s = Schedule(folder="C:\\Bakery", kind="daily", time="07:05", budget_usd=1.0).check()
    good = windows.render
    monkeypatch.setattr(windows, "render", lambda sched: good(sched).replace(
        "<StartWhenAvailable>true", "<StartWhenAvailable>soon"))
    with pytest.raises(SchedulerError, match="Could not register the schedule with Task "
                                             "Scheduler"):
        windows.install(s)
    assert not (under_wine / s.id).exists()
