"""The notification a scheduled run sends (issue 38): its words in English and Chinese, sent
through the desktop's own notifier, and never a reason for the run to fail."""

from __future__ import annotations

import os
import stat
import sys

import pytest

from app.core.schedule import notify
from app.core.schedule import records as R


def wake(outcome: str, **kw) -> R.WakeRecord:
    base = dict(time="2026-12-07T07:03:00", schedule_id="abc", folder="/home/rosie/Bakery",
                outcome=outcome, exit_code=0)
    base.update(kw)
    return R.WakeRecord(**base)


def test_the_words_a_person_sees():
    assert notify.words(wake(R.DONE, tasks_done=3, tasks_total=3, cost_usd=0.042)) == (
        "Scheduled run finished", "“Bakery”: 3 of 3 tasks done, $0.04 spent.")
    assert notify.words(wake(R.BLOCKED, question="Which flour supplier?")) == (
        "Scheduled run needs you",
        "“Bakery” is waiting for your decision: Which flour supplier? Open the folder to answer.")
    assert notify.words(wake(R.BLOCKED, question="Keep the old notes"))[1].endswith(
        "decision: Keep the old notes. Open the folder to answer.")
    assert notify.words(wake(R.STOPPED, message="The budget of $0.50 was reached.")) == (
        "Scheduled run stopped", "“Bakery”: The budget of $0.50 was reached.")
    assert notify.words(wake(R.SKIPPED_BUSY))[0] == "Scheduled run skipped"
    assert notify.words(wake(R.REMOVED_FOLDER_GONE)) == (
        "Schedule removed",
        "The folder “/home/rosie/Bakery” is no longer there, so its schedule was removed.")
    assert notify.words(wake(R.SKIPPED_PAUSED)) is None


def test_the_words_in_chinese():
    title, text = notify.words(wake(R.DONE, tasks_done=1, tasks_total=2), "zh_CN")
    assert title == "定时运行已完成" and text == "“Bakery”：已完成 1/2 项任务，花费 $0.00。"
    title, text = notify.words(wake(R.BLOCKED, question="用哪家面粉？"), "zh_CN")
    assert (title, text) == ("定时运行需要你决定", "“Bakery”在等你决定：用哪家面粉？打开该文件夹来回答。")


@pytest.mark.skipif(sys.platform != "linux", reason="notify-send is the Linux notifier")
def test_linux_sends_through_notify_send_and_a_failing_notifier_changes_nothing(
        tmp_path, monkeypatch):
    said = tmp_path / "said.txt"
    script = tmp_path / "notify-send"
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{said}"\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("HARNESS_DESK_NO_NOTIFY", raising=False)
    monkeypatch.setattr(notify, "language", lambda: "en")
    assert notify.notify(wake(R.DONE, tasks_done=2, tasks_total=2))
    assert said.read_text().splitlines() == [
        "--app-name", "Harness Desk", "Scheduled run finished",
        "“Bakery”: 2 of 2 tasks done, $0.00 spent."]
    script.write_text("#!/bin/sh\nexit 1\n")
    assert notify.notify(wake(R.DONE)) is False  # refused: said so, nothing raised
    monkeypatch.setattr(notify, "_show", lambda *a: 1 / 0)
    assert notify.notify(wake(R.DONE)) is False


def test_the_language_follows_the_setting_then_the_system(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path))
    for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert notify.language() == "zh_CN"
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert notify.language() == "en"
