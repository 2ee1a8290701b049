"""The summary of a folder's whole history: every run's rounds in order, totals summed, decisions
listed once, rendered through the same document pipeline as a single run's summary (no Qt
until rendering)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from pydantic import BaseModel, Field

from app import NAME, __version__
from app.core.engine.conversation import Usage
from app.core.lessons.lessons import Lesson, find_lessons
from app.core.lessons.words import headline
from app.core.records.redact import redact
from app.core.workspace.workspace import Workspace
from app.export.markdown import (decision_facts, format_cost, format_time,
                                 format_tokens, md_cell, md_code, round_section, table)
from app.export.summary import (LATER_RUNS_NOTE, NOTES_HEADER, Decision, NoRunToExport,
                                RunSummary, build_summary, norm)
from app.export.demo_words import with_said
from app.export.words import known, lesson_headline, plural, tr

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
    lang: str = "en"  # the document's language


def build_history(workspace_root: Path | str, lang: str = "en") -> HistorySummary:
    """Every recorded run of the folder, oldest first, its words in `lang`. Raises
    NoRunToExport when none."""
    lang = known(lang)
    ws = Workspace(workspace_root)
    ws.require(need_board=False)
    run_ids = ws.run_ids()
    if not run_ids:
        raise NoRunToExport(f"There is no recorded run in {ws.root} yet; run the tasks first, "
                            "then export.")
    runs = [build_summary(ws.root, run_id, whole_work=False, lang=lang) for run_id in run_ids]
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
        generated_at=datetime.now(timezone.utc).isoformat(timespec="seconds"), lang=lang)


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
        return tr(run.lang, "Demo — no AI was used")
    return tr(run.lang, "{engine} ({model})", engine=run.engine_label, model=run.model) \
        if run.model else run.engine_label


def render_history_markdown(h: HistorySummary) -> str:
    """The history document as Markdown: totals, the runs, decisions, then each run's rounds."""
    lang = h.lang

    def t(text: str, **values) -> str:
        return tr(lang, text, **values)

    out: list[str] = [f"# {md_cell(h.title)}", "",
                      t("History of the folder **{name}** · {runs}",
                        name=md_cell(h.workspace_name),
                        runs=plural(lang, len(h.runs), "{n} run", "{n} runs")), ""]
    later = t(LATER_RUNS_NOTE)
    notes = [t("Run {i}: {note}", i=i, note=n) for i, run in enumerate(h.runs, 1)
             for n in run.notes if n != later]  # a history shows the later runs itself
    if notes:
        out += table([t(NOTES_HEADER)], [[md_cell(n)] for n in notes])
    out += [f"## {t('At a glance')}", ""]
    first, last = h.runs[0], h.runs[-1]
    cost = format_cost(h.cost_usd, h.is_ai, lang)
    if h.cost_is_upper_estimate:  # a model's price was not known: counted at the highest
        unpriced = t(", ").join(dict.fromkeys(r.model or t("(unnamed)") for r in h.runs
                                              if r.cost_is_upper_estimate))
        cost = t("about {amount} at most – the price of {model} is not known, so the highest price is used",
                 amount=cost, model=unpriced)
    elif not h.price_known:
        cost += t(" (estimate: a price was not known)")
    out += table([t("Item"), t("Detail")], [
        [t("Runs"), str(len(h.runs))],
        [t("First run started"), format_time(first.started_at, lang)],
        [t("Last run started"), format_time(last.started_at, lang)],
        [t("Rounds"), str(h.rounds_count)],
        [t("Tasks done"), t("{done} of {total}", done=h.tasks_done, total=h.tasks_total)],
        # No run used an AI (the Demo's): no row of tokens that were never used.
        *([[t("Tokens"), format_tokens(h.usage, lang)]] if h.is_ai else []),
        [t("Cost"), md_cell(cost)],
    ])
    out += [t("## Runs"), ""]  # the heading; "Runs" alone is the count
    out += table([t(w) for w in ("#", "Started", "Engine", "How it ended", "Rounds", "Cost")], [
        [str(i), format_time(r.started_at, lang), md_cell(_engine(r)), md_cell(r.ending),
         str(r.rounds_count),
         t("at most {amount}", amount=format_cost(r.cost_usd, r.is_ai, lang))
         if r.cost_is_upper_estimate else format_cost(r.cost_usd, r.is_ai, lang)]
        for i, r in enumerate(h.runs, 1)])
    out += [f"## {t('Decisions')}", ""]
    if not h.decisions:
        out += [t("No decisions were needed."), ""]
    for i, d in enumerate(h.decisions, 1):
        out += ["### " + t("Decision {n}: {question}", n=i, question=md_cell(d.question)), ""]
        if d.asked_in_run is not None:
            out.append(f"- **{t('Asked in:')}** " + t("run {run}, round {round}",
                                                       run=d.asked_in_run,
                                                       round=d.asked_in_round))
        out += decision_facts(d.model_copy(update={"evidence": [], "about_task": None}), lang)
    out += _lessons_markdown(h.lessons, lang)
    for i, run in enumerate(h.runs, 1):
        out += ["## " + t("Run {i}: {time}", i=i, time=format_time(run.started_at, lang)), "",
                f"{md_cell(_engine(run))} · {md_cell(with_said(run.ending, run))} · "
                + t("run {run_id}", run_id=md_code(run.run_id)), ""]
        if not run.rounds:
            out += [t("No rounds were recorded in this run."), ""]
        for r in run.rounds:
            out += round_section(t("Run {i}, round {n}: {task}", i=i, n=r.round,
                                   task=md_cell(r.task)), r, run.is_ai, lang, steps=False)
    out += ["---", "", t("Made by {app} on {time}.", app=md_cell(h.app),
                         time=format_time(h.generated_at, lang)), ""]
    return redact("\n".join(out))


