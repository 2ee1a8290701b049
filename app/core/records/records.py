"""The records a run leaves on disk (docs/records.md), as pydantic models, and how to read them."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable

from pydantic import (ConfigDict, Field, PlainSerializer, SerializerFunctionWrapHandler,
                      ValidationError, model_serializer)

from app.core.engine.conversation import Usage
from app.core.workspace.files import read_json, read_jsonl
from app.core.run.outcomes import DAMAGED, ExitReason, RoundResult, RunState
# re-exported: read with the records
from app.core.run.outcomes import EXIT_REASON_WORDS as EXIT_REASON_WORDS
from app.core.run.outcomes import FINAL_STATES as FINAL_STATES
from app.core.records.model import Record
from app.core.settings import Limits
from app.core.workspace.workspace import RunFiles
from app.core.web.types import WebActivity

if TYPE_CHECKING:
    from app.core.records.events import Event

# How a run and a round end (StrEnums: written as their words; older records read back).
__all__ = ["ExitReason", "RoundResult", "RunState"]


def _word(value: str | None) -> str | None:
    """An outcome as written: its word, whether the field holds the type or (assigned
    without validation) the word itself."""
    return None if value is None else str(value)


_AS_WORD = PlainSerializer(_word)
# The states that end a run, how each way of ending reads to a person, and the damaged
# file's sentence live with the light reader of status.json (no pydantic there).


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class Status(Record):
    """status.json: the current or last run, rewritten atomically as events happen.

    `harness-desk status` reads it through status_view.py, without pydantic; a change of
    these fields is a change of status_view.FIELDS (tests/core/records/test_status_view.py)."""

    model_config = ConfigDict(extra="allow")

    run_id: str | None = None
    state: Annotated[RunState, _AS_WORD] = RunState.IDLE
    current_task: str | None = None
    round: int = 0
    step: int = 0
    max_steps: int = 0
    completed_tasks: int = 0
    total_tasks: int = 0
    last_event: str | None = None
    exit_reason: Annotated[ExitReason | None, _AS_WORD] = None
    message: str | None = None
    started_at: str | None = None
    updated_at: str | None = None
    finished_at: str | None = None
    engine: str | None = None
    model: str | None = None
    usage: Usage = Field(default_factory=Usage)
    cost_usd: float = 0.0
    next_attempt_at: str | None = None  # set while state is "waiting" on a retry
    step_tokens: int = 0  # about how many tokens the current step's reply has so far
    pid: int | None = None
    # The model's price is not known, so cost_usd counts it at the highest price known for
    # its engine: the real cost is at most cost_usd (app/engines/prices.py).
    cost_is_upper_estimate: bool = False


class RunInfo(Record):
    """run.json: metadata of one run."""

    model_config = ConfigDict(extra="allow")

    run_id: str
    workspace: str
    engine: str
    engine_label: str = ""
    model: str = ""
    is_ai: bool = True
    limits: Limits = Field(default_factory=Limits)  # an older run.json's dict reads as Limits
    started_at: str
    finished_at: str | None = None
    state: Annotated[RunState, _AS_WORD] = RunState.RUNNING
    exit_reason: Annotated[ExitReason | None, _AS_WORD] = None
    message: str | None = None
    rounds: int = 0
    tasks_completed: int = 0
    tasks_total: int = 0
    usage: Usage = Field(default_factory=Usage)
    cost_usd: float = 0.0
    cost_is_upper_estimate: bool = False  # as in Status: the real cost is at most cost_usd
    app_version: str = ""
    careful: bool = False  # careful mode: the person's own files changed only with their yes
    # The work goes on after a decision: this run continues `continues` (the run that stopped
    # for it), and its rounds are numbered on from that run's, after `round_offset` rounds.
    continues: str | None = None
    round_offset: int = 0


class Approval(Record):
    """One change a policy stopped to check, in the round record: what the person (or a
    protected path) decided."""

    path: str
    action: str = "change"
    answer: str          # allowed, allowed_for_task, edited, not_allowed, not_shown, refused, waiting
    policy: str = ""
    reason: str = ""
    change_id: str = ""  # the change it was about (pending.py), when one was asked


def continued_from(ws_run_ids: list[str], read: Callable[[str], RunInfo | None]
                   ) -> tuple[str | None, int]:
    """(the run a new run continues, the rounds before it) when the latest run stopped for a
    decision; else (None, 0). `read(run_id)` gives a run's RunInfo or None."""
    if not ws_run_ids:
        return None, 0
    last = read(ws_run_ids[-1])
    if last is None or last.state != RunState.BLOCKED_BY_HUMAN:
        return None, 0
    return last.run_id, max(last.rounds, last.round_offset)


