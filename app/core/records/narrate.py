"""One readable line per event, shared by the CLI, `watch` and status.json's last_event."""

from __future__ import annotations

from typing import Any

from app.core.clean_text import clean
from app.core.records.events import (ChangeAnswered, ChangeAsked, ChangeRefused, ChangeWaiting,
                             Event, FileChanged, HumanNeeded, ModelReplied, NoticeSent,
                             PlanFinished, PlanStarted,
                             RetryWaiting, RoundFinished, RoundStarted, RunFinished, RunStarted,
                             TaskCompleted, ToolCalled, ToolRefused, WebLookedUp)
from app.core.records.cost_words import cost_text, upper_estimate_notice
from app.core.run.outcomes import RoundResult
from app.core.records.records import EXIT_REASON_WORDS


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _target(arguments: dict[str, Any]) -> str:
    value = arguments.get("path") or arguments.get("query") or ""
    return f" {_short(value, 50)}" if isinstance(value, str) and value else ""


def _verb(action: str) -> str:
    return "delete" if action == "delete" else "change"


# A round's outcome in the words a person reads (the record keeps the machine's word).
ROUND_WORDS: dict[str, str] = {
    RoundResult.COMPLETED: "done", RoundResult.NEEDS_HUMAN: "asked for your decision",
    RoundResult.GAVE_UP: "gave up", RoundResult.STEP_LIMIT: "ran out of steps",
    RoundResult.NO_ACTION: "stopped going round in circles",
    RoundResult.TIMEOUT: "ran out of time", RoundResult.ENGINE_ERROR: "engine problem",
    RoundResult.CANCELLED: "stopped by you", RoundResult.SAMPLE: "shown as a sample, not done"}


def describe_event(event: Event) -> str | None:
    """The event's line, or None for the kinds a line-per-event view leaves out: the live
    view's own (step_started, model_text, tasks_counted, retry_resumed). One line, without
    terminal or direction controls whatever the event holds (an old log, a model's words)."""
    line = _describe(event)
    return None if line is None else clean(line).replace("\n", " ")


def _describe(e: Event) -> str | None:
    if isinstance(e, RunStarted):
        return (f"Run started with {e.engine_label or e.engine}"
                f"{' (' + e.model + ')' if e.model else ''}: "
                f"{e.completed_tasks} of {e.total_tasks} tasks done"
                + (f". {upper_estimate_notice(e.model)}" if e.cost_is_upper_estimate else "")
                + (f". {e.web_note}" if e.web_note else ""))
    if isinstance(e, RoundStarted):
        return f"Round {e.round}: {_short(e.task)}"
    if isinstance(e, ModelReplied):
        if e.tool_calls:
            return f"  Step {e.step}: {', '.join(e.tool_calls)}"
        # Quoted as the AI's own words, so text imitating a harness line never reads as one.
        return f"  Step {e.step}: the AI answered without using a tool: “{_short(e.text, 60)}”"
    if isinstance(e, WebLookedUp):
        what = [f"{n} {word}{'' if n == 1 else 'es' if word == 'search' else 's'}"
                for n, word in ((e.search_count, "search"), (e.fetch_count, "page read"))
                if n] or ["nothing billed"]
        about = "; ".join(f"“{_short(q, 50)}”" for q in e.queries[:3])
        return (f"  Looked up on the web{': ' + about if about else ''} ({', '.join(what)}; "
                f"{e.task_lookups} of {e.max_lookups} for this task)")
    if isinstance(e, ToolCalled):
        result = e.result.strip().splitlines() or [""]
        # A file another program holds: the whole sentence, it asks the person to act.
        return f"  {e.tool}{_target(e.arguments)}: {_short(result[0], 200 if e.held_open else 80)}"
    if isinstance(e, ToolRefused):
        return f"  {e.tool}{_target(e.arguments)} refused: {_short(e.reason, 80)}"
    if isinstance(e, FileChanged):
        return f"  {e.change} {e.path}"
    if isinstance(e, NoticeSent):
        return f"  Notice ({e.kind}): {_short(e.text, 70)}"
    if isinstance(e, TaskCompleted):
        return f"  Task done: {_short(e.task)}"
    if isinstance(e, HumanNeeded):
        options = " / ".join(e.options)
        return f"  Decision needed: {_short(e.question)}" + (f" [{options}]" if options else "")
    if isinstance(e, ChangeAsked):
        return f"  Asking you first: {_verb(e.action)} {e.path}"
    if isinstance(e, ChangeAnswered):
        words = {"allowed": "allowed", "allowed_for_task": "allowed, with all of this task",
                 "edited": "allowed with your edit", "not_allowed": "not allowed",
                 "not_shown": "not made, as you had not seen the change"}[e.answer]
        return (f"  You {'answered on the board: ' if e.on_board else ''}"
                f"{_verb(e.action)} {e.path}: {words}")
    if isinstance(e, ChangeRefused):
        return f"  Refused: {_verb(e.action)} {e.path} ({_short(e.reason, 70)})"
    if isinstance(e, ChangeWaiting):
        return f"  Kept for your answer, not made: {_verb(e.action)} {e.path}"
    if isinstance(e, RetryWaiting):
        return (f"  Waiting {e.seconds:.0f}s before trying again "
                f"(attempt {e.attempt}): {_short(e.reason, 60)}")
    if isinstance(e, RoundFinished):
        outcome = ROUND_WORDS.get(e.result_state, e.result_state.replace("_", " "))
        if e.lookup_cap:  # the task used up its lookups, not its steps
            outcome = f"reached this task's limit of {e.lookup_cap} web lookups"
        return (f"Round {e.round} ended: {outcome}"
                + (f" — {_short(e.summary, 70)}" if e.summary else ""))
    if isinstance(e, PlanStarted):
        goal = _short(e.goal) if e.goal else "what comes next"
        return f"Planning with {e.engine_label or e.engine}: {goal}"
    if isinstance(e, PlanFinished):
        return f"Planning ended ({e.result}): {_short(e.message, 90)}"
    if isinstance(e, RunFinished):
        words = e.message or EXIT_REASON_WORDS.get(e.exit_reason, e.exit_reason)
        cost = (f"; cost {cost_text(f'${e.cost_usd:.4f}', True, '')}"
                if e.cost_is_upper_estimate else "")
        return (f"Run ended: {words} "
                f"{e.completed_tasks} of {e.total_tasks} tasks done{cost}")
    return None
