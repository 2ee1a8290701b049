"""`harness-desk run`: settings and flags in, a run, one line per event out."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from typing import Callable

from app.core.clean_text import clean_line
from app.core.policies.pending import marker_of
from app.core.errors import STATE_EXIT_CODES, EXIT_FAILED, UsageError
from app.core.records.events import Event, ModelText, StepStarted
from app.core.workspace.folder_settings import load_folder_settings
from app.core.run.loop import Harness, RunResult
from app.core.records.narrate import describe_event
from app.core.run.outcomes import RunState
from app.core.settings import LimitError, Limits, Settings, load_settings
from app.core.workspace.workspace import Workspace, risky_folder_reason
from app.engines.setup import build_engine

# The flag of each limit `run` can override, for sentences about a bad value.
LIMIT_FLAGS = {"max_rounds": "--max-rounds", "max_steps": "--max-steps",
               "stall_limit": "--stall-limit", "max_attempts": "--max-attempts",
               "budget_usd": "--budget-usd", "budget_tokens": "--budget-tokens"}


def build_limits(settings: Settings, args: argparse.Namespace) -> Limits:
    """The settings' limits with the flags given on the command line."""
    try:
        return settings.limits.with_overrides(
            **{field: getattr(args, field, None) for field in LIMIT_FLAGS})
    except LimitError as err:
        flag = LIMIT_FLAGS.get(err.field, "--" + err.field.replace("_", "-"))
        raise UsageError(f"Bad value for {flag}: {err.reason}.") from None


PROGRESS_EVERY_S = 10.0  # a long reply gets a "tokens so far" line this often


class EventPrinter:
    """One line per event; the live view's own kinds (step_started, model_text...) have none,
    except that a reply still streaming after PROGRESS_EVERY_S gets a line with its tokens
    so far every PROGRESS_EVERY_S, so a slow local model is never silent for minutes."""

    def __init__(self, clock: Callable[[], float] | None = None):
        self._clock = clock or time.monotonic
        self._step: tuple[int, int] | None = None
        self._next_at = 0.0

    def __call__(self, event: Event) -> None:
        if isinstance(event, StepStarted):
            self._step, self._next_at = (event.round, event.step), self._clock() + PROGRESS_EVERY_S
        elif isinstance(event, ModelText) and event.tokens and self._clock() >= self._next_at:
            self._next_at = self._clock() + PROGRESS_EVERY_S
            print(f"  Step {event.step}: the AI is still answering, about {event.tokens:,} "
                  f"token{'' if event.tokens == 1 else 's'} so far…", flush=True)
        line = describe_event(event)
        if line is not None:
            print(line, flush=True)


def print_event(event: Event) -> None:
    """One line per event (without the progress lines of EventPrinter)."""
    line = describe_event(event)
    if line is not None:
        print(line, flush=True)


def cmd_run(args: argparse.Namespace) -> int:
    loaded = load_settings()
    if loaded.warning:
        print(loaded.warning, file=sys.stderr)
    settings = loaded.settings
    ws = Workspace(args.path).require_runnable()
    confirm_folder(ws, getattr(args, "yes", False))
    engine = build_engine(settings, ws.root, args.engine, model=args.model,
                          base_url=args.base_url, demo_delay=args.demo_delay)
    engine.start_loading()  # its SDK, while the run reads the board and asks the server
    limits = build_limits(settings, args)
    careful, approver = careful_mode(ws, getattr(args, "careful", False))
    cancel = threading.Event()
    restore = _stop_on_signals(cancel)
    try:
        result = Harness(ws, engine, limits, listeners=[EventPrinter()], cancel=cancel,
                         careful=careful, approver=approver).run()
    finally:
        restore()
    return report_result(ws, result)


def careful_mode(ws: Workspace, flag: bool):
    """Careful mode from the flag or the folder's settings, and who answers its questions:
    the person at the terminal, or no one (the run stops and the question goes on the
    board)."""
    careful = flag or load_folder_settings(ws.harness_dir).careful
    if sys.stdin is not None and sys.stdin.isatty():
        from app.commands.approve import TerminalApprover  # noqa: PLC0415 - the run's first request (bench/peers.py): +5 modules, ~6 ms, only at a terminal

        return careful, TerminalApprover()
    return careful, None


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
    if result.state == RunState.FAILED:
        print(result.message, file=sys.stderr)
    elif result.state == RunState.BLOCKED_BY_HUMAN:
        from app.core.board.decide import open_decision  # noqa: PLC0415 - the run's first request (bench/peers.py): ~1.7 ms, only for a run that ends at a decision

        task = open_decision(ws.root)
        if task is not None:  # the board's words, whoever wrote them: shown without controls
            print(f"\nDecision needed: {clean_line(task.question)}")
            for option in task.options:
                print(f"  - {clean_line(option)}")
            if task.recommendation:
                print(f"  Recommended: {clean_line(task.recommendation)}")
            if marker_of(task.question):  # a kept change: seen before it can be allowed
                print(f'See the change and answer with: harness-desk approve "{ws.root}"')
            else:
                print(f'Answer with: harness-desk decide "{ws.root}" --answer "..."')
    return code


def _stop_on_signals(cancel: threading.Event):
    """First Ctrl+C (or SIGTERM) asks the run to stop after the current step; the board and
    files are never left half-written. A second Ctrl+C interrupts at once."""
    previous = {}

    def handler(signum, frame):
        if cancel.is_set() and signum == signal.SIGINT:
            raise KeyboardInterrupt
        if cancel.is_set():
            return  # a second SIGTERM: the stop is already under way, and said once
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
