"""The summary of a folder's whole history: every run's rounds in order, totals summed, decisions
listed once, rendered through the same document pipeline as a single run's summary (no Qt
until rendering)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from pydantic import BaseModel, Field

from app import NAME, __version__
from app.core.conversation import Usage
from app.core.cost_words import cost_text
from app.core.lessons.lessons import Lesson, find_lessons
from app.core.lessons.words import headline
from app.core.redact import redact
from app.core.workspace import Workspace
from app.export.markdown import (format_cost, format_duration,
                                 format_time, format_tokens, md_cell, md_code, md_text, table)
from app.export.summary import LATER_RUNS_NOTE, NOTES_HEADER, Decision, NoRunToExport, RunSummary, build_summary, norm

ALL_RUNS = "all"  # the run id that means "every run of the folder" (CLI and window)


class RunDecision(Decision):
    asked_in_run: int | None = None  # 1-based position of the run that asked it


class HistorySummary(BaseModel):
    title: str
    workspace_name: str
    runs: list[RunSummary] = Field(default_factory=list)  # oldest first
    rounds_count: int = 0
    tasks_done: int = 0  # as the latest run left the board
    tasks_total: int = 0
    usage: Usage = Field(default_factory=Usage)
    cost_usd: float = 0.0
    is_ai: bool = False  # any run used an AI
    price_known: bool = True
    cost_is_upper_estimate: bool = False  # some run's model had no known price: at most
    decisions: list[RunDecision] = Field(default_factory=list)
    lessons: list[Lesson] = Field(default_factory=list)  # accepted and open, not dismissed
    generated_at: str = ""
    app: str = f"{NAME} {__version__}"


def build_history(workspace_root: Path | str) -> HistorySummary:
    """Every recorded run of the folder, oldest first. Raises NoRunToExport when none."""
    ws = Workspace(workspace_root)
    ws.require(need_board=False)
    run_ids = ws.run_ids()
    if not run_ids:
        raise NoRunToExport(f"There is no recorded run in {ws.root} yet; run the tasks first, "
                            "then export.")
    runs = [build_summary(ws.root, run_id, whole_work=False) for run_id in run_ids]
    usage = Usage()
    for run in runs:
        usage = usage + run.usage
    latest = runs[-1]
    return HistorySummary(
        title=latest.title, workspace_name=latest.workspace_name, runs=runs,
        rounds_count=sum(r.rounds_count for r in runs), tasks_done=latest.tasks_done,
        tasks_total=latest.tasks_total, usage=usage, cost_usd=sum(r.cost_usd for r in runs),
        is_ai=any(r.is_ai for r in runs), price_known=all(r.price_known for r in runs),
        cost_is_upper_estimate=any(r.cost_is_upper_estimate for r in runs),
        decisions=_decisions(runs),
        lessons=find_lessons(ws.root, save_numbers=False).shown(),
        generated_at=datetime.now(timezone.utc).isoformat(timespec="seconds"))


def _decisions(runs: list[RunSummary]) -> list[RunDecision]:
    """Each decision once, with the run that asked it. Every run's summary lists the board's
    decisions as the board is now, so the run that recorded the asking is the one named."""
    found: dict[str, RunDecision] = {}
    for position, run in enumerate(runs, 1):
        for d in run.decisions:
            key = norm(d.question)
            asked_here = d.asked_in_round is not None
            if key not in found or (asked_here and found[key].asked_in_run is None):
                found[key] = RunDecision(**d.model_dump(),
                                         asked_in_run=position if asked_here else None)
    return list(found.values())


def _engine(run: RunSummary) -> str:
    if not run.is_ai:
        return "Demo — no AI was used"
    return f"{run.engine_label} ({run.model})" if run.model else run.engine_label


def render_history_markdown(h: HistorySummary) -> str:
    """The history document as Markdown: totals, the runs, decisions, then each run's rounds."""
    out: list[str] = [f"# {md_cell(h.title)}", "",
                      f"History of the folder **{md_cell(h.workspace_name)}** · "
                      f"{len(h.runs)} run{'s' if len(h.runs) != 1 else ''}", ""]
    notes = [f"Run {i}: {n}" for i, run in enumerate(h.runs, 1) for n in run.notes
             if n != LATER_RUNS_NOTE]  # a history shows the later runs itself
    if notes:
        out += table([NOTES_HEADER], [[md_cell(n)] for n in notes])
    out += ["## At a glance", ""]
    first, last = h.runs[0], h.runs[-1]
    unpriced = ", ".join(dict.fromkeys(r.model or "(unnamed)" for r in h.runs
                                       if r.cost_is_upper_estimate))
    cost = cost_text(format_cost(h.cost_usd, h.is_ai), h.cost_is_upper_estimate, unpriced)
    if not h.price_known and not h.cost_is_upper_estimate:
        cost += " (estimate: a price was not known)"
    out += table(["Item", "Detail"], [
        ["Runs", str(len(h.runs))],
        ["First run started", format_time(first.started_at)],
        ["Last run started", format_time(last.started_at)],
        ["Rounds", str(h.rounds_count)],
        ["Tasks done", f"{h.tasks_done} of {h.tasks_total}"],
        ["Tokens", format_tokens(h.usage)],
        ["Cost", md_cell(cost)],
    ])
    out += ["## Runs", ""]
    out += table(["#", "Started", "Engine", "How it ended", "Rounds", "Cost"], [
        [str(i), format_time(r.started_at), md_cell(_engine(r)), md_cell(r.ending),
         str(r.rounds_count),
         ("at most " if r.cost_is_upper_estimate else "") + format_cost(r.cost_usd, r.is_ai)]
        for i, r in enumerate(h.runs, 1)])
    out += ["## Decisions", ""]
    if not h.decisions:
        out += ["No decisions were needed.", ""]
    for i, d in enumerate(h.decisions, 1):
        out += [f"### Decision {i}: {md_cell(d.question)}", ""]
        if d.asked_in_run is not None:
            out.append(f"- **Asked in:** run {d.asked_in_run}, round {d.asked_in_round}")
        if d.options:
            out.append("- **Options:** " + " · ".join(md_cell(o) for o in d.options))
        if d.recommendation:
            out.append(f"- **Recommendation:** {md_cell(d.recommendation)}")
        out += [f"- **Answer:** {md_cell(d.answer) if d.answer else '*not answered yet*'}", ""]
    out += _lessons_markdown(h.lessons)
    for i, run in enumerate(h.runs, 1):
        out += [f"## Run {i}: {format_time(run.started_at)}", "",
                f"{md_cell(_engine(run))} · {md_cell(run.ending)} · run {md_code(run.run_id)}",
                ""]
        if not run.rounds:
            out += ["No rounds were recorded in this run.", ""]
        for r in run.rounds:
            out += [f"### Run {i}, round {r.round}: {md_cell(r.task)}", ""]
            facts = [f"**{md_cell(r.outcome)}**"]
            if r.recorded:
                facts.append(format_duration(r.duration_s))
                if run.is_ai:
                    facts.append(f"{r.tokens:,} tokens · {format_cost(r.cost_usd)}")
            out += [" · ".join(facts), ""]
            if r.summary:
                out += [md_text(r.summary), ""]
            if r.changed:
                out += ["Files changed: " + ", ".join(md_code(p) for p in r.changed), ""]
            if r.undone:
                out += [f"**{md_text(r.undone)}**", ""]
            if r.error:
                out += [f"Error: {md_text(r.error)}", ""]
    out += ["---", "", f"Made by {md_cell(h.app)} on {format_time(h.generated_at)}.", ""]
    return redact("\n".join(out))


