"""The run summary a person can hand on: built from a run's evidence on disk, rendered as Markdown."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from pathlib import Path

from pydantic import BaseModel, Field

from app import NAME, __version__
from app.core.board import Board, BoardError
from app.core.conversation import Usage
from app.core.errors import HarnessError
from app.core.files import read_json
from app.core.records import (EXIT_REASON_WORDS, Event, RoundRecord, RunInfo, read_events,
                              read_rounds)
from app.core.redact import redact, redact_obj
from app.core.workspace import Workspace

# How each round ended, for a person (the raw result_state is never shown).
OUTCOME_WORDS: dict[str, str] = {
    "completed": "Task completed",
    "needs_human": "Asked for your decision",
    "gave_up": "Gave up",
    "step_limit": "Reached the step limit",
    "no_action": "Took no action",
    "timeout": "Ran out of time",
    "engine_error": "AI engine error",
    "cancelled": "Stopped",
}
STATE_WORDS: dict[str, str] = {
    "running": "Still running", "waiting": "Waiting to retry", "done": "Done",
    "failed": "Failed", "blocked_by_human": "Waiting for your decision", "stopped": "Stopped",
    "idle": "Not started",
}
NOT_ANSWERED = "not answered yet"
CHART_NAME = "harness-run-chart.png"


class NoRunToExport(HarnessError):
    """There is nothing recorded to summarise."""


class TaskRow(BaseModel):
    text: str
    state: str
    is_human: bool = False
    done: bool = False
    rounds: int = 0  # rounds of this run spent on it


class Decision(BaseModel):
    question: str
    options: list[str] = Field(default_factory=list)
    evidence: list[str] = Field(default_factory=list)
    recommendation: str | None = None
    answer: str | None = None
    about_task: str | None = None
    asked_in_round: int | None = None


class RoundRow(BaseModel):
    round: int
    task: str
    result_state: str
    outcome: str
    started_at: str = ""
    finished_at: str = ""
    duration_s: float | None = None
    summary: str = ""
    changed: list[str] = Field(default_factory=list)
    error: str | None = None
    steps: int = 0
    notices: int = 0
    tokens: int = 0
    cost_usd: float = 0.0
    recorded: bool = True  # False: known only from events (the run stopped mid-round)


class ChangedFile(BaseModel):
    path: str
    rounds: list[int] = Field(default_factory=list)


class RunSummary(BaseModel):
    title: str
    workspace_name: str
    run_id: str
    engine: str
    engine_label: str
    model: str = ""
    is_ai: bool = True
    started_at: str = ""
    finished_at: str | None = None
    duration_s: float | None = None
    finished: bool = True
    state: str = ""
    ending: str = ""  # how it ended, in words
    message: str | None = None
    rounds_count: int = 0
    tasks_done: int = 0
    tasks_total: int = 0
    usage: Usage = Field(default_factory=Usage)
    cost_usd: float = 0.0
    tasks: list[TaskRow] = Field(default_factory=list)
    decisions: list[Decision] = Field(default_factory=list)
    rounds: list[RoundRow] = Field(default_factory=list)
    changed_files: list[ChangedFile] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)  # plain warnings shown at the top
    generated_at: str = ""
    app: str = f"{NAME} {__version__}"


# -- building -------------------------------------------------------------------------------

def build_summary(workspace_root: Path | str, run_id: str | None = None) -> RunSummary:
    """Everything the document shows, read from disk. Raises NoRunToExport with a plain sentence."""
    ws = Workspace(workspace_root)
    ws.require(need_board=False)
    if run_id is None:
        run_id = ws.latest_run_id()
        if run_id is None:
            raise NoRunToExport(f"There is no recorded run in {ws.root} yet; run the tasks "
                                "first, then export.")
    run_dir = ws.run_dir(run_id)
    if not run_dir.is_dir():
        raise NoRunToExport(f"There is no run {run_id} in {ws.root}.")

    notes: list[str] = []
    info = _read_info(run_dir, run_id, ws, notes)
    rounds = read_rounds(run_dir)
    events = read_events(run_dir)
    for name, label in (("rounds.jsonl", "round records"), ("events.jsonl", "event log")):
        damaged = _damaged_lines(run_dir / name)
        if damaged:
            notes.append(f"Part of the {label} was cut off or damaged ({damaged} "
                         f"{'entry' if damaged == 1 else 'entries'} left out).")

    board_tasks, title = _read_board(ws, notes)
    finished = info.finished_at is not None and info.state not in ("running", "waiting")
    if not finished:
        still = ws.lock().is_held_elsewhere() and run_id == ws.latest_run_id()
        notes.insert(0, "This run is still in progress; this summary shows what was recorded "
                        "so far." if still else
                        "This run did not finish: it stopped without recording an end (the "
                        "app may have been closed or the computer stopped). This summary "
                        "shows what was recorded up to then.")

    round_rows = [_round_row(r) for r in rounds]
    round_rows += _interrupted_rounds(events, {r.round for r in rounds})
    round_rows.sort(key=lambda r: r.round)

    tries: dict[str, int] = {}
    for r in round_rows:
        tries[_norm(r.task)] = tries.get(_norm(r.task), 0) + 1

    tasks = [_task_row(t, tries) for t in board_tasks]
    decisions = _decisions(board_tasks, events, rounds)
    usage = info.usage
    cost = info.cost_usd
    if not finished or (usage.total_tokens == 0 and rounds):
        # run.json totals lag behind when a run is killed; the rounds are the better count.
        summed = Usage()
        for r in rounds:
            summed = summed + r.usage
        if summed.total_tokens > usage.total_tokens:
            usage, cost = summed, max(cost, sum(r.cost_usd for r in rounds))

    if board_tasks:
        done, total = sum(t.checked for t in board_tasks), len(board_tasks)
    else:
        done, total = info.tasks_completed, info.tasks_total
    last_time = info.finished_at or _last_time(rounds, events)
    summary = RunSummary(
        title=title or "Run summary",
        workspace_name=ws.name,
        run_id=run_id,
        engine=info.engine,
        engine_label=info.engine_label or info.engine,
        model=info.model,
        is_ai=info.is_ai,
        started_at=info.started_at,
        finished_at=info.finished_at if finished else None,
        duration_s=_seconds_between(info.started_at, last_time),
        finished=finished,
        state=info.state,
        ending=_ending(info, finished),
        message=info.message,
        rounds_count=max(len(round_rows), info.rounds),
        tasks_done=done,
        tasks_total=total,
        usage=usage,
        cost_usd=cost,
        tasks=tasks,
        decisions=decisions,
        rounds=round_rows,
        changed_files=_changed_files(round_rows, events),
        notes=notes,
        generated_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
    )
    # Nothing key-shaped leaves through the summary, whatever the records hold.
    return RunSummary.model_validate(redact_obj(summary.model_dump(mode="json")))


def _read_info(run_dir: Path, run_id: str, ws: Workspace, notes: list[str]) -> RunInfo:
    data = read_json(run_dir / "run.json")
    if isinstance(data, dict):
        try:
            return RunInfo.model_validate(data)
        except ValueError:
            pass
    # No usable run.json: rebuild what we can from the first event so the rest still exports.
    notes.append("The run's own record (run.json) was missing or damaged; details come from "
                 "its event log.")
    events = read_events(run_dir)
    start = next((e for e in events if e.type == "run_started"), None)
    extra = start.model_dump() if start else {}
    return RunInfo(run_id=run_id, workspace=str(ws.root),
                   engine=str(extra.get("engine") or "unknown"),
                   engine_label=str(extra.get("engine_label") or ""),
                   model=str(extra.get("model") or ""),
                   is_ai=extra.get("is_ai", extra.get("engine") != "demo"),
                   started_at=events[0].time if events else "")


def _damaged_lines(path: Path) -> int:
    try:
        raw = path.read_bytes()
    except OSError:
        return 0
    bad = 0
    for line in raw.splitlines():
        if line.strip():
            try:
                json.loads(line.decode("utf-8"))
            except (ValueError, UnicodeDecodeError):
                bad += 1
    return bad


def _read_board(ws: Workspace, notes: list[str]) -> tuple[list, str]:
    try:
        board = Board.load(ws.board_path)
    except BoardError as exc:
        notes.append(f"{exc} The task list below comes from the run's records only.")
        return [], ""
    title = next((ln.strip()[2:].strip() for ln in board.lines
                  if ln.startswith("# ") and ln.strip()[2:].strip()), "")
    return board.tasks, title


def _norm(text: str) -> str:
    return " ".join(str(text).split()).casefold()


def _round_row(r: RoundRecord) -> RoundRow:
    return RoundRow(
        round=r.round, task=r.task, result_state=r.result_state,
        outcome=OUTCOME_WORDS.get(r.result_state, r.result_state.replace("_", " ")),
        started_at=r.started_at, finished_at=r.finished_at,
        duration_s=_seconds_between(r.started_at, r.finished_at),
        summary=r.summary or r.findings, changed=list(r.changed_artifacts), error=r.error,
        steps=r.steps, notices=len(r.notices), tokens=r.usage.total_tokens,
        cost_usd=r.cost_usd)


def _interrupted_rounds(events: list[Event], recorded: set[int]) -> list[RoundRow]:
    """Rounds that started but left no record: the run stopped in the middle of them."""
    out: dict[int, RoundRow] = {}
    for e in events:
        data = e.model_dump()
        n = data.get("round")
        if e.type == "round_started" and isinstance(n, int) and n not in recorded:
            out[n] = RoundRow(round=n, task=str(data.get("task") or ""), result_state="cancelled",
                              outcome="Interrupted: the run stopped during this round",
                              started_at=e.time, recorded=False)
        elif e.type == "file_changed" and out and data.get("path"):
            row = out[max(out)]
            if data["path"] not in row.changed:
                row.changed.append(str(data["path"]))
    return list(out.values())


def _task_row(task, tries: dict[str, int]) -> TaskRow:
    n = tries.get(_norm(task.text), 0)
    if task.is_human:
        state = (f"Decided: {task.answer}" if task.answer else "Decided") if task.checked \
            else "Waiting for your decision"
    elif task.checked:
        state = "Done"
    else:
        state = "Worked on, not done yet" if n else "Not started"
    return TaskRow(text=task.text, state=state, is_human=task.is_human, done=task.checked,
                   rounds=n)


def _decisions(board_tasks: list, events: list[Event], rounds: list[RoundRecord]) -> list[Decision]:
    asked = [e.model_dump() for e in events if e.type == "human_needed"]
    out: list[Decision] = []
    seen: set[str] = set()
    for t in board_tasks:
        if not t.is_human:
            continue
        ev = next((a for a in asked if _norm(a.get("question", "")) == _norm(t.question)), {})
        out.append(Decision(
            question=t.question, options=t.options or list(ev.get("options") or []),
            evidence=t.evidence or list(ev.get("evidence") or []),
            recommendation=t.recommendation or ev.get("recommendation"),
            answer=t.answer if t.checked or t.answer else None,
            about_task=ev.get("task"), asked_in_round=ev.get("round")))
        seen.add(_norm(t.question))
    for a in asked:  # asked in this run but no longer on the board (removed or retyped)
        if _norm(a.get("question", "")) not in seen:
            seen.add(_norm(a.get("question", "")))
            out.append(Decision(question=str(a.get("question", "")),
                                options=list(a.get("options") or []),
                                evidence=list(a.get("evidence") or []),
                                recommendation=a.get("recommendation"),
                                about_task=a.get("task"), asked_in_round=a.get("round")))
    return out


def _changed_files(rounds: list[RoundRow], events: list[Event]) -> list[ChangedFile]:
    files: dict[str, ChangedFile] = {}
    for r in rounds:
        for path in r.changed:
            entry = files.setdefault(path, ChangedFile(path=path))
            if r.round not in entry.rounds:
                entry.rounds.append(r.round)
    for e in events:  # a change the round record never got to list
        path = e.model_dump().get("path") if e.type == "file_changed" else None
        if path and path not in files:
            files[str(path)] = ChangedFile(path=str(path))
    return list(files.values())


def _ending(info: RunInfo, finished: bool) -> str:
    if not finished:
        return "The run did not finish."
    if info.exit_reason:
        return EXIT_REASON_WORDS.get(info.exit_reason, "The run ended.")
    return STATE_WORDS.get(info.state, "The run ended.")


def _parse_time(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        t = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


def _seconds_between(start: str | None, end: str | None) -> float | None:
    a, b = _parse_time(start), _parse_time(end)
    return max(0.0, (b - a).total_seconds()) if a and b else None


def _last_time(rounds: list[RoundRecord], events: list[Event]) -> str | None:
    times = [r.finished_at for r in rounds] + [e.time for e in events]
    parsed = [(t, _parse_time(t)) for t in times]
    parsed = [(s, p) for s, p in parsed if p]
    return max(parsed, key=lambda sp: sp[1])[0] if parsed else None


# -- words and numbers ---------------------------------------------------------------------

def format_time(value: str | None) -> str:
    """A recorded UTC time in the reader's local zone: '2025-03-03 14:02 CET'."""
    t = _parse_time(value)
    if t is None:
        return "unknown"
    local = t.astimezone()
    return f"{local:%Y-%m-%d %H:%M} {local.tzname() or ''}".strip()


