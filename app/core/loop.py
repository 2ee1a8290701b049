"""The harness loop: one task at a time, in fresh rounds, until a stop condition.

Read `Harness.run` top to bottom: take the lock, then rounds until something stops the run.
Stops are exceptions (`RunStop`) caught in one place, and the records are written as things
happen, so a crash or a kill still leaves the evidence and a valid status.json.
"""

from __future__ import annotations

import math
import shutil
import threading
import time
from dataclasses import dataclass, field

from app import __version__
from app.core.board import Board, BoardError, Task, update_board
from app.core.conversation import Message, ModelTurn, ToolResult, Usage
from app.core.endings import Asked, Completed, GaveUp, RoundEnding, Sampled
from app.core.engine_calls import EngineCaller, EngineStop
from app.core.errors import HarnessError
from app.core.files import SpaceReserve, is_disk_full, no_space_sentence
from app.core.instructions import read_standing_instructions
from app.core.events import (FileChanged, HumanNeeded, ModelReplied, NoticeSent, RoundFinished,
                             RoundStarted, RunStarted, StepStarted, TaskCompleted, ToolCalled,
                             ToolRefused)
from app.core.live_text import LiveText
from app.core.policies.approver import Approver
from app.core.policies.gate import ChangeGate
from app.core.recorder import Listener, Recorder
from app.core.redact import redact
from app.core.records import (RoundRecord, RunInfo, continued_from, now_iso, read_rounds,
                              read_run)
from app.core.reports import (NO_PROGRESS_OPTIONS, SYSTEM_PROMPT, correction,
                              empty_question_message, empty_task_message, final_warning,
                              never_used_tools, no_progress_evidence, no_progress_question,
                              no_tasks_message, nudge, progress_report, samples_message,
                              stall_notice)
from app.core.settings import Limits
from app.core.tools import TOOL_SPECS, ToolBox
from app.core.undo import BlobStore, RoundChanges
from app.core import web_round
from app.core.web_types import WebActivity
from app.core.workspace import Workspace
from app.core.engine import Engine

MAX_NUDGES = 2


class RunStop(Exception):
    """Ends the run: a final state, an exit_reason and one sentence for the person."""

    def __init__(self, state: str, exit_reason: str, message: str, cause: str = ""):
        super().__init__(message)
        self.state, self.exit_reason, self.message = state, exit_reason, message
        self.cause = cause or exit_reason


@dataclass
class RunResult:
    run_id: str
    state: str
    exit_reason: str
    message: str
    reached_ai: bool = True  # False: the engine never answered; no round or run was recorded
    cause: str = ""  # the finer cause of an engine stop (app.core.engine: NO_KEY, ...), else ""


# How a run ends when the engine cannot be reached at all (a bad key, no network, ...).
ENGINE_STOPS = ("auth_failed", "quota_exhausted", "model_not_found", "engine_unreachable",
                "engine_failures")


