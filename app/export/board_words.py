"""The decisions the harness itself writes on the board (in English, for the file), in the
document's words: a task that made no progress, and careful mode's question about a file.
The person's own questions and options are theirs and stay as written (no "HUMAN:")."""

from __future__ import annotations

import re

from app.export.words import tr

_CAREFUL = re.compile(r"Careful mode: may the AI (change|delete) your file (.+)\?")
# The lines the harness writes under a no-progress decision (core/run/reports.py,
# core/web/round.py); what the AI said inside them stays in its own words.
_ROUND_ENDED = re.compile(r"In round (\d+) (the AI gave up|the AI ran out of steps|the AI kept "
                          r"going round in circles|the AI ran out of time|the AI engine had a "
                          r"problem|the task was not finished)(?:: (.*?))?\.(?: What it found: "
                          r"(.*)\.)?", re.S)
_CAP_REACHED = re.compile(r"In round (\d+) this task reached its limit of (\d+) web lookups? "
                          r"\((\d+) made\)\. Raise \"Web lookups per task\" in Settings, then "
                          r"choose Try again to let it look further\.")


def _no_progress(options) -> bool:
    from app.core.run.reports import (  # noqa: PLC0415 - export loads no Qt for Markdown
        NO_PROGRESS_OPTIONS)

    return tuple(options or ()) == tuple(NO_PROGRESS_OPTIONS)


def _careful(options) -> bool:
    from app.core.policies.pending import OPTIONS  # noqa: PLC0415 - export loads no Qt for Markdown

    return list(options or ()) == list(OPTIONS)


def question(text: str, options, lang: str) -> str:
    """A decision's question as the document says it."""
    if _no_progress(options):
        from app.core.run.reports import no_progress_task  # noqa: PLC0415 - export loads no Qt for Markdown; the board's wording, old or new

        return tr(lang, "No progress on “{task}”: what now?", task=no_progress_task(text))
    found = _CAREFUL.fullmatch(text) if _careful(options) else None
    if found is not None:
        return tr(lang, f"Careful mode: may the AI {found[1]} your file {{path}}?",
                  path=found[2])
    return text


def option(options, answer: str | None, lang: str) -> str | None:
    """One of a decision's options (or its answer) as the document says it."""
    if answer is not None and (_no_progress(options) or _careful(options)) and answer in options:
        return tr(lang, answer)
    return answer


def evidence(line: str, lang: str) -> str:
    """A line the harness wrote under its own decision, in the document's language."""
    found = _ROUND_ENDED.fullmatch(line.strip())
    if found is not None:
        said = tr(lang, "In round {n} " + found[2], n=found[1])
        if found[3]:
            said += tr(lang, ": {reason}", reason=found[3])
        said += tr(lang, ".")
        if found[4]:
            said += tr(lang, " What it found: {findings}.", findings=found[4])
        return said
    found = _CAP_REACHED.fullmatch(line.strip())
    if found is not None:
        return tr(lang, "In round {n} this task reached its limit of {cap} web lookups "
                        "({made} made). Raise “Web lookups per task” in Settings, then choose "
                        "Try again to let it look further.",
                  n=found[1], cap=found[2], made=found[3])
    return line


def worded(decision, lang: str):
    """A summary's Decision with the harness's own words put in the document's language."""
    options = list(decision.options)
    return decision.model_copy(update={
        "question": question(decision.question, options, lang),
        "options": [option(options, o, lang) for o in options],
        "evidence": [evidence(e, lang) if _no_progress(options) else e
                     for e in decision.evidence],
        "recommendation": option(options, decision.recommendation, lang),
        "answer": option(options, decision.answer, lang)})
