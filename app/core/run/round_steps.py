"""One round's steps: each a model turn, then the tools it called, until the round ends.

`RoundSteps.run` reads top to bottom: before a step, may it go (Stop, the time limit, the
task's lookups)? Then the model's turn; then either its tool calls or, without any, a nudge.
Whatever ends the round sets its result (app/core/run/outcomes.py) on the `RoundState` and
returns; an engine call that fails raises `EngineStop` to the round (app/core/run/loop.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from app.core.web import round as web_round
from app.core.board.task import Task
from app.core.engine.conversation import Message, ModelTurn, ToolResult, Usage
from app.core.run.endings import Asked, Completed, RoundEnding
from app.core.records.events import (FileChanged, HumanNeeded, ModelReplied, NoticeSent, StepStarted,
                             TaskCompleted, ToolCalled, ToolRefused)
from app.core.run.live_text import LiveText
from app.core.run.outcomes import RoundResult
from app.core.records.records import now_iso
from app.core.run.reports import SYSTEM_PROMPT, correction, final_warning, nudge, stall_notice
from app.core.run.round_clock import RoundClock
from app.core.run.stops import RunStop
from app.core.tools.outcome import ToolOutcome
from app.core.tools.specs import TOOL_SPECS
from app.core.tools.toolbox import ToolBox
from app.core.web.types import WebActivity

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable

    from app.core.engine.calls import EngineCaller
    from app.core.policies.gate import ChangeGate
    from app.core.records.recorder import Recorder
    from app.core.settings import Limits

MAX_NUDGES = 2


class RunParts(Protocol):
    """What the steps use of the run (app.core.run.loop.Harness)."""

    rec: Recorder
    caller: EngineCaller
    gate: ChangeGate
    web: web_round.WebLookups
    limits: Limits
    cancel: threading.Event
    paused: threading.Event
    reached_ai: bool


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
    result: RoundResult = RoundResult.STEP_LIMIT
    ending: RoundEnding | None = None  # how the agent ended it through a tool, if it did
    error: str | None = None
    changed: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)  # of `changed`, the files it made new
    fatal: RunStop | None = None
    tool_steps: int = 0  # steps in which the AI used a tool
    sample: bool = False  # the engine can only show this task as a sample (Engine.only_samples)
    recorded: bool = True  # False: the engine never answered in this run, nothing changed
    web: WebActivity | None = None  # what the round looked up on the web
    lookup_cap: int = 0  # the task's cap on lookups, when reaching it ended the round


@dataclass
class _Talk:
    """What the loop told the AI in this round, so each reminder goes out as often as it may."""

    nudges: int = 0
    calls: list[str] = field(default_factory=list)  # the calls since the last correction
    corrected: bool = False
    warned: set[str] = field(default_factory=set)   # the stall notice and the final warning


class RoundSteps:
    """The steps of the rounds of one run, on the run's recorder, engine caller and gate."""

    def __init__(self, run: RunParts):
        self.h = run

    def run(self, st: RoundState, tools: ToolBox, messages: list[Message],
            system: str = SYSTEM_PROMPT) -> None:
        """Steps until the round ends: each is a model turn, then the tools it called."""
        clock = RoundClock(self.h.limits.round_seconds, lambda: self.h.gate.waited_s)
        talk = _Talk()
        for step in range(1, self.h.limits.max_steps + 1):
            if not self._may_step(st, clock):
                return
            st.steps = step
            turn = self._turn(st, system, messages, clock, tools.changes.hand_off)
            if self._cut(st, turn, clock):
                return
            if turn.tool_calls:
                st.tool_steps += 1
            elif turn.stop_reason == "pause_turn":
                continue  # the service paused its own lookups mid-reply: sent back, it goes on
            reply = (self._tool_step(st, step, turn, tools, talk) if turn.tool_calls else
                     self._nudge(st, step, talk))
            if reply is None:  # the round ended
                return
            messages.append(reply)
        st.result = RoundResult.STEP_LIMIT
        st.error = f"The round used all {self.h.limits.max_steps} steps without finishing the task."

    def _may_step(self, st: RoundState, clock: RoundClock) -> bool:
        """Wait out a pause; False (the round's result set) when no further step may go."""
        clock.hold_while_paused(self.h.paused, self.h.cancel)  # the person is asked
        if self.h.cancel.is_set():
            st.result = RoundResult.CANCELLED
            return False
        if clock.past_deadline():
            st.result, st.error = RoundResult.TIMEOUT, "The round ran past its time limit."
            return False
        used_up = self.h.web.used_up(st.task)
        if used_up:  # the task's lookups are used up: no further call
            st.result, st.error = RoundResult.STEP_LIMIT, used_up
            st.lookup_cap = self.h.limits.max_lookups
            return False
        return True

    def _turn(self, st: RoundState, system: str, messages: list[Message],
              clock: RoundClock, hand_off: Callable[[], None] = lambda: None) -> ModelTurn:
        """The step's model turn, accounted and added to the conversation. `hand_off` starts
        the flushes of the last step's changes while the model answers (RoundChanges)."""
        self.h.rec.emit(StepStarted(round=st.number, step=st.steps,
                                  max_steps=self.h.limits.max_steps))
        live = LiveText(self.h.rec, st.number, st.steps)  # the engine's on_text, throttled
        hand_off()
        turn = self.h.caller.call(system, TOOL_SPECS, messages, live, clock.deadline)
        live.flush()  # the reply's last words reach the live view before model_replied
        self._account(st, turn)
        messages.append(Message(role="assistant", text=turn.text,
                                tool_calls=turn.tool_calls, record=turn.record))
        return turn

    def _cut(self, st: RoundState, turn: ModelTurn, clock: RoundClock) -> bool:
        """True (the round's result set) when Stop or the time limit cut the reply."""
        if self.h.cancel.is_set():  # Stop pressed while the model was answering: run nothing
            st.result = RoundResult.CANCELLED
            return True
        if turn.stop_reason == "cancelled" and clock.at_deadline():
            st.result = RoundResult.TIMEOUT
            st.error = _cut_at_time_limit(self.h.limits.round_seconds)
            return True
        return False

    def _nudge(self, st: RoundState, step: int, talk: _Talk) -> Message | None:
        """A reply without tools: remind the AI to use them, up to MAX_NUDGES times."""
        talk.nudges += 1
        if talk.nudges > MAX_NUDGES:
            st.result = RoundResult.NO_ACTION
            st.error = "The AI kept replying without using tools."
            return None
        notices = [self._notice(st, "nudge", nudge(talk.nudges, MAX_NUDGES))]
        notices += self._step_warnings(st, step, talk.warned)
        return Message(role="user", text="\n\n".join(notices))

    def _tool_step(self, st: RoundState, step: int, turn: ModelTurn, tools: ToolBox,
                   talk: _Talk) -> Message | None:
        """Run the turn's tool calls; the results and notices, or None when the round ended."""
        results = []
        for call in turn.tool_calls:
            outcome = tools.call(call.name, call.arguments)
            self._report_tool(st, call.name, call.arguments, outcome)
            results.append(ToolResult(call_id=call.id, name=call.name,
                                      content=outcome.content, is_error=outcome.is_error,
                                      pictures=outcome.pictures))
            if outcome.ending is not None:
                self._end_by_tool(st, outcome.ending)
                return None
            talk.calls.append(call.signature())
        if self.h.cancel.is_set():  # Stop pressed: this step's tools ran whole; stop here
            st.result = RoundResult.CANCELLED
            return None
        notices = self._correction(st, talk)
        if notices is None:
            return None
        notices += self._step_warnings(st, step, talk.warned)
        return Message(role="user", tool_results=results, text="\n\n".join(notices))

    def _correction(self, st: RoundState, talk: _Talk) -> list[str] | None:
        """Tell the AI once that it is going round in circles; None (the round ended) when
        it goes on after being told."""
        repeated = _repetition(talk.calls)
        if not repeated:
            return []
        if talk.corrected:
            st.result = RoundResult.NO_ACTION
            st.error = "The AI repeated the same action after being told it had no effect."
            return None
        talk.corrected, talk.calls = True, []
        return [self._notice(st, "correction", correction(repeated))]

    def _step_warnings(self, st: RoundState, step: int, warned: set[str]) -> list[str]:
        """The stall notice from 60% of max_steps and the final warning from 80%, once each,
        whatever the reply at that step was."""
        max_steps = self.h.limits.max_steps
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
        self.h.rec.emit(NoticeSent(round=st.number, kind=kind, text=text))
        return text

    def _account(self, st: RoundState, turn: ModelTurn) -> None:
        self.h.reached_ai = True
        cost = turn.cost_usd
        st.usage = st.usage + turn.usage
        st.cost += cost
        self.h.rec.add_usage(turn.usage, cost)
        self.h.rec.note_model(turn.model)
        self.h.rec.emit(ModelReplied(
            round=st.number, step=st.steps, text=turn.text[:2000],
            tool_calls=[c.name for c in turn.tool_calls], model=turn.model or self.h.rec.info.model,
            usage=turn.usage, cost_usd=round(cost, 6),
            run_usage=self.h.rec.status.usage, run_cost_usd=self.h.rec.status.cost_usd))
        # Attempts that broke off after a lookup were billed for it: the task's count has it.
        looked = web_round.add(self.h.caller.drain_billed_web(), turn.web)
        st.web = self.h.web.account(st.web, looked, st.task, st.number, st.steps)
        self.h.gate.now.web = st.web  # an approval shows the sources the change rests on

    def _report_tool(self, st: RoundState, name: str, args: dict[str, Any],
                     outcome: ToolOutcome) -> None:
        if outcome.refused:
            self.h.rec.emit(ToolRefused(round=st.number, tool=name, arguments=_brief(args),
                                      reason=outcome.content))
        else:
            self.h.rec.emit(ToolCalled(round=st.number, tool=name, arguments=_brief(args),
                                     result=outcome.content[:300], is_error=outcome.is_error,
                                     held_open=outcome.held_open))
        for path in outcome.changed:
            change = "deleted" if name == "delete_file" else "wrote"
            self.h.rec.emit(FileChanged(round=st.number, path=path, change=change))

    def _end_by_tool(self, st: RoundState, ending: RoundEnding) -> None:
        st.result, st.ending = ending.result, ending
        if isinstance(ending, Completed):
            self.h.rec.emit(TaskCompleted(round=st.number, task=st.task.text,
                                        summary=ending.summary, evidence=ending.evidence))
        elif isinstance(ending, Asked):  # the decision exactly as the tool put it on the board
            self.h.rec.emit(HumanNeeded(
                round=st.number, task=st.task.text, question=ending.question,
                options=ending.options, evidence=ending.evidence,
                recommendation=ending.recommendation, reason=ending.kind))


