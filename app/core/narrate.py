"""One readable line per event, shared by the CLI, `watch` and the window's log."""

from __future__ import annotations

from app.core.records import EXIT_REASON_WORDS, Event


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _target(e: dict) -> str:
    args = e.get("arguments") or {}
    value = args.get("path") or args.get("query") or ""
    return f" {_short(value, 50)}" if isinstance(value, str) and value else ""


def describe_event(event: Event) -> str:
    e = event.model_dump()
    t = event.type
    if t == "run_started":
        return (f"Run started with {e.get('engine_label') or e.get('engine')}"
                f"{' (' + e['model'] + ')' if e.get('model') else ''}: "
                f"{e.get('completed_tasks', 0)} of {e.get('total_tasks', 0)} tasks done")
    if t == "round_started":
        return f"Round {e.get('round')}: {_short(e.get('task', ''))}"
    if t == "model_replied":
        calls = e.get("tool_calls") or []
        if calls:
            return f"  Step {e.get('step')}: {', '.join(calls)}"
        return f"  Step {e.get('step')}: replied without using a tool: {_short(e.get('text', ''), 60)}"
    if t == "tool_called":
        result = (e.get("result") or "").strip().splitlines() or [""]
        return f"  {e.get('tool')}{_target(e)}: {_short(result[0], 80)}"
    if t == "tool_refused":
        return f"  {e.get('tool')}{_target(e)} refused: {_short(e.get('reason', ''), 80)}"
    if t == "file_changed":
        return f"  {e.get('change', 'changed')} {e.get('path')}"
    if t == "notice_sent":
        return f"  Notice ({e.get('kind')}): {_short(e.get('text', ''), 70)}"
    if t == "task_completed":
        return f"  Task done: {_short(e.get('task', ''))}"
    if t == "human_needed":
        options = " / ".join(e.get("options") or [])
        return f"  Decision needed: {_short(e.get('question', ''))}" + (
            f" [{options}]" if options else "")
    if t == "retry_waiting":
        return (f"  Waiting {e.get('seconds', 0):.0f}s before trying again "
                f"(attempt {e.get('attempt')}): {_short(e.get('reason', ''), 60)}")
    if t == "round_finished":
        return (f"Round {e.get('round')} ended: {e.get('result_state')}"
                + (f" — {_short(e.get('summary', ''), 70)}" if e.get("summary") else ""))
    if t == "run_finished":
        reason = e.get("exit_reason") or ""
        words = e.get("message") or EXIT_REASON_WORDS.get(reason, reason)
        return (f"Run ended ({e.get('state')}): {words} "
                f"{e.get('completed_tasks', 0)} of {e.get('total_tasks', 0)} tasks done")
    return t
