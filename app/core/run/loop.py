"""The harness loop: one task at a time, in fresh rounds, until a stop condition.

Read `Harness.run` top to bottom: take the lock, then rounds until something stops the run.
Stops are exceptions (`RunStop`, app/core/run/stops.py) caught in one place, and the records are
written as things happen, so a crash or a kill still leaves the evidence and a valid
status.json. The pieces: which task is next and what a finished round means for the run
(round_end.py, pure), one round's steps (round_steps.py), the round's time limit
(round_clock.py), and the words a round and a run end with (outcomes.py).
"""

from __future__ import annotations

import shutil
import threading
from dataclasses import dataclass
from typing import Any

from app import __version__
from app.core.board.board import Board, update_board
from app.core.board.task import BoardError, Task
from app.core.engine.conversation import Message
from app.core.run.endings import GaveUp, record_fields
from app.core.engine.calls import EngineCaller, EngineStop
from app.core.run.outcomes import ENGINE_STOPS, RoundResult, RunState
from app.core.errors import HarnessError
from app.core.workspace.files import SpaceReserve, is_disk_full, no_space_sentence
from app.core.workspace.spare_files import spare_pool
from app.core.run.instructions import read_standing_instructions
from app.core.records.events import HumanNeeded, RoundFinished, RoundStarted, RunStarted, WebLookedUp
from app.core.policies.approver import Approver
from app.core.policies.gate import ChangeGate
from app.core.records.recorder import Listener, Recorder
from app.core.records.redact import redact
from app.core.records.records import (RoundRecord, RunInfo, continued_from, now_iso, read_rounds,
                              read_run)
from app.core.run.reports import (NO_PROGRESS_OPTIONS, SYSTEM_PROMPT, no_progress_evidence,
                              no_progress_question, progress_report)
from app.core.run.round_end import Next, RoundEnd, Streaks, decide, next_task
from app.core.run.round_steps import RoundState, RoundSteps
from app.core.settings import Limits
from app.core.run.stops import RunStop
from app.core.tools.toolbox import ToolBox
from app.core.undo.blobs import BlobStore
from app.core.undo.undo import RoundChanges
from app.core.web import round as web_round
from app.core.workspace.workspace import Workspace
from app.core.engine.port import Engine

__all__ = ["ENGINE_STOPS", "Harness", "RoundState", "RunResult", "RunStop"]


@dataclass
class RunResult:
    run_id: str
    state: RunState
    exit_reason: str  # an ExitReason; the window adds its own for a run that never started
    message: str
    reached_ai: bool = True  # False: the engine never answered; no round or run was recorded
    cause: str = ""  # the finer cause of an engine stop (app.core.engine.port: NO_KEY, ...), else ""


