"""The run summary a person can hand on, built from a run's evidence on disk (no Qt)."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import AbstractSet

from pydantic import BaseModel, Field

from app import NAME, __version__
from app.core.board.board import Board, BoardError
from app.core.engine.conversation import Usage
from app.engines.prices import price_known
from app.core.errors import HarnessError
from app.core.records.events import Event, FileChanged, HumanNeeded, RoundStarted, RunStarted
from app.core.run.outcomes import ACTIVE_STATES, ExitReason, RoundResult, RunState
from app.core.records.records import (EXIT_REASON_WORDS, RoundRecord, RunInfo, UndoneRecord,
                              read_events, read_rounds, read_run, read_status, read_undone)
from app.core.records import work_totals
from app.core.records.redact import redact_obj
from app.core.web.types import WebActivity
from app.core.workspace.workspace import RunFiles, Workspace, pid_alive
from app.export import board_words
from app.export.demo_words import sample_said, samples_ending
from app.export.words import date_time, known as known_lang, plural, tr

# How each round ended, for a person (the raw result_state is never shown).
OUTCOME_WORDS: dict[str, str] = {
    RoundResult.COMPLETED: "Task completed",
    RoundResult.NEEDS_HUMAN: "Asked for your decision",
    RoundResult.GAVE_UP: "Gave up",
    RoundResult.STEP_LIMIT: "Reached the step limit",
    RoundResult.NO_ACTION: "Took no action",
    RoundResult.TIMEOUT: "Ran out of time",
    RoundResult.ENGINE_ERROR: "AI engine error",
    RoundResult.CANCELLED: "Stopped",
    RoundResult.SAMPLE: "Shown as a sample, not done",
}
# A round that ended because its task used up its web lookups (RoundRecord.lookup_cap).
LOOKUP_CAP_WORDS = "Reached this task's limit of {cap} web lookups"
STATE_WORDS: dict[str, str] = {
    RunState.RUNNING: "Still running", RunState.WAITING: "Waiting to retry",
    RunState.DONE: "Done", RunState.FAILED: "Failed",
    RunState.BLOCKED_BY_HUMAN: "Waiting for your decision", RunState.STOPPED: "Stopped",
    RunState.IDLE: "Not started",
}
NOT_ANSWERED = "not answered yet"
CHART_NAME = "harness-run-chart.png"
NOTES_HEADER = "Please note"
INTERRUPTED = "Interrupted: the run stopped during this round"
LATER_RUNS_NOTE = ("Later runs have worked on this board since; the task list and answers show "
                   "the board as it is now.")


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
    undone: str = ""       # the person undid the round afterwards: what that did, in words
    web: WebActivity | None = None  # what it looked up on the web


class ChangedFile(BaseModel):
    path: str
    rounds: list[int] = Field(default_factory=list)
    undone: list[int] = Field(default_factory=list)  # of those rounds, the ones undone since


class ApprovalRow(BaseModel):
    """A change a safety policy stopped: what the person (or a protected path) decided."""

    round: int
    path: str
    action: str = "change"
    answer: str = ""


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
    ending_said: str = ""  # and in a sentence or two, in the document's language (a Demo run)
    message: str | None = None
    rounds_count: int = 0
    tasks_done: int = 0
    tasks_total: int = 0
    usage: Usage = Field(default_factory=Usage)
    cost_usd: float = 0.0
    price_known: bool = True  # False: the model is not in the price table
    # The run counted an unknown model at the highest price known for its engine: the real
    # cost is at most cost_usd (a run recorded before that was priced at a guess).
    cost_is_upper_estimate: bool = False
    tasks: list[TaskRow] = Field(default_factory=list)
    decisions: list[Decision] = Field(default_factory=list)
    rounds: list[RoundRow] = Field(default_factory=list)
    changed_files: list[ChangedFile] = Field(default_factory=list)
    careful: bool = False
    approvals: list[ApprovalRow] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)  # plain warnings shown at the top
    generated_at: str = ""
    lang: str = "en"  # the document's language: every word of ours is written in it
    app: str = f"{NAME} {__version__}"


# -- building -------------------------------------------------------------------------------

def build_summary(workspace_root: Path | str, run_id: str | None = None, *,
                  whole_work: bool = True, lang: str = "en") -> RunSummary:
    """Everything the document shows, read from disk. Raises NoRunToExport with a plain sentence.
    `whole_work`: a run that carries on after a decision includes the runs before it (one
    story); the all-runs history takes each run on its own. `lang` ("en" or "zh_CN"): the
    language of every word the summary adds to the person's own."""
    lang = known_lang(lang)
    ws = Workspace(workspace_root)
    ws.require(need_board=False)
    if run_id is None:
        run_id = latest_run(ws)
        if run_id is None:
            raise NoRunToExport(f"There is no recorded run in {ws.root} yet; run the tasks "
                                "first, then export.")
    files = ws.run_files(run_id)
    if not files.dir.is_dir():
        raise NoRunToExport(f"There is no run {run_id} in {ws.root}.")

    notes: list[str] = []
    events = read_events(files)
    info = _read_info(files, run_id, ws, events, notes, lang)
    rounds = read_rounds(files)
    for path, label in ((files.rounds, "round records"), (files.events, "event log")):
        damaged = _damaged_lines(path)
        if damaged:
            notes.append(tr(lang, "Part of the {label} was cut off or damaged ({damaged} "
                                  "{entries} left out).", label=tr(lang, label),
                            damaged=damaged, entries="entry" if damaged == 1 else "entries"))

    board_tasks, title = _read_board(ws, notes, lang)
    finished = info.finished_at is not None and info.state not in ACTIVE_STATES
    is_latest = run_id == latest_run(ws)
    if not finished:
        # Ask status.json whose process the run is, rather than probing the run lock: a probe
        # holds the lock for a moment and could refuse a run that starts just then.
        status, _ = read_status(ws.status_path)
        still = is_latest and status.run_id == run_id and pid_alive(status.pid)
        notes.insert(0, tr(lang, "This run is still in progress; this summary shows what was "
                                 "recorded so far.") if still else
                     tr(lang, "This run did not finish: it stopped without recording an end "
                              "(the app may have been closed or the computer stopped). This "
                              "summary shows what was recorded up to then."))

    # The work before: runs this one carries on after a decision (one story, one numbering).
    earlier = _earlier_in_work(ws, info) if whole_work else []
    where = {r.round: ws.run_files(i.run_id) for i in earlier
             for r in read_rounds(ws.run_files(i.run_id))}
    if earlier:
        rounds = [r for i in earlier for r in read_rounds(ws.run_files(i.run_id))] + rounds
        events = [e for i in earlier for e in read_events(ws.run_files(i.run_id))] + events
        notes.append(tr(lang, "This summary tells the whole piece of work: the run you started "
                              "and how it carried on after {decisions}, with the rounds "
                              "numbered on from one part to the next.",
                        decisions=plural(lang, len(earlier), "your decision",
                                         "your {n} decisions")))
    round_rows = [_round_row(r, lang, info.is_ai) for r in rounds]
    round_rows += _interrupted_rounds(events, {r.round for r in rounds}, lang)
    round_rows.sort(key=lambda r: r.round)
    for row in round_rows:
        undone = read_undone(where.get(row.round, files), row.round)
        if undone is not None:
            row.outcome = tr(lang, "{outcome}, then undone", outcome=row.outcome)
            row.undone = undone_words(undone, lang)

    tries: dict[str, int] = {}
    for r in round_rows:
        tries[norm(r.task)] = tries.get(norm(r.task), 0) + 1

    sampled = {norm(r.task) for r in round_rows if r.result_state == RoundResult.SAMPLE}
    tasks = [_task_row(t, tries, lang, sampled) for t in board_tasks]
    decisions = _decisions(board_tasks, events, rounds, lang)
    usage = sum((i.usage for i in earlier), info.usage)
    cost = info.cost_usd + sum(i.cost_usd for i in earlier)
    if not finished or (usage.total_tokens == 0 and rounds):
        # run.json totals lag behind when a run is killed; the rounds are the better count.
        summed = Usage()
        for record in rounds:
            summed = summed + record.usage
        if summed.total_tokens > usage.total_tokens:
            usage, cost = summed, max(cost, sum(r.cost_usd for r in rounds))

    if (finished and info.tasks_total) or not board_tasks:
        done, total = info.tasks_completed, info.tasks_total  # as the run itself ended
    else:  # killed mid-way: run.json lags, the board has every check the run made
        done, total = sum(t.checked for t in board_tasks), len(board_tasks)
    if board_tasks and not is_latest:
        notes.append(tr(lang, LATER_RUNS_NOTE))
    known = not info.is_ai or price_known(info.engine, info.model)
    upper = info.is_ai and any(i.cost_is_upper_estimate for i in [*earlier, info])
    if upper:
        notes.append(tr(lang, "The price of the model {model} is not in Harness Desk's price "
                              "table, so its cost is counted at the highest price the table knows "
                              "for its engine: the real cost is at most the amount shown. Add the "
                              "model to your prices.json to count it exactly.",
                        model=info.model or tr(lang, "(unnamed)")))
    elif not known:  # recorded by an older version, which priced it at a guess
        notes.append(tr(lang, "The price of the model {model} is not in Harness Desk's price "
                              "table, so the cost shown is an estimate from the engine's default "
                              "price, not the bill. Add the model to your prices.json to count "
                              "it exactly.", model=info.model or tr(lang, "(unnamed)")))
    last_time = info.finished_at or _last_time(rounds, events)
    started_at = earlier[0].started_at if earlier else info.started_at
    # The runs' own time, as the window's status line counts it (work_totals): not the time
    # the person took to decide between them.
    work = work_totals.totals([*earlier, info], last_time)
    message, ending_said = info.message, ""
    if finished and info.exit_reason == ExitReason.SAMPLES_SHOWN:  # said from its rounds
        message, ending_said = None, samples_ending(round_rows, lang)
    summary = RunSummary(
        title=title or tr(lang, "Run summary"),
        workspace_name=ws.name,
        run_id=run_id,
        engine=info.engine,
        engine_label=info.engine_label or info.engine,
        model=info.model,
        is_ai=info.is_ai,
        started_at=started_at,
        finished_at=info.finished_at if finished else None,
        duration_s=work.seconds,
        finished=finished,
        state=info.state,
        ending=_ending(info, finished, lang),
        ending_said=ending_said,
        message=message,
        rounds_count=max(len(round_rows), info.rounds - (0 if earlier else info.round_offset)),
        tasks_done=done,
        tasks_total=total,
        usage=usage,
        cost_usd=cost,
        price_known=known,
        cost_is_upper_estimate=upper,
        tasks=tasks,
        decisions=decisions,
        rounds=round_rows,
        changed_files=_changed_files(round_rows, events),
        careful=info.careful,
        approvals=[ApprovalRow(round=r.round, path=a.path, action=a.action, answer=a.answer)
                   for r in rounds for a in r.approvals],
        notes=notes,
        generated_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        lang=lang,
    )
    # Nothing key-shaped leaves through the summary, whatever the records hold.
    return RunSummary.model_validate(_scrub(redact_obj(summary.model_dump(mode="json"))))


