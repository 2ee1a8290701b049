"""The run summary as Markdown: the one text every export format is rendered from (no Qt)."""

from __future__ import annotations

import re

from app.core.engine.conversation import Usage
from app.core.run.outcomes import RoundResult
from app.core.records.redact import redact
from app.core.records.work_totals import clock
from app.export.summary import NOT_ANSWERED, NOTES_HEADER, RunSummary, norm, parse_time
from app.export.demo_words import with_said
from app.export.words import date_time, plural, tr

# -- words and numbers ---------------------------------------------------------------------

def format_time(value: str | None, lang: str = "en") -> str:
    """A recorded UTC time in the reader's local zone: '2025-03-03 14:02 CET' (in Chinese
    the window's one format, '2025年3月3日 14:02')."""
    t = parse_time(value)
    if t is None:
        return tr(lang, "unknown")
    return date_time(t.astimezone(), lang)


def format_duration(seconds: float | None, lang: str = "en") -> str:
    if seconds is None:
        return tr(lang, "unknown")

    parts = clock(seconds)  # rounded as the window's status line rounds it
    if parts is None:
        return tr(lang, "under 1 s")
    h, m, s = parts
    if h:
        return tr(lang, "{h} h {m} min", h=h, m=m)
    if m:
        return tr(lang, "{m} min {s} s", m=m, s=s) if s else tr(lang, "{m} min", m=m)
    return tr(lang, "{s} s", s=s)


def format_cost(cost: float, is_ai: bool = True, lang: str = "en") -> str:
    if not is_ai:
        return tr(lang, "none (no AI was used)")
    return f"${cost:.2f}" if cost >= 0.01 or cost == 0 else f"${cost:.4f}"


def format_tokens(usage: Usage, lang: str = "en") -> str:
    if usage.total_tokens == 0:
        return "0"
    parts = [tr(lang, "{n} in", n=f"{usage.input_tokens:,}"),
             tr(lang, "{n} out", n=f"{usage.output_tokens:,}")]
    cache = usage.cache_read_tokens + usage.cache_write_tokens
    if cache:
        parts.append(tr(lang, "{n} cache", n=f"{cache:,}"))
    if lang == "zh_CN":
        return f"{usage.total_tokens:,}（{'，'.join(parts)}）"
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


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out + [""]


def render_markdown(summary: RunSummary, chart: str | None = None) -> str:
    """The summary document as Markdown, in the summary's language. `chart` is an image file
    name to show under the totals."""
    s, lang = summary, summary.lang

    def t(text: str, **values) -> str:
        return tr(lang, text, **values)

    out: list[str] = [f"# {md_cell(s.title)}", ""]
    out += [t("Run summary for the folder **{name}** · run {run_id}",
              name=md_cell(s.workspace_name), run_id=md_code(s.run_id)), ""]
    if s.notes:  # a one-column table: it reads as a box in every format, Markdown included
        out += table([t(NOTES_HEADER)], [[md_cell(n)] for n in s.notes])

    out += [f"## {t('At a glance')}", ""]
    engine = t("Demo — no AI was used") if not s.is_ai else s.engine_label
    rows = [[t("Engine"), md_cell(engine)]]
    if s.is_ai and s.model:
        rows.append([t("Model"), md_cell(s.model)])
    rows.append([t("Started"), format_time(s.started_at, lang)])
    if s.finished:
        rows.append([t("Finished"), t("{time} (took {duration})",
                                      time=format_time(s.finished_at, lang),
                                      duration=format_duration(s.duration_s, lang))])
    else:
        rows.append([t("Finished"), t("did not finish (last record after {duration})",
                                      duration=format_duration(s.duration_s, lang))])
    ending = s.ending
    # The core's own sentence is English: a Chinese document says how it ended in its words.
    if s.message and norm(s.message) != norm(ending) and lang == "en":
        ending = f"{ending} {s.message}"
    ending = with_said(ending, s)
    rows.append([t("How it ended"), md_cell(ending)])
    rows.append([t("Rounds"), str(s.rounds_count)])
    rows.append([t("Tasks done"), t("{done} of {total}", done=s.tasks_done, total=s.tasks_total)])
    if s.is_ai:  # the Demo used no AI: no row of tokens that were never used
        rows.append([t("Tokens"), format_tokens(s.usage, lang)])
    cost = format_cost(s.cost_usd, s.is_ai, lang)
    if s.cost_is_upper_estimate:  # the model's price is not known: counted at the highest
        cost = t("about {amount} at most – the price of {model} is not known, so the highest price is used",
                 amount=cost, model=s.model or t("(unnamed)"))
    elif not s.price_known:
        cost += t(" (estimate: price not known)")
    rows.append([t("Cost"), md_cell(cost)])
    out += table([t("Item"), t("Detail")], rows)
    if chart:
        out += [f"![{t('Chart: each round of this run, coloured by outcome')}]({chart})", ""]

    out += [f"## {t('Tasks')}", ""]
    if s.tasks:
        out += table([t("#"), t("Task"), t("State"), t("Rounds")],
                     [[str(i), md_cell(x.text), md_cell(x.state), str(x.rounds or "—")]
                      for i, x in enumerate(s.tasks, 1)])
    else:
        out += [t("No tasks could be read from the board."), ""]

    out += [f"## {t('Decisions')}", ""]
    if not s.decisions:
        out += [t("No decisions were needed."), ""]
    for i, d in enumerate(s.decisions, 1):
        out += ["### " + t("Decision {n}: {question}", n=i, question=md_cell(d.question)), ""]
        out += decision_facts(d, lang)

    out += [t("## Rounds"), ""]  # the heading; "Rounds" alone is the count
    if not s.rounds:
        out += [t("No rounds were recorded."), ""]
    for r in s.rounds:
        out += round_section(t("Round {n}: {task}", n=r.round, task=md_cell(r.task)), r,
                             s.is_ai, lang)

    if s.careful or s.approvals:
        out += approvals_section(s)

    out += [f"## {t('Changed files')}", ""]
    if s.changed_files:
        out += table([t("File"), t("Changed in round")],
                     [[md_code(f.path, in_table=True),
                       t(", ").join(t("{n} (undone)", n=n) if n in f.undone else str(n)
                                    for n in f.rounds) or "—"]
                      for f in s.changed_files])
    else:
        out += [t("No files were changed."), ""]

    out += ["---", "", t("Made by {app} on {time}.", app=md_cell(s.app),
                         time=format_time(s.generated_at, lang)), ""]
    return redact("\n".join(out))


