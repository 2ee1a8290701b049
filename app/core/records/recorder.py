"""Writes a run's evidence as it happens: events.jsonl, rounds.jsonl, run.json, status.json."""

from __future__ import annotations

import os
import time
from typing import Callable

from app.core.clean_text import clean_obj
from app.core.engine.conversation import Usage
from app.core.records.crash import save_crash_report
from app.core.records.events import (LIVE_ONLY, Event, ModelText, RetryResumed, RetryWaiting,
                             RoundStarted, RunFinished, StepStarted, TasksCounted)
from app.core.workspace.files import JsonlAppender, append_jsonl, atomic_write_json
from app.core.run.outcomes import ExitReason, RunState
from app.core.records.narrate import describe_event
from app.core.records.records import RoundRecord, RunInfo, Status, now_iso
from app.core.records.redact import redact, redact_obj
from app.core.records.status_writer import StatusWriter
from app.core.workspace.workspace import Workspace

# Durability. A crash of the process loses nothing whichever way: each line of events.jsonl
# reaches the OS as its event happens, and status.json (by temp file and rename, so it is
# always whole) at most STATUS_INTERVAL_S later. What an fsync adds is surviving a power
# cut, and it costs 1-10 ms a call on an ordinary disk, more on a busy one: more than the
# rest of a step. So the stream is flushed to the disk at its checkpoints (the run
# starting, a task completed, a question for the person, a wait on the service, a round or
# the run ending) and otherwise at most SYNC_INTERVAL_S apart. status.json is written at
# once by every event that moves the run on (a round starting or ending, a question, a
# wait, the run ending...); a step starting and the events inside a step (the reply, each
# tool call) rewrite it at most once every STATUS_INTERVAL_S, the last of them always
# within that time (core/records/status_writer.py): rewriting a file costs more than a quick step.
SYNC_INTERVAL_S = 1.0
STATUS_INTERVAL_S = 0.25
LIVE_STATUS_INTERVAL_S = 1.0  # a streaming reply's tokens so far reach status.json this often
_CHECKPOINTS = frozenset({"run_started", "task_completed", "human_needed", "retry_waiting",
                          "round_finished", "run_finished"})
_COALESCED = frozenset({"step_started", "model_replied", "tool_called", "tool_refused",
                        "file_changed", "notice_sent"})

Listener = Callable[[Event], None]
"""Called with every event (model_text included) on the run's own thread, synchronously, in
the order registered, before the run goes on. So a listener must not block: the window's
runner only emits a queued Qt signal. A listener that raises is written to the crash log
(once per distinct failure) and the run goes on; it is never dropped silently."""


