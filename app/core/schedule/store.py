"""The person's schedules, in the app's config folder (schedules.json), and which due time
each has already run, so a time is run once whichever wake (the scheduler's entry, cron's
catch-up, a wake from sleep) comes first.

Why the person's config folder and not the workspace: a schedule is this computer's
scheduler working for this person. A folder synced to another computer, or shared with
another person, must not carry a promise to spend their money; `--list`, the uninstallers
and the window find every schedule without searching disks; and a schedule whose folder was
moved or deleted still has somewhere to be found, removed and recorded.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Iterator

from app.core.workspace.file_lock import FileLock
from app.core.workspace.files import atomic_write_json
from app.core.places import config_dir
from app.core.schedule.model import Schedule, last_due, schedule_id

FILE_NAME = "schedules.json"
LOCK_TIMEOUT_S = 30.0


def store_path() -> Path:
    return config_dir() / FILE_NAME


@contextmanager
def _locked() -> Iterator[None]:
    """One process at a time reads-and-writes the file (two wakes of one schedule race)."""
    path = store_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(path) + ".lock")
    lock.acquire(timeout=LOCK_TIMEOUT_S)
    with lock:
        yield


def _read() -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(store_path().read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {"schedules": {}, "claimed": {}, "seen": {}}
    except (OSError, ValueError):
        # A damaged file: keep it for the person, start again (the entries still name ids).
        try:
            store_path().replace(store_path().with_suffix(".damaged.json"))
        except OSError:
            pass
        return {"schedules": {}, "claimed": {}, "seen": {}}
    for key in ("schedules", "claimed", "seen"):
        if not isinstance(data.get(key), dict):
            data[key] = {}
    return data


def _write(data: dict[str, Any]) -> None:
    atomic_write_json(store_path(), data)


def all_schedules() -> list[Schedule]:
    out = []
    for raw in _read()["schedules"].values():
        try:
            out.append(Schedule.from_json(raw))
        except (TypeError, ValueError):
            continue  # a line from a newer version this one cannot read
    return sorted(out, key=lambda s: s.folder)


def get(schedule_id: str) -> Schedule | None:
    return next((s for s in all_schedules() if s.id == schedule_id), None)


def for_folder(folder: str | Path) -> Schedule | None:
    return get(schedule_id(str(Path(folder).expanduser().resolve())))


def save(schedule: Schedule) -> None:
    with _locked():
        data = _read()
        data["schedules"][schedule.id] = schedule.to_json()
        _write(data)


def delete(schedule_id: str) -> bool:
    with _locked():
        data = _read()
        found = data["schedules"].pop(schedule_id, None) is not None
        data["claimed"].pop(schedule_id, None)
        _write(data)
        return found


def claim_due(schedule: Schedule, now: datetime, slack_s: float = 120.0) -> datetime | None:
    """The due time this wake should run, marked as run; None when that time was already run
    (or was before the schedule existed). A scheduler may wake a little early, so a time up
    to `slack_s` ahead counts as due. Missed times are never run one by one: only the latest
    due time is run, once."""
    due = last_due(schedule, now + timedelta(seconds=slack_s))
    if due is None:
        return None
    with _locked():
        data = _read()
        done = data["claimed"].get(schedule.id) or schedule.created_at
        if done and due <= datetime.fromisoformat(done):
            return None
        data["claimed"][schedule.id] = due.isoformat(timespec="minutes")
        _write(data)
    return due


def last_seen(folder: str) -> str:
    """When the window last showed this folder's scheduled runs (ISO time, "" if never)."""
    return str(_read()["seen"].get(folder, ""))


def mark_seen(folder: str, when: str) -> None:
    with _locked():
        data = _read()
        data["seen"][folder] = when
        _write(data)


def is_due(schedule: Schedule, now: datetime, slack_s: float = 120.0) -> bool:
    """Whether claim_due would give a time now (without claiming it)."""
    due = last_due(schedule, now + timedelta(seconds=slack_s))
    done = _read()["claimed"].get(schedule.id) or schedule.created_at
    return due is not None and not (done and due <= datetime.fromisoformat(done))
