"""Planning: a round of its own that turns a goal into proposed tasks, never touching the board.

Read `Planner.plan` top to bottom: the brief (goal, the folder's listing, AGENTS.md, the
board's tasks), then steps through the same retry layer a run uses (engine_calls), with only
the read-only tools and propose_tasks on offer. A proposal that breaks the board's rules is
sent back once with the reason; the second one stands or ends planning. Usage and cost count
against the budget in `limits`; the plan is recorded under .harness/plans (plan_records.py).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from app.core.board.board import Board, BoardError
from app.core.engine.conversation import Message, ModelTurn, ToolResult
from app.core.engine.port import Engine
from app.core.engine.calls import EngineCaller, EngineStop
from app.core.errors import NotAWorkspace
from app.core.records.events import (Event, ModelReplied, NoticeSent, PlanFinished, PlanStarted, StepStarted,
                             ToolCalled, ToolRefused)
from app.core.run.instructions import read_standing_instructions
from app.core.run.live_text import LiveText
from app.core.run.outcomes import ExitReason, RoundResult
from app.core.plan.prompt import (PLAN_SYSTEM_PROMPT, PLAN_TOOL_SPECS, PROPOSE, READ_ONLY_TOOLS,
                                  PlanContext, ask_again, last_steps_warning, not_a_planning_tool,
                                  plan_nudge, planning_brief)
from app.core.plan.records import PlanRecord, PlanRecorder, PlanResult, new_plan_id
from app.core.plan.proposals import Proposal, check_proposals
from app.core.records.records import now_iso, read_rounds
from app.core.records.redact import redact
from app.core.settings import Limits
from app.core.tools.toolbox import ToolBox
from app.core.workspace.workspace import Workspace, forbidden_folder_reason

PLAN_MAX_STEPS = 12
MAX_NUDGES = 2
MAX_PROPOSALS_TRIED = 2  # the first, and once more after being told what was wrong


@dataclass
class PlanOutcome:
    """How a planning round ended: `proposals` when result is "proposed", else a sentence."""

    plan_id: str
    result: str
    message: str
    proposals: list[Proposal] = field(default_factory=list)
    steps: int = 0
    cost_usd: float = 0.0
    cost_is_upper_estimate: bool = False  # the model's price is not known: at most cost_usd

    @property
    def ok(self) -> bool:
        return self.result == "proposed"


class _End(Exception):
    def __init__(self, result: PlanResult, message: str):
        super().__init__(message)
        self.result, self.message = result, message


class Planner:
    """One planning round on a workspace. Listeners get every event on the caller's thread
    and must not block; `cancel` stops it after the current step."""

    def __init__(self, workspace: Workspace | str, engine: Engine, limits: Limits | None = None,
                 *, max_steps: int = PLAN_MAX_STEPS,
                 listeners: list[Callable[[Event], None]] | None = None,
                 cancel: threading.Event | None = None):
        self.ws = workspace if isinstance(workspace, Workspace) else Workspace(workspace)
        self.engine = engine
        self.limits = limits or Limits()
        self.max_steps = max_steps
        self.listeners = listeners or []
        self.cancel = cancel or threading.Event()

    def plan(self, goal: str, mode: str = "goal",
             context: PlanContext | None = None) -> PlanOutcome:
        goal = " ".join(goal.split())
        context = context or PlanContext()
        reason = forbidden_folder_reason(self.ws.root)  # never the whole disk, as for a run
        if reason:
            raise NotAWorkspace(reason)
        self.ws.require(need_board=False)
        self.ws.ensure_harness_dir()
        record = PlanRecord(plan_id=new_plan_id(), mode=mode, goal=goal, note=context.note,
                            engine=self.engine.id, engine_label=self.engine.label,
                            model=self.engine.model, is_ai=self.engine.is_ai,
                            cost_is_upper_estimate=(self.engine.is_ai
                                                    and self.engine.cost_is_upper_estimate()),
                            started_at=now_iso(), max_steps=self.max_steps)
        self.rec = rec = PlanRecorder(self.ws, record, self.listeners)
        caller = EngineCaller(self.engine, self.limits, rec, self.cancel)
        rec.emit(PlanStarted(goal=goal, mode=mode, engine=record.engine,
                             engine_label=record.engine_label, model=record.model,
                             is_ai=record.is_ai, max_steps=self.max_steps))
        proposals: list[Proposal] = []
        end = _End("engine_error", "Planning stopped unexpectedly.")
        try:
            proposals = self._steps(caller, self._brief(goal, mode, context))
            end = _End("proposed", f"{len(proposals)} tasks proposed.")
        except _End as e:
            end = e
        except EngineStop as e:
            result: PlanResult = (
                "budget_exhausted" if e.exit_reason == ExitReason.BUDGET_EXHAUSTED else
                "cancelled" if e.round_result == RoundResult.CANCELLED else "engine_error")
            end = _End(result, e.message)
        finally:
            record.result, record.message = end.result, redact(end.message)
            record.proposals = [p.to_json() for p in proposals]
            record.finished_at = now_iso()
            rec.save()
            rec.emit(PlanFinished(result=end.result, proposals=len(proposals),
                                  message=end.message, steps=record.steps,
                                  usage=record.usage, cost_usd=record.cost_usd))
        return PlanOutcome(record.plan_id, end.result, redact(end.message), proposals,
                           record.steps, record.cost_usd, record.cost_is_upper_estimate)

    # -- the brief -----------------------------------------------------------------------
    def _brief(self, goal: str, mode: str, context: PlanContext) -> str:
        self.tools = ToolBox(self.ws.root, self.ws.board_path, "", None)  # type: ignore[arg-type]
        listing = self.tools.call("list_files", {"path": "."}).content
        self.board = self._board()
        agents = read_standing_instructions(self.ws.root)
        return planning_brief(goal, mode, listing, self.board, agents.text, agents.note, context)

    def _board(self) -> Board | None:
        if not self.ws.board_path.exists():
            return None
        try:
            return Board.load(self.ws.board_path)
        except BoardError as exc:
            raise _End("engine_error", str(exc)) from None

    # -- the steps -----------------------------------------------------------------------
    def _steps(self, caller: EngineCaller, brief: str) -> list[Proposal]:
        messages = [Message(role="user", text=brief)]
        deadline = time.monotonic() + self.limits.round_seconds
        nudges = tried = 0
        rec = self.rec
        for step in range(1, self.max_steps + 1):
            if self.cancel.is_set():
                raise _End("cancelled", "Planning was stopped by you.")
            if time.monotonic() > deadline:
                raise _End("timeout", "Planning ran past its time limit.")
            rec.record.steps = step
            rec.emit(StepStarted(round=1, step=step, max_steps=self.max_steps))
            live = LiveText(rec, 1, step)  # type: ignore[arg-type]  # rec offers emit()
            turn = caller.call(PLAN_SYSTEM_PROMPT, PLAN_TOOL_SPECS, messages, live)
            live.flush()
            self._account(turn, step)
            messages.append(Message(role="assistant", text=turn.text,
                                    tool_calls=turn.tool_calls, record=turn.record))
            if self.cancel.is_set():
                raise _End("cancelled", "Planning was stopped by you.")
            notices: list[str] = []
            if not turn.tool_calls:
                nudges += 1
                if nudges > MAX_NUDGES:
                    raise _End("no_proposal", "The AI kept replying without proposing tasks.")
                notices.append(self._notice("nudge", plan_nudge(nudges, MAX_NUDGES)))
            results = []
            for call in turn.tool_calls:
                if call.name == PROPOSE:
                    tried += 1
                    proposals, problems = check_proposals(call.arguments.get("tasks")
                                                          if isinstance(call.arguments, dict)
                                                          else None, self.board)
                    if not problems:
                        rec.emit(ToolCalled(round=1, tool=PROPOSE, arguments={
                            "tasks": len(proposals)}, result=f"{len(proposals)} tasks proposed."))
                        return proposals
                    reason = " ".join(problems)
                    rec.emit(ToolRefused(round=1, tool=PROPOSE, arguments={}, reason=reason[:2000]))
                    if tried >= MAX_PROPOSALS_TRIED:
                        raise _End("rejected", "The AI's proposal broke the list's rules twice: "
                                   + problems[0])
                    rec.record.asked_again += 1
                    results.append(ToolResult(call_id=call.id, name=call.name,
                                              content=ask_again(problems), is_error=True))
                    self._notice("correction", ask_again(problems))
                    continue
                results.append(self._tool(call.id, call.name, call.arguments))
            if step == self.max_steps - 2 and self.max_steps > 3:
                notices.append(self._notice("final_warning", last_steps_warning(step, self.max_steps)))
            messages.append(Message(role="user", tool_results=results, text="\n\n".join(notices)))
        raise _End("step_limit", f"Planning used all {self.max_steps} steps without proposing "
                                 "tasks.")

    def _tool(self, call_id: str, name: str, arguments: dict[str, Any]) -> ToolResult:
        if name in READ_ONLY_TOOLS:  # never a tool that changes files: they are not dispatched
            outcome = self.tools.call(name, arguments)
            content, is_error, refused = outcome.content, outcome.is_error, outcome.refused
        else:
            content, is_error, refused = not_a_planning_tool(name), True, True
        brief = {k: (v[:200] if isinstance(v, str) else v) for k, v in
                 (arguments.items() if isinstance(arguments, dict) else [])}
        if refused:
            self.rec.emit(ToolRefused(round=1, tool=str(name)[:80], arguments=brief,
                                      reason=content))
        else:
            self.rec.emit(ToolCalled(round=1, tool=name, arguments=brief, result=content[:300],
                                     is_error=is_error))
        return ToolResult(call_id=call_id, name=name, content=content, is_error=is_error)

    def _notice(self, kind: str, text: str) -> str:
        self.rec.record.notices.append(kind)
        self.rec.emit(NoticeSent(round=1, kind=kind, text=text))
        return text

    def _account(self, turn: ModelTurn, step: int) -> None:
        rec = self.rec
        rec.add_usage(turn.usage, turn.cost_usd)
        rec.note_model(turn.model)
        rec.save()
        rec.emit(ModelReplied(round=1, step=step, text=turn.text[:2000],
                              tool_calls=[c.name for c in turn.tool_calls],
                              model=turn.model or rec.record.model, usage=turn.usage,
                              cost_usd=round(turn.cost_usd, 6), run_usage=rec.status.usage,
                              run_cost_usd=rec.status.cost_usd))


def last_run_summaries(ws: Workspace, limit: int = 30) -> list[str]:
    """The latest run's rounds in a line each (task: what came of it), for "next" planning."""
    run_id = ws.latest_run_id()
    if run_id is None:
        return []
    out = []
    for r in read_rounds(ws.run_files(run_id))[-limit:]:
        said = r.summary or r.findings or r.error or r.result_state
        files = f" (files: {', '.join(r.changed_artifacts[:5])})" if r.changed_artifacts else ""
        out.append(" ".join(f"{r.task}: {said}{files}".split())[:400])
    return out
