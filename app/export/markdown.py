"""The run summary as Markdown: the one text every export format is rendered from (no Qt)."""

from __future__ import annotations

import re

from app.core.conversation import Usage
from app.core.redact import redact
from app.export.summary import NOT_ANSWERED, NOTES_HEADER, RunSummary, norm, parse_time

# -- words and numbers ---------------------------------------------------------------------

def format_time(value: str | None) -> str:
    """A recorded UTC time in the reader's local zone: '2025-03-03 14:02 CET'."""
    t = parse_time(value)
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


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out + [""]


def render_markdown(summary: RunSummary, chart: str | None = None) -> str:
    """The summary document as Markdown. `chart` is an image file name to show under the totals."""
    s = summary
    out: list[str] = [f"# {md_cell(s.title)}", ""]
    out += [f"Run summary for the folder **{md_cell(s.workspace_name)}** · "
            f"run {md_code(s.run_id)}",
            ""]
    if s.notes:  # a one-column table: it reads as a box in every format, Markdown included
        out += table([NOTES_HEADER], [[md_cell(n)] for n in s.notes])

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
    if s.message and norm(s.message) != norm(ending):
        ending = f"{ending} {s.message}"
    rows.append(["How it ended", md_cell(ending)])
    rows.append(["Rounds", str(s.rounds_count)])
    rows.append(["Tasks done", f"{s.tasks_done} of {s.tasks_total}"])
    rows.append(["Tokens", format_tokens(s.usage)])
    cost = format_cost(s.cost_usd, s.is_ai) + ("" if s.price_known else " (estimate: price not known)")
    rows.append(["Cost", md_cell(cost)])
    out += table(["Item", "Detail"], rows)
    if chart:
        out += [f"![Chart: each round of this run, coloured by outcome]({chart})", ""]

    out += ["## Tasks", ""]
    if s.tasks:
        out += table(["#", "Task", "State", "Rounds"],
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
            out.append(f"- **Recommendation:** {md_cell(d.recommendation)}")
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
        if r.undone:
            out += [f"**{md_text(r.undone)}**", ""]
        if r.error:
            out += [f"Error: {md_text(r.error)}", ""]

    if s.careful or s.approvals:
        out += approvals_section(s)

    out += ["## Changed files", ""]
    if s.changed_files:
        out += table(["File", "Changed in round"],
                      [[md_code(f.path, in_table=True),
                        ", ".join(f"{n} (undone)" if n in f.undone else str(n)
                                  for n in f.rounds) or "—"]
                       for f in s.changed_files])
    else:
        out += ["No files were changed.", ""]

    out += ["---", "", f"Made by {md_cell(s.app)} on {format_time(s.generated_at)}.", ""]
    return redact("\n".join(out))


APPROVAL_WORDS = {"allowed": "Allowed", "allowed_for_task": "Allowed, with the rest of the task",
                  "edited": "Allowed with your edit", "not_allowed": "Not allowed",
                  "not_shown": "Not made: allowed in TASKS.md without seeing the change",
                  "refused": "Refused: a protected file", "waiting": "Waiting for your answer"}


def approvals_section(s: RunSummary) -> list[str]:
    """What the person allowed and refused (careful mode, protected files, many changes)."""
    out = ["## What you allowed and refused", ""]
    if not s.approvals:
        return out + ["Careful mode was on; no change needed your approval.", ""]
    rows = [[str(a.round), md_code(a.path, in_table=True),
             "Delete" if a.action == "delete" else "Change",
             APPROVAL_WORDS.get(a.answer, md_cell(a.answer))] for a in s.approvals]
    return out + table(["Round", "File", "Change", "Your answer"], rows)
