"""What a planning round leaves on disk: .harness/plans/<plan_id>/plan.json and events.jsonl.

Planning is recorded like a round (steps, notices, usage, cost, how it ended) but apart from
the runs: a plan never changes status.json, a run's history, undo or export, and never the
board. plan.json is rewritten atomically as the plan goes; events.jsonl holds the same typed
events a run writes (core/records/events.py), stamped with the plan's id as `run_id`.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Literal

from pydantic import ConfigDict, Field, ValidationError

from app.core.clean_text import clean_obj
from app.core.engine.conversation import Usage
from app.core.records.crash import save_crash_report
from app.core.records.events import LIVE_ONLY, Event
from app.core.workspace.files import append_jsonl, atomic_write_json, read_json
from app.core.records.model import Record
from app.core.records.records import now_iso
from app.core.records.redact import redact_obj
from app.core.workspace.workspace import Workspace

PlanResult = Literal["planning", "proposed", "rejected", "no_proposal", "step_limit",
                     "timeout", "cancelled", "engine_error", "budget_exhausted"]


class PlanRecord(Record):
    """plan.json: one planning round."""

    model_config = ConfigDict(extra="allow")

    plan_id: str
    mode: Literal["goal", "next"] = "goal"
    goal: str = ""
    note: str = ""
    engine: str
    engine_label: str = ""
    model: str = ""
    is_ai: bool = True
    started_at: str
    finished_at: str | None = None
    result: PlanResult = "planning"
    message: str = ""
    steps: int = 0
    max_steps: int = 0
    notices: list[str] = Field(default_factory=list)
    asked_again: int = 0            # proposals sent back with the reason
    proposals: list[dict[str, Any]] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    cost_usd: float = 0.0
    cost_is_upper_estimate: bool = False  # the model's price is not known: at most cost_usd


class _Spending:
    """What the retry layer reads as the spending so far (the recorder's `status`)."""

    def __init__(self) -> None:
        self.usage = Usage()
        self.cost_usd = 0.0


class PlanRecorder:
    """The plan's event stream and record. It offers what the one retry layer
    (core/engine/calls.py) needs of a recorder: `status` (usage and cost so far),
    `add_usage`, `emit` and `note_model`."""

    def __init__(self, ws: Workspace, record: PlanRecord,
                 listeners: list[Callable[[Event], None]] | None = None):
        self.dir = ws.plans_dir / record.plan_id
        self.dir.mkdir(parents=True, exist_ok=True)
        self.record = record
        self.listeners = list(listeners or [])
        self.status = _Spending()
        self._reported: set[type] = set()
        self.save()

    @property
    def events_path(self) -> Path:
        return self.dir / "events.jsonl"

    def emit(self, event: Event) -> Event:
        data = clean_obj(redact_obj({**event.model_dump(mode="json"), "time": now_iso(),
                                     "run_id": self.record.plan_id}))
        event = type(event).model_validate(data)
        if event.type not in LIVE_ONLY:
            append_jsonl(self.events_path, data, sync=False)
        for listener in self.listeners:
            try:
                listener(event)
            except Exception as exc:  # a broken viewer must never break the plan
                if type(exc) not in self._reported:  # once per kind, not on every event
                    self._reported.add(type(exc))
                    save_crash_report(exc, context=(
                        f"A listener of plan {self.record.plan_id}'s events failed on a "
                        f"{event.type} event; planning went on."))
        return event

    def add_usage(self, usage: Usage, cost: float) -> None:
        self.status.usage = self.status.usage + usage
        self.status.cost_usd = round(self.status.cost_usd + cost, 6)
        self.record.usage, self.record.cost_usd = self.status.usage, self.status.cost_usd

    def note_model(self, model: str) -> None:
        if model:
            self.record.model = model

    def save(self) -> None:
        atomic_write_json(self.dir / "plan.json",
                          clean_obj(redact_obj(self.record.model_dump(mode="json"))))


def new_plan_id() -> str:
    now = datetime.now(timezone.utc)
    return now.strftime("%Y%m%d-%H%M%S-") + f"{now.microsecond // 1000:03d}-{secrets.token_hex(3)}"


def read_plans(root: Path | str) -> list[PlanRecord]:
    """The folder's plan records, oldest first, skipping damaged ones."""
    folder = Workspace(root).plans_dir
    if not folder.is_dir():
        return []
    out = []
    for entry in sorted(p for p in folder.iterdir() if p.is_dir()):
        data = read_json(entry / "plan.json")
        try:
            if isinstance(data, dict):
                out.append(PlanRecord.model_validate(data))
        except ValidationError:
            continue
    return out
