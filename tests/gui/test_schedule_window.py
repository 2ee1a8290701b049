"""The window's schedule (issue 38): "Run this folder on a schedule…" writes the scheduler's
entry (a stand-in crontab here), the folder's page shows the next time with Pause and Remove,
and says what scheduled runs did since it last showed them."""

from __future__ import annotations

import json
import os
import stat
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app.core.schedule import records as R
from app.core.schedule import store

from .helpers import demo_copy, open_in


@pytest.fixture
def crontab(tmp_path, monkeypatch) -> Path:
    bindir = tmp_path / "bin"
    bindir.mkdir()
    tab = tmp_path / "crontab.txt"
    script = bindir / "crontab"
    script.write_text(f"""#!/bin/sh
if [ "$1" = "-l" ]; then [ -f '{tab}' ] && cat '{tab}' && exit 0; exit 1; fi
if [ "$1" = "-" ]; then cat > '{tab}'; exit 0; fi
exit 2
""")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("HARNESS_DESK_SCHEDULER", "cron")
    return tab


def wait_shown(qtbot, window):
    qtbot.waitUntil(lambda: window.schedules.view.isVisible(), timeout=10_000)


def test_a_schedule_made_in_the_window_is_written_and_shown(qtbot, window, tmp_path, crontab):
    ws = demo_copy(tmp_path)
    open_in(qtbot, window, ws)
    wait_shown(qtbot, window)
    view = window.schedules.view
    assert view.change_button.text() == "Run this folder on a schedule…"
    assert not view.line.isVisible() and not view.remove_button.isVisible()
    # on the column's one left edge, not alone in the middle of the column
    edge = window.run_panel.mapTo(window, window.run_panel.rect().topLeft()).x()
    button = view.change_button
    assert abs(button.mapTo(window, button.rect().topLeft()).x() - edge) <= 16
    assert button.width() <= button.sizeHint().width() + 2  # as wide as its words
    dialog = window.schedules.open_dialog()
    dialog.kind.setCurrentIndex(1)  # on these days
    for d, box in enumerate(dialog.day_boxes):
        box.setChecked(d in (0, 3))
    dialog.engine.setCurrentIndex(dialog.engine.findData("demo"))
    assert dialog.budget.value() == 2.0  # the person's budget per run, from Settings
    dialog.budget.setValue(0)
    assert not dialog.save_button.isEnabled()  # no budget
    assert "Set a budget per run" in dialog.hint.text()
    dialog.budget.setValue(1.5)
    dialog.careful.setChecked(True)
    assert dialog.save_button.isEnabled()
    with qtbot.waitSignal(dialog.saved, timeout=10_000):
        dialog.save_button.click()
    saved = store.for_folder(ws)
    assert (saved.kind, saved.days, saved.time, saved.budget_usd, saved.careful, saved.engine) == (
        "weekdays", [0, 3], "07:00", 1.5, True, "demo")
    assert f"# harness-desk-schedule {saved.id}" in crontab.read_text()
    assert crontab.read_text().startswith("0 7 * * 1,4 ")
    line = window.schedules.view.line.text()
    assert ("Runs on a schedule with the Demo engine, every Monday, Thursday at 07:00, with "
            "at most $1.50 a run.") \
        in line and "Next run: " in line
    assert view.pause_button.text() == "Pause" and view.remove_button.isVisible()
    assert view.change_button.text() == "Change…"

    view.pause_button.click()
    qtbot.waitUntil(lambda: store.for_folder(ws).paused, timeout=5_000)
    qtbot.waitUntil(lambda: "The schedule is paused" in window.schedules.view.line.text(),
                    timeout=5_000)
    assert view.pause_button.text() == "Resume"
    view.remove_button.click()
    qtbot.waitUntil(lambda: store.for_folder(ws) is None, timeout=5_000)
    assert "harness-desk" not in crontab.read_text()
    qtbot.waitUntil(lambda: view.change_button.text() == "Run this folder on a schedule…",
                    timeout=5_000)


