"""`harness-desk [PATH]`: open the window, or run the bundled demo in the terminal."""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sys
import threading
from pathlib import Path

from app.core.errors import STATE_EXIT_CODES, EXIT_FAILED, UsageError
from app.core.run.outcomes import RunState

# Opening the window imports only what the window needs before its first paint; the harness
# itself is imported by the terminal demo (below) or, in the window, after it is on screen.

TERMINAL_DEMO_DELAY_S = 0.35


def has_display() -> bool:
    """Whether a window can open: a desktop session, or a Qt platform chosen explicitly
    (QT_QPA_PLATFORM=offscreen for tests, wayland, ...)."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return True
    if sys.platform.startswith("linux") or sys.platform.startswith("freebsd"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def window_available() -> bool:
    return (importlib.util.find_spec("PySide6") is not None
            and importlib.util.find_spec("app.gui.app") is not None)


def cmd_open(args: argparse.Namespace) -> int:
    if args.path and not Path(args.path).exists():
        raise UsageError(f"There is no command or folder called '{args.path}'. "
                         "See `harness-desk --help`.")
    if window_available() and has_display():
        from app.gui.app import main as window_main  # noqa: PLC0415 - PySide6 is optional: loaded only once window_available() found it

        return window_main(args.path, demo=getattr(args, "demo", False),
                           lang=getattr(args, "lang", None))
    reason = ("there is no display here" if window_available()
              else "the window's Qt library is not installed")
    if args.path:
        raise UsageError(f"The app cannot open a window because {reason}. Run the folder in "
                         f"the terminal instead: harness-desk run \"{args.path}\" --engine demo")
    return terminal_demo(reason)


def fresh_demo_copy():
    """A copy of the bundled demo workspace nobody has run or edited (never wiping one that
    was: a new copy is made beside it)."""
    from app.core.workspace.workspace import Workspace  # noqa: PLC0415 - window start-up (bench/startup.py)
    from app.gui.folder.first_start import (  # noqa: PLC0415 - window start-up (bench/startup.py)
        TERMINAL_DEMO_FOLDER, demo_copy)

    return Workspace(demo_copy(fresh=True, name=TERMINAL_DEMO_FOLDER))


def terminal_demo(reason: str) -> int:
    from app.commands.run import print_event  # noqa: PLC0415 - window start-up (bench/startup.py)
    from app.core.board.decide import (  # noqa: PLC0415 - window start-up (bench/startup.py)
        decide, open_decision)
    from app.core.run.loop import Harness  # noqa: PLC0415 - window start-up (bench/startup.py)
    from app.core.settings import (  # noqa: PLC0415 - window start-up (bench/startup.py)
        load_settings)
    from app.engines.demo.engine import DELAY_ENV  # noqa: PLC0415 - window start-up (bench/startup.py)
    from app.engines.setup import build_engine  # noqa: PLC0415 - window start-up (bench/startup.py)

    ws = fresh_demo_copy()
    print(f"Harness Desk: {reason}, so the demo runs in this terminal.")
    print(f"Demo workspace (a copy, safe to change): {ws.root}")
    print("Engine: Demo (offline, no AI). It follows a fixed script through the real tools.\n")
    delay = float(os.environ.get(DELAY_ENV, TERMINAL_DEMO_DELAY_S))
    settings = load_settings().settings
    while True:
        engine = build_engine(settings, ws.root, "demo", demo_delay=delay)
        cancel = threading.Event()
        try:
            result = Harness(ws, engine, settings.limits, [print_event], cancel).run()
        except KeyboardInterrupt:
            return 130
        if result.state != RunState.BLOCKED_BY_HUMAN:
            break
        task = open_decision(ws.root)
        if task is None:
            break
        decided = decide(ws.root, _ask(task))
        print(f"\nAnswered: {decided.answer}. Continuing the run.\n")
    print(f"\n{result.message}")
    print(f"See the drafts in {ws.root / 'drafts'}.")
    cli = _cli_name()
    print(f"Undo a round:   {cli} undo \"{ws.root}\" --round 2")
    print(f"Export:         {cli} export \"{ws.root}\" --format pdf --output summary.pdf")
    return STATE_EXIT_CODES.get(result.state, EXIT_FAILED)


def _cli_name() -> str:
    """How to call this CLI from the person's shell: `harness-desk` when that is on PATH
    (an activated venv or an installed app), else this very Python with `-m app`."""
    found = shutil.which("harness-desk")
    if found and Path(found).absolute().parent == Path(sys.executable).absolute().parent:
        return "harness-desk"
    return f'"{sys.executable}" -m app'


def _ask(task) -> str:
    print(f"\nDecision needed: {task.question}")
    for i, option in enumerate(task.options, 1):
        print(f"  {i}. {option}")
    if task.recommendation:
        print(f"  Recommended: {task.recommendation}")
    default = task.options[-1] if task.options else "yes"
    if task.recommendation:
        first = task.recommendation.split(":", 1)[0].strip()
        default = first if first in task.options else default
    if not sys.stdin or not sys.stdin.isatty():
        print(f"No one is at the keyboard, so the demo answers '{default}'.")
        return default
    try:
        reply = input(f"Your answer (number or words) [{default}]: ").strip()
    except EOFError:
        reply = ""
    if reply.isdigit() and 1 <= int(reply) <= len(task.options):
        return task.options[int(reply) - 1]
    return reply or default
