"""Writes a run's evidence as it happens: events.jsonl, rounds.jsonl, run.json, status.json."""

from __future__ import annotations

import os
from typing import Callable

from app.core.conversation import Usage
from app.core.files import append_jsonl, atomic_write_json
from app.core.narrate import describe_event
from app.core.records import Event, RoundRecord, RunInfo, Status, now_iso
from app.core.redact import redact, redact_obj
from app.core.workspace import Workspace

Listener = Callable[[Event], None]


class Recorder:
    """The one event stream: every event is redacted, appended, reflected in status.json,
    then handed to listeners (the CLI printer, the window's runner, `watch` reads the file)."""

    def __init__(self, ws: Workspace, info: RunInfo, listeners: list[Listener] | None = None):
        self.ws = ws
        self.info = info
        self.run_dir = ws.run_dir(info.run_id)
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.listeners = list(listeners or [])
        self.status = Status(
            run_id=info.run_id, state="running", started_at=info.started_at,
            engine=info.engine, model=info.model, pid=os.getpid(),
            max_steps=int(info.limits.get("max_steps", 0)),
        )
        self.write_run()

    @property
    def events_path(self):
        return self.run_dir / "events.jsonl"

    @property
    def rounds_path(self):
        return self.run_dir / "rounds.jsonl"

    # -- writing -------------------------------------------------------------------------
    def emit(self, type_: str, **fields) -> Event:
        event = Event.model_validate({"time": now_iso(), "type": type_, **redact_obj(fields)})
        append_jsonl(self.events_path, event.model_dump(mode="json"))
        self.status.last_event = describe_event(event)
        self.write_status()
        for listener in self.listeners:
            try:
                listener(event)
            except Exception:  # a broken viewer must never break the run
                pass
        return event

    def update(self, **fields) -> None:
        """Change status fields and write status.json (atomically)."""
        for key, value in fields.items():
            setattr(self.status, key, value)
        self.write_status()

    def write_status(self) -> None:
        self.status.updated_at = now_iso()
        atomic_write_json(self.ws.status_path, redact_obj(self.status.model_dump(mode="json")))

    def write_run(self) -> None:
        atomic_write_json(self.run_dir / "run.json", redact_obj(self.info.model_dump(mode="json")))

    def add_round(self, record: RoundRecord) -> None:
        append_jsonl(self.rounds_path, redact_obj(record.model_dump(mode="json")))
        self.info.rounds = record.round
        self.write_run()

    def add_usage(self, usage: Usage, cost: float) -> None:
        self.status.usage = self.status.usage + usage
        self.status.cost_usd = round(self.status.cost_usd + cost, 6)
        self.info.usage = self.status.usage
        self.info.cost_usd = self.status.cost_usd

    def set_tasks(self, completed: int, total: int) -> None:
        self.status.completed_tasks = completed
        self.status.total_tasks = total
        self.info.tasks_completed = completed
        self.info.tasks_total = total

    def finish(self, state: str, exit_reason: str, message: str) -> None:
        message = redact(message)
        finished = now_iso()
        self.info.state = state
        self.info.exit_reason = exit_reason
        self.info.message = message
        self.info.finished_at = finished
        self.write_run()
        self.status.state = state
        self.status.exit_reason = exit_reason
        self.status.message = message
        self.status.finished_at = finished
        self.status.next_attempt_at = None
        self.emit("run_finished", state=state, exit_reason=exit_reason, message=message,
                  cost_usd=self.status.cost_usd, rounds=self.info.rounds,
                  completed_tasks=self.status.completed_tasks,
                  total_tasks=self.status.total_tasks)