def test_the_page_says_what_scheduled_runs_did_since_it_last_looked(qtbot, window, tmp_path):
    ws = demo_copy(tmp_path)
    due = (datetime.now() - timedelta(days=1)).replace(hour=7, minute=0, second=0,
                                                       microsecond=0)
    R.record(R.WakeRecord(time=R.now_local(), schedule_id="x", folder=str(ws), outcome=R.DONE,
                          exit_code=0, due=due.isoformat(timespec="minutes"), tasks_done=3,
                          tasks_total=3, cost_usd=0.04))
    R.record(R.WakeRecord(time=R.now_local(), schedule_id="x", folder=str(ws),
                          outcome=R.BLOCKED, exit_code=3, question="Which flour supplier?"))
    R.record(R.WakeRecord(time=R.now_local(), schedule_id="x", folder=str(ws),
                          outcome=R.STOPPED, exit_code=4, exit_reason="budget_exhausted",
                          message="The budget of $0.50 was reached."))
    open_in(qtbot, window, ws)
    qtbot.waitUntil(lambda: window.schedules.view.since.isVisible(), timeout=10_000)
    text = window.schedules.view.since.text()
    assert text.startswith("Since you last looked, 3 scheduled runs:")
    assert text.endswith(": Stopped at the spending limit")  # the run panel's own words
    assert ": finished, 3 of 3 tasks done, $0.04 spent." in text
    assert ": stopped to wait for your decision: Which flour supplier?" in text
    # Seen: opening the folder again says nothing more.
    open_in(qtbot, window, ws)
    qtbot.waitUntil(lambda: not window.schedules.view.since.isVisible(), timeout=10_000)
    assert json.loads(store.store_path().read_text())["seen"][str(ws.resolve())]


def test_the_schedule_and_its_runs_read_in_chinese(qapp):
    from app.core.schedule.model import Schedule
    from app.gui.words import schedule_words as words
    from app.gui.settings import language

    assert language.install(qapp, "zh_CN") == "zh_CN"
    try:
        s = Schedule(folder="/x", kind="weekdays", days=[0, 3], time="07:00",
                     budget_usd=0.5).check()
        text = words.summary(s, datetime(2026, 12, 4, 12, 0))
        assert text.startswith("定时运行（引擎：演示引擎）：每") and "07:00" in text and "$0.50" in text
        said = words.since_last_looked([
            R.WakeRecord(time="2026-12-07T07:02:00", schedule_id="x", folder="/x",
                         outcome=R.STOPPED, exit_code=4, due="2026-12-07T07:00",
                         exit_reason="budget_exhausted")])
        assert said.startswith("自你上次查看以来，有 1 次定时运行：")
        assert not any(w in said for w in ("Stopped", "spending", "limit"))
    finally:
        language.install(qapp, "en")


