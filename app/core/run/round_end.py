"""Between two rounds: which task is next, and what a finished round means for the run.

Both are pure: they read the board, the round's facts and the limits, and answer with a task,
a verdict or a `RunStop`; the loop (app/core/run/loop.py) does what they say. The tables in
tests/core/run/test_round_end.py hold every rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from app.core.board.board import Board
from app.core.board.task import Task
from app.core.run.outcomes import RoundResult
from app.core.run.reports import (empty_question_message, empty_task_message, never_used_tools,
                              no_tasks_message, samples_message)
from app.core.settings import Limits
from app.core.run.stops import RunStop
from app.core.web.round import LOOKUP_LIMIT, cap_stop


def next_task(board: Board, sampled: set[str], rounds_done: int, limits: Limits) -> Task:
    """The task the next round works on, or the RunStop that ends the run before it.
    `sampled`: tasks already shown as a sample in this run; `rounds_done`: in this run."""
    if not board.tasks:
        raise RunStop.error(no_tasks_message(board))
    task = next((t for t in board.tasks if not t.checked and t.task_id not in sampled), None)
    if task is None:
        raise RunStop.samples_shown(samples_message(len(sampled))) if sampled else RunStop.all_done()
    if task.is_human and not task.question.strip():
        raise RunStop.error(empty_question_message(task))
    if not task.text.strip():
        raise RunStop.error(empty_task_message(task))
    if task.is_human:
        raise RunStop.decision_needed(task.question)
    if rounds_done >= limits.max_rounds:
        raise RunStop.max_rounds(rounds_done)
    return task


@dataclass(frozen=True)
class RoundEnd:
    """The facts of a finished round the run's next move depends on."""

    result: RoundResult
    changed: bool = False           # it changed a file
    sample: bool = False            # the engine could only show the task as a sample
    tool_steps: int = 0             # steps in which the AI used a tool
    lookup_cap: int = 0             # the task's cap on lookups, when reaching it ended the round
    error: str | None = None
    fatal: RunStop | None = None    # the engine call that ended the round ends the run too

    @property
    def progressed(self) -> bool:
        return self.result == RoundResult.COMPLETED or self.changed


@dataclass(frozen=True)
class Streaks:
    """Rounds in a row without progress, and rounds in a row the engine failed."""

    stalled: int = 0
    engine_failures: int = 0

    def after(self, end: RoundEnd) -> Streaks:
        """An engine error says nothing about the task: it has its own count."""
        if end.result == RoundResult.ENGINE_ERROR:
            return Streaks(self.stalled, self.engine_failures + 1)
        return Streaks(0 if end.progressed else self.stalled + 1, 0)


class Next(Enum):
    GO_ON = "go_on"        # the next round: the same task again, or the next one
    SAMPLED = "sampled"    # the task was shown as a sample: go on with the others
    STOP = "stop"          # the run ends with `Verdict.stop`


@dataclass(frozen=True)
class Verdict:
    next: Next
    stop: RunStop | None = None
    ask: bool = False      # put a decision about the task on the board before stopping


GO_ON = Verdict(Next.GO_ON)


def decide(end: RoundEnd, streaks: Streaks, attempts: int, limits: Limits, *, task: str,
           model: str, may_lack_tools: bool) -> Verdict:
    """What the run does after a round. `streaks` already counts this round; `attempts` is
    the rounds this run gave the task, this one included; `task` its text; `model` and
    `may_lack_tools` the engine's."""
    if end.fatal is not None:
        return Verdict(Next.STOP, end.fatal)
    if end.result == RoundResult.CANCELLED:
        return Verdict(Next.STOP, RunStop.stopped_by_user())
    if streaks.engine_failures >= limits.max_engine_failures:
        return Verdict(Next.STOP, RunStop.engine_failures(
            f"The AI engine failed in {streaks.engine_failures} rounds in a row: {end.error}"))
    if end.sample and end.result not in (RoundResult.ENGINE_ERROR, RoundResult.NEEDS_HUMAN):
        return Verdict(Next.SAMPLED)  # shown, never done: the sample run moves on
    if end.result in (RoundResult.COMPLETED, RoundResult.NEEDS_HUMAN, RoundResult.ENGINE_ERROR):
        return GO_ON
    return _without_progress(end, streaks, attempts, limits, task, model, may_lack_tools)


def _without_progress(end: RoundEnd, streaks: Streaks, attempts: int, limits: Limits,
                      task: str, model: str, may_lack_tools: bool) -> Verdict:
    """After a round that did not finish its task (gave up, step limit, timeout, ...)."""
    if end.lookup_cap:  # another round of this run could look nothing more up
        return Verdict(Next.STOP, RunStop.no_progress(cap_stop(task, end.lookup_cap),
                                                      cause=LOOKUP_LIMIT), ask=True)
    if end.result == RoundResult.NO_ACTION and not end.tool_steps and may_lack_tools:
        # Not the task's fault: the model never used a tool, so no decision about the task
        # can help; the person is told the cause and the remedy instead.
        return Verdict(Next.STOP, RunStop.never_used_tools(never_used_tools(model)))
    if streaks.stalled >= limits.stall_limit or attempts >= limits.max_attempts:
        return Verdict(Next.STOP, RunStop.no_progress(
            f"No progress was detected on “{task}”. A decision was added to the board for you."),
            ask=True)
    return GO_ON

