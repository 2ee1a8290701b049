"""What the window needs to know about a folder it opens, gathered off the UI thread.

No Qt here: these run on a pool thread; the window gets the `FolderInfo` back. Opening
a folder takes two reads: `inspect_quickly` is what the checklist and the Run button need
(the folder's checks, its board's next task, status.json read without pydantic), and
`read_history` adds the earlier runs' rounds for the cards, pydantic and all, once the
checklist is on screen: reading run records through pydantic was about 40% of the time
to a usable window. `inspect_folder` is both at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.board.board import Board, BoardError, Task
from app.core.errors import HarnessError
from app.core.run.outcomes import ACTIVE_STATES
from app.core.records.status_view import StatusView, read_status_view
from app.core.workspace.workspace import BOARD_NAME, Workspace
from app.gui.folder import first_start

if TYPE_CHECKING:
    from app.core.records.interrupted import InterruptedRun
    from app.core.records.records import RoundRecord

HISTORY_RUNS = 3  # how many earlier runs' rounds the cards show when a folder opens
PLANS_SHOWN = 10  # and at most how many planning rounds among them


@dataclass
class FolderInfo:
    folder: Path
    problem: str = ""                 # why it cannot be opened ("" when it can)
    has_board: bool = False
    is_demo: bool = False
    never_run: bool = True
    status: StatusView = field(default_factory=StatusView)  # status.json
    run_active_elsewhere: bool = False
    # (started_at, its rounds, is_ai, the rounds undone since) of the last runs, oldest first
    history: list[tuple[str | None, list[RoundRecord], bool, set[int]]] = field(
        default_factory=list)
    interrupted: InterruptedRun | None = None  # the last run was cut off (killed) mid-way
    # planning rounds (PlanRecord) since the oldest run shown, oldest first: their cards
    plans: list = field(default_factory=list)
    open_decision: Task | None = None  # the next task, when it is a decision (a later one
                                       # waits until a run reaches it, as on the command line)
    board: Board | None = None  # TASKS.md as read here (the checklist shows it at once)
    run_ids: list[str] = field(default_factory=list)  # the folder's runs, oldest first
    history_read: bool = False  # history and plans are filled in (read_history)


def inspect_folder(path: Path) -> FolderInfo:
    """All the window shows of a folder: `inspect_quickly` and `read_history` in one."""
    info = inspect_quickly(path)
    return info if info.problem else read_history(info)


def inspect_quickly(path: Path) -> FolderInfo:
    """What the checklist and the run's panel need, without pydantic or the run records:
    the folder's checks, its runs' names, status.json and the board's next task. The
    interrupted run is read here too (the panel offers to continue it), which is rare."""
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
    info.run_ids = run_ids = ws.run_ids()
    info.never_run = not run_ids
    info.status, _warning = read_status_view(ws.status_path)
    if info.status.state in ACTIVE_STATES:
        info.run_active_elsewhere = ws.lock().is_held_elsewhere()
        if not info.run_active_elsewhere and run_ids and run_ids[-1] == info.status.run_id:
            from app.core.records.interrupted import interrupted_run  # noqa: PLC0415 - a folder usable without pydantic (tests/gui/test_startup_reads.py)

            info.interrupted = interrupted_run(ws, info.status)
    if info.has_board:
        try:
            info.board = board = Board.load(ws.board_path)
            upcoming = board.next_task()
            info.open_decision = upcoming if upcoming is not None and upcoming.is_human else None
        except (BoardError, OSError):
            pass  # the checklist shows the board's own problem
    return info


def read_history(info: FolderInfo) -> FolderInfo:
    """`info` with the last runs' rounds and the planning rounds among them (for the cards),
    read from the run records."""
    ws = Workspace(info.folder)
    info.history_read = True
    if not info.run_ids and not ws.plans_dir.is_dir():
        return info  # nothing to read: not even pydantic is needed
    from app.core.records.records import read_rounds, read_run, undone_rounds  # noqa: PLC0415 - a folder usable without pydantic (tests/gui/test_startup_reads.py)

    history = []
    for run_id in info.run_ids[-HISTORY_RUNS:]:
        run = read_run(ws.run_dir(run_id))
        rounds = read_rounds(ws.run_dir(run_id))
        is_ai = bool(run.is_ai and run.engine != "demo") if run else True
        history.append((run.started_at if run else None, rounds, is_ai,
                        undone_rounds(ws.run_dir(run_id))))
    info.history = history
    shown_since = history[0][0] if len(info.run_ids) > HISTORY_RUNS else None
    info.plans = _plans_since(info.folder, shown_since)
    return info


def _plans_since(folder: Path, started: str | None) -> list:
    """The planning rounds to show among the rounds: those since the oldest run shown (all of
    them when every run is shown), the last PLANS_SHOWN, finished ones only."""
    from app.core.plan.records import read_plans  # noqa: PLC0415 - a folder usable without pydantic (tests/gui/test_startup_reads.py)

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
