"""Errors that carry one plain sentence for the person, and the CLI exit code they map to."""

from __future__ import annotations

from app.core.run.outcomes import RunState

# Exit codes of `run` (docs/cli.md, "Exit codes").
EXIT_DONE = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_BLOCKED = 3
EXIT_STOPPED = 4
EXIT_LOCKED = 5

STATE_EXIT_CODES: dict[str, int] = {
    RunState.DONE: EXIT_DONE,
    RunState.FAILED: EXIT_FAILED,
    RunState.BLOCKED_BY_HUMAN: EXIT_BLOCKED,
    RunState.STOPPED: EXIT_STOPPED,
}


class HarnessError(Exception):
    """An error whose message is one plain sentence a person can act on."""

    exit_code = EXIT_FAILED

    def __init__(self, message: str, details: str = ""):
        super().__init__(message)
        self.message = message
        self.details = details


class NotAWorkspace(HarnessError):
    exit_code = EXIT_USAGE


class FolderGone(NotAWorkspace):
    """The folder was there and is not any more (moved or deleted): never made again."""


class UsageError(HarnessError):
    exit_code = EXIT_USAGE


class WorkspaceLocked(HarnessError):
    exit_code = EXIT_LOCKED
