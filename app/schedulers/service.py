"""Making and removing schedules, for the command line and the window alike: the person's
list (app.core.schedule.store) and the scheduler's entry change together."""

from __future__ import annotations

from app.core.schedule import store
from app.core.schedule.model import Schedule
from app.schedulers import SchedulerError, backend_module, choose_backend


def install(schedule: Schedule) -> Schedule:
    """Save the schedule and write its entry; an entry the scheduler refuses leaves no
    schedule behind (nor the old one's entry, which this one replaces)."""
    old = store.get(schedule.id)
    schedule.backend = choose_backend()
    if old is not None and old.backend and old.backend != schedule.backend:
        backend_module(old.backend).remove(old.id)
    store.save(schedule)
    try:
        backend_module(schedule.backend).install(schedule)
    except Exception:
        store.delete(schedule.id)
        raise
    return schedule


def remove(schedule: Schedule) -> None:
    backend_module(schedule.backend or choose_backend()).remove(schedule.id)
    store.delete(schedule.id)


def remove_entry(schedule_id: str, backend: str = "") -> None:
    """Take a scheduler's entry away, best effort (a wake must not fail over it)."""
    try:
        backend_module(backend or choose_backend()).remove(schedule_id)
    except (SchedulerError, OSError):
        pass


def remove_all() -> int:
    """Every schedule and every entry this app wrote (the uninstallers); how many schedules."""
    count = 0
    for s in store.all_schedules():
        try:
            remove(s)
            count += 1
        except SchedulerError:
            store.delete(s.id)
    try:
        module = backend_module(choose_backend())
        for sid in getattr(module, "installed_ids", list)():
            module.remove(sid)  # entries whose schedule the list lost
    except SchedulerError:
        pass
    return count
