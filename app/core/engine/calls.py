"""The one retry layer: each model call with backoff, budgets, and error diagnosis for the loop.

Engines make exactly one attempt per turn (their SDK clients run with max_retries=0); this
module decides whether to wait and try again, shows the wait in status.json (state
"waiting"), and turns failures that retrying cannot fix into a stop with a plain sentence.

Money. An attempt that failed after its 200 (a stream that broke off) was billed for its
input: engines attach what it used (or an estimate) to the EngineError as `usage`, and it is
added to the run's usage and cost here, before any retry, and the budget is checked again.
(It is in the run's totals, the retry_waiting event, and the record of the round it
happened in, through drain_billed.) The searches and fetches such an attempt's service ran
(EngineError.web, a reply that broke off after a search) are billed too: their price is in
that cost, and the loop counts them in the task's lookups through drain_billed_web. With a
USD budget, each attempt's output is capped at
what is left of it: `Engine.turn` gets `max_output_tokens`, the tokens the remaining budget
buys at the model's output price after the estimated cost of the prompt about to be sent,
never below MIN_OUTPUT_TOKENS (the engine keeps it under the model's own limit). Without a
USD budget, or for an engine whose output costs nothing, no cap is passed. Each turn comes
back with its cost (`ModelTurn.cost_usd`).
"""

from __future__ import annotations

import random
import threading
import time
from datetime import datetime, timedelta, timezone
from typing import Any, Protocol, cast

from app.core.engine.conversation import Message, ModelTurn, ToolCall, ToolSpec, Usage
from app.core.records.events import Event, RetryResumed, RetryWaiting
from app.core.run.live_text import LiveText
from app.core.run.outcomes import STOPPED_BY_YOU, ExitReason, RoundResult, RunState
from app.core.settings import Limits
from app.core.web.types import WebActivity
from app.core.engine.port import (AUTH_FAILED, BAD_REQUEST, ENGINE_UNREACHABLE, MODEL_NOT_FOUND,
                             PROMPT_TOO_LONG, QUOTA_EXHAUSTED, Engine, EngineError)

FATAL_CODES = (AUTH_FAILED, QUOTA_EXHAUSTED, MODEL_NOT_FOUND, ENGINE_UNREACHABLE)
MAX_SINGLE_WAIT_S = 60.0  # cap on our own backoff; a service's retry-after is honoured in full
TRIMMED = "[harness] Older tool output was removed here to fit the model's context."
MIN_OUTPUT_TOKENS = 256  # a smaller cap would leave no room even for one tool call
_PER = 1_000_000


class EngineStop(Exception):
    """A model call could not be made. `state` set means the whole run stops. Made by the
    named constructors below; `EngineStop(message)` fails only the round."""

    def __init__(self, message: str, round_result: RoundResult = RoundResult.ENGINE_ERROR,
                 state: RunState | None = None, exit_reason: ExitReason | None = None,
                 cause: str = ""):
        super().__init__(message)
        self.message = message
        self.round_result = round_result
        self.state = state
        self.exit_reason = exit_reason
        self.cause = cause or exit_reason or ""  # the engine's finer cause (NO_KEY, ...)

    @classmethod
    def stopped_by_user(cls) -> EngineStop:
        return cls(STOPPED_BY_YOU, RoundResult.CANCELLED, RunState.STOPPED,
                   ExitReason.STOPPED_BY_USER)

    @classmethod
    def over_budget(cls, message: str) -> EngineStop:
        """The next call would likely spend past the run's budget (money or tokens)."""
        return cls(message, RoundResult.CANCELLED, RunState.STOPPED, ExitReason.BUDGET_EXHAUSTED)

    @classmethod
    def fatal(cls, message: str, reason: ExitReason, cause: str = "") -> EngineStop:
        """Retrying cannot help: the round fails and the run stops."""
        return cls(message, RoundResult.ENGINE_ERROR, RunState.FAILED, reason, cause)



