"""`harness-desk plan`: a goal in, proposed tasks out; `--add` puts them on the board."""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Callable

from app.commands.run import build_limits, confirm_folder
from app.core.board.board import Board, BoardError
from app.core.board.task import norm
from app.core.records.cost_words import cost_text
from app.core.errors import EXIT_FAILED, EXIT_STOPPED, UsageError
from app.core.records.events import Event
from app.core.records.narrate import describe_event
from app.core.plan.prompt import PlanContext
from app.core.plan.records import read_plans
from app.core.plan.planning import PLAN_MAX_STEPS, Planner, last_run_summaries
from app.core.plan.proposals import Proposal, add_proposals, check_proposals
from app.core.settings import load_settings
from app.core.workspace.workspace import Workspace
from app.engines.setup import build_engine

# How each way planning can end maps to an exit code, as `run` maps its states.
_STOPPED = ("cancelled", "budget_exhausted")


def cmd_plan(args: argparse.Namespace) -> int:
    ws = Workspace(args.path).require(need_board=False)
    goal = (args.goal or "").strip()
    picks = _picks(args.pick)
    if not goal and not args.next:
        if not args.add:
            raise UsageError('Say what you want to achieve, for example: harness-desk plan '
                             f'{_quote(args.path)} "Plan a birthday party".')
        return _add_last_plan(ws, picks)

    loaded = load_settings()
    if loaded.warning:
        print(loaded.warning, file=sys.stderr)
    settings = loaded.settings
    confirm_folder(ws, args.yes)
    engine = build_engine(settings, ws.root, args.engine, model=args.model,
                          base_url=args.base_url, demo_delay=args.demo_delay)
    limits = build_limits(settings, args)
    context = PlanContext(note=args.note or "",
                          run_summaries=last_run_summaries(ws) if args.next else [])
    live: list[Callable[[Event], None]] = [_progress] if sys.stderr.isatty() else []
    cancel = threading.Event()
    planner = Planner(ws, engine, limits, listeners=live, cancel=cancel,
                      max_steps=args.max_steps or PLAN_MAX_STEPS)
    try:
        outcome = planner.plan(goal, "next" if args.next else "goal", context)
    except KeyboardInterrupt:
        print("Planning was stopped; nothing was written.", file=sys.stderr)
        return EXIT_STOPPED
    if not outcome.ok:
        print(outcome.message, file=sys.stderr)
        return EXIT_STOPPED if outcome.result in _STOPPED else EXIT_FAILED
    chosen = _chosen(outcome.proposals, picks)
    cost = (", " + cost_text(f"${outcome.cost_usd:.4f}", outcome.cost_is_upper_estimate,
                                  engine.model) if engine.is_ai else "")
    title = f"“{goal}”" if goal else "what comes next"
    print(f"Proposed tasks for {title} ({engine.label}, {outcome.steps} steps{cost}):\n")
    print_proposals(outcome.proposals)
    if not args.add:
        print(f"\nNothing was written. To put these on your list: "
              f"harness-desk plan {_quote(args.path)} --add")
        return 0
    return _add(ws, chosen)


def print_proposals(proposals: list[Proposal]) -> None:
    for n, p in enumerate(proposals, 1):
        print(f"{n}. {p.board_text}")
        for line in p.done_when:
            print(f"   Done when: {line}")
        for option in p.options:
            print(f"   Option: {option}")


def _add_last_plan(ws: Workspace, picks: list[int] | None) -> int:
    """`plan PATH --add` without a goal: the tasks of the folder's last plan, as printed."""
    plans = [p for p in read_plans(ws.root) if p.result == "proposed"]
    if not plans:
        raise UsageError("There is no plan to add yet. Make one first: harness-desk plan "
                         f'{_quote(ws.root)} "your goal".')
    proposals = [Proposal.from_json(d) for d in plans[-1].proposals]
    chosen = _chosen(proposals, picks)
    print(f"Tasks of the last plan (“{plans[-1].goal or 'what comes next'}”):\n")
    print_proposals(chosen)
    return _add(ws, chosen)


def _add(ws: Workspace, chosen: list[Proposal]) -> int:

    board = Board.load(ws.board_path) if ws.board_path.exists() else None
    on_board = {norm(t.text) for t in board.tasks} if board is not None else set()
    there = next((p for p in chosen if norm(p.board_text) in on_board), None)
    if there is not None:  # the board changed since planning: the person's list wins
        raise BoardError(f"Nothing was added: “{there.board_text}” is already on your list.")
    _, problems = check_proposals([p.to_json() for p in chosen], board)
    if problems:
        raise BoardError(f"Nothing was added: {problems[0]}")
    refs, created = add_proposals(ws.root, chosen)
    where = "a new TASKS.md" if created else "TASKS.md"
    print(f"\nAdded {len(refs)} {'task' if len(refs) == 1 else 'tasks'} to {where}.")
    return 0


def _picks(text: str | None) -> list[int] | None:
    if not text:
        return None
    try:
        picks = [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise UsageError(f"Bad value for --pick: '{text}' is not a list of task numbers "
                         "such as 1,3,4.") from None
    if not picks or min(picks) < 1:
        raise UsageError("Bad value for --pick: task numbers start at 1.")
    return picks


def _chosen(proposals: list[Proposal], picks: list[int] | None) -> list[Proposal]:
    if picks is None:
        return list(proposals)
    if max(picks) > len(proposals):
        raise UsageError(f"Bad value for --pick: there is no task {max(picks)}; the plan has "
                         f"{len(proposals)}.")
    return [proposals[i - 1] for i in dict.fromkeys(picks)]


def _progress(event: Event) -> None:
    """What planning is doing, on stderr (stdout is the proposals), at a terminal only."""
    line = describe_event(event)
    if line is not None:
        print(line, file=sys.stderr, flush=True)


def _quote(path) -> str:
    text = str(path)
    return f'"{text}"' if " " in text else text
