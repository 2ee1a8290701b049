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
from app.core.loop import Harness
from app.core.resources import resource_path
from app.core.settings import config_dir, load_settings
from app.core.workspace import Workspace

TERMINAL_DEMO_DELAY_S = 0.35


def has_display() -> bool:
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def window_available() -> bool:
    return importlib.util.find_spec("app.gui.window") is not None


def cmd_open(args: argparse.Namespace) -> int:
    if args.path and not Path(args.path).is_dir():
        raise UsageError(f"There is no command or folder called '{args.path}'. "
                         "See `harness-desk --help`.")
    if window_available() and has_display():
        from app.gui.window import main as window_main  # the window's own issue builds it

        return window_main(args.path)
    reason = ("there is no display here" if window_available()
              else "the window is not part of this version yet")
    if args.path:
        raise UsageError(f"The app cannot open a window because {reason}. Run the folder in "
                         f"the terminal instead: harness-desk run \"{args.path}\" --engine demo")
    return terminal_demo(reason)


def fresh_demo_copy() -> Workspace:
    """A new copy of the bundled demo workspace in the app's own data folder."""
    target = _data_dir() / "Demo workspace"
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(resource_path("demo-workspace"), target)
    return Workspace(target)


def _data_dir() -> Path:
    if os.environ.get("HARNESS_DESK_CONFIG_DIR"):  # tests and portable installs: one folder
        return config_dir()
    from platformdirs import user_data_dir

    return Path(user_data_dir("harness-desk", appauthor=False))


def terminal_demo(reason: str) -> int:
    from app.commands.run import print_event
    from app.core.decide import decide, open_decision
    from app.engines.demo import DELAY_ENV
    from app.engines.setup import build_engine

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
        if result.state != "blocked_by_human":
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
