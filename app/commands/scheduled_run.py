"""`harness-desk run FOLDER --scheduled`: the run the computer's scheduler wakes.

Safe by construction: the folder's schedule gives the engine, model, careful mode and the
budget, and no budget means no run; no one answers a question (a decision, or in careful
mode a change to a file that was there before, stops the run with exit 3 and waits on the
board); the folder's lock is taken as for any run, so a run already going makes this one
skip with a record (exit 5), never run twice; a missing key or an unreachable service ends
the run with a record, never a retry loop; a folder moved or deleted takes its schedule
away with a record. Each wake runs only the latest due time, once (store.claim_due), so a
computer asleep for three Mondays runs once when it wakes. Every wake that ran or refused
ends with a line in the folder's `.harness/scheduled.jsonl` and a system notification.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path

from app.commands.run import EventPrinter
from app.core.errors import (EXIT_DONE, EXIT_FAILED, EXIT_LOCKED, EXIT_USAGE, STATE_EXIT_CODES,
                             HarnessError, WorkspaceLocked)
from app.core.board.decide import open_decision
from app.core.run.loop import Harness
from app.core.run.outcomes import ExitReason, RunState
from app.core.schedule import records as R
from app.core.schedule import store
from app.core.schedule.model import Schedule, schedule_id
from app.core.schedule.notify import notify
from app.core.settings import LimitError, load_settings
from app.core.workspace.workspace import Workspace
from app.engines.setup import build_engine
from app.schedulers.service import remove_entry


def cmd_scheduled_run(args: argparse.Namespace) -> int:
    folder = Path(args.path).expanduser().absolute()
    schedule = store.get(schedule_id(str(folder.resolve()))) or store.get(schedule_id(str(folder)))
    if schedule is None:
        print(f"{folder} has no schedule (it was removed). Nothing was run.", file=sys.stderr)
        _remove_entry(schedule_id(str(folder.resolve())))
        return EXIT_USAGE
    if not Path(schedule.folder).is_dir():
        return _folder_gone(schedule)
    if schedule.paused:
        print("This folder's schedule is paused. Nothing was run.")
        return EXIT_DONE
    due = store.claim_due(schedule, datetime.now())
    if due is None:
        print("No scheduled time is due that has not already run. Nothing was run.")
        return EXIT_DONE
    wake = R.WakeRecord(time="", schedule_id=schedule.id, folder=schedule.folder, outcome="",
                        exit_code=0, due=due.isoformat(timespec="minutes"))
    if not schedule.has_budget():
        return _end(wake, R.NO_BUDGET, EXIT_USAGE,
                    "The schedule has no budget, so nothing was run: set one with "
                    "harness-desk schedule or in the window.")
    try:
        return _run(schedule, wake)
    except WorkspaceLocked:
        return _end(wake, R.SKIPPED_BUSY, EXIT_LOCKED,
                    "Another run was already working in the folder, so this scheduled run "
                    "did not start.")
    except HarnessError as err:  # wake.kind says which step it stopped at
        return _end(wake, R.FAILED, err.exit_code, err.message)


def _run(schedule: Schedule, wake: R.WakeRecord) -> int:
    settings = load_settings().settings
    wake.kind = R.KIND_FOLDER
    ws = Workspace(schedule.folder).require_runnable()
    wake.kind = R.KIND_BUDGET
    try:
        limits = settings.limits.with_overrides(budget_usd=schedule.budget_usd or None,
                                                budget_tokens=schedule.budget_tokens or None)
    except LimitError as err:
        raise HarnessError(f"The schedule's budget cannot be used: {err.reason}.") from None
    wake.kind = R.KIND_ENGINE
    engine = build_engine(settings, ws.root, schedule.engine, model=schedule.model)
    wake.kind = R.KIND_KEY
    _require_readable_key(engine, wake)
    wake.kind = ""
    print(f"Scheduled run for {wake.due}.", flush=True)
    # No approver: no one is there to answer, so every question waits on the board.
    result = Harness(ws, engine, limits, listeners=[EventPrinter()], careful=schedule.careful,
                     approver=None).run()
    wake.run_id = result.run_id if result.reached_ai else ""
    wake.exit_reason, wake.cause, wake.engine = result.exit_reason, result.cause, engine.id
    status = _status(ws)
    wake.tasks_done = int(status.get("completed_tasks") or 0)
    wake.tasks_total = int(status.get("total_tasks") or 0)
    wake.cost_usd = float(status.get("cost_usd") or 0.0)
    if result.state == RunState.BLOCKED_BY_HUMAN:
        task = open_decision(ws.root)
        wake.question = task.question if task is not None else ""
    code = STATE_EXIT_CODES.get(result.state, EXIT_FAILED)
    outcome = result.state if result.state in (R.DONE, R.BLOCKED, R.STOPPED) else R.FAILED
    return _end(wake, outcome, code, "" if result.state == RunState.DONE else result.message)


def _require_readable_key(engine, wake: R.WakeRecord) -> None:
    """Stop before the run when the engine's key is in a keychain this wake cannot open (the
    person logged out, the keychain locked): a scheduled run has no one to unlock it, and a
    key kept for a session in the window never reaches it. A keychain that answers with no
    key stored is the run's own "no key yet", as for any run."""
    if not engine.needs_key:
        return
    from app.engines.keys import keychain_status, lookup_key  # noqa: PLC0415 - keyring, only for a key

    if lookup_key(engine.id)[0] or keychain_status()[0]:
        return
    wake.exit_reason, wake.engine = ExitReason.AUTH_FAILED.value, engine.id
    raise HarnessError(f"{_vendor(engine)}'s API key could not be read from the keychain: a "
                       "scheduled run needs you logged in on this computer, with its keychain "
                       "unlocked.")


def _vendor(engine) -> str:
    return {"anthropic": "Claude", "openai": "OpenAI"}.get(engine.id, engine.label or engine.id)


def _status(ws) -> dict:
    try:
        data = json.loads(ws.status_path.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _end(wake: R.WakeRecord, outcome: str, code: int, message: str) -> int:
    wake.time, wake.outcome, wake.exit_code, wake.message = R.now_local(), outcome, code, message
    R.record(wake)
    if message:
        print(message, file=sys.stderr if code else sys.stdout, flush=True)
    notify(wake)
    return code


def _folder_gone(schedule: Schedule) -> int:
    _remove_entry(schedule.id, schedule.backend)
    store.delete(schedule.id)
    wake = R.WakeRecord(time=R.now_local(), schedule_id=schedule.id, folder=schedule.folder,
                        outcome=R.REMOVED_FOLDER_GONE, exit_code=EXIT_USAGE,
                        message=f"The folder {schedule.folder} is no longer there (moved or "
                                "deleted), so its schedule was removed.")
    R.record(wake)
    print(wake.message, file=sys.stderr)
    notify(wake)
    return EXIT_USAGE


def _remove_entry(sid: str, backend: str = "") -> None:
    remove_entry(sid, backend)
