"""The Demo engine: offline, deterministic, no AI. It drives the real tools from a script.

Each round it reads the progress report (the first user message), picks a plan for the
current task, and returns one tool call per turn: look around, read the sources, write the
draft, then complete_task with the file as evidence. On the bakery's "compare two directions"
task its replies also carry a scripted web lookup with made-up, labelled sources (demo_web).
On the bundled bakery board (its tasks recognised by their exact words) it writes real
drafts and asks the person one decision; on any other task it never touches the person's
files and never ticks the task: it writes a short, clearly-labelled sample note under
demo-output/, and the harness records the round as "shown as a sample, not done"
(only_samples), so the whole flow can be tried without a key.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Callable

from app.core.engine.conversation import Message, ModelTurn, ToolCall, ToolSpec, Usage
from app.core.engine.port import Availability, Engine

DELAY_ENV = "HARNESS_DESK_DEMO_DELAY"
_NOT_SET = object()


class DemoEngine(Engine):
    id = "demo"
    label = "Demo (offline, no AI)"
    is_ai = False
    needs_key = False
    default_model = "scripted"

    @property
    def delay_s(self) -> float:
        value = self.config.options.get("delay_s", os.environ.get(DELAY_ENV, 0))
        try:
            return max(0.0, float(value))
        except (TypeError, ValueError):
            return 0.0

    def availability(self) -> Availability:
        return Availability(True, "Ready. The Demo engine runs offline and uses no AI.",
                            ["scripted"])

    def cost_usd(self, usage: Usage) -> float:
        return 0.0

    # It plays a scripted lookup: the loop sets `web` for a round whose task may
    # look things up ("Web: yes"), None for one that may not, and the Demo then looks nothing
    # up. Where no loop sets it at all (the core before the web switch) it may.
    looks_up = True

    def _may_look_up(self) -> bool:
        return getattr(self, "web", _NOT_SET) is not None

    def only_samples(self, task_text: str, done_when: list[str]) -> bool:
        """A person's own task is shown as a sample, never ticked: only the bundled demo's
        tasks are the Demo engine's to do (demo_script.is_scripted)."""
        from app.engines.demo import script as demo_script  # noqa: PLC0415 - listing the engines stays light; loaded when used: listing engines never is

        return not demo_script.is_scripted(task_text, done_when)

    def turn(self, system: str, tools: list[ToolSpec], messages: list[Message], *,
             cancel: threading.Event | None = None,
             on_text: Callable[[str], None] | None = None,
             max_output_tokens: int | None = None) -> ModelTurn:
        if self.delay_s:
            (cancel or threading.Event()).wait(self.delay_s)
        from app.engines.demo import planner as demo_planner  # noqa: PLC0415 - the window's Run imports this module on the UI thread (run_flow.demo_delay_s); the scripts load with the first turn, on the run's thread (bench/ui_stall_cold.py)
        from app.engines.demo import script as demo_script  # noqa: PLC0415 - the window's Run imports this module on the UI thread (run_flow.demo_delay_s); the scripts load with the first turn, on the run's thread (bench/ui_stall_cold.py)
        from app.engines.demo import web as demo_web  # noqa: PLC0415 - the window's Run imports this module on the UI thread (run_flow.demo_delay_s); the scripts load with the first turn, on the run's thread (bench/ui_stall_cold.py)

        if any(t.name == "propose_tasks" for t in tools):  # a planning round (core/plan/planning.py)
            name, args = demo_planner.plan_turn(messages)
            return _call(sum(1 for m in messages if m.role == "assistant"), name, **args)
        report = messages[0].text if messages else ""
        task = _field(report, "Current task:")
        done_when = _section(report, "Done when:")
        decisions = _section(report, "The person's decisions:")
        step = sum(1 for m in messages if m.role == "assistant")
        last = messages[-1] if messages else None
        results = [r.content for m in messages for r in m.tool_results]

        if last is not None and any(r.is_error for r in last.tool_results):
            error = next(r.content for r in last.tool_results if r.is_error)
            return _call(step, "give_up", reason=f"A tool call failed: {error}",
                         findings="The Demo engine follows a fixed script and cannot recover "
                                  "from a failed tool call.")

        plan = demo_script.plan_for(task, done_when, decisions, results)
        if step < len(plan):
            name, args = plan[step]
            turn = _call(step, name, **args)
            if self._may_look_up() and demo_script.is_scripted(task, done_when):
                answered = any("Answer:" in line for line in decisions)
                turn.web = demo_web.lookup_for(task, step, answered)  # made up, labelled so
                turn.text = demo_web.reply_text(task, step, answered)
            return turn
        return _call(step, "give_up", reason="The demo script for this task has ended.",
                     findings="The Demo engine has no more steps for this task.")


def _call(step: int, name: str, **arguments: Any) -> ModelTurn:
    return ModelTurn(text="", tool_calls=[ToolCall(id=f"demo-{step}", name=name,
                                                   arguments=arguments)],
                     usage=Usage(), model="scripted", stop_reason="tool_use")


def _field(report: str, label: str) -> str:
    for line in report.splitlines():
        if line.startswith(label):
            return line[len(label):].strip()
    return ""


def _section(report: str, heading: str) -> list[str]:
    """The '- ' lines right after a heading line of the report."""
    lines = report.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == heading:
            out = []
            for item in lines[i + 1:]:
                if not item.startswith("- "):
                    break
                out.append(item[2:].strip())
            return out
    return []

