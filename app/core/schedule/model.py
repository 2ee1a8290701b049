"""A schedule: which folder, when, with which engine and budget; and its times to run.

Times are the computer's local wall clock, as every scheduler reads its entries. A monthly
day past the month's end (the 31st in April) runs on the month's last day.
"""

from __future__ import annotations

import calendar
import hashlib
import re
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

KINDS = ("daily", "weekdays", "monthly")
DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")  # datetime.weekday() order
_DAY_WORDS = frozenset(DAY_NAMES) | {"monday", "tuesday", "wednesday", "thursday", "friday",
                                    "saturday", "sunday", "tues", "thur", "thurs"}
_TIME = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


class ScheduleError(ValueError):
    """A schedule that cannot be: one plain sentence saying what to change."""


@dataclass
class Schedule:
    folder: str                       # the folder's real, absolute path
    kind: str                         # "daily", "weekdays" or "monthly"
    time: str                         # "HH:MM", local time
    days: list[int] = field(default_factory=list)  # weekdays 0-6 (Monday 0), for "weekdays"
    day_of_month: int = 1             # 1-31, for "monthly"
    engine: str = "demo"
    model: str | None = None
    budget_usd: float | None = None
    budget_tokens: int | None = None
    careful: bool = False
    paused: bool = False
    created_at: str = ""              # ISO local time; no time before it is ever run
    backend: str = ""                 # the scheduler holding its entry (app.schedulers)

    @property
    def id(self) -> str:
        return schedule_id(self.folder)

    @property
    def hour(self) -> int:
        return int(self.time.split(":")[0])

    @property
    def minute(self) -> int:
        return int(self.time.split(":")[1])

    def has_budget(self) -> bool:
        return bool(self.budget_usd) or bool(self.budget_tokens)

    def check(self) -> "Schedule":
        """Itself when it can be scheduled; else ScheduleError in one sentence."""
        if self.kind not in KINDS:
            raise ScheduleError(f"“{self.kind}” is not a kind of schedule: use daily, "
                                "weekdays or monthly.")
        if not _TIME.match(self.time):
            raise ScheduleError(f"“{self.time}” is not a time of day: write it as HH:MM, "
                                "for example 07:30.")
        self.time = f"{self.hour:02d}:{self.minute:02d}"
        if self.kind == "weekdays" and (not self.days or any(d not in range(7) for d in self.days)):
            raise ScheduleError("Choose at least one day of the week for the schedule.")
        self.days = sorted(set(self.days))
        if self.kind == "monthly" and not 1 <= self.day_of_month <= 31:
            raise ScheduleError("The day of the month must be between 1 and 31.")
        if not self.has_budget():
            raise ScheduleError("A scheduled run needs a budget, so it can never spend more "
                                "than you meant: give one in dollars or in tokens.")
        return self

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Schedule":
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        return cls(**known)


def schedule_id(folder: str | Path) -> str:
    """The same short id for a folder every time (one schedule per folder): the name of its
    entries in the scheduler. Nothing of the path can be read back from it."""
    return hashlib.sha256(str(folder).encode("utf-8")).hexdigest()[:12]


def parse_every(every: str) -> tuple[str, list[int]]:
    """`--every`'s words: day/daily, weekdays (Monday to Friday), month/monthly, or days of
    the week by name (mon,wed or monday,wednesday)."""
    word = every.strip().lower().replace(" ", "")
    if word in ("day", "daily", "everyday"):
        return "daily", []
    if word in ("weekday", "weekdays", "workday", "workdays"):
        return "weekdays", [0, 1, 2, 3, 4]
    if word in ("month", "monthly"):
        return "monthly", []
    days = []
    for part in filter(None, word.split(",")):
        if part not in _DAY_WORDS:
            raise ScheduleError(f"“{every}” is not a schedule: use day, weekdays, month, or "
                                "days of the week such as mon,thu.")
        name = part[:3]
        days.append(DAY_NAMES.index(name))
    if not days:
        raise ScheduleError("Say how often after --every: day, weekdays, month, or days of "
                            "the week such as mon,thu.")
    return "weekdays", days


def _runs_on(s: Schedule, day: datetime) -> bool:
    if s.kind == "daily":
        return True
    if s.kind == "weekdays":
        return day.weekday() in s.days
    last = calendar.monthrange(day.year, day.month)[1]
    return day.day == min(s.day_of_month, last)


def next_time(s: Schedule, after: datetime) -> datetime:
    """The first time strictly after `after` the schedule runs (naive local time)."""
    day = after.replace(hour=s.hour, minute=s.minute, second=0, microsecond=0)
    for _ in range(400):
        if day > after and _runs_on(s, day):
            return day
        day = (day + timedelta(days=1)).replace(hour=s.hour, minute=s.minute)
    raise ScheduleError("The schedule never comes round.")  # cannot happen once checked


def last_due(s: Schedule, at: datetime) -> datetime | None:
    """The latest time at or before `at` the schedule was due, within the last 400 days."""
    day = at.replace(hour=s.hour, minute=s.minute, second=0, microsecond=0)
    for _ in range(400):
        if day <= at and _runs_on(s, day):
            return day
        day = (day - timedelta(days=1)).replace(hour=s.hour, minute=s.minute)
    return None


def describe(s: Schedule) -> str:
    """The schedule in English words, for the command line: "every Monday and Thursday at
    07:00"."""
    if s.kind == "daily":
        when = "every day"
    elif s.kind == "weekdays" and s.days == [0, 1, 2, 3, 4]:
        when = "every weekday"
    elif s.kind == "weekdays":
        names = [calendar.day_name[d] for d in s.days]
        when = "every " + (names[0] if len(names) == 1
                           else ", ".join(names[:-1]) + " and " + names[-1])
    else:
        when = f"on day {s.day_of_month} of every month"
    return f"{when} at {s.time}"


def budget_words(s: Schedule) -> str:
    parts = []
    if s.budget_usd:
        parts.append(f"${s.budget_usd:,.2f}")
    if s.budget_tokens:
        parts.append(f"{s.budget_tokens:,} tokens")
    return " or ".join(parts) or "none"
