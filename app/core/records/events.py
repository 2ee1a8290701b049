"""The typed event stream: one pydantic model per event kind, a union discriminated on `type`.

Every event a run emits is one of these. Call sites build them without `time` and `run_id`
(`rec.emit(StepStarted(round=2, step=1, max_steps=25))`); the recorder stamps both, redacts
the strings, writes the event to events.jsonl (all but `model_text`, which is live-only) and
hands it to listeners: the CLI printer, the window's runner, tests. Readers (narrate,
summary, watch, the window) use these models, never dict lookups, so a field exists in one
place. `records.read_events` reads a log back as these models.

Listeners run on the run's own thread, synchronously, in the order registered. They must
not block (the window's runner only emits a queued Qt signal) and must not raise: a
listener's exception is caught and written to the crash log, and the run goes on.

The window writes its own sentences from the structured fields (state, exit_reason, counts,
kinds), so every visible word can be translated; the `message`/`reason`/`text` fields are
the core's English sentences, kept for the command line and the records.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError


from app.core.records.model import Record
from app.core.engine.conversation import Usage
from app.core.web.types import WebActivity

NoticeKind = Literal["nudge", "correction", "stall", "final_warning"]
FileChange = Literal["wrote", "deleted"]
HumanReason = Literal["asked", "no_progress", "approval"]
ChangeAction = Literal["change", "delete"]
# How the person answered a proposed change (careful mode, many changes at once).
# "not_shown": Allow was typed on the board for a kept change never shown: not made.
ChangeAnswer = Literal["allowed", "allowed_for_task", "edited", "not_allowed", "not_shown"]


class _Event(Record):
    # Unknown fields from a newer version are ignored, so old and new logs both read.
    model_config = ConfigDict(extra="ignore")

    # Stamped by the recorder as the event is emitted, so call sites leave them out.
    time: str = ""
    run_id: str = ""


class _RoundEvent(_Event):
    """Something that happened in one round of a run."""

    type: str  # each kind names itself; declared here so `type` stays the third field
    round: int


class _StepEvent(_RoundEvent):
    """What one step of a round (one model call) says."""

    step: int


class _ToolEvent(_RoundEvent):
    """A tool the model called in a round, and the arguments it gave."""

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class _ChangeEvent(_RoundEvent):
    """A change of a file in a round that a policy weighed: the file and what was to be done."""

    path: str
    action: ChangeAction = "change"


class RunStarted(_Event):
    type: Literal["run_started"] = "run_started"
    engine: str
    engine_label: str = ""
    model: str = ""
    is_ai: bool = True
    completed_tasks: int = 0
    total_tasks: int = 0
    continues: str | None = None  # the run this one carries on (after a decision)
    round_offset: int = 0         # so its first round is round_offset + 1
    cost_is_upper_estimate: bool = False  # the model's price is not known: costs are at most
    # Said before the first round when a task may look things up on the web but this engine
    # cannot (web_round.cannot_look_up), else "".
    web_note: str = ""


class RoundStarted(_RoundEvent):
    type: Literal["round_started"] = "round_started"
    task: str
    task_id: str = ""
    max_steps: int = 0


class StepStarted(_StepEvent):
    """A model call is about to be made (before any retry waits)."""

    type: Literal["step_started"] = "step_started"
    max_steps: int


class ModelText(_StepEvent):
    """The AI's live narration while it answers: the end (last 300 characters) of the text
    of this step's reply so far, at most 5 a second, the last one always sent before
    model_replied (core/run/live_text.py). Live-only: never written to events.jsonl."""

    type: Literal["model_text"] = "model_text"
    text: str
    tokens: int = 0  # about how many tokens of this step's reply have arrived (text and tool calls)


class ModelReplied(_StepEvent):
    type: Literal["model_replied"] = "model_replied"
    text: str = ""
    tool_calls: list[str] = Field(default_factory=list)
    model: str = ""               # the model that really answered
    usage: Usage = Field(default_factory=Usage)
    cost_usd: float = 0.0
    run_usage: Usage = Field(default_factory=Usage)   # the run's totals so far
    run_cost_usd: float = 0.0


class WebLookedUp(_StepEvent):
    """The service looked things up for the model during a step: emitted after
    model_replied, so a window can show the searches and pages as they happen."""

    type: Literal["web_looked_up"] = "web_looked_up"
    queries: list[str] = Field(default_factory=list)  # the searches, as the model wrote them
    urls: list[str] = Field(default_factory=list)     # the pages read whole (fetched)
    search_count: int = 0
    fetch_count: int = 0
    task_lookups: int = 0   # the task's lookups so far in this run, this step's included
    max_lookups: int = 0    # its cap (Limits.max_lookups)


class ToolCalled(_ToolEvent):
    type: Literal["tool_called"] = "tool_called"
    result: str = ""
    is_error: bool = False
    held_open: str = ""  # the file another program holds locked: the person is asked to close it


class ToolRefused(_ToolEvent):
    type: Literal["tool_refused"] = "tool_refused"
    reason: str = ""


class FileChanged(_RoundEvent):
    type: Literal["file_changed"] = "file_changed"
    path: str
    change: FileChange = "wrote"


class NoticeSent(_RoundEvent):
    type: Literal["notice_sent"] = "notice_sent"
    kind: NoticeKind
    text: str = ""


class TaskCompleted(_RoundEvent):
    type: Literal["task_completed"] = "task_completed"
    task: str
    summary: str = ""
    evidence: list[str] = Field(default_factory=list)


class HumanNeeded(_Event):
    """A decision was put on the board, worded exactly as here. `reason` "asked": the AI
    asked in `round`; "no_progress": the harness stopped a stuck task after `round`, its
    last attempt."""

    type: Literal["human_needed"] = "human_needed"
    round: int = 0                # 0 only in logs written before no_progress recorded it
    task: str = ""                # the task the decision is about
    question: str
    options: list[str] = Field(default_factory=list)
    evidence: list[str] = Field(default_factory=list)
    recommendation: str | None = None
    reason: HumanReason = "asked"


class ChangeAsked(_ChangeEvent):
    """A policy asked the person before a file is changed or deleted (core/policies)."""

    type: Literal["change_asked"] = "change_asked"
    policies: list[str] = Field(default_factory=list)
    reasons: list[str] = Field(default_factory=list)
    change_id: str = ""           # names this very change (core/policies/pending.py)


class ChangeAnswered(_ChangeEvent):
    """The person answered a proposed change: in the window or at a terminal while the
    round waited, or (`on_board`) on the board, applied at the start of a later run."""

    type: Literal["change_answered"] = "change_answered"
    answer: ChangeAnswer
    on_board: bool = False
    note: str = ""                # what the model was told, when more than the answer
    change_id: str = ""


class ChangeRefused(_ChangeEvent):
    """A policy refused a change outright (a protected path): nobody was asked."""

    type: Literal["change_refused"] = "change_refused"
    policy: str
    reason: str = ""


class ChangeWaiting(_ChangeEvent):
    """No one answered: the change was kept unapplied under .harness/pending and the
    question put on the board; it is applied only if the person allows it there."""

    type: Literal["change_waiting"] = "change_waiting"
    question: str = ""
    change_id: str = ""           # the id its question carries on the board


class TasksCounted(_Event):
    """The board's task counts changed (a task was checked, added or removed)."""

    type: Literal["tasks_counted"] = "tasks_counted"
    completed_tasks: int
    total_tasks: int


