"""A run cut off without ending (the app killed, the machine switched off): what it did.

status.json still says "running" but no process holds the folder's lock. The run's own
events tell what it finished before it was cut off, including in the round it was in,
whose record was never written. No Qt: the window and the command line can both say it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.core.records import events as ev
from app.core.run.outcomes import ACTIVE_STATES
from app.core.records.records import Status, read_events, read_rounds
from app.core.workspace.workspace import Workspace

if TYPE_CHECKING:
    from app.core.records.status_view import StatusView


@dataclass(frozen=True)
class InterruptedRun:
    run_id: str
    round: int = 0                  # the round it was cut off in (0: between rounds)
    task: str = ""                  # that round's task
    started_at: str | None = None   # when that round started
    round_files: list[str] = field(default_factory=list)  # what that round changed
    rounds_recorded: int = 0        # rounds that ended properly before it
    tasks_completed: list[str] = field(default_factory=list)  # ticked in this run
    files_changed: list[str] = field(default_factory=list)    # written or deleted in it


def interrupted_run(ws: Workspace, status: Status | StatusView) -> InterruptedRun | None:
    """The run status.json calls active (as the Status model or its light reader's view), if
    no process runs it any more; else None."""
    if status.state not in ACTIVE_STATES or not status.run_id:
        return None
    if ws.lock().is_held_elsewhere():
        return None  # really running, in another window or the terminal

    run = ws.run_dir(status.run_id)
    if not run.is_dir():
        return None
    recorded = {r.round for r in read_rounds(run)}
    round_no, task, started = 0, "", None
    done: list[str] = []
    changed: list[str] = []
    in_round: list[str] = []
    for event in read_events(run):
        if isinstance(event, ev.RoundStarted):
            round_no, task, started, in_round = event.round, event.task, event.time, []
        elif isinstance(event, ev.TaskCompleted) and event.task not in done:
            done.append(event.task)
        elif isinstance(event, ev.FileChanged):
            for names in (changed, in_round):
                if event.path not in names:
                    names.append(event.path)
    if round_no in recorded:
        round_no, task, started, in_round = 0, "", None, []
    return InterruptedRun(status.run_id, round_no, task, started, in_round, len(recorded),
                          done, changed)