class RoundRecord(Record):
    """One line of rounds.jsonl, appended as each round ends."""

    model_config = ConfigDict(extra="allow")

    run_id: str
    round: int
    task_id: str
    task: str
    started_at: str
    finished_at: str
    result_state: Annotated[RoundResult, _AS_WORD]
    changed_artifacts: list[str] = Field(default_factory=list)
    summary: str = ""
    error: str | None = None
    next_action: str = ""
    steps: int = 0
    notices: list[str] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    cost_usd: float = 0.0
    evidence: list[str] = Field(default_factory=list)
    findings: str = ""
    approvals: list[Approval] = Field(default_factory=list)
    web: WebActivity | None = None  # the round's lookups on the web, summed
    # The task's cap on lookups when reaching it ended the round ("step_limit"), else 0.
    lookup_cap: int = 0
    # Of changed_artifacts, the files that did not exist before the round (last: a new field).
    created_artifacts: list[str] = Field(default_factory=list)

    @model_serializer(mode="wrap")
    def _new_files_when_any(self, handler: SerializerFunctionWrapHandler) -> Any:
        """Written only when the round made a file: a round that made none is written as
        before the field (older records are written again byte for byte)."""
        data = handler(self)
        if isinstance(data, dict) and not data.get("created_artifacts"):
            data.pop("created_artifacts", None)
        return data


def read_status(path: Path) -> tuple[Status, str | None]:
    """Read status.json. A missing file is idle; a damaged one reads as idle with a warning."""
    if not path.exists():
        return Status(), None
    data = read_json(path)
    try:
        if not isinstance(data, dict):
            raise ValueError
        status = Status.model_validate(data)
        if status.model_extra:  # a field nested too deep to dump (`status --json`) is damage
            status.model_dump(mode="json")
        return status, None
    except (ValidationError, ValueError, RecursionError):
        return Status(), DAMAGED


RunRecords = RunFiles | Path  # a run's files, or its folder


def _files(run: RunRecords) -> RunFiles:
    return run if isinstance(run, RunFiles) else RunFiles(Path(run))


def read_run(run: RunRecords) -> RunInfo | None:
    """run.json, or None when it is missing or damaged."""
    data = read_json(_files(run).run)
    try:
        return RunInfo.model_validate(data) if isinstance(data, dict) else None
    except (ValidationError, RecursionError):
        return None


def read_rounds(run: RunRecords) -> list[RoundRecord]:
    """The round records, skipping damaged lines."""
    out = []
    for obj in read_jsonl(_files(run).rounds):
        try:
            out.append(RoundRecord.model_validate(obj))
        except (ValidationError, RecursionError):
            continue
    return out


def read_events(run: RunRecords) -> list["Event"]:
    """The typed events of events.jsonl, skipping damaged lines and kinds this version does
    not know (a newer version's log still reads)."""
    from app.core.records.events import try_parse_event  # noqa: PLC0415 - `undo` stays light: it never loads the events

    return [e for e in map(try_parse_event, read_jsonl(_files(run).events)) if e is not None]


class UndoneRecord(Record):
    """undo/<round>.undone.json: the person undid this round; what that did, file by file."""

    model_config = ConfigDict(extra="allow")

    round: int
    undone_at: str
    restored: list[str] = Field(default_factory=list)   # put back as before the round
    removed: list[str] = Field(default_factory=list)    # deleted: the round had created them
    kept_both: list[tuple[str, str]] = Field(default_factory=list)
    kept: list[str] = Field(default_factory=list)
    failed: list[str] = Field(default_factory=list)


def read_undone(run: RunRecords, round_no: int) -> UndoneRecord | None:
    """The record of round `round_no`'s undo, or None when it was not undone (or unreadable)."""
    path = _files(run).undone(round_no)
    if not path.is_file():
        return None
    try:
        return UndoneRecord.model_validate(read_json(path))
    except (ValidationError, ValueError, OSError):
        return None


def undone_rounds(run: RunRecords) -> set[int]:
    """The numbers of the run's rounds the person has undone."""
    folder = _files(run).undo(0).parent
    try:
        names = [p.name for p in folder.iterdir()] if folder.is_dir() else []
    except OSError:
        return set()
    return {int(n.split(".")[0]) for n in names
            if n.endswith(".undone.json") and n.split(".")[0].isdigit()}