@dataclass
class RoundState:
    """What one round accumulates while it runs."""

    task: Task
    number: int
    started_at: str = field(default_factory=now_iso)
    steps: int = 0
    notices: list[str] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    cost: float = 0.0
    result: str = "step_limit"
    ending: RoundEnding | None = None  # how the agent ended it through a tool, if it did
    error: str | None = None
    changed: list[str] = field(default_factory=list)
    fatal: RunStop | None = None
    tool_steps: int = 0  # steps in which the AI used a tool
    sample: bool = False  # the engine can only show this task as a sample (Engine.only_samples)
    recorded: bool = True  # False: the engine never answered in this run, nothing changed
    web: WebActivity | None = None  # what the round looked up on the web
    lookup_cap: int = 0  # the task's cap on lookups, when reaching it ended the round


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
                                        lambda event: self.rec.emit(event))
        self.reached_ai = False  # a model turn came back in this run

    # -- the run -------------------------------------------------------------------------
    def run(self) -> RunResult:
        self.ws.require_runnable()
        self.ws.ensure_harness_dir()
        with self.ws.lock():
            self.ws.clean_stale_temps()  # what a kill mid-save left
            continues, offset = continued_from(
                self.ws.run_ids(), lambda r: read_run(self.ws.run_files(r)))
            info = RunInfo(
                run_id=self.ws.new_run_id(), workspace=str(self.ws.root.resolve()),
                engine=self.engine.id, engine_label=self.engine.label, model=self.engine.model,
                is_ai=self.engine.is_ai, limits=self.limits,
                cost_is_upper_estimate=self.engine.is_ai and self.engine.cost_is_upper_estimate(),
                started_at=now_iso(), app_version=__version__, careful=self.careful,
                continues=continues, round_offset=offset)
            self.rec = self._start_records(info)
            self.gate = ChangeGate(self.ws.root, self.ws.harness_dir, self.ws.board_path,
                                   self.rec.emit, info.run_id, careful=self.careful,
                                   approver=self.approver, cancel=self.cancel)
            self.caller = EngineCaller(self.engine, self.limits, self.rec, self.cancel)
            stop = RunStop("failed", "error", "The run stopped unexpectedly.")
            try:
                done, total = Board.load(self.ws.board_path).counts()
                self.rec.set_tasks(done, total)
                self.rec.emit(RunStarted(engine=info.engine, engine_label=info.engine_label,
                                         model=info.model, is_ai=info.is_ai,
                                         completed_tasks=done, total_tasks=total,
                                         continues=continues, round_offset=offset,
                                         cost_is_upper_estimate=info.cost_is_upper_estimate,
                                         web_note=self.web.note(
                                             Board.load(self.ws.board_path))))
                self._rounds()
            except RunStop as s:
                stop = s
            except KeyboardInterrupt:
                stop = RunStop("stopped", "stopped_by_user", "Stopped by you (interrupted).")
                raise
            except (HarnessError, BoardError, OSError) as exc:
                # Disk full, board deleted mid-run...: a plain failure, not a crash.
                detail = getattr(exc, "message", None) or str(exc)
                stop = RunStop("failed", "error",
                               no_space_sentence(self.ws.root, starting=False)
                               if is_disk_full(exc) else
                               f"The run stopped because of an error: {detail}")
            finally:
                # Runs on every way out, so status.json never claims a dead run is running.
                self._finish(stop)
                # A start that never reached the AI is no run: status.json keeps why it failed.
                never = (not self.reached_ai and self.rec.info.rounds == 0
                         and stop.exit_reason in ENGINE_STOPS)
                if never:
                    shutil.rmtree(self.ws.run_dir(info.run_id), ignore_errors=True)
            return RunResult(info.run_id, stop.state, stop.exit_reason, redact(stop.message),
                             reached_ai=not never, cause=stop.cause)

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
        stalled = 0
        engine_failures = 0
        sampled: set[str] = set()  # tasks shown as a sample in this run (never ticked)
        round_no = self.rec.info.round_offset  # numbered on after a decision: one story
        while True:
            board = Board.load(self.ws.board_path)  # re-read: the person may have edited it
            self.rec.set_tasks(*board.counts())
            if not board.tasks:
                raise RunStop("failed", "error", no_tasks_message(board))
            task = next((t for t in board.tasks if not t.checked and t.task_id not in sampled),
                        None)
            if task is None and sampled:
                raise RunStop("stopped", "samples_shown", samples_message(len(sampled)))
            if task is None:
                raise RunStop("done", "all_tasks_done", "Every task on the board is done.")
            if task.is_human and not task.question.strip():
                raise RunStop("failed", "error", empty_question_message(task))
            if not task.text.strip():
                raise RunStop("failed", "error", empty_task_message(task))
            if task.is_human:
                raise RunStop("blocked_by_human", "human_decision_needed",
                              f"Your decision is needed: {task.question}")
            done_here = round_no - self.rec.info.round_offset
            if done_here >= self.limits.max_rounds:
                raise RunStop("stopped", "max_rounds",
                              f"Stopped after {done_here} round{'' if done_here == 1 else 's'}, "
                              "the limit for one run.")
            if self.cancel.is_set():
                raise RunStop("stopped", "stopped_by_user", "Stopped by you.")
            try:
                self.caller.check_budget()
            except EngineStop as e:
                raise RunStop(e.state, e.exit_reason, e.message, e.cause) from None

            round_no += 1
            state = self._round(board, task, round_no)
            round_no -= not state.recorded  # the next attempt keeps the number
            progress = state.result == "completed" or bool(state.changed)
            if state.result != "engine_error":
                stalled = 0 if progress else stalled + 1
            engine_failures = engine_failures + 1 if state.result == "engine_error" else 0
            self.rounds_on_task[task.task_id] = self.rounds_on_task.get(task.task_id, 0) + 1

            if state.fatal is not None:
                raise state.fatal
            if state.result == "cancelled":
                raise RunStop("stopped", "stopped_by_user", "Stopped by you.")
            if engine_failures >= self.limits.max_engine_failures:
                raise RunStop("failed", "engine_failures",
                              f"The AI engine failed in {engine_failures} rounds in a row: "
                              f"{state.error}")
            if state.sample and state.result not in ("engine_error", "needs_human"):
                sampled.add(task.task_id)  # shown, never done: the sample run moves on
                continue
            if state.result in ("completed", "needs_human", "engine_error"):
                continue
            if state.lookup_cap:  # another round of this run could look nothing more up
                self._ask_about_no_progress(task, state)
                raise RunStop("blocked_by_human", "no_progress",
                              web_round.cap_stop(task.text, state.lookup_cap),
                              cause=web_round.LOOKUP_LIMIT)  # an engine error says nothing about the task: it has its own limit
            if state.result == "no_action" and not state.tool_steps and self.engine.may_lack_tools:
                # Not the task's fault: the model never used a tool, so no decision about the
                # task can help; the person is told the cause and the remedy instead.
                raise RunStop("failed", "no_progress", never_used_tools(self.engine.model))
            if (stalled >= self.limits.stall_limit
                    or self.rounds_on_task[task.task_id] >= self.limits.max_attempts):
                self._ask_about_no_progress(task, state)
                raise RunStop("blocked_by_human", "no_progress",
                              f"No progress was detected on “{task.text}”. "
                              "A decision was added to the board for you.")

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
    def _round(self, board: Board, task: Task, number: int) -> "RoundState":
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
        earlier = self._earlier_rounds()
        agents = read_standing_instructions(self.ws.root)
        report = progress_report(board, task, earlier, agents.text, number, agents.note)
        if web is not None:
            report += "\n\n" + self.web.report_line(task, web)
        messages = [Message(role="user", text=report)]
        try:
            told = self.gate.apply_answered(changes, board)  # changes the person allowed
            if told:                                        # on the board since last time
                messages[0].text += "\n\n## Your proposed changes\n" + "\n".join(
                    f"- {line}" for line in told)
            self._steps(st, tools, messages, web_round.system_prompt(SYSTEM_PROMPT, web))
        except EngineStop as e:
            st.result, st.error = e.round_result, e.message
            if e.state:
                st.fatal = RunStop(e.state, e.exit_reason, e.message, e.cause)
        finally:
            self.web.end()
            billed_usage, billed_cost = self.caller.drain_billed()  # failed attempts count too
            st.web = self.web.account(st.web, self.caller.drain_billed_web(), st.task,
                                      st.number, st.steps)
            st.usage, st.cost = st.usage + billed_usage, st.cost + billed_cost
            st.changed = changes.finish()
            st.recorded = (self.reached_ai or st.result != "engine_error" or bool(st.changed)
                           or (st.fatal is not None and st.fatal.exit_reason not in ENGINE_STOPS))
            if st.recorded:  # an attempt the engine never answered is not a round
                self._record_round(st, st.changed)
        return st

    def _steps(self, st: RoundState, tools: ToolBox, messages: list[Message],
               system: str = SYSTEM_PROMPT) -> None:
        deadline = time.monotonic() + self.limits.round_seconds
        waited_before = self.gate.waited_s  # time the person spends deciding does not count
        max_steps = self.limits.max_steps
        nudges = 0
        calls: list[str] = []      # signatures of the calls since the last correction
        corrected = False
        warned: set[str] = set()   # the stall notice and final warning go out once each
        for step in range(1, max_steps + 1):
            held = time.monotonic()
            while self.paused.is_set() and not self.cancel.is_set():  # the person is asked
                self.cancel.wait(0.05)
            deadline += time.monotonic() - held  # a pause is not the round's time
            if self.cancel.is_set():
                st.result = "cancelled"
                return
            if time.monotonic() - (self.gate.waited_s - waited_before) > deadline:
                st.result, st.error = "timeout", "The round ran past its time limit."
                return
            used_up = self.web.used_up(st.task)
            if used_up:  # the task's lookups are used up: no further call
                st.result, st.error = "step_limit", used_up
                st.lookup_cap = self.limits.max_lookups
                return
            st.steps = step
            self.rec.emit(StepStarted(round=st.number, step=step, max_steps=max_steps))
            live = LiveText(self.rec, st.number, step)  # the engine's on_text, throttled
            turn = self.caller.call(system, TOOL_SPECS, messages, live, deadline)
            live.flush()  # the reply's last words reach the live view before model_replied
            self._account(st, turn)
            messages.append(Message(role="assistant", text=turn.text,
                                    tool_calls=turn.tool_calls, record=turn.record))
            if self.cancel.is_set():  # Stop pressed while the model was answering: run nothing
                st.result = "cancelled"
                return
            if turn.stop_reason == "cancelled" and time.monotonic() >= deadline:
                st.result, st.error = "timeout", _cut_at_time_limit(self.limits.round_seconds)
                return
            st.tool_steps += bool(turn.tool_calls)
            if turn.stop_reason == "pause_turn" and not turn.tool_calls:
                continue  # the service paused its own lookups mid-reply: sent back, it goes on
            if not turn.tool_calls:
                nudges += 1
                if nudges > MAX_NUDGES:
                    st.result, st.error = "no_action", "The AI kept replying without using tools."
                    return
                notices = [self._notice(st, "nudge", nudge(nudges, MAX_NUDGES))]
                notices += self._step_warnings(st, step, warned)
                messages.append(Message(role="user", text="\n\n".join(notices)))
                continue

            results = []
            for call in turn.tool_calls:
                outcome = tools.call(call.name, call.arguments)
                self._report_tool(st, call.name, call.arguments, outcome)
                results.append(ToolResult(call_id=call.id, name=call.name,
                                          content=outcome.content, is_error=outcome.is_error,
                                          pictures=outcome.pictures))
                if outcome.ending is not None:
                    self._end_by_tool(st, outcome.ending)
                    return
                calls.append(call.signature())
            if self.cancel.is_set():  # Stop pressed: this step's tools ran whole; stop here
                st.result = "cancelled"
                return

            notices = []
            repeated = _repetition(calls)
            if repeated:
                if corrected:
                    st.result = "no_action"
                    st.error = "The AI repeated the same action after being told it had no effect."
                    return
                corrected, calls = True, []
                notices.append(self._notice(st, "correction", correction(repeated)))
            notices += self._step_warnings(st, step, warned)
            messages.append(Message(role="user", tool_results=results, text="\n\n".join(notices)))
        st.result = "step_limit"
        st.error = f"The round used all {max_steps} steps without finishing the task."

    def _step_warnings(self, st: RoundState, step: int, warned: set[str]) -> list[str]:
        """The stall notice from 60% of max_steps and the final warning from 80%, once each,
        whatever the reply at that step was."""
        max_steps = self.limits.max_steps
        if step >= max_steps:
            return []
        if step >= math.ceil(max_steps * 0.8) and "final_warning" not in warned:
            warned.update(("stall", "final_warning"))
            return [self._notice(st, "final_warning", final_warning(step, max_steps))]
        if step >= math.ceil(max_steps * 0.6) and "stall" not in warned:
            warned.add("stall")
            return [self._notice(st, "stall", stall_notice(step, max_steps, st.task))]
        return []

    def _notice(self, st: RoundState, kind: str, text: str) -> str:
        st.notices.append(kind)
        self.rec.emit(NoticeSent(round=st.number, kind=kind, text=text))
        return text

    def _account(self, st: RoundState, turn: ModelTurn) -> None:
        self.reached_ai = True
        cost = turn.cost_usd
        st.usage = st.usage + turn.usage
        st.cost += cost
        self.rec.add_usage(turn.usage, cost)
        self.rec.note_model(turn.model)
        self.rec.emit(ModelReplied(
            round=st.number, step=st.steps, text=turn.text[:2000],
            tool_calls=[c.name for c in turn.tool_calls], model=turn.model or self.rec.info.model,
            usage=turn.usage, cost_usd=round(cost, 6),
            run_usage=self.rec.status.usage, run_cost_usd=self.rec.status.cost_usd))
        # Attempts that broke off after a lookup were billed for it: the task's count has it.
        looked = web_round.add(self.caller.drain_billed_web(), turn.web)
        st.web = self.web.account(st.web, looked, st.task, st.number, st.steps)
        self.gate.now.web = st.web  # an approval shows the sources the change rests on

    def _report_tool(self, st: RoundState, name: str, args: dict, outcome) -> None:
        if outcome.refused:
            self.rec.emit(ToolRefused(round=st.number, tool=name, arguments=_brief(args),
                                      reason=outcome.content))
        else:
            self.rec.emit(ToolCalled(round=st.number, tool=name, arguments=_brief(args),
                                     result=outcome.content[:300], is_error=outcome.is_error,
                                     held_open=outcome.held_open))
        for path in outcome.changed:
            change = "deleted" if name == "delete_file" else "wrote"
            self.rec.emit(FileChanged(round=st.number, path=path, change=change))

    def _end_by_tool(self, st: RoundState, ending: RoundEnding) -> None:
        st.result, st.ending = ending.result, ending
        if isinstance(ending, Completed):
            self.rec.emit(TaskCompleted(round=st.number, task=st.task.text,
                                        summary=ending.summary, evidence=ending.evidence))
        elif isinstance(ending, Asked):  # the decision exactly as the tool put it on the board
            self.rec.emit(HumanNeeded(
                round=st.number, task=st.task.text, question=ending.question,
                options=ending.options, evidence=ending.evidence,
                recommendation=ending.recommendation, reason=ending.kind))

    def _record_round(self, st: RoundState, changed: list[str]) -> None:
        try:
            self.rec.set_tasks(*Board.load(self.ws.board_path).counts())
        except BoardError:
            pass  # the record matters more; the next round reports the board problem
        next_action = {
            "completed": "next task", "needs_human": "wait for the person's decision",
            "sample": "run the task with an AI engine to do it",
            "cancelled": st.error or "stopped by the person",
        }.get(st.result, "try again or ask the person")
        summary, evidence, findings = _ending_record(st.ending)
        record = RoundRecord(
            run_id=self.rec.info.run_id, round=st.number, task_id=st.task.task_id,
            task=st.task.text, started_at=st.started_at, finished_at=now_iso(),
            result_state=st.result, changed_artifacts=changed, summary=summary,
            error=st.error, next_action=next_action, steps=st.steps, notices=st.notices,
            usage=st.usage, cost_usd=round(st.cost, 6), evidence=evidence, findings=findings,
            approvals=self.gate.approvals(), web=st.web, lookup_cap=st.lookup_cap)
        self.rec.add_round(record)
        self.rec.emit(RoundFinished(
            round=st.number, task=st.task.text, result_state=st.result,
            summary=summary or findings or st.error or "", changed_artifacts=changed,
            steps=st.steps, cost_usd=round(st.cost, 6), web=st.web,
            lookup_cap=st.lookup_cap))

    # -- context -------------------------------------------------------------------------
    def _earlier_rounds(self) -> list[RoundRecord]:
        """Round records of this workspace's recent runs, so a new round builds on them."""
        out: list[RoundRecord] = []
        for run_id in self.ws.run_ids()[-5:]:
            out += read_rounds(self.ws.run_files(run_id))
        return out


