"""What the window needs to know about a folder it opens, gathered off the UI thread in one call.

No Qt here: `inspect_folder` runs on a pool thread; the window gets the `FolderInfo` back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from app.core.board import Board, BoardError, Task
from app.core.errors import HarnessError
from app.core.interrupted import InterruptedRun, interrupted_run
from app.core.outcomes import ACTIVE_STATES
from app.core.records import (RoundRecord, Status, read_rounds, read_run, read_status,
                              undone_rounds)
from app.core.workspace import BOARD_NAME, Workspace
from app.gui.folder import first_start

HISTORY_RUNS = 3  # how many earlier runs' rounds the cards show when a folder opens
PLANS_SHOWN = 10  # and at most how many planning rounds among them


@dataclass
class FolderInfo:
    folder: Path
    problem: str = ""                 # why it cannot be opened ("" when it can)
    has_board: bool = False
    is_demo: bool = False
    never_run: bool = True
    status: Status = field(default_factory=Status)
    run_active_elsewhere: bool = False
    # (started_at, its rounds, is_ai, the rounds undone since) of the last runs, oldest first
    history: list[tuple[str | None, list[RoundRecord], bool, set[int]]] = field(
        default_factory=list)
    interrupted: InterruptedRun | None = None  # the last run was cut off (killed) mid-way
    # planning rounds (PlanRecord) since the oldest run shown, oldest first: their cards
    plans: list = field(default_factory=list)
    open_decision: Task | None = None  # the next task, when it is a decision (a later one
                                       # waits until a run reaches it, as on the command line)


def inspect_folder(path: Path) -> FolderInfo:
    folder = Path(path).expanduser()
    if folder.is_file():
        folder = folder.parent  # a dropped file means its folder
    try:
        folder = folder.resolve()
    except OSError:
        pass
    info = FolderInfo(folder=folder)
    if not folder.exists():
        info.problem = "missing"
        return info
    if not folder.is_dir():
        info.problem = "not_a_folder"
        return info
    ws = Workspace(folder)
    info.is_demo = first_start.is_demo_copy(folder)
    info.has_board = ws.board_path.is_file()
    if ws.board_path.is_dir():
        info.problem = "board_is_folder"
        return info
    try:
        if not ws.lock().is_held_elsewhere():
            ws.clean_stale_temps()  # what a kill mid-save left; a run going on keeps its own
    except (HarnessError, OSError):
        pass  # a .harness that is a file or a link: the checks below and the run say so
    run_ids = ws.run_ids()
    info.never_run = not run_ids
    info.status, _warning = read_status(ws.status_path)
    if info.status.state in ACTIVE_STATES:
        info.run_active_elsewhere = ws.lock().is_held_elsewhere()
        if not info.run_active_elsewhere and run_ids and run_ids[-1] == info.status.run_id:
            info.interrupted = interrupted_run(ws, info.status)
    for run_id in run_ids[-HISTORY_RUNS:]:
        run = read_run(ws.run_dir(run_id))
        rounds = read_rounds(ws.run_dir(run_id))
        is_ai = bool(run.is_ai and run.engine != "demo") if run else True
        info.history.append((run.started_at if run else None, rounds, is_ai,
                             undone_rounds(ws.run_dir(run_id))))
    shown_since = info.history[0][0] if len(run_ids) > HISTORY_RUNS else None
    info.plans = _plans_since(folder, shown_since)
    if info.has_board:
        try:
            board = Board.load(ws.board_path)
            upcoming = board.next_task()
            info.open_decision = upcoming if upcoming is not None and upcoming.is_human else None
        except (BoardError, OSError):
            pass  # the checklist shows the board's own problem
    return info


def _plans_since(folder: Path, started: str | None) -> list:
    """The planning rounds to show among the rounds: those since the oldest run shown (all of
    them when every run is shown), the last PLANS_SHOWN, finished ones only."""
    from app.core.plan_records import read_plans

    plans = [p for p in read_plans(folder) if p.result != "planning"
             and (p.result == "proposed" or p.steps)  # a try that did nothing: no card
             and (started is None or p.started_at >= started)]
    return plans[-PLANS_SHOWN:]


def decision_context(root: Path, task_text: str | None = None, *,
                     next_only: bool = False) -> tuple[Task | None, str]:
    """The open decision (the one named, else the first) and the task it is about: for a
    no-progress decision, the stuck task right after it on the board. `next_only`: only a
    decision that is the next task counts (what a run would stop at before doing anything)."""
    board = Board.load(Path(root) / BOARD_NAME)
    tasks = board.tasks
    found = None
    upcoming = board.next_task()
    for i, task in enumerate(tasks):
        if next_only and task is not upcoming:
            continue
        if task.is_human and not task.checked and (task_text is None or task.text == task_text):
            found = (task, next((t.text for t in tasks[i + 1:] if not t.checked), ""))
            break
    return found if found else (None, "")
