"""A schedule and what its runs did, in the window's words (translated): the folder page's
line and the dialog say the same things the command line does in English."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QCoreApplication, QDateTime, QLocale

from app.core.schedule import records as R
from app.core.schedule.model import Schedule, next_time
from app.gui.words import engine_words
from app.gui.words.wording import finished


def tr(text: str) -> str:
    return QCoreApplication.translate("", text)  # where lupdate files a module-level tr()


def day_name(day: int, short: bool = False) -> str:
    """Monday is 0, as the schedule counts."""
    fmt = QLocale.FormatType.ShortFormat if short else QLocale.FormatType.LongFormat
    return QLocale().dayName(day + 1, fmt)


def when(s: Schedule) -> str:
    at = f"{s.hour:02d}:{s.minute:02d}"  # the 24-hour clock, as the window shows every time
    if s.kind == "daily":
        return tr("every day at %1").replace("%1", at)
    if s.kind == "weekdays" and s.days == [0, 1, 2, 3, 4]:
        return tr("every weekday at %1").replace("%1", at)
    if s.kind == "weekdays":
        days = tr(", ").join(day_name(d) for d in s.days)
        return tr("every %1 at %2").replace("%1", days).replace("%2", at)
    return tr("on day %1 of every month at %2").replace("%1", str(s.day_of_month)).replace(
        "%2", at)


def moment(value: datetime) -> str:
    locale = QLocale()
    # Chinese puts the month first and writes 月 and 日 ("周一 7 12月, 07:00" read as a jumble)
    shape = ("M月d日 ddd HH:mm" if locale.language() == QLocale.Language.Chinese
             else "ddd d MMM, HH:mm")
    # PySide6 converts a datetime; its stub lists no such QDateTime constructor.
    return locale.toString(QDateTime(value), shape)  # type: ignore[call-overload]


def budget(s: Schedule) -> str:
    if s.budget_usd:
        return f"${s.budget_usd:,.2f}"
    return tr("%1 tokens").replace("%1", QLocale().toString(int(s.budget_tokens or 0)))


def summary(s: Schedule, now: datetime | None = None) -> str:
    """The folder page's line about its schedule."""
    if s.paused:
        return tr("The schedule is paused (%1). Nothing runs until you resume it.").replace(
            "%1", when(s))
    # which engine, too: the schedule keeps the one it was made with, whatever the window's
    # engine picker shows later (and the Demo's runs only show samples)
    return (tr("Runs on a schedule with %4, %1, with at most %2 a run. Next run: %3.")
            .replace("%1", when(s)).replace("%2", budget(s))
            .replace("%3", moment(next_time(s, now or datetime.now())))
            .replace("%4", engine_words.name(s.engine)))


def wake(r: R.WakeRecord) -> str:
    """One scheduled run, in a sentence, for the page's "since you last looked"."""
    try:
        at = moment(datetime.fromisoformat(r.due or r.time))
    except ValueError:
        at = r.due or r.time
    if r.outcome == R.DONE:
        text = tr("%1: finished, %2 of %3 tasks done, $%4 spent.").replace(
            "%2", str(r.tasks_done)).replace("%3", str(r.tasks_total)).replace(
            "%4", f"{r.cost_usd:.2f}")
    elif r.outcome == R.BLOCKED:
        text = tr("%1: stopped to wait for your decision: %2").replace(
            "%2", r.question or tr("see the task list"))
    elif r.outcome == R.SKIPPED_BUSY:
        text = tr("%1: did not start, because another run was already working in the folder.")
    elif r.outcome == R.NO_BUDGET:
        text = tr("%1: did not start, because the schedule has no budget.")
    elif r.exit_reason:  # the run's own end, as the run panel words it
        head, _ = finished(r.outcome, r.exit_reason, engine_id=r.engine, cause=r.cause)
        text = tr("%1: %2").replace("%2", head)
    elif r.outcome == R.REMOVED_FOLDER_GONE:
        text = tr("%1: the folder was not there (moved or deleted), so its schedule was "
                  "removed.")
    elif r.kind == R.KIND_FOLDER:
        text = tr("%1: did not start, because the folder could not be used for a run as it "
                  "was. Press Run here to see why.")
    elif r.kind == R.KIND_BUDGET:
        text = tr("%1: did not start, because the schedule's budget could not be used. Set "
                  "another one with Change….")
    elif r.kind == R.KIND_ENGINE:
        text = tr("%1: did not start, because the schedule's engine is not one this app has. "
                  "Choose another one with Change….")
    elif r.outcome == R.STOPPED:
        text = tr("%1: stopped before it finished. Press Run here to carry on.")
    else:  # the core's sentence is English: the window says it in its own words
        text = tr("%1: could not start or finish. Press Run here to see why.")
    return text.replace("%1", at)


def scheduler_failure(exc: BaseException) -> str:
    """Why the computer's scheduler did not take (or give up) a schedule, in a sentence."""
    kind = getattr(exc, "kind", "")
    program = getattr(exc, "program", "")
    if kind == "no_scheduler":
        return tr("This computer has no scheduler the app can use. Install cron (on Debian "
                  "and Ubuntu: sudo apt install cron) or log in to a desktop session, then "
                  "try again.")
    if kind == "missing":
        return tr("the computer's scheduler (%1) is not installed.").replace("%1", program)
    if kind == "timeout":
        from app.schedulers import TIMEOUT_S  # noqa: PLC0415 - window start-up (bench/startup.py)

        return (tr("the computer's scheduler (%1) did not answer within %2 seconds. Try "
                   "again in a moment.").replace("%1", program).replace("%2", str(TIMEOUT_S)))
    if kind == "refused":
        return (tr("the computer's scheduler (%1) refused it, saying “%2”.")
                .replace("%1", program).replace("%2", getattr(exc, "said", "")))
    if isinstance(exc, OSError):
        return tr("the app's settings folder could not be written. Check that the disk has "
                  "room, then try again.")
    return tr("something on this computer stopped it. Try again; if it happens again, "
              "restart the computer.")


def since_last_looked(wakes: list[R.WakeRecord]) -> str:
    if not wakes:
        return ""
    head = (tr("Since you last looked, 1 scheduled run:") if len(wakes) == 1 else
            tr("Since you last looked, %1 scheduled runs:").replace("%1", str(len(wakes))))
    return head + "\n" + "\n".join("• " + wake(r) for r in wakes[-5:])
