"""`harness-desk run`: build the engine and limits from settings and flags, run, print events."""

from __future__ import annotations

import argparse
import hashlib
import signal
import sys
import threading

from pydantic import ValidationError

from app.core.errors import STATE_EXIT_CODES, EXIT_FAILED, UsageError
from app.core.loop import Harness, RunResult
from app.core.narrate import describe_event
from app.core.records import Event
from app.core.settings import Limits, Settings, load_settings
from app.core.workspace import Workspace, risky_folder_reason
from app.core.engine import EngineConfig
from app.engines.registry import UnknownEngine, create_engine


def build_limits(settings: Settings, args: argparse.Namespace) -> Limits:
    overrides = {
        "max_rounds": args.max_rounds, "max_steps": args.max_steps,
        "stall_limit": args.stall_limit, "max_attempts": getattr(args, "max_attempts", None),
        "budget_usd": args.budget_usd, "budget_tokens": args.budget_tokens,
    }
    data = settings.limits.model_dump()
    data.update({k: v for k, v in overrides.items() if v is not None})
    try:
        return Limits.model_validate(data)
    except ValidationError as err:
        problem = err.errors()[0]
        name = str(problem["loc"][0]) if problem.get("loc") else "a limit"
        flag = "--" + name.replace("_", "-")
        raise UsageError(f"Bad value for {flag}: {problem['msg'].lower()}.") from None


def build_engine(settings: Settings, ws: Workspace, engine_id: str, model: str | None,
                 base_url: str | None, demo_delay: float | None):
    saved = settings.engine_settings(engine_id)
    config = EngineConfig(
        model=model or saved.model,
        base_url=base_url or saved.base_url,
        # Stable per workspace, so the provider's prompt cache is shared across its runs.
        cache_key="harness-desk-" + hashlib.sha256(
            str(ws.root.resolve()).encode("utf-8")).hexdigest()[:16],
        options={"delay_s": demo_delay if demo_delay is not None else settings.demo_delay_s},
    )
    try:
        return create_engine(engine_id, config)
    except UnknownEngine as err:
        raise UsageError(str(err)) from None


def print_event(event: Event) -> None:
    print(describe_event(event), flush=True)


def cmd_run(args: argparse.Namespace) -> int:
    loaded = load_settings()
    if loaded.warning:
        print(loaded.warning, file=sys.stderr)
    settings = loaded.settings
    ws = Workspace(args.path).require_runnable()
    confirm_folder(ws, getattr(args, "yes", False))
    engine = build_engine(settings, ws, args.engine or settings.engine, args.model,
                          args.base_url, args.demo_delay)
    limits = build_limits(settings, args)
    cancel = threading.Event()
    restore = _stop_on_signals(cancel)
    try:
        result = Harness(ws, engine, limits, listeners=[print_event], cancel=cancel).run()
    finally:
        restore()
    return report_result(ws, result)


def confirm_folder(ws: Workspace, assume_yes: bool) -> None:
    """Ask before letting the agent loose on a home or system folder. Only a person at a
    terminal can say yes; a script must say --yes up front."""
    reason = risky_folder_reason(ws.root)
    if reason is None or assume_yes:
        return
    if not sys.stdin or not sys.stdin.isatty():
        raise UsageError(f"{reason} If you mean it, run again with --yes.")
    try:
        answer = input(f"{reason} Let the AI work here? [y/N] ")
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        raise UsageError("Nothing was run.")


def report_result(ws: Workspace, result: RunResult) -> int:
    code = STATE_EXIT_CODES.get(result.state, EXIT_FAILED)
    if result.state == "failed":
        print(result.message, file=sys.stderr)
    elif result.state == "blocked_by_human":
        from app.core.board import Board

        task = Board.load(ws.board_path).next_task()
        if task is not None and task.is_human:
            print(f"\nDecision needed: {task.question}")
            for option in task.options:
                print(f"  - {option}")
            if task.recommendation:
                print(f"  Recommended: {task.recommendation}")
            print(f'Answer with: harness-desk decide "{ws.root}" --answer "..."')
    return code


def _stop_on_signals(cancel: threading.Event):
    """First Ctrl+C (or SIGTERM) asks the run to stop after the current step; the board and
    files are never left half-written. A second Ctrl+C interrupts at once."""
    previous = {}

    def handler(signum, frame):
        if cancel.is_set() and signum == signal.SIGINT:
            raise KeyboardInterrupt
        cancel.set()
        print("Stopping after the current step…", file=sys.stderr, flush=True)

    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            previous[sig] = signal.signal(sig, handler)
        except (ValueError, OSError):
            pass

    def restore():
        for sig, old in previous.items():
            signal.signal(sig, old)
    return restore
