"""The Lessons view's calls into the core, each made off the UI thread. No Qt here."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.core.errors import UsageError
from app.core.run.instructions import MAX_INSTRUCTIONS_CHARS
from app.core.lessons.actions import accept_lesson, dismiss_lesson, instructions_after
from app.core.lessons.agents_file import contains_line, read_instructions
from app.core.lessons.lessons import find_lessons
from app.gui.evidence.evidence_data import rounds_of


@dataclass(frozen=True)
class Preview:
    """AGENTS.md as it will read (or reads, for an accepted lesson), or why it cannot be shown."""

    text: str = ""
    problem: str = ""   # the core's English sentence: shown as details only
    too_long: int = 0   # the characters it would have, when past the cap


def load_lessons(root: Path | str):
    return find_lessons(root)


def lessons_from_run(root: Path | str, run_id: str) -> int:
    """How many open lessons the run added evidence to."""
    return len(find_lessons(root).from_run(run_id)) if run_id else 0


def preview(root: Path | str, line: str | None) -> Preview:
    """AGENTS.md with `line` added, or as it is when `line` is None."""
    try:
        current = read_instructions(root)
        if line is None or contains_line(current.raw, line):
            return Preview(text=current.text)
        text = instructions_after(root, line)
    except UsageError as err:
        return Preview(problem=err.message)
    return Preview(text=text, too_long=len(text) if len(text) > MAX_INSTRUCTIONS_CHARS else 0)


def accept(root: Path | str, number: int):
    return accept_lesson(root, number)


def dismiss(root: Path | str, number: int):
    return dismiss_lesson(root, number)


def round_record(root: Path | str, run_id: str, round_no: int):
    """(the round's record or None, whether its run used an AI) for the evidence dialog."""
    run, rounds, _undone = rounds_of(root, run_id)
    is_ai = bool(run.is_ai and run.engine != "demo") if run else True
    return next((r for r in rounds if r.round == round_no), None), is_ai