class _Spent(Protocol):
    @property
    def usage(self) -> Usage: ...
    @property
    def cost_usd(self) -> float: ...


class CallRecorder(Protocol):
    """What EngineCaller needs of a recorder: a run's (core/records/recorder.py) or a plan's
    (core/plan/records.py)."""

    @property
    def status(self) -> _Spent: ...
    def add_usage(self, usage: Usage, cost: float) -> None: ...
    def emit(self, event: Event) -> Event: ...


class EngineCaller:
    def __init__(self, engine: Engine, limits: Limits, rec: CallRecorder, cancel: threading.Event):
        self.engine = engine
        self.limits = limits
        self.rec = rec
        self.cancel = cancel
        self._last_turn_cost = 0.0
        self._billed: tuple[Usage, float] = (Usage(), 0.0)
        self._billed_web: WebActivity | None = None  # failed attempts' lookups, not yet counted
        self._last_turn_tokens = 0
        self._prompt_chars = _PromptChars()

    def check_budget(self, prompt_chars: int = 0) -> None:
        """Stop before a call that would likely spend past a budget.

        The next call is estimated as the larger of the last call and the prompt about to be
        sent (about 4 characters a token), so even the first call of a run is checked."""
        spent = self.rec.status.cost_usd
        tokens = self.rec.status.usage.total_tokens
        budget, token_budget = self.limits.budget_usd, self.limits.budget_tokens
        prompt = Usage(input_tokens=prompt_chars // 4)
        next_cost = max(self._last_turn_cost,
                        self.engine.cost_usd(prompt) if self.engine.is_ai and prompt_chars else 0.0)
        next_tokens = max(self._last_turn_tokens, prompt.input_tokens)
        if budget is not None and spent + next_cost > budget:
            raise EngineStop.over_budget(f"Stopped at the spending limit: ${spent:.4f} spent "
                                         f"of ${budget:.2f}.")
        if token_budget is not None and tokens + next_tokens > token_budget:
            raise EngineStop.over_budget(f"Stopped at the token limit: {tokens:,} tokens used "
                                         f"of {token_budget:,}.")

    def output_cap(self, prompt_chars: int) -> int | None:
        """The output cap for the next attempt, or None; see the module docs."""
        cap = None
        budget = self.limits.budget_usd
        if budget is not None and self.engine.is_ai:
            per_token = self.engine.cost_usd(Usage(output_tokens=_PER)) / _PER
            if per_token > 0:
                prompt = self.engine.cost_usd(Usage(input_tokens=prompt_chars // 4))
                left = budget - self.rec.status.cost_usd - prompt
                cap = max(MIN_OUTPUT_TOKENS, int(left / per_token))
        return cap

    def _count_billed(self, err: EngineError) -> tuple[Usage, float] | None:
        """Add what a failed attempt was billed (err.usage, set by the engine) to the run."""
        usage, web = err.usage or Usage(), getattr(err, "web", None)
        if not usage.total_tokens and (web is None or web.empty):
            return None
        cost = (self.engine.cost_usd(usage) + self.engine.web_cost_usd(web)
                if self.engine.is_ai else 0.0)
        self.rec.add_usage(usage, cost)
        self._billed = (self._billed[0] + usage, self._billed[1] + cost)
        if web is not None and not web.empty:
            self._billed_web = web if self._billed_web is None else self._billed_web + web
        return usage, cost

    def drain_billed(self) -> tuple[Usage, float]:
        """What failed attempts were billed since the last drain (already in the run's totals),
        so the round they happened in can count it too."""
        billed, self._billed = self._billed, (Usage(), 0.0)
        return billed

    def drain_billed_web(self) -> WebActivity | None:
        """The lookups failed attempts were billed for since the last drain (their price is
        already in the run's cost), for the task's count of lookups."""
        web, self._billed_web = self._billed_web, None
        return web

    def call(self, system: str, tools: list[ToolSpec], messages: list[Message],
             live: LiveText | None = None, deadline: float | None = None) -> ModelTurn:
        """One model turn, tried again after retryable failures. `live` is the step's
        on_text: it gets the reply's words as they stream, each attempt afresh. At
        `deadline` (time.monotonic()) the engine is told to stop as if Stop were pressed,
        so a reply that runs past the round's time limit is cut inside the step; the turn
        then comes back with stop_reason "cancelled" and the caller sees the time."""
        # Engines only ask is_set() and wait() of their cancel, which _StepCancel answers.
        cancel = (cast(threading.Event, _StepCancel(self.cancel, deadline))
                  if deadline is not None else self.cancel)
        chars = self._prompt_chars(system, tools, messages)
        self.check_budget(chars)
        attempt = 0
        waited = 0.0
        trimmed = False
        while True:
            if self.cancel.is_set():
                raise EngineStop.stopped_by_user()
            if live is not None:
                live.restart()  # a failed attempt's words are not part of this reply
            try:
                # _StepCancel is Event-like (is_set, wait): all an engine asks of `cancel`.
                turn = self.engine.turn(system, tools, messages, cancel=cancel,
                                        on_text=live,
                                        max_output_tokens=self.output_cap(chars))
            except EngineError as err:
                billed = self._count_billed(err)
                if self.cancel.is_set():
                    raise EngineStop.stopped_by_user() from err
                if err.code in FATAL_CODES:
                    raise EngineStop.fatal(err.message, ExitReason(err.code), err.cause) from err
                if err.code == PROMPT_TOO_LONG:
                    if not trimmed and _trim_oldest_tool_output(messages):
                        trimmed = True
                        continue
                    raise EngineStop.fatal(_too_long_sentence(err, trimmed),
                                           ExitReason.ENGINE_FAILURES) from err
                if err.code == BAD_REQUEST and not err.retryable:
                    # The service refused this request as it stands: the next round would send
                    # the same and be refused the same, so the run stops here.
                    raise EngineStop.fatal(err.message, ExitReason.BAD_REQUEST) from err
                if not err.retryable:
                    raise EngineStop(err.message) from err  # this round fails; the run goes on
                if billed:
                    self.check_budget(chars)  # the failed attempt may have used up the budget
                attempt += 1
                delay = self._delay(err, attempt)
                if waited + delay > self.limits.max_retry_wait_s and err.retry_after:
                    raise EngineStop.fatal(
                        f"{err.message} The service asked to wait {delay:.0f} seconds before "
                        "trying again, longer than this run may wait. Run again later.",
                        ExitReason.ENGINE_FAILURES) from err
                if attempt > self.limits.max_retries or waited + delay > self.limits.max_retry_wait_s:
                    raise EngineStop.fatal(
                        f"The AI engine kept failing after {attempt} attempts: {err.message}",
                        ExitReason.ENGINE_FAILURES) from err
                waited += delay
                self._wait(err, attempt, delay, billed)
                continue
            # Searches and fetches the service ran cost per lookup, beyond their tokens.
            turn.cost_usd = (self.engine.cost_usd(turn.usage)
                             + self.engine.web_cost_usd(turn.web)) if self.engine.is_ai else 0.0
            self._last_turn_cost = turn.cost_usd
            self._last_turn_tokens = turn.usage.total_tokens
            return turn

    def _delay(self, err: EngineError, attempt: int) -> float:
        if err.retry_after is not None:  # the service said when: never sooner
            return max(0.0, float(err.retry_after))
        base = self.limits.retry_base_s * (2.0 ** (attempt - 1))
        return min(MAX_SINGLE_WAIT_S, base * random.uniform(0.5, 1.0))

    def _wait(self, err: EngineError, attempt: int, delay: float,
              billed: tuple[Usage, float] | None) -> None:
        """Wait before trying again, shown in status.json as state "waiting" (the recorder
        follows retry_waiting and retry_resumed)."""
        next_at = datetime.now(timezone.utc) + timedelta(seconds=delay)
        self.rec.emit(RetryWaiting(
            seconds=round(delay, 2), attempt=attempt, reason=err.message, code=err.code,
            next_attempt_at=next_at.isoformat(timespec="milliseconds"),
            usage=billed[0] if billed else None, cost_usd=round(billed[1], 6) if billed else 0.0))
        self.cancel.wait(delay)  # Stop during a wait ends it at once
        self.rec.emit(RetryResumed(attempt=attempt))


class _StepCancel:
    """Stop (the person's) or the round's deadline, whichever comes first: what the engine
    is handed as `cancel` (engines ask is_set(); the Demo engine sleeps on wait())."""

    def __init__(self, stop: threading.Event, deadline: float):
        self.stop, self.deadline = stop, deadline

    def is_set(self) -> bool:
        return self.stop.is_set() or time.monotonic() >= self.deadline

    def wait(self, timeout: float | None = None) -> bool:
        """Like Event.wait (an engine may sleep on its cancel): until Stop, the deadline or
        `timeout`, whichever comes first."""
        left = self.deadline - time.monotonic()
        self.stop.wait(max(0.0, left if timeout is None else min(timeout, left)))
        return self.is_set()


def _too_long_sentence(err: EngineError, trimmed: bool) -> str:
    """What the person reads when the conversation does not fit the model: what happened
    and, in one sentence, what to change."""
    if err.remedy:
        return f"{err.message.rstrip('.')}{', even after removing old tool output' if trimmed else ''}. {err.remedy}"
    return ("The conversation grew too long for the model"
            f"{', even after removing old tool output' if trimmed else ''}. Split the task into "
            "smaller tasks or choose a model with a larger context.")


class _PromptChars:
    """About how many characters a request holds, for the budget's estimate of the next call.
    What it would otherwise make again for every step from the whole conversation, the
    tools' text and each call's arguments as text, is kept for the run: a call's
    arguments never change once made, and the tools are the same each step."""

    def __init__(self) -> None:
        self._tools: tuple[tuple[tuple[str, str, dict[str, Any]], ...], int] = ((), 0)
        self._arguments: dict[int, tuple[ToolCall, int]] = {}

    def __call__(self, system: str, tools: list[ToolSpec], messages: list[Message]) -> int:
        size = len(system) + self._tools_chars(tools)
        for m in messages:
            size += len(m.text) + sum(len(r.content) for r in m.tool_results)
            # a picture costs about width x height / 750 tokens (Claude's vision guide), 4 chars
            size += sum(p.shown_width * p.shown_height * 4 // 750
                        for r in m.tool_results for p in r.pictures)
            size += sum(self._arguments_chars(c) for c in m.tool_calls)
        return size

    def _tools_chars(self, tools: list[ToolSpec]) -> int:
        key = tuple((t.name, t.description, t.parameters) for t in tools)
        if key != self._tools[0]:  # compared by identity first: the same objects each step
            self._tools = (key, sum(len(t.description) + len(str(t.parameters)) for t in tools))
        return self._tools[1]

    def _arguments_chars(self, call: ToolCall) -> int:
        found = self._arguments.get(id(call))
        if found is not None and found[0] is call:
            return found[1]
        if len(self._arguments) > 4096:  # a run's calls; kept with the call, so ids stay true
            self._arguments.clear()
        size = len(str(call.arguments))
        self._arguments[id(call)] = (call, size)
        return size


def _prompt_chars(system: str, tools: list[ToolSpec], messages: list[Message]) -> int:
    return _PromptChars()(system, tools, messages)


def _trim_oldest_tool_output(messages: list[Message]) -> bool:
    """Replace the older half of tool results with a short marker. False if nothing to trim."""
    holders = [(m, r) for m in messages for r in m.tool_results if r.content != TRIMMED]
    if not holders:
        return False
    for _, result in holders[: max(1, len(holders) // 2)]:
        result.content = TRIMMED
        result.pictures = []
    return True