def _scrub(obj):
    """Bytes that were not UTF-8 (a board saved by an old editor) come through as lone
    surrogates; they would make every writer fail, so they become U+FFFD."""
    if isinstance(obj, str):
        if not any("\ud800" <= ch <= "\udfff" for ch in obj):
            return obj
        try:
            return obj.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        except UnicodeEncodeError:  # a surrogate that stood for no byte
            return obj.encode("utf-8", "replace").decode("utf-8")
    if isinstance(obj, dict):
        return {k: _scrub(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_scrub(v) for v in obj]
    return obj


def latest_run(ws: Workspace) -> str | None:
    """The run that started last: run ids begin with their start time, to the millisecond,
    so the newest is the last by name even when its run.json is damaged."""
    return ws.latest_run_id()


def _read_info(files: RunFiles, run_id: str, ws: Workspace, events: list[Event],
               notes: list[str], lang: str) -> RunInfo:
    info = read_run(files)
    if info is not None:
        return info
    # No usable run.json: rebuild what we can from the first event so the rest still exports.
    notes.append(tr(lang, "The run's own record (run.json) was missing or damaged; details "
                          "come from its event log."))
    start = next((e for e in events if isinstance(e, RunStarted)), None)
    if start is None:
        return RunInfo(run_id=run_id, workspace=str(ws.root), engine="unknown",
                       started_at=events[0].time if events else "")
    # Logs from before run_started carried is_ai: only the Demo engine is not an AI.
    is_ai = start.is_ai if "is_ai" in start.model_fields_set else start.engine != "demo"
    return RunInfo(run_id=run_id, workspace=str(ws.root), engine=start.engine or "unknown",
                   engine_label=start.engine_label, model=start.model, is_ai=is_ai,
                   started_at=start.time)


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
            except (ValueError, UnicodeDecodeError, RecursionError):
                bad += 1
    return bad


def _read_board(ws: Workspace, notes: list[str], lang: str) -> tuple[list, str]:
    try:
        board = Board.load(ws.board_path)
    except BoardError as exc:
        notes.append(f"{exc} The task list below comes from the run's records only." if
                     lang == "en" else tr(lang, "The task list could not be read. The task "
                                                "list below comes from the run's records only."))
        return [], ""
    title = next((ln.strip()[2:].strip() for ln in board.lines
                  if ln.startswith("# ") and ln.strip()[2:].strip()), "")
    return board.tasks, title


def norm(text: str) -> str:
    return " ".join(str(text).split()).casefold()


def _round_row(r: RoundRecord, lang: str, is_ai: bool = True) -> RoundRow:
    said = r.summary or r.findings
    if r.result_state == RoundResult.SAMPLE and not is_ai:  # the Demo's fixed line, translated
        said = sample_said(bool(r.changed_artifacts), lang)
    return RoundRow(
        round=r.round, task=r.task, result_state=r.result_state,
        outcome=(tr(lang, LOOKUP_CAP_WORDS, cap=r.lookup_cap) if r.lookup_cap else
                 tr(lang, OUTCOME_WORDS.get(r.result_state, r.result_state.replace("_", " ")))),
        started_at=r.started_at, finished_at=r.finished_at,
        duration_s=_seconds_between(r.started_at, r.finished_at),
        summary=said, changed=list(r.changed_artifacts),
        error=None if r.lookup_cap else r.error,  # no error: its outcome says what happened
        steps=r.steps, notices=len(r.notices), tokens=r.usage.total_tokens,
        cost_usd=r.cost_usd, web=r.web)


def _interrupted_rounds(events: list[Event], recorded: set[int], lang: str) -> list[RoundRow]:
    """Rounds that started but left no record: the run stopped in the middle of them."""
    out: dict[int, RoundRow] = {}
    for e in events:
        if isinstance(e, RoundStarted) and e.round not in recorded:
            out[e.round] = RoundRow(round=e.round, task=e.task, result_state=RoundResult.CANCELLED,
                                    outcome=tr(lang, INTERRUPTED),
                                    started_at=e.time, recorded=False)
        elif isinstance(e, FileChanged) and e.round in out and e.path:
            row = out[e.round]
            if e.path not in row.changed:
                row.changed.append(e.path)
    return list(out.values())


def _task_row(task, tries: dict[str, int], lang: str,
              sampled: AbstractSet[str] = frozenset()) -> TaskRow:
    n = tries.get(norm(task.text), 0)
    if task.is_human:
        answer = board_words.option(task.options, task.answer, lang)
        state = (tr(lang, "Decided: {answer}", answer=answer) if task.answer
                 else tr(lang, "Decided")) if task.checked else tr(lang, "Waiting for your decision")
        text = board_words.question(task.question or task.text, task.options, lang)
    elif task.checked:
        state, text = tr(lang, "Done"), task.text
    elif norm(task.text) in sampled:  # the Demo engine on the person's task: nothing done
        state, text = tr(lang, OUTCOME_WORDS[RoundResult.SAMPLE]), task.text
    else:
        state = tr(lang, "Worked on, not done yet" if n else "Not started")
        text = task.text
    return TaskRow(text=text, state=state, is_human=task.is_human, done=task.checked, rounds=n)


def _decisions(board_tasks: list, events: list[Event], rounds: list[RoundRecord],
               lang: str = "en") -> list[Decision]:
    asked = [e for e in events if isinstance(e, HumanNeeded)]
    out: list[Decision] = []
    seen: set[str] = set()
    for t in board_tasks:
        if not t.is_human:
            continue
        ev = next((a for a in asked if norm(a.question) == norm(t.question)), None)
        out.append(Decision(
            question=t.question, options=t.options or (ev.options if ev else []),
            evidence=t.evidence or (ev.evidence if ev else []),
            recommendation=t.recommendation or (ev.recommendation if ev else None),
            answer=t.answer if t.checked or t.answer else None,
            about_task=ev.task or None if ev else None, asked_in_round=_round_of(ev)))
        seen.add(norm(t.question))
    for a in asked:  # asked in this run but no longer on the board (removed or retyped)
        if norm(a.question) not in seen:
            seen.add(norm(a.question))
            out.append(Decision(question=a.question, options=a.options, evidence=a.evidence,
                                recommendation=a.recommendation, about_task=a.task or None,
                                asked_in_round=_round_of(a)))
    return [board_words.worded(d, lang) for d in out]


def _round_of(event: HumanNeeded | None) -> int | None:
    """The round a decision was asked in (0 in logs from before no_progress recorded it)."""
    return event.round or None if event is not None else None


def _changed_files(rounds: list[RoundRow], events: list[Event]) -> list[ChangedFile]:
    files: dict[str, ChangedFile] = {}
    for r in rounds:
        for path in r.changed:
            entry = files.setdefault(path, ChangedFile(path=path))
            if r.round not in entry.rounds:
                entry.rounds.append(r.round)
            if r.undone and r.round not in entry.undone:
                entry.undone.append(r.round)
    for e in events:  # a change the round record never got to list
        if isinstance(e, FileChanged) and e.path and e.path not in files:
            files[e.path] = ChangedFile(path=e.path)
    return list(files.values())


def _earlier_in_work(ws: Workspace, info: RunInfo, limit: int = 100) -> list[RunInfo]:
    """The runs `info` carries on after decisions, oldest first (none when it began the work)."""
    return work_totals.earlier_runs(ws, info, limit)


def undone_words(record: UndoneRecord, lang: str = "en") -> str:
    """What undoing a round did, in one sentence for the export."""
    parts, comma = [], tr(lang, ", ")
    if record.restored:
        parts.append(tr(lang, "put back {files} as before the round",
                        files=comma.join(record.restored)))
    if record.removed:
        parts.append(tr(lang, "deleted {files}, which the round had created",
                        files=comma.join(record.removed)))
    if record.kept_both:
        parts.append(tr(lang, "kept both versions of {files}, changed by the person since",
                        files=comma.join(p for p, _ in record.kept_both)))
    when = parse_time(record.undone_at)
    on = tr(lang, " on {when}", when=date_time(when.astimezone(), lang, zone=False)) \
        if when else ""
    return tr(lang, "Undone{on}: {what}.", on=on, what=tr(lang, "; ").join(parts))


def _ending(info: RunInfo, finished: bool, lang: str = "en") -> str:
    if not finished:
        return tr(lang, "The run did not finish.")
    if info.exit_reason:
        return tr(lang, EXIT_REASON_WORDS.get(info.exit_reason, "The run ended."))
    return tr(lang, STATE_WORDS.get(info.state, "The run ended."))


def parse_time(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        t = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=timezone.utc)


def _seconds_between(start: str | None, end: str | None) -> float | None:
    a, b = parse_time(start), parse_time(end)
    return max(0.0, (b - a).total_seconds()) if a and b else None


def _last_time(rounds: list[RoundRecord], events: list[Event]) -> str | None:
    times = [r.finished_at for r in rounds] + [e.time for e in events]
    parsed = [(t, parse_time(t)) for t in times]
    known = [(s, p) for s, p in parsed if p]
    return max(known, key=lambda sp: sp[1])[0] if known else None

