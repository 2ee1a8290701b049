"""A piece of work's time, cost and runs, counted once from its records.

A run that stops for a decision and the run that carries on after the answer are one piece
of work (run.json's `continues`). The window's status line and the exported summary both
take their numbers from here, so they agree: the time is the time the runs themselves took
(each from its start to its end), not the time the person spent deciding between them; the
tokens and cost are every run's; `runs` counts the runs, `decisions` the answers between them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from app.core.records.records import read_run

if TYPE_CHECKING:
    from app.core.records.records import RunInfo
    from app.core.workspace.workspace import Workspace


@dataclass(frozen=True)
class WorkTotals:
    runs: int                 # the runs of the piece of work (1 + the decisions answered)
    seconds: float | None     # the runs' own time, summed (None: no run has a known end)
    tokens: int
    cost_usd: float
    finished: bool            # the last run has ended

    @property
    def decisions(self) -> int:
        return self.runs - 1


def parse_time(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def run_seconds(info: RunInfo, last_time: str | None = None) -> float | None:
    """How long one run took: its start to its end (or to `last_time`, its last record,
    when it has no end)."""
    start, end = parse_time(info.started_at), parse_time(info.finished_at or last_time)
    return max(0.0, (end - start).total_seconds()) if start and end else None


def earlier_runs(ws: Workspace, info: RunInfo, limit: int = 100) -> list[RunInfo]:
    """The runs `info` carries on after decisions, oldest first (none when it began the work)."""
    out: list[RunInfo] = []
    seen = {info.run_id}
    ahead = info.continues
    while ahead and ahead not in seen and len(out) < limit:
        before = read_run(ws.run_files(ahead))
        if before is None:
            break
        out.insert(0, before)
        seen.add(ahead)
        ahead = before.continues
    return out


def totals(runs: list[RunInfo], last_time: str | None = None) -> WorkTotals:
    """The totals of `runs` (oldest first; `last_time`: the last record of the newest, for a
    run without an end)."""
    spans = [run_seconds(r, last_time if i == len(runs) - 1 else None)
             for i, r in enumerate(runs)]
    known = [s for s in spans if s is not None]
    return WorkTotals(runs=len(runs), seconds=sum(known) if known else None,
                      tokens=sum(r.usage.total_tokens for r in runs),
                      cost_usd=sum(r.cost_usd for r in runs),
                      finished=bool(runs) and runs[-1].finished_at is not None)


def work_of(ws: Workspace, run_id: str) -> WorkTotals | None:
    """The totals of the piece of work that run `run_id` ends (None: no record of it)."""
    info = read_run(ws.run_files(run_id))
    if info is None:
        return None
    return totals([*earlier_runs(ws, info), info])


def clock(seconds: float) -> tuple[int, int, int] | None:
    """(hours, minutes, seconds) as every duration is said, to the whole second (None: under
    one second): the window and the exported summary round it the same way."""
    if seconds < 1:
        return None
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return hours, minutes, secs
