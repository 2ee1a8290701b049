"""The system notification a scheduled run sends when it ends or needs the person: best
effort, a few seconds at most, never failing the run. Linux: notify-send, else the
Notifications service through gdbus; macOS: osascript; Windows: a toast through PowerShell.
The words are the person's language (the app's setting, else the system's)."""

from __future__ import annotations

import locale
import os
import shutil
import subprocess
import sys
from pathlib import Path

from app.core.schedule import records as R
from app.core.places import BUS_ENV, user_bus_address
from app.core.settings import load_settings

TIMEOUT_S = 5
_ENDS = (".", "?", "!", "。", "？", "！")
APP_NAME = "Harness Desk"


def language() -> str:
    try:
        chosen = load_settings().settings.language
    except Exception:  # settings unreadable: the system's language
        chosen = "system"
    if chosen != "system":
        return chosen
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value:
            return "zh_CN" if value.lower().startswith("zh") else "en"
    if sys.platform == "win32":
        return "zh_CN" if (locale.getlocale()[0] or "").lower().startswith(("zh", "chinese")) \
            else "en"
    return "en"


def words(rec: R.WakeRecord, lang: str = "en") -> tuple[str, str] | None:
    """The notification's title and text for a wake, or None for a wake worth no sound."""
    name = Path(rec.folder).name or rec.folder
    msg = rec.message.rstrip(".。")
    zh = lang == "zh_CN"
    if rec.outcome == R.DONE:
        return (("定时运行已完成" if zh else "Scheduled run finished"),
                (f"“{name}”：已完成 {rec.tasks_done}/{rec.tasks_total} 项任务，花费 "
                 f"${rec.cost_usd:.2f}。" if zh else
                 f"“{name}”: {rec.tasks_done} of {rec.tasks_total} tasks done, "
                 f"${rec.cost_usd:.2f} spent."))
    if rec.outcome == R.BLOCKED:
        q = rec.question or ("一个决定" if zh else "a decision")
        stop = "" if q.endswith(_ENDS) else ("。" if zh else ".")
        return (("定时运行需要你决定" if zh else "Scheduled run needs you"),
                (f"“{name}”在等你决定：{q}{stop}打开该文件夹来回答。" if zh else
                 f"“{name}” is waiting for your decision: {q}{stop} Open the folder to answer."))
    if rec.outcome == R.SKIPPED_BUSY:
        return (("定时运行已跳过" if zh else "Scheduled run skipped"),
                (f"“{name}”：另一次运行正在该文件夹中工作，这次定时运行没有开始。" if zh else
                 f"“{name}”: another run was already working in the folder, so this "
                 "scheduled run did not start."))
    if rec.outcome == R.REMOVED_FOLDER_GONE:
        return (("定时已删除" if zh else "Schedule removed"),
                (f"文件夹“{rec.folder}”已不在原处，它的定时运行已删除。" if zh else
                 f"The folder “{rec.folder}” is no longer there, so its schedule was removed."))
    if rec.outcome in (R.STOPPED, R.FAILED, R.NO_BUDGET):
        return (("定时运行已停止" if zh else "Scheduled run stopped"),
                (f"“{name}”：{msg}。" if zh else f"“{name}”: {msg}."))
    return None


def notify(rec: R.WakeRecord) -> bool:
    """Show the wake's notification; True if a notifier took it. Never raises."""
    said = words(rec, language())
    if said is None or os.environ.get("HARNESS_DESK_NO_NOTIFY"):
        return False
    try:
        return _show(*said)
    except Exception:  # a notification is never worth a failed run
        return False


def _run(argv: list[str], env: dict[str, str] | None = None) -> bool:
    try:
        return subprocess.run(argv, capture_output=True, timeout=TIMEOUT_S, env=env,
                              stdin=subprocess.DEVNULL).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def _show(title: str, text: str) -> bool:
    if sys.platform == "darwin":
        script = (f"display notification {_apple(text)} with title {_apple(APP_NAME)} "
                  f"subtitle {_apple(title)}")
        return _run(["osascript", "-e", script])
    if sys.platform == "win32":
        return _run(["powershell", "-NoProfile", "-NonInteractive", "-Command",
                     _toast_script(title, text)])
    env = dict(os.environ)
    bus = user_bus_address()
    if bus:  # cron gives no session
        env[BUS_ENV] = bus
    if shutil.which("notify-send"):
        return _run(["notify-send", "--app-name", APP_NAME, title, text], env)
    if shutil.which("gdbus"):
        return _run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
                     "--object-path", "/org/freedesktop/Notifications", "--method",
                     "org.freedesktop.Notifications.Notify", APP_NAME, "0", "",
                     title, text, "[]", "{}", "10000"], env)
    return False


def _apple(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _toast_script(title: str, text: str) -> str:
    def ps(s: str) -> str:  # a PowerShell string: nothing inside is code
        return "'" + s.replace("'", "''") + "'"

    return (
        "[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, "
        "ContentType = WindowsRuntime] > $null;"
        "$x = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent("
        "[Windows.UI.Notifications.ToastTemplateType]::ToastText02);"
        "$t = $x.GetElementsByTagName('text');"
        f"$t.Item(0).InnerText = {ps(title)}; $t.Item(1).InnerText = {ps(text)};"
        "[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier("
        f"{ps(APP_NAME)}).Show([Windows.UI.Notifications.ToastNotification]::new($x))")
