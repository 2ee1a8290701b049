"""What the person does with a lesson: accept it (its line goes into AGENTS.md, and the time is
kept, so its effect can be counted) or dismiss it (it is hidden). Nothing else writes AGENTS.md."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.core.errors import UsageError
from app.core.lessons.agents_file import add_line, read_instructions, with_line
from app.core.lessons.lessons import Lesson, find_lessons
from app.core.lessons.store import Decision, load_store, save_store
from app.core.records.records import now_iso
from app.core.workspace.workspace import Workspace


@dataclass(frozen=True)
class Accepted:
    lesson: Lesson
    added: bool          # False: AGENTS.md already had the line word for word


def _lesson(root: Path | str, number: int) -> Lesson:
    found = find_lessons(root).numbered(number)
    if found is None:
        raise UsageError(f"There is no lesson {number} in this folder; `harness-desk lessons` "
                         "lists them with their numbers.")
    return found


def accept_lesson(root: Path | str, number: int) -> Accepted:
    """Add lesson `number`'s line to AGENTS.md and record when. One sentence (UsageError)
    when there is no such lesson, it was accepted already, or AGENTS.md cannot take it."""
    ws = Workspace(root).require(need_board=False)
    lesson = _lesson(ws.root, number)
    if lesson.state == "accepted":
        raise UsageError(f"Lesson {number} was accepted already; its line is in AGENTS.md.")
    added = add_line(ws.root, lesson.line)
    store = load_store(ws.harness_dir)
    store.decisions[lesson.key] = Decision(state="accepted", at=now_iso(), line=lesson.line)
    save_store(ws.harness_dir, store)
    return Accepted(lesson, added)


def dismiss_lesson(root: Path | str, number: int) -> Lesson:
    """Hide lesson `number`; AGENTS.md is not touched."""
    ws = Workspace(root).require(need_board=False)
    lesson = _lesson(ws.root, number)
    if lesson.state == "accepted":
        raise UsageError(f"Lesson {number} was accepted, so its line is in AGENTS.md; remove "
                         "it there if you no longer want it.")
    store = load_store(ws.harness_dir)
    store.decisions[lesson.key] = Decision(state="dismissed", at=now_iso())
    save_store(ws.harness_dir, store)
    return lesson


def instructions_after(root: Path | str, line: str) -> str:
    """AGENTS.md as it will read once `line` is added (for the window to show)."""
    ins = read_instructions(root)
    return with_line(ins.raw, line).removeprefix(b"\xef\xbb\xbf").decode("utf-8")