class Recorder:
    """The one event stream: every event is stamped (time, run_id) and redacted, appended to
    events.jsonl (all but the live-only kinds), reflected in status.json, then handed to the
    listeners (the CLI printer, the window's runner; `watch` reads the file)."""

    def __init__(self, ws: Workspace, info: RunInfo, listeners: list[Listener] | None = None):
        self.ws = ws
        self.info = info
        self.files = ws.run_files(info.run_id)
        self.files.dir.mkdir(parents=True, exist_ok=True)
        self.listeners = list(listeners or [])
        self._counts: tuple[int, int] | None = None
        # Listener failures already in the crash log: (listener, kind of error, where).
        self._reported: set[tuple[int, type[Exception], tuple[str, int] | None]] = set()
        self._synced_at = -float("inf")  # time.monotonic() of the last flush to disk
        self.status_writer = StatusWriter(self._write_status, STATUS_INTERVAL_S)
        self._events = JsonlAppender(self.files.events)  # open while the run runs
        self.status = Status(
            run_id=info.run_id, state=RunState.RUNNING, started_at=info.started_at,
            engine=info.engine, model=info.model, pid=os.getpid(),
            max_steps=info.limits.max_steps, cost_is_upper_estimate=info.cost_is_upper_estimate,
        )
        self.write_run()

    # -- the event stream ----------------------------------------------------------------
    def emit(self, event: Event) -> Event:
        """Record `event` and tell the listeners; returns it as recorded (stamped, redacted,
        without terminal or direction controls: the window, `watch` and the log show it)."""
        data = clean_obj(redact_obj({**event.model_dump(mode="json"),
                                     "time": now_iso(), "run_id": self.info.run_id}))
        event = type(event).model_validate(data)
        if event.type not in LIVE_ONLY:
            now = time.monotonic()
            sync = event.type in _CHECKPOINTS or now - self._synced_at >= SYNC_INTERVAL_S
            self._events.append(data, sync=sync)
            if sync:
                self._synced_at = now
            with self.status_writer.lock:
                self._reflect(event)
                if sync or event.type not in _COALESCED:
                    self.write_status(sync=sync)
                else:
                    self.status_writer.soon()
        elif isinstance(event, ModelText) and event.tokens != self.status.step_tokens:
            # A reply's progress, for `status` while a slow model answers: at most once a second.
            with self.status_writer.lock:
                self.status.step_tokens = event.tokens
                if time.monotonic() - self.status_writer.written_at >= LIVE_STATUS_INTERVAL_S:
                    self.status_writer.soon()
        for listener in self.listeners:
            try:
                listener(event)
            except Exception as exc:  # a broken viewer must never break the run
                self._listener_failed(listener, event, exc)
        return event

    def _reflect(self, event: Event) -> None:
        """status.json follows the stream: where the run is, and its last line."""
        s = self.status
        if isinstance(event, RoundStarted):
            s.current_task, s.round, s.step = event.task, event.round, 0
            s.max_steps = event.max_steps or s.max_steps
        elif isinstance(event, StepStarted):
            s.round, s.step, s.max_steps = event.round, event.step, event.max_steps
            s.step_tokens = 0
        elif isinstance(event, RetryWaiting):
            s.state, s.next_attempt_at = RunState.WAITING, event.next_attempt_at
        elif isinstance(event, RetryResumed):
            s.state, s.next_attempt_at = RunState.RUNNING, None
        line = describe_event(event)
        if line:
            s.last_event = line

    def _listener_failed(self, listener: Listener, event: Event, exc: Exception) -> None:
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        where = (tb.tb_frame.f_code.co_filename, tb.tb_lineno) if tb is not None else None
        key = (id(listener), type(exc), where)
        if key in self._reported:
            return  # the same bug on every event would fill the crash log with copies
        self._reported.add(key)
        name = getattr(listener, "__qualname__", None) or type(listener).__name__
        save_crash_report(exc, context=(
            f"A listener of the run's events ({name}) failed on a {event.type} event of run "
            f"{self.info.run_id}. The run went on; later failures like this one are not "
            "written again."))

    # -- the run's records ---------------------------------------------------------------
    def write_status(self, sync: bool = True) -> None:
        """Write status.json now (and whatever was due with it)."""
        self.status_writer.now(sync)

    def _write_status(self, sync: bool) -> None:  # the status writer's, under its lock
        self.status.updated_at = now_iso()
        atomic_write_json(self.ws.status_path,
                          clean_obj(redact_obj(self.status.model_dump(mode="json"))), sync=sync)

    def write_run(self) -> None:
        atomic_write_json(self.files.run, clean_obj(redact_obj(self.info.model_dump(mode="json"))))

    def add_round(self, record: RoundRecord) -> None:
        append_jsonl(self.files.rounds, clean_obj(redact_obj(record.model_dump(mode="json"))))
        self.info.rounds = record.round
        self.write_run()

    def add_usage(self, usage: Usage, cost: float) -> None:
        with self.status_writer.lock:
            self.status.usage = self.status.usage + usage
            self.status.cost_usd = round(self.status.cost_usd + cost, 6)
        self.info.usage = self.status.usage
        self.info.cost_usd = self.status.cost_usd

    def note_model(self, model: str) -> None:
        """The model that really answered, when the service names one: recorded in run.json
        and status.json if the engine was configured with none or another (a local server
        answers with whatever it has loaded; an alias resolves to a dated model)."""
        if model and model != self.info.model:
            with self.status_writer.lock:
                self.info.model = self.status.model = model
            self.write_run()

    def set_tasks(self, completed: int, total: int) -> None:
        """The board's task counts. The first are the run's starting point (run_started
        carries them); every later change is announced as tasks_counted."""
        first, self._counts = self._counts is None, (completed, total)
        if not first and (self.status.completed_tasks, self.status.total_tasks) == self._counts:
            return
        with self.status_writer.lock:
            self.status.completed_tasks = self.info.tasks_completed = completed
            self.status.total_tasks = self.info.tasks_total = total
        if not first:
            self.emit(TasksCounted(completed_tasks=completed, total_tasks=total))

    def finish(self, state: RunState, exit_reason: ExitReason, message: str) -> None:
        message = redact(message)
        finished = now_iso()
        self.info.state = state
        self.info.exit_reason = exit_reason
        self.info.message = message
        self.info.finished_at = finished
        self.write_run()
        with self.status_writer.lock:
            self.status.state = state
            self.status.exit_reason = exit_reason
            self.status.message = message
            self.status.finished_at = finished
            self.status.next_attempt_at = None
        try:
            self.emit(RunFinished(state=state, exit_reason=exit_reason, message=message,
                                  cost_usd=self.status.cost_usd, usage=self.status.usage,
                                  rounds=self.info.rounds,
                                  completed_tasks=self.status.completed_tasks,
                                  total_tasks=self.status.total_tasks,
                                  cost_is_upper_estimate=self.status.cost_is_upper_estimate))
        finally:
            self.status_writer.close()  # run_finished wrote the status; nothing is left due
            self._events.close()