def round_section(heading: str, r, is_ai: bool, lang: str, steps: bool = True) -> list[str]:
    """A round under its heading: how it ended, its time, steps, tokens and cost, then what
    it did (round_details). The run's summary and a history both write rounds this way."""
    facts = [f"**{md_cell(r.outcome)}**"]
    if r.recorded:
        facts.append(format_duration(r.duration_s, lang))
        if steps:
            facts.append(plural(lang, r.steps, "{n} step", "{n} steps"))
        if is_ai:
            facts.append(tr(lang, "{tokens} tokens · {cost}", tokens=f"{r.tokens:,}",
                            cost=format_cost(r.cost_usd, lang=lang)))
    return ["### " + heading, "", " · ".join(facts), "", *round_details(r, lang)]


def decision_facts(d, lang: str) -> list[str]:
    """A decision's options, recommendation, evidence, task and answer, as a list."""
    def t(text: str, **values) -> str:
        return tr(lang, text, **values)

    out = []
    if d.options:
        out.append(f"- **{t('Options:')}** " + " · ".join(md_cell(o) for o in d.options))
    if d.recommendation:
        out.append(f"- **{t('Recommendation:')}** {md_cell(d.recommendation)}")
    if getattr(d, "evidence", None):
        out.append(f"- **{t('Evidence:')}** " + t(", ").join(md_code(e) for e in d.evidence))
    if getattr(d, "about_task", None):
        out.append(f"- **{t('Asked while working on:')}** {md_cell(d.about_task)}")
    # No italic for "not answered yet": Chinese has none (it would be slanted by Qt).
    answer = md_cell(d.answer) if d.answer else t(NOT_ANSWERED)
    return out + [f"- **{t('Answer:')}** {answer}", ""]


# What a round that ended short says in a document not in English (the core's own sentence
# is English): by how the round ended, not every one called an engine's error.
ROUND_ERROR: dict[str, str] = {
    RoundResult.STEP_LIMIT: "This round ran out of steps before the task was done.",
    RoundResult.TIMEOUT: "This round ran out of time before the task was done.",
    RoundResult.NO_ACTION: "In this round the AI kept going round in circles.",
    RoundResult.GAVE_UP: "In this round the AI gave up on the task.",
    RoundResult.CANCELLED: "This round was stopped before it ended."}


def round_details(r, lang: str) -> list[str]:
    """A round's summary, files, undo and error, under its heading."""
    out: list[str] = []
    if r.summary:
        out += [md_text(r.summary), ""]
    if r.changed:
        out += [tr(lang, "Files changed: {files}",
                   files=tr(lang, ", ").join(md_code(p) for p in r.changed)), ""]
    from app.export.sources import sources_lines  # noqa: PLC0415 - export loads no Qt for Markdown

    out += sources_lines(getattr(r, "web", None), lang, md_cell)  # its web sources, as links
    if r.undone:
        out += [f"**{md_text(r.undone)}**", ""]
    if r.error:
        # The engine's own message is English: a Chinese document says what happened.
        error = md_text(r.error) if lang == "en" else \
            tr(lang, ROUND_ERROR.get(r.result_state,
                                     "The AI engine reported an error in this round."))
        out += [tr(lang, "Error: {error}", error=error), ""]
    return out


APPROVAL_WORDS = {"allowed": "Allowed", "allowed_for_task": "Allowed, with the rest of the task",
                  "edited": "Allowed with your edit", "not_allowed": "Not allowed",
                  "not_shown": "Not made: allowed in TASKS.md without seeing the change",
                  "refused": "Refused: a protected file", "waiting": "Waiting for your answer"}


def approvals_section(s: RunSummary) -> list[str]:
    """What the person allowed and refused (careful mode, protected files, many changes)."""
    lang = s.lang
    out = [f"## {tr(lang, 'What you allowed and refused')}", ""]
    if not s.approvals:
        return out + [tr(lang, "Careful mode was on; no change needed your approval."), ""]
    rows = [[str(a.round), md_code(a.path, in_table=True),
             tr(lang, "Delete" if a.action == "delete" else "Change"),
             tr(lang, APPROVAL_WORDS[a.answer]) if a.answer in APPROVAL_WORDS
             else md_cell(a.answer)] for a in s.approvals]
    return out + table([tr(lang, w) for w in ("Round", "File", "Change", "Your answer")], rows)