def _lessons_markdown(lessons: list[Lesson]) -> list[str]:
    """The lessons learned from these runs, what was done with each, and its effect since."""
    out = ["## Lessons", ""]
    if not lessons:
        return out + ["No lessons were found in these runs.", ""]
    for x in lessons:
        out += [f"### Lesson {x.number}: {md_cell(headline(x.kind, x.subject, x.count))}", ""]
        where = ", ".join(f"run {e.run_number} round {e.round}" for e in x.evidence[:8])
        more = f" and {len(x.evidence) - 8} more" if len(x.evidence) > 8 else ""
        out.append(f"- **Seen in:** {where}{more}")
        if x.state == "accepted":
            out.append(f"- **Accepted:** {format_time(x.decided_at)}; in AGENTS.md: "
                       f"{md_cell(x.line)}")
            if x.effect is not None:
                out.append(f"- **Effect:** {md_cell(x.effect.sentence())}")
        else:
            out.append(f"- **Proposed line (not accepted):** {md_cell(x.line)}")
        out.append("")
    return out


def render_history(h: HistorySummary, fmt: str, locale=None) -> bytes:
    """The history document in `fmt` (md, html, odt or pdf)."""
    from app.export import render as r

    markdown = render_history_markdown(h)
    if fmt == "md":
        return markdown.encode("utf-8")
    if fmt not in r.FORMATS:
        raise r.ExportError(f"Unknown format \"{fmt}\"; choose one of {', '.join(r.FORMATS)}.")
    r.ensure_app()
    title = redact(f"{h.title} — history")
    doc = r.markdown_document(markdown, title)
    if fmt == "html":
        return r.html_of(doc)
    if fmt == "odt":
        return r.odt_of(doc, title)
    from app.export.pdf import write_pdf

    return write_pdf(doc, r.page_size_for(locale), title=title,
                     footer=redact(f"{h.title} · history of {h.workspace_name}"),
                     families=r.font_families())
