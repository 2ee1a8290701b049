"""The schedule model (issue 38): its words, its times, and that a missed time runs once."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from app.core.schedule import store
from app.core.schedule.model import (Schedule, ScheduleError, describe, last_due, next_time,
                                     parse_every)


def sched(**kw) -> Schedule:
    base = dict(folder="/tmp/x", kind="daily", time="07:00", budget_usd=1.0)
    base.update(kw)
    return Schedule(**base).check()


@pytest.fixture(autouse=True)
def config(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))


def test_every_words():
    assert parse_every("day") == ("daily", [])
    assert parse_every("weekdays") == ("weekdays", [0, 1, 2, 3, 4])
    assert parse_every("Mon,thursday") == ("weekdays", [0, 3])
    assert parse_every("month") == ("monthly", [])
    for bad in ("fortnight", "mon,funday", ""):
        with pytest.raises(ScheduleError):
            parse_every(bad)


def test_a_schedule_without_a_budget_or_with_a_bad_time_is_refused():
    with pytest.raises(ScheduleError, match="needs a budget"):
        Schedule(folder="/x", kind="daily", time="07:00").check()
    with pytest.raises(ScheduleError, match="needs a budget"):
        Schedule(folder="/x", kind="daily", time="07:00", budget_usd=0).check()
    with pytest.raises(ScheduleError, match="HH:MM"):
        sched(time="25:00")
    with pytest.raises(ScheduleError, match="day of the week"):
        sched(kind="weekdays", days=[])
    assert sched(time="7:05").time == "07:05"
    assert sched(budget_usd=None, budget_tokens=1000).has_budget()


def test_next_and_last_times():
    mon_thu = sched(kind="weekdays", days=[0, 3])
    friday = datetime(2026, 12, 4, 12, 0)  # a Friday
    assert next_time(mon_thu, friday) == datetime(2026, 12, 7, 7, 0)
    assert last_due(mon_thu, friday) == datetime(2026, 12, 3, 7, 0)
    assert describe(mon_thu) == "every Monday and Thursday at 07:00"
    # The 31st in a 30-day month is its last day; in February, the 28th.
    monthly = sched(kind="monthly", day_of_month=31)
    assert next_time(monthly, datetime(2026, 4, 1)) == datetime(2026, 4, 30, 7, 0)
    assert next_time(monthly, datetime(2027, 2, 1)) == datetime(2027, 2, 28, 7, 0)
    assert last_due(monthly, datetime(2026, 5, 30, 8, 0)) == datetime(2026, 4, 30, 7, 0)
    daily = sched()
    assert next_time(daily, datetime(2026, 1, 1, 7, 0)) == datetime(2026, 1, 2, 7, 0)


def test_three_missed_times_run_once_and_the_next_time_runs_again():
    now = datetime.now().replace(second=0, microsecond=0)
    s = sched(time=(now - timedelta(hours=1)).strftime("%H:%M"),
              created_at=(now - timedelta(days=3, hours=2)).isoformat())
    store.save(s)
    due = store.claim_due(s, now)
    assert due == last_due(s, now)
    assert store.claim_due(s, now) is None            # a second wake: nothing due
    assert store.claim_due(s, now + timedelta(hours=1)) is None
    assert store.claim_due(s, now + timedelta(days=1)) == due + timedelta(days=1)


def test_no_time_before_the_schedule_existed_is_run():
    now = datetime.now().replace(second=0, microsecond=0)
    s = sched(time=(now - timedelta(minutes=30)).strftime("%H:%M"), created_at=now.isoformat())
    store.save(s)
    assert not store.is_due(s, now)
    assert store.claim_due(s, now) is None
    assert store.is_due(s, now + timedelta(days=1))


def test_schedules_live_in_the_persons_config_folder_not_the_workspace(tmp_path):
    s = sched(folder=str(tmp_path / "ws"))
    store.save(s)
    assert store.store_path() == tmp_path / "config" / "schedules.json"
    assert store.for_folder(tmp_path / "ws") == s
    assert not (tmp_path / "ws").exists()
    assert store.delete(s.id) and store.all_schedules() == []


def test_a_damaged_store_is_kept_aside_and_starts_again(tmp_path):
    store.store_path().parent.mkdir(parents=True)
    store.store_path().write_text("{not json", encoding="utf-8")
    assert store.all_schedules() == []
    assert (tmp_path / "config" / "schedules.damaged.json").read_text() == "{not json"