def _lessons_markdown(lessons: list[Lesson], lang: str = "en") -> list[str]:
    """The lessons learned from these runs, what was done with each, and its effect since."""
    def t(text: str, **values) -> str:
        return tr(lang, text, **values)

    out = [f"## {t('Lessons')}", ""]
    if not lessons:
        return out + [t("No lessons were found in these runs."), ""]
    for x in lessons:
        said = headline(x.kind, x.subject, x.count) if lang == "en" else \
            lesson_headline(lang, x.kind, x.subject, x.count, _cut)
        out += ["### " + t("Lesson {n}: {headline}", n=x.number, headline=md_cell(said)), ""]
        where = t(", ").join(t("run {run} round {round}", run=e.run_number, round=e.round)
                             for e in x.evidence[:8])
        more = t(" and {n} more", n=len(x.evidence) - 8) if len(x.evidence) > 8 else ""
        out.append(f"- **{t('Seen in:')}** {where}{more}")
        if x.state == "accepted":
            out.append(f"- **{t('Accepted:')}** " + t("{time}; in AGENTS.md: {line}",
                                                       time=format_time(x.decided_at, lang),
                                                       line=md_cell(x.line)))
            if x.effect is not None:
                effect = x.effect.sentence() if lang == "en" else (
                    t("since accepted: {seen} of {runs} runs showed it again",
                      seen=x.effect.runs_with_pattern, runs=x.effect.runs_since)
                    if x.effect.runs_since else t("no run since it was accepted"))
                out.append(f"- **{t('Effect:')}** {md_cell(effect)}")
        else:
            out.append(f"- **{t('Proposed line (not accepted):')}** {md_cell(x.line)}")
        out.append("")
    return out


def _cut(text: str, n: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def render_history(h: HistorySummary, fmt: str, locale=None) -> bytes:
    """The history document in `fmt` (md, html, odt or pdf)."""
    from app.export import render as r  # noqa: PLC0415 - export loads no Qt for Markdown

    markdown = render_history_markdown(h)
    if fmt == "md":
        return markdown.encode("utf-8")
    if fmt not in r.FORMATS:
        raise r.ExportError(f"Unknown format \"{fmt}\"; choose one of {', '.join(r.FORMATS)}.")
    r.ensure_app()
    title = redact(tr(h.lang, "{title} — history", title=h.title))
    doc = r.markdown_document(markdown, title, lang=h.lang)
    if fmt == "html":
        return r.html_of(doc, lang=h.lang)
    if fmt == "odt":
        return r.odt_of(doc, title, h.lang)
    from app.export.pdf import write_pdf  # noqa: PLC0415 - export loads no Qt for Markdown

    return write_pdf(doc, r.page_size_for(locale), title=title,
                     footer=redact(tr(h.lang, "{title} · history of {name}", title=h.title,
                                      name=h.workspace_name)),
                     families=r.font_families("sans", h.lang), lang=h.lang)