def _cut_at_time_limit(seconds: float) -> str:
    if seconds < 90:
        n, unit = max(1, round(seconds)), "second"
    else:
        n, unit = round(seconds / 60), "minute"
    return (f"The round reached its time limit of {n} {unit}{'' if n == 1 else 's'} while the AI "
            "was still answering; its unfinished reply was set aside.")


def _ending_record(ending: RoundEnding | None) -> tuple[str, list[str], str]:
    """The round record's summary, evidence and findings, from how the round ended."""
    if isinstance(ending, (Completed, Sampled)):
        return ending.summary, ending.evidence, ""
    if isinstance(ending, Asked):
        return ending.question, ending.evidence, ""
    if isinstance(ending, GaveUp):
        return ending.reason, [], ending.findings
    return "", [], ""


def _repetition(calls: list[str]) -> str | None:
    """The same call 3 times in a row, or an A-B-A-B pattern: the agent is going round."""
    if len(calls) >= 3 and calls[-1] == calls[-2] == calls[-3]:
        return calls[-1].split("{", 1)[0] + " with the same arguments, 3 times"
    if len(calls) >= 4 and calls[-1] == calls[-3] and calls[-2] == calls[-4] \
            and calls[-1] != calls[-2]:
        return (f"{calls[-2].split('{', 1)[0]} and {calls[-1].split('{', 1)[0]} "
                "alternating with the same arguments")
    return None


def _brief(args: dict) -> dict:
    """Tool arguments for the event log, with long text cut (file contents live in the file)."""
    out = {}
    for key, value in args.items():
        if isinstance(value, str) and len(value) > 200:
            value = value[:200] + f"… ({len(value)} characters)"
        out[key] = value
    return out