def _cut_at_time_limit(seconds: float) -> str:
    if seconds < 90:
        n, unit = max(1, round(seconds)), "second"
    else:
        n, unit = round(seconds / 60), "minute"
    return (f"The round reached its time limit of {n} {unit}{'' if n == 1 else 's'} while the AI "
            "was still answering; its unfinished reply was set aside.")


def _repetition(calls: list[str]) -> str | None:
    """The same call 3 times in a row, or an A-B-A-B pattern: the agent is going round."""
    if len(calls) >= 3 and calls[-1] == calls[-2] == calls[-3]:
        return calls[-1].split("{", 1)[0] + " with the same arguments, 3 times"
    if len(calls) >= 4 and calls[-1] == calls[-3] and calls[-2] == calls[-4] \
            and calls[-1] != calls[-2]:
        return (f"{calls[-2].split('{', 1)[0]} and {calls[-1].split('{', 1)[0]} "
                "alternating with the same arguments")
    return None


def _brief(args: dict[str, Any]) -> dict[str, Any]:
    """Tool arguments for the event log, with long text cut (file contents live in the file)."""
    out: dict[str, Any] = {}
    for key, value in args.items():
        if isinstance(value, str) and len(value) > 200:
            value = value[:200] + f"… ({len(value)} characters)"
        out[key] = value
    return out