class RetryWaiting(_Event):
    type: Literal["retry_waiting"] = "retry_waiting"
    seconds: float
    attempt: int
    code: str = ""
    reason: str = ""
    next_attempt_at: str | None = None
    usage: Usage | None = None    # what the failed attempt was billed, if anything
    cost_usd: float = 0.0


class RetryResumed(_Event):
    """The wait is over (or was cut short by Stop); the call is tried again."""

    type: Literal["retry_resumed"] = "retry_resumed"
    attempt: int


class RoundFinished(_RoundEvent):
    type: Literal["round_finished"] = "round_finished"
    task: str
    result_state: str
    summary: str = ""
    changed_artifacts: list[str] = Field(default_factory=list)
    steps: int = 0
    cost_usd: float = 0.0
    web: WebActivity | None = None  # the round's lookups on the web
    lookup_cap: int = 0  # the task's cap on lookups, when reaching it ended the round
    # Of changed_artifacts, the files that did not exist before the round (last: a new field).
    created_artifacts: list[str] = Field(default_factory=list)


class RunFinished(_Event):
    type: Literal["run_finished"] = "run_finished"
    state: str
    exit_reason: str
    message: str = ""
    cost_usd: float = 0.0
    usage: Usage = Field(default_factory=Usage)
    rounds: int = 0
    completed_tasks: int = 0
    total_tasks: int = 0
    cost_is_upper_estimate: bool = False  # cost_usd is an upper estimate (see RunStarted)


class PlanStarted(_Event):
    """A planning round began (core/plan/planning.py): `run_id` is the plan's id. `mode` "goal"
    plans for the person's goal; "next" suggests what follows a finished run."""

    type: Literal["plan_started"] = "plan_started"
    goal: str = ""
    mode: Literal["goal", "next"] = "goal"
    engine: str
    engine_label: str = ""
    model: str = ""
    is_ai: bool = True
    max_steps: int = 0


class PlanFinished(_Event):
    """A planning round ended. `result` "proposed": `proposals` tasks await the person;
    otherwise nothing was proposed and `message` says why. The board was not touched."""

    type: Literal["plan_finished"] = "plan_finished"
    result: str
    proposals: int = 0
    message: str = ""
    steps: int = 0
    usage: Usage = Field(default_factory=Usage)
    cost_usd: float = 0.0


Event = Annotated[
    Union[RunStarted, RoundStarted, StepStarted, ModelText, ModelReplied, WebLookedUp, ToolCalled,
          ToolRefused,
          FileChanged, NoticeSent, TaskCompleted, HumanNeeded, ChangeAsked, ChangeAnswered,
          ChangeRefused, ChangeWaiting, TasksCounted, RetryWaiting,
          RetryResumed, RoundFinished, RunFinished, PlanStarted, PlanFinished],
    Field(discriminator="type"),
]
EVENT_TYPES: tuple[str, ...] = tuple(
    cls.model_fields["type"].default for cls in Event.__origin__.__args__)  # type: ignore[attr-defined]
LIVE_ONLY = frozenset({"model_text"})  # not written to events.jsonl

_adapter: TypeAdapter[Event] | None = None


def _events() -> TypeAdapter[Event]:
    """The union's validator, built on first use (see core/records/model.py)."""
    global _adapter
    if _adapter is None:
        _adapter = TypeAdapter(Event)
    return _adapter


def parse_event(data: Any) -> Event:
    """An event from its JSON form (raises ValidationError for an unknown or damaged one)."""
    return _events().validate_python(data)


def try_parse_event(data: Any) -> Event | None:
    """An event from its JSON form, or None when it is damaged or of an unknown kind."""
    try:
        return _events().validate_python(data)
    except (ValidationError, RecursionError):
        return None