class Harness:
    """Runs the board of one workspace with one engine. Each listener gets every event on
    this run's thread and must not block (see recorder.Listener); `cancel` is Stop.
    `careful` is careful mode; `approver` asks the person about a change (core/policies),
    none meaning nobody is there to answer."""

    def __init__(self, workspace: Workspace, engine: Engine, limits: Limits | None = None,
                 listeners: list[Listener] | None = None, cancel: threading.Event | None = None,
                 careful: bool = False, approver: Approver | None = None,
                 paused: threading.Event | None = None):
        self.ws = workspace
        self.careful, self.approver = careful, approver
        self.engine = engine
        self.limits = limits or Limits()
        self.listeners = listeners or []
        self.cancel = cancel or threading.Event()
        self.paused = paused or threading.Event()  # set: wait before the next step (no cost)
        self.rounds_on_task: dict[str, int] = {}
        self.web = web_round.WebLookups(engine, self.limits, workspace.harness_dir,
                                        self._emit_lookup)
        self.reached_ai = False  # a model turn came back in this run
        self.steps = RoundSteps(self)

    # -- the run -------------------------------------------------------------------------
    def run(self) -> RunResult:
        self.ws.require_runnable()
        self.ws.ensure_harness_dir()
        with self.ws.lock():
            self.ws.clean_stale_temps()  # what a kill mid-save left
            info = self._run_info()
            self.rec = self._start_records(info)
            self.gate = ChangeGate(self.ws.root, self.ws.harness_dir, self.ws.board_path,
                                   self.rec.emit, info.run_id, careful=self.careful,
                                   approver=self.approver, cancel=self.cancel)
            self.caller = EngineCaller(self.engine, self.limits, self.rec, self.cancel)
            stop = RunStop.error("The run stopped unexpectedly.")
            try:
                self._start()
                self._rounds()
            except RunStop as s:
                stop = s
            except KeyboardInterrupt:
                stop = RunStop.stopped_by_user("Stopped by you (interrupted).")
                raise
            except (HarnessError, BoardError, OSError) as exc:
                stop = self._failure(exc)  # disk full, board deleted mid-run...: no crash
            finally:
                # Runs on every way out, so status.json never claims a dead run is running.
                self._finish(stop)
                # A start that never reached the AI is no run: status.json keeps why it failed.
                never = (not self.reached_ai and self.rec.info.rounds == 0
                         and stop.exit_reason in ENGINE_STOPS)
                if never:
                    shutil.rmtree(self.ws.run_dir(info.run_id), ignore_errors=True)
                spare_pool(self.ws.harness_dir).drain()  # no empty files left in .harness
            return RunResult(info.run_id, stop.state, stop.exit_reason, redact(stop.message),
                             reached_ai=not never, cause=stop.cause)

    def _run_info(self) -> RunInfo:
        continues, offset = continued_from(
            self.ws.run_ids(), lambda r: read_run(self.ws.run_files(r)))
        return RunInfo(
            run_id=self.ws.new_run_id(), workspace=str(self.ws.root.resolve()),
            engine=self.engine.id, engine_label=self.engine.label, model=self.engine.model,
            is_ai=self.engine.is_ai, limits=self.limits,
            cost_is_upper_estimate=self.engine.is_ai and self.engine.cost_is_upper_estimate(),
            started_at=now_iso(), app_version=__version__, careful=self.careful,
            continues=continues, round_offset=offset)

    def _start(self) -> None:
        info = self.rec.info
        done, total = Board.load(self.ws.board_path).counts()
        self.rec.set_tasks(done, total)
        self.rec.emit(RunStarted(engine=info.engine, engine_label=info.engine_label,
                                 model=info.model, is_ai=info.is_ai,
                                 completed_tasks=done, total_tasks=total,
                                 continues=info.continues, round_offset=info.round_offset,
                                 cost_is_upper_estimate=info.cost_is_upper_estimate,
                                 web_note=self.web.note(Board.load(self.ws.board_path))))

    def _failure(self, exc: HarnessError | BoardError | OSError) -> RunStop:
        """A plain failure, said in one sentence (a full disk says where to make room)."""
        if is_disk_full(exc):
            return RunStop.error(no_space_sentence(self.ws.root, starting=False))
        detail = getattr(exc, "message", None) or str(exc)
        return RunStop.error(f"The run stopped because of an error: {detail}")

    def _emit_lookup(self, event: WebLookedUp) -> None:
        self.rec.emit(event)

    def _start_records(self, info: RunInfo) -> Recorder:
        """The run's folder and first records, once the space to record its end is set
        aside. A full disk here is one sentence, and no empty run folder is left behind."""
        self.reserve = SpaceReserve(self.ws.reserve_path)
        try:
            self.reserve.keep()
            return Recorder(self.ws, info, self.listeners)
        except OSError as exc:
            shutil.rmtree(self.ws.run_dir(info.run_id), ignore_errors=True)
            if is_disk_full(exc):
                raise HarnessError(no_space_sentence(self.ws.root, starting=True)) from None
            detail = str(exc).rstrip(". ")
            raise HarnessError(f"The run could not start: {detail}.") from None

    def _finish(self, stop: RunStop) -> None:
        """Record how the run ended; on a full disk, give back the space set aside at the
        start and try once more."""
        for _ in range(2):
            try:
                self.rec.finish(stop.state, stop.exit_reason, stop.message)
                return
            except OSError:
                if not self.reserve.release():
                    return  # the disk refuses even this; the lock's release frees the folder

    def _rounds(self) -> None:
        """Rounds until something stops the run: round_end says which task is next, and
        what each finished round means for the run."""
        streaks = Streaks()
        sampled: set[str] = set()  # tasks shown as a sample in this run (never ticked)
        round_no = self.rec.info.round_offset  # numbered on after a decision: one story
        while True:
            board = Board.load(self.ws.board_path)  # re-read: the person may have edited it
            self.rec.set_tasks(*board.counts())
            task = next_task(board, sampled, round_no - self.rec.info.round_offset, self.limits)
            if self.cancel.is_set():
                raise RunStop.stopped_by_user()
            try:
                self.caller.check_budget()
            except EngineStop as e:
                raise RunStop.from_engine(e) from None

            state = self._round(board, task, round_no + 1)
            if state.recorded:  # an attempt the engine never answered keeps the number
                round_no += 1
            end = RoundEnd(state.result, changed=bool(state.changed), sample=state.sample,
                           tool_steps=state.tool_steps, lookup_cap=state.lookup_cap,
                           error=state.error, fatal=state.fatal)
            streaks = streaks.after(end)
            attempts = self.rounds_on_task.get(task.task_id, 0) + 1
            self.rounds_on_task[task.task_id] = attempts
            verdict = decide(end, streaks, attempts, self.limits, task=task.text,
                             model=self.engine.model, may_lack_tools=self.engine.may_lack_tools)
            if verdict.next is Next.SAMPLED:
                sampled.add(task.task_id)
            if verdict.ask:
                self._ask_about_no_progress(task, state)
            if verdict.stop is not None:
                raise verdict.stop

    def _ask_about_no_progress(self, task: Task, state: RoundState) -> None:
        findings = state.ending.findings if isinstance(state.ending, GaveUp) else ""
        reason = state.ending.reason if isinstance(state.ending, GaveUp) else ""
        evidence = [web_round.cap_evidence(state.number, self.web.used.get(task.task_id, 0),
                                           state.lookup_cap) if state.lookup_cap else
                    no_progress_evidence(state.result, state.number,
                                         reason or state.error or "", findings)]
        question = no_progress_question(task)
        options = list(NO_PROGRESS_OPTIONS)
        update_board(self.ws.board_path, lambda b: b.insert_human_before(
            task.text, question, options, evidence))
        self.rec.emit(HumanNeeded(round=state.number, task=task.text, question=question,
                                  options=options, evidence=evidence, reason="no_progress"))

    # -- one round -----------------------------------------------------------------------
    def _round(self, board: Board, task: Task, number: int) -> RoundState:
        st = RoundState(task=task, number=number,
                        sample=self.engine.only_samples(task.text, task.done_when))
        self.rec.emit(RoundStarted(round=number, task=task.text, task_id=task.task_id,
                                   max_steps=self.limits.max_steps))
        changes = RoundChanges(self.ws.root, BlobStore(self.ws.harness_dir),
                               self.rec.files.undo(number), number)
        self.gate.start_round(number, task)
        tools = ToolBox(self.ws.root, self.ws.board_path, task.text, changes, self.gate,
                        sample=st.sample, cancel=self.cancel)
        tools.seen_urls = lambda: st.web.seen_urls() if st.web is not None else set()
        web = self.web.start(task)  # the web tools, only on a task that may look things up
        messages = [Message(role="user", text=self._brief(board, task, number, web))]
        try:
            told = self.gate.apply_answered(changes, board)  # changes the person allowed
            if told:                                        # on the board since last time
                messages[0].text += "\n\n## Your proposed changes\n" + "\n".join(
                    f"- {line}" for line in told)
            self.steps.run(st, tools, messages, web_round.system_prompt(SYSTEM_PROMPT, web))
        except EngineStop as e:
            st.result, st.error = e.round_result, e.message
            if e.state:
                st.fatal = RunStop.from_engine(e)
        finally:
            self._close_round(st, changes)
        return st

    def _brief(self, board: Board, task: Task, number: int, web: Any) -> str:
        """The round's first message: the progress report, and the web's line if it may."""
        agents = read_standing_instructions(self.ws.root)
        report = progress_report(board, task, self._earlier_rounds(), agents.text, number,
                                 agents.note)
        if web is not None:
            report += "\n\n" + self.web.report_line(task, web)
        return report

    def _close_round(self, st: RoundState, changes: RoundChanges) -> None:
        """Count what the round was billed, keep its changes and record it, if it was one."""
        self.web.end()
        billed_usage, billed_cost = self.caller.drain_billed()  # failed attempts count too
        st.web = self.web.account(st.web, self.caller.drain_billed_web(), st.task,
                                  st.number, st.steps)
        st.usage, st.cost = st.usage + billed_usage, st.cost + billed_cost
        st.changed = changes.finish()
        st.created = [p for p in changes.created() if p in st.changed]
        st.recorded = (self.reached_ai or st.result != RoundResult.ENGINE_ERROR
                       or bool(st.changed)
                       or (st.fatal is not None and st.fatal.exit_reason not in ENGINE_STOPS))
        if st.recorded:  # an attempt the engine never answered is not a round
            self._record_round(st, st.changed)

    def _record_round(self, st: RoundState, changed: list[str]) -> None:
        try:
            self.rec.set_tasks(*Board.load(self.ws.board_path).counts())
        except BoardError:
            pass  # the record matters more; the next round reports the board problem
        next_action = {
            RoundResult.COMPLETED: "next task",
            RoundResult.NEEDS_HUMAN: "wait for the person's decision",
            RoundResult.SAMPLE: "run the task with an AI engine to do it",
            RoundResult.CANCELLED: st.error or "stopped by the person",
        }.get(st.result, "try again or ask the person")
        summary, evidence, findings = record_fields(st.ending)
        record = RoundRecord(
            run_id=self.rec.info.run_id, round=st.number, task_id=st.task.task_id,
            task=st.task.text, started_at=st.started_at, finished_at=now_iso(),
            result_state=st.result, changed_artifacts=changed, created_artifacts=st.created,
            summary=summary, error=st.error, next_action=next_action, steps=st.steps, notices=st.notices,
            usage=st.usage, cost_usd=round(st.cost, 6), evidence=evidence, findings=findings,
            approvals=self.gate.approvals(), web=st.web, lookup_cap=st.lookup_cap)
        self.rec.add_round(record)
        self.rec.emit(RoundFinished(
            round=st.number, task=st.task.text, result_state=st.result,
            summary=summary or findings or st.error or "", changed_artifacts=changed,
            created_artifacts=st.created, steps=st.steps, cost_usd=round(st.cost, 6), web=st.web,
            lookup_cap=st.lookup_cap))

    # -- context -------------------------------------------------------------------------
    def _earlier_rounds(self) -> list[RoundRecord]:
        """Round records of this workspace's recent runs, so a new round builds on them."""
        out: list[RoundRecord] = []
        for run_id in self.ws.run_ids()[-5:]:
            out += read_rounds(self.ws.run_files(run_id))
        return out
