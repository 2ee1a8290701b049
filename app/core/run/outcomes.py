"""How a round ends and how a run ends: the one spelling of each word the records, the events
and status.json hold (docs/records.md).

They are `StrEnum`s, so each member is its word: it is written to JSON as the word, equals
the word, and records written before these types existed read back unchanged. Importing
this module costs only `enum` (status_view.py reads status.json with it, without pydantic).
"""

from __future__ import annotations

from enum import StrEnum


STOPPED_BY_YOU = "Stopped by you."  # the sentence of a run the person stopped


class _Word(StrEnum):
    """A word of the records. Shown as the word alone (a list of states prints as before)."""

    def __repr__(self) -> str:
        return repr(self.value)


class RoundResult(_Word):
    """A round record's result_state: how one round on one task ended."""

    COMPLETED = "completed"        # complete_task: the task was ticked
    NEEDS_HUMAN = "needs_human"    # ask_human, or careful mode's question about a change
    GAVE_UP = "gave_up"            # give_up: ended honestly with what was learned
    STEP_LIMIT = "step_limit"      # the round used all its steps (or the task its lookups)
    NO_ACTION = "no_action"        # the AI kept replying without tools, or went round in circles
    TIMEOUT = "timeout"            # the round ran past its time limit
    ENGINE_ERROR = "engine_error"  # the AI engine failed in this round
    CANCELLED = "cancelled"        # Stop, or a budget reached mid-round
    SAMPLE = "sample"              # an engine without AI showed a sample of a person's task


class RunState(_Word):
    """status.json's state: what the run is doing, or how it ended."""

    IDLE = "idle"
    RUNNING = "running"
    WAITING = "waiting"            # between two attempts at a model call
    DONE = "done"
    FAILED = "failed"
    BLOCKED_BY_HUMAN = "blocked_by_human"
    STOPPED = "stopped"


# The states that end a run, and those of a run still going.
FINAL_STATES = (RunState.DONE, RunState.FAILED, RunState.BLOCKED_BY_HUMAN, RunState.STOPPED)
ACTIVE_STATES = (RunState.RUNNING, RunState.WAITING)


class ExitReason(_Word):
    """status.json's exit_reason: why the run ended."""

    ALL_TASKS_DONE = "all_tasks_done"
    HUMAN_DECISION_NEEDED = "human_decision_needed"
    NO_PROGRESS = "no_progress"
    MAX_ROUNDS = "max_rounds"
    BUDGET_EXHAUSTED = "budget_exhausted"
    STOPPED_BY_USER = "stopped_by_user"
    ENGINE_FAILURES = "engine_failures"
    AUTH_FAILED = "auth_failed"
    QUOTA_EXHAUSTED = "quota_exhausted"
    MODEL_NOT_FOUND = "model_not_found"
    ENGINE_UNREACHABLE = "engine_unreachable"
    BAD_REQUEST = "bad_request"
    ERROR = "error"
    SAMPLES_SHOWN = "samples_shown"


# How a run ends when the engine cannot be reached at all (a bad key, no network, ...).
ENGINE_STOPS = (ExitReason.AUTH_FAILED, ExitReason.QUOTA_EXHAUSTED, ExitReason.MODEL_NOT_FOUND,
                ExitReason.ENGINE_UNREACHABLE, ExitReason.ENGINE_FAILURES)


# How each way of ending reads to a person (used by the CLI, the window and the export).
EXIT_REASON_WORDS: dict[str, str] = {
    ExitReason.ALL_TASKS_DONE: "Every task on the board is done.",
    ExitReason.HUMAN_DECISION_NEEDED: "Stopped to ask you a decision.",
    ExitReason.NO_PROGRESS: "Stopped because no progress was being made.",
    ExitReason.MAX_ROUNDS: "Stopped at the round limit.",
    ExitReason.BUDGET_EXHAUSTED: "Stopped at the spending limit.",
    ExitReason.STOPPED_BY_USER: STOPPED_BY_YOU,
    ExitReason.ENGINE_FAILURES: "Stopped after the AI engine failed repeatedly.",
    ExitReason.AUTH_FAILED: "Stopped because the API key was rejected.",
    ExitReason.QUOTA_EXHAUSTED: "Stopped because the account's quota or spending limit is used up.",
    ExitReason.MODEL_NOT_FOUND: "Stopped because the chosen model does not exist.",
    ExitReason.ENGINE_UNREACHABLE: "Stopped because the AI engine could not be reached.",
    ExitReason.BAD_REQUEST: "Stopped because the AI engine refused the request as it stands.",
    ExitReason.ERROR: "Stopped because of an error on this computer (see the message).",
    ExitReason.SAMPLES_SHOWN: "Shown as a sample, not done.",
}

# The sentence a damaged status.json reads as (records.read_status, status_view alike).
DAMAGED = "The status file was damaged; it will be rewritten by the next run."
