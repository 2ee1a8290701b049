"""What scheduled runs did: one line per wake in the folder (`.harness/scheduled.jsonl`),
beside the runs' own records, and in the person's config folder for a schedule whose folder
is gone (`scheduled-log.jsonl`). The window reads the folder's lines to say what happened
while it was closed; the notification says the same at once."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path

from app.core.places import config_dir
from app.core.run.outcomes import RunState

FOLDER_FILE = "scheduled.jsonl"
PERSON_FILE = "scheduled-log.jsonl"

# What a wake ended as (the run's own states, and the wakes that ran nothing).
DONE, BLOCKED, STOPPED, FAILED = (RunState.DONE.value, RunState.BLOCKED_BY_HUMAN.value,
                                  RunState.STOPPED.value, RunState.FAILED.value)
SKIPPED_BUSY = "skipped_busy"          # another run held the folder's lock
SKIPPED_PAUSED = "skipped_paused"
NO_BUDGET = "no_budget"
REMOVED_FOLDER_GONE = "removed_folder_gone"
# What a run that did not start stopped at (WakeRecord.kind).
KIND_FOLDER, KIND_BUDGET, KIND_ENGINE = "folder", "budget", "engine"
KIND_KEY = "key"  # the engine's key is in a keychain the wake could not open


@dataclass
class WakeRecord:
    time: str                 # ISO local time the wake ended
    schedule_id: str
    folder: str
    outcome: str
    exit_code: int
    message: str = ""         # the plain sentence of a stop or failure
    run_id: str = ""
    due: str = ""             # the due time it ran for
    tasks_done: int = 0
    tasks_total: int = 0
    cost_usd: float = 0.0
    question: str = ""        # the decision it stopped at
    exit_reason: str = ""     # the run's (records.ExitReason), for the window's own words
    cause: str = ""           # an engine stop's finer cause (app.core.engine.port)
    engine: str = ""
    # What a run that did not start could not get past, for the window's own words: "folder"
    # (not runnable as it is), "budget" (the schedule's cannot be used), "engine" (not one
    # this app has), "key" (its key is in a keychain the wake could not open); "" for
    # anything else.
    kind: str = ""


def now_local() -> str:
    return datetime.now().isoformat(timespec="seconds")


def _append(path: Path, record: WakeRecord) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(asdict(record), ensure_ascii=False) + "\n"
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(line)
        fh.flush()


def record(record: WakeRecord) -> None:
    """Append the wake's line to the folder's records, or to the person's when the folder
    (or its .harness) cannot take it. Never raises: a record is not worth a failed run."""
    for path in (Path(record.folder) / ".harness" / FOLDER_FILE, config_dir() / PERSON_FILE):
        if path.parent.parent == Path(record.folder) and not Path(record.folder).is_dir():
            continue
        try:
            _append(path, record)
            return
        except OSError:
            continue


def _read(path: Path) -> list[WakeRecord]:
    out: list[WakeRecord] = []
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return out
    for line in lines:
        try:
            data = json.loads(line)
            out.append(WakeRecord(**{k: data[k] for k in WakeRecord.__dataclass_fields__
                                     if k in data}))
        except (ValueError, TypeError, KeyError):
            continue  # a line cut short by a kill
    return out


def folder_records(folder: str | Path, since: str = "") -> list[WakeRecord]:
    """The folder's wakes after `since` (ISO local time), oldest first."""
    return [r for r in _read(Path(folder) / ".harness" / FOLDER_FILE) if r.time > since]


def person_records(since: str = "") -> list[WakeRecord]:
    return [r for r in _read(config_dir() / PERSON_FILE) if r.time > since]