def test_runs_that_did_not_start_and_scheduler_refusals_in_the_windows_own_chinese(qapp):
    """Sched's note: failures were the core's English sentence in the window. Each kind of
    wake that ran nothing, and each kind of scheduler refusal, has the window's own words."""
    import re

    from app.gui.words import schedule_words as words
    from app.gui.settings import language
    from app.schedulers import SchedulerError

    english = "There is no TASKS.md in /x. Run `harness-desk init /x` to create one."
    wakes = [R.WakeRecord(time="2026-12-07T07:02:00", schedule_id="x", folder="/x",
                          outcome=outcome, exit_code=2, due="2026-12-07T07:00",
                          message=english, kind=kind)
             for outcome, kind in [(R.FAILED, R.KIND_FOLDER), (R.FAILED, R.KIND_BUDGET),
                                   (R.FAILED, R.KIND_ENGINE), (R.FAILED, ""),
                                   (R.REMOVED_FOLDER_GONE, "")]]
    errors = [SchedulerError("This computer has no scheduler", kind="no_scheduler"),
              SchedulerError("Could not add: crontab is not there", kind="missing",
                             program="crontab"),
              SchedulerError("Could not add: crontab did not answer", kind="timeout",
                             program="crontab"),
              SchedulerError("Could not add: crontab said “no”", kind="refused",
                             program="crontab", said="no"),
              OSError("No space left on device"), RuntimeError("Something broke")]
    assert language.install(qapp, "zh_CN") == "zh_CN"
    try:
        said = [words.wake(r) for r in wakes]
        refusals = [words.scheduler_failure(e) for e in errors]
    finally:
        language.install(qapp, "en")
    assert len(set(said)) == len(wakes)  # each kind its own sentence
    for text in said:
        assert "TASKS" not in text and "harness-desk" not in text, text
        assert not re.search(r"[A-Za-z]{3,}", text), text
        assert "没有开始" in text or "未能" in text or "定时已删除" in text, text
    assert "预算" in said[1] and "引擎" in said[2] and "更改" in said[1]
    assert len(set(refusals)) == len(errors)
    for text in refusals:
        assert not re.search(r"[A-Za-z]{3,}", text.replace("crontab", "").replace(
            "cron", "").replace("Debian", "").replace("Ubuntu", "").replace("sudo apt install",
                                                                             "")), text
    assert "“no”" in refusals[3] and "（crontab）" in refusals[1]
    # In English too the window says it in its own words, not the core's sentence.
    assert english not in "".join(words.wake(r) for r in wakes)


def test_a_scheduler_that_refuses_is_said_in_the_windows_words(qtbot, window, tmp_path,
                                                                monkeypatch):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    script = bindir / "crontab"
    script.write_text("#!/bin/sh\nif [ \"$1\" = \"-l\" ]; then exit 1; fi\n"
                      "echo 'crontabs/alex: Permission denied' >&2; exit 1\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("HARNESS_DESK_SCHEDULER", "cron")
    ws = demo_copy(tmp_path)
    open_in(qtbot, window, ws)
    wait_shown(qtbot, window)
    dialog = window.schedules.open_dialog()
    dialog.engine.setCurrentIndex(dialog.engine.findData("demo"))
    dialog.budget.setValue(1.0)
    dialog.save_button.click()
    qtbot.waitUntil(lambda: "could not be saved" in dialog.hint.text(), timeout=10_000)
    assert dialog.hint.text() == ("The schedule could not be saved: the computer's scheduler "
                                  "(crontab) refused it, saying “crontabs/alex: Permission "
                                  "denied”.")
    assert store.for_folder(ws) is None and dialog.save_button.isEnabled()
    dialog.reject()


def test_a_removal_the_scheduler_refuses_is_said_in_the_windows_words(qtbot, window, tmp_path,
                                                                       crontab):
    from app.core.schedule.model import Schedule
    from app.schedulers.service import install

    ws = demo_copy(tmp_path)
    install(Schedule(folder=str(ws.resolve()), kind="daily", time="07:00",
                     budget_usd=1.0, engine="demo").check())
    open_in(qtbot, window, ws)
    view = window.schedules.view
    qtbot.waitUntil(lambda: view.remove_button.isVisible(), timeout=10_000)
    script = tmp_path / "bin" / "crontab"  # from now on it refuses to write
    script.write_text(f"#!/bin/sh\nif [ \"$1\" = \"-l\" ]; then cat '{crontab}'; exit 0; fi\n"
                      "echo 'crontab: cannot write to crontabs' >&2; exit 1\n")
    view.remove_button.click()
    qtbot.waitUntil(lambda: "could not be removed" in window.notice.text.text(),
                    timeout=10_000)
    assert window.notice.text.text() == (
        "The schedule could not be removed: the computer's scheduler (crontab) refused it, "
        "saying “crontab: cannot write to crontabs”.")
    assert store.for_folder(ws) is not None  # still there, as the scheduler still has it
