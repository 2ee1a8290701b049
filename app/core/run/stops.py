"""What ends a run: `RunStop`, raised anywhere in the loop and caught in one place.

Each way a run can end has a named constructor, so the pair written to status.json (the
final state and the exit_reason) is chosen once, here, with the sentence the person reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.run.outcomes import STOPPED_BY_YOU, ExitReason, RunState

if TYPE_CHECKING:
    from app.core.engine.calls import EngineStop

__all__ = ["STOPPED_BY_YOU", "RunStop"]


class RunStop(Exception):
    """Ends the run: a final state, an exit_reason and one sentence for the person."""

    def __init__(self, state: RunState, exit_reason: ExitReason, message: str, cause: str = ""):
        super().__init__(message)
        self.state, self.exit_reason, self.message = state, exit_reason, message
        self.cause = cause or exit_reason

    # -- the run is over: nothing is left to do ---------------------------------------------
    @classmethod
    def all_done(cls) -> RunStop:
        return cls(RunState.DONE, ExitReason.ALL_TASKS_DONE, "Every task on the board is done.")

    @classmethod
    def samples_shown(cls, message: str) -> RunStop:
        """Every task left was shown as a sample by an engine that only shows samples."""
        return cls(RunState.STOPPED, ExitReason.SAMPLES_SHOWN, message)

    # -- the person ----------------------------------------------------------------------
    @classmethod
    def stopped_by_user(cls, message: str = STOPPED_BY_YOU) -> RunStop:
        return cls(RunState.STOPPED, ExitReason.STOPPED_BY_USER, message)

    @classmethod
    def decision_needed(cls, question: str) -> RunStop:
        """The next task is the person's decision."""
        return cls(RunState.BLOCKED_BY_HUMAN, ExitReason.HUMAN_DECISION_NEEDED,
                   f"Your decision is needed: {question}")

    @classmethod
    def no_progress(cls, message: str, cause: str = "") -> RunStop:
        """No progress on a task: a decision about it was put on the board."""
        return cls(RunState.BLOCKED_BY_HUMAN, ExitReason.NO_PROGRESS, message, cause)

    # -- limits --------------------------------------------------------------------------
    @classmethod
    def max_rounds(cls, rounds: int) -> RunStop:
        return cls(RunState.STOPPED, ExitReason.MAX_ROUNDS,
                   f"Stopped after {rounds} round{'' if rounds == 1 else 's'}, "
                   "the limit for one run.")

    # -- failures ------------------------------------------------------------------------
    @classmethod
    def error(cls, message: str) -> RunStop:
        """A problem on this computer or on the board, said in `message`."""
        return cls(RunState.FAILED, ExitReason.ERROR, message)

    @classmethod
    def never_used_tools(cls, message: str) -> RunStop:
        """The model never used a tool: no decision about the task can help."""
        return cls(RunState.FAILED, ExitReason.NO_PROGRESS, message)

    @classmethod
    def engine_failures(cls, message: str) -> RunStop:
        return cls(RunState.FAILED, ExitReason.ENGINE_FAILURES, message)

    @classmethod
    def from_engine(cls, stop: EngineStop) -> RunStop:
        """The run-ending stop an engine call raised (stop.state set)."""
        if stop.state is None or stop.exit_reason is None:
            raise ValueError("this engine stop ends only its round")
        return cls(stop.state, stop.exit_reason, stop.message, stop.cause)
