"""`harness-desk status` and `watch`: read a run's records without disturbing it.

status.json is read through core/records/status_view.py, which needs no pydantic: `status` costs
little more than starting Python."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from app.core.clean_text import clean_line
from app.core.records.cost_words import cost_text
from app.core.errors import EXIT_FAILED, STATE_EXIT_CODES
from app.core.run.outcomes import ACTIVE_STATES, RunState
from app.core.records.status_view import (EXIT_REASON_WORDS, FINAL_STATES, StatusView,
                                  read_status_view)
from app.core.workspace.workspace import Workspace

POLL_S = 0.2


def current_status(ws: Workspace) -> tuple[StatusView, str | None]:
    """status.json, marked interrupted if it claims a run that no process holds any more."""
    status, warning = read_status_view(ws.status_path)
    if status.state in ACTIVE_STATES and not ws.lock().is_held_elsewhere():
        status = status._replace(
            state=RunState.STOPPED.value, extra={**(status.extra or {}), "interrupted": True},
            message="The last run was interrupted before it finished (the app closed or the "
                    "computer restarted). Run again to continue.")
    return status, warning


def cmd_status(args: argparse.Namespace) -> int:
    ws = Workspace(args.path).require(need_board=False)
    status, warning = current_status(ws)
    if warning:
        print(warning, file=sys.stderr)
    if args.json:
        print(json.dumps(status.as_json(), ensure_ascii=False, indent=2,
                         sort_keys=True))
        return 0
    print(format_status(status))
    return 0


_STATE_WORDS: dict[str, str] = {
    RunState.RUNNING: "Running", RunState.WAITING: "Waiting to retry", RunState.DONE: "Done",
    RunState.FAILED: "Failed", RunState.BLOCKED_BY_HUMAN: "Waiting for your decision",
    RunState.STOPPED: "Stopped", RunState.IDLE: "Idle"}


def format_status(s: StatusView) -> str:
    if s.run_id is None:
        return "No run yet in this folder."
    words = _STATE_WORDS[s.state]
    lines = [f"State: {words}",
             f"Tasks: {s.completed_tasks} of {s.total_tasks} done"]
    if s.current_task and s.state in ACTIVE_STATES:
        lines.append(f"Current task: {s.current_task} (round {s.round}, step {s.step})")
    if s.message or s.exit_reason:
        lines.append(s.message or EXIT_REASON_WORDS.get(s.exit_reason or "", ""))
    if s.last_event:
        lines.append(f"Last event: {s.last_event.strip()}")
    live = (f" (and about {s.step_tokens:,} in the reply now arriving)"
            if s.step_tokens and s.state == RunState.RUNNING else "")
    cost = cost_text(f"${s.cost_usd:.4f}", s.cost_is_upper_estimate, s.model or "")
    lines.append(f"Engine: {s.engine}{' / ' + s.model if s.model else ''}; "
                 f"tokens {s.usage.total_tokens:,}{live}; cost {cost}")
    lines.append(f"Run: {s.run_id}, started {s.started_at}")
    # status.json's words come from the model and the board (a task, an engine's error):
    # each line shown as one line, without anything that would drive the terminal.
    return "\n".join(map(clean_line, lines))


def cmd_watch(args: argparse.Namespace) -> int:
    from app.core.records.events import RunFinished, try_parse_event  # noqa: PLC0415 - `status` stays light
    from app.core.records.narrate import describe_event  # noqa: PLC0415 - `status` stays light

    ws = Workspace(args.path).require(need_board=False)
    lock = ws.lock()
    if not lock.is_held_elsewhere():
        if not args.wait:
            status, _ = current_status(ws)
            print("No run is active in this folder.")
            if status.run_id:
                print(format_status(status))
            return 0
        print("Waiting for a run to start… (Ctrl+C to stop watching)", flush=True)
        while not lock.is_held_elsewhere():
            time.sleep(POLL_S)

    run_id = _wait_for_run_id(ws)
    events = ws.run_files(run_id).events
    offset = 0
    try:
        while True:
            offset, new = _read_new_lines(events, offset)
            for obj in new:
                event = try_parse_event(obj)
                line = describe_event(event) if event is not None else None
                if line is not None:
                    print(line, flush=True)
                if isinstance(event, RunFinished):
                    return STATE_EXIT_CODES.get(event.state, EXIT_FAILED)
            if not new and not lock.is_held_elsewhere():
                # The run ended without a final event (killed): say so and stop following.
                offset, new = _read_new_lines(events, offset)
                if not new:
                    print("The run ended without finishing (it was interrupted).")
                    return EXIT_FAILED
                continue
            time.sleep(POLL_S)
    except KeyboardInterrupt:
        return 0


def _wait_for_run_id(ws: Workspace, timeout_s: float = 10.0) -> str:
    """The run id of the active run (status.json is written right after the lock is taken)."""
    deadline = time.monotonic() + timeout_s
    while True:
        status, _ = read_status_view(ws.status_path)
        if status.run_id and status.state not in FINAL_STATES:
            return status.run_id
        if time.monotonic() > deadline:
            return status.run_id or ws.latest_run_id() or ""
        time.sleep(POLL_S / 2)


def _read_new_lines(path: Path, offset: int) -> tuple[int, list[dict]]:
    """Complete lines appended since `offset`; a half-written last line waits for next time."""
    try:
        with open(path, "rb") as fh:
            fh.seek(offset)
            chunk = fh.read()
    except FileNotFoundError:
        return offset, []
    end = chunk.rfind(b"\n")
    if end < 0:
        return offset, []
    out = []
    for line in chunk[: end + 1].splitlines():
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(obj, dict):
            out.append(obj)
    return offset + end + 1, out