def format_duration(seconds: float | None) -> str:
    if seconds is None:
        return "unknown"
    if seconds < 1:
        return "under 1 s"
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    if h:
        return f"{h} h {m} min"
    if m:
        return f"{m} min {s} s" if s else f"{m} min"
    return f"{s} s"


def format_cost(cost: float, is_ai: bool = True) -> str:
    if not is_ai:
        return "none (no AI was used)"
    return f"${cost:.2f}" if cost >= 0.01 or cost == 0 else f"${cost:.4f}"


def format_tokens(usage: Usage) -> str:
    if usage.total_tokens == 0:
        return "0"
    parts = [f"{usage.input_tokens:,} in", f"{usage.output_tokens:,} out"]
    cache = usage.cache_read_tokens + usage.cache_write_tokens
    if cache:
        parts.append(f"{cache:,} cache")
    return f"{usage.total_tokens:,} ({', '.join(parts)})"


# -- Markdown -------------------------------------------------------------------------------

_INLINE = re.compile(r"([\\`*_\[\]<>~|#])")
_LINE_START = re.compile(r"^(\s*)([-+=>]|\d+[.)])(?=\s|$)")


def md_text(text: str | None) -> str:
    """Free text as literal Markdown: special characters escaped, line breaks kept as breaks."""
    lines = []
    for line in redact(str(text or "")).replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = _INLINE.sub(r"\\\1", line.rstrip())
        lines.append(_LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), line))
    while lines and not lines[-1]:
        lines.pop()
    # A trailing backslash is a CommonMark hard break: one line of text stays one line.
    return "\\\n".join(ln for ln in lines if ln) if lines else ""


def md_cell(text: str | None) -> str:
    """Text for one table cell: escaped, on one line (| and line breaks would split the table)."""
    flat = " ".join(redact(str(text or "")).split())
    return _INLINE.sub(r"\\\1", flat) or " "


def md_code(path: str, in_table: bool = False) -> str:
    """A file name as a code span; backticks inside get a longer fence, per CommonMark."""
    path = " ".join(redact(str(path)).split())
    fence = "`" * (max((len(m) for m in re.findall(r"`+", path)), default=0) + 1)
    pad = " " if path.startswith("`") or path.endswith("`") else ""
    if in_table:  # GFM unescapes \| inside table cells before it reads code spans
        path = path.replace("|", "\\|")
    return f"{fence}{pad}{path}{pad}{fence}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out + [""]


def render_markdown(summary: RunSummary, chart: str | None = None) -> str:
    """The summary document as Markdown. `chart` is an image file name to show under the totals."""
    s = summary
    out: list[str] = [f"# {md_cell(s.title)}", ""]
    out += [f"Run summary for the folder **{md_cell(s.workspace_name)}** · run {md_code(s.run_id)}",
            ""]
    for note in s.notes:
        out += [f"> **Note:** {md_text(note)}", ""]

    out += ["## At a glance", ""]
    engine = "Demo — no AI was used" if not s.is_ai else s.engine_label
    rows = [["Engine", md_cell(engine)]]
    if s.is_ai and s.model:
        rows.append(["Model", md_cell(s.model)])
    rows.append(["Started", format_time(s.started_at)])
    if s.finished:
        rows.append(["Finished", f"{format_time(s.finished_at)} (took "
                                 f"{format_duration(s.duration_s)})"])
    else:
        rows.append(["Finished", "did not finish (last record after "
                                 f"{format_duration(s.duration_s)})"])
    ending = s.ending
    if s.message and _norm(s.message) != _norm(ending):
        ending = f"{ending} {s.message}"
    rows.append(["How it ended", md_cell(ending)])
    rows.append(["Rounds", str(s.rounds_count)])
    rows.append(["Tasks done", f"{s.tasks_done} of {s.tasks_total}"])
    rows.append(["Tokens", format_tokens(s.usage)])
    rows.append(["Cost", md_cell(format_cost(s.cost_usd, s.is_ai))])
    out += _table(["Item", "Detail"], rows)
    if chart:
        out += [f"![Chart: each round of this run, coloured by outcome]({chart})", ""]

    out += ["## Tasks", ""]
    if s.tasks:
        out += _table(["#", "Task", "State", "Rounds"],
                      [[str(i), md_cell(t.text), md_cell(t.state), str(t.rounds or "—")]
                       for i, t in enumerate(s.tasks, 1)])
    else:
        out += ["No tasks could be read from the board.", ""]

    out += ["## Decisions", ""]
    if not s.decisions:
        out += ["No decisions were needed.", ""]
    for i, d in enumerate(s.decisions, 1):
        out += [f"### Decision {i}: {md_cell(d.question)}", ""]
        if d.options:
            out.append("- **Options:** " + " · ".join(md_cell(o) for o in d.options))
        if d.recommendation:
            out.append(f"- **Recommended by the AI:** {md_cell(d.recommendation)}")
        if d.evidence:
            out.append("- **Evidence:** " + ", ".join(md_code(e) for e in d.evidence))
        if d.about_task:
            out.append(f"- **Asked while working on:** {md_cell(d.about_task)}")
        out += [f"- **Answer:** {md_cell(d.answer) if d.answer else '*' + NOT_ANSWERED + '*'}",
                ""]

    out += ["## Rounds", ""]
    if not s.rounds:
        out += ["No rounds were recorded.", ""]
    for r in s.rounds:
        out += [f"### Round {r.round}: {md_cell(r.task)}", ""]
        facts = [f"**{md_cell(r.outcome)}**"]
        if r.recorded:
            facts.append(format_duration(r.duration_s))
            facts.append(f"{r.steps} step{'s' if r.steps != 1 else ''}")
            if s.is_ai:
                facts.append(f"{r.tokens:,} tokens · {format_cost(r.cost_usd)}")
        out += [" · ".join(facts), ""]
        if r.summary:
            out += [md_text(r.summary), ""]
        if r.changed:
            out += ["Files changed: " + ", ".join(md_code(p) for p in r.changed), ""]
        if r.error:
            out += [f"Error: {md_text(r.error)}", ""]

    out += ["## Changed files", ""]
    if s.changed_files:
        out += _table(["File", "Changed in round"],
                      [[md_code(f.path, in_table=True), ", ".join(map(str, f.rounds)) or "—"]
                       for f in s.changed_files])
    else:
        out += ["No files were changed.", ""]

    out += ["---", "", f"Made by {md_cell(s.app)} on {format_time(s.generated_at)}. Task states "
                       "and answers are as the board reads now.", ""]
    return redact("\n".join(out))
