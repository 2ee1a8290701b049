"""Checklist verbs over a board file: each re-reads it, checks the task, changes only that task's lines.

Every verb runs through update_board (stable read, merge with a concurrent save, atomic
write) and names its task by TaskRef: position and text must both still match, or
StaleTask is raised and nothing is written. After the change the board is read again and
compared with what the verb meant: every other task must read exactly as before (text,
checkbox, details), or BoardError is raised and nothing is written. That guards the rare
edit that would make Markdown read neighbouring lines differently.

Texts are single-line (line breaks collapse to spaces). A text starting with "HUMAN:"
makes a decision. Renaming a decision keeps it a decision: the new text replaces the
question after the task's own "HUMAN:" prefix, and a new text that starts with "HUMAN:"
itself is used as typed; use set_human(ref, False) to make it an ordinary task again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TypeVar

from app.core.board.board import Board, update_board
from app.core.board.task import (
    HUMAN_PREFIX, TASK_LINE, WEB_KEY, WEB_NO, WEB_YES, BoardError, Task, TaskRef, detail_split,
    one_line, split_eol)

T = TypeVar("T")


@dataclass(frozen=True)
class RemovedTask:
    """A deleted task, enough to put it back: its position, its line, its exact lines."""

    index: int  # its position among the tasks
    line_no: int  # where its first line was, so an undo right away restores the file exactly
    text: str
    lines: tuple[str, ...]  # the task line and its details, each with its own line ending


def _run(path: Path | str, change: Callable[[Board, str], T], removes_tasks: bool = False) -> T:
    name = Path(path).name
    return update_board(path, lambda board: change(board, name), removes_tasks=removes_tasks)


def _expect(board: Board, expected: list[tuple[str, bool, tuple[str, ...]]], name: str) -> None:
    if board.signature() != expected:
        raise BoardError(f"That change would also have changed other tasks in {name}, "
                         "so it was not made.")


def _task_text(text: str, human: bool) -> str:
    """The text of a new or renamed task: one line; `human` (or a typed "HUMAN:") = decision."""
    text = one_line(text)
    m = HUMAN_PREFIX.match(text)
    question = text[m.end():].strip() if m else text
    if (human or m) and not question:
        raise BoardError("A decision needs a question.")
    if not text:
        raise BoardError("A task needs some text.")
    return f"HUMAN: {question}" if human else text


def _values(values: list[str] | None) -> list[str]:
    return [v for v in (one_line(x) for x in values or []) if v]


def _set_text(board: Board, task: Task, text: str) -> None:
    """Replace only the text after the checkbox; bullet, spacing and trailing blanks stay."""
    body, eol = split_eol(board.lines[task.line_no])
    match = TASK_LINE.match(body)
    assert match is not None  # a task's line: it matched when the board was scanned
    head = match.end()
    rest = body[head:]
    lead = len(rest) - len(rest.lstrip())
    core = rest.strip()
    tail = rest[lead + len(core):] if core else ""
    board.replace_lines(task.line_no, task.line_no + 1,
                        [body[:head] + (rest[:lead] or " ") + text + tail + eol])


def _retext(path: Path | str, ref: TaskRef, text_for: Callable[[Task], str]) -> TaskRef:
    def change(board: Board, name: str) -> TaskRef:
        task = board.task_at(ref, name)
        text = text_for(task)
        if text == task.text:
            return task.ref
        expected = board.signature()
        expected[task.index] = (text,) + expected[task.index][1:]
        _set_text(board, task, text)
        _expect(board, expected, name)
        return board.tasks[task.index].ref
    return _run(path, change)


def add_task(path: Path | str, text: str, *, at: int | None = None, human: bool = False,
             options: list[str] | None = None, done_when: list[str] | None = None) -> TaskRef:
    """Add an unchecked task so it becomes task `at` (clamped; None or len(tasks): last).

    `human` makes it a decision ("HUMAN: " prefix); `done_when` and `options` become its
    "Done when:" and "Option:" lines. The bullet follows the task it goes before (or the
    last task); the line ending follows the board.
    """
    text = _task_text(text, human)
    dones, opts = _values(done_when), _values(options)

    def change(board: Board, name: str) -> TaskRef:
        return _place_new(board, at, text, dones, opts)
    return _run(path, change)


@dataclass(frozen=True)
class NewTask:
    """A task to add with add_tasks: its text, whether it is a decision, its details."""

    text: str
    human: bool = False
    done_when: tuple[str, ...] = ()
    options: tuple[str, ...] = ()


def add_tasks(path: Path | str, tasks: list[NewTask]) -> list[TaskRef]:
    """Add the tasks after the last one, in order, in one write: all of them or none."""
    wanted = [(_task_text(t.text, t.human), _values(list(t.done_when)), _values(list(t.options)))
              for t in tasks]

    def change(board: Board, name: str) -> list[TaskRef]:
        return apply_new_tasks(board, wanted)
    return _run(path, change)


def apply_new_tasks(board: Board, wanted: list[tuple[str, list[str], list[str]]]) -> list[TaskRef]:
    """Place (text, done_when, options) tasks after the last task of an in-memory board."""
    refs = [_place_new(board, None, text, dones, opts) for text, dones, opts in wanted]
    return [board.tasks[r.index].ref for r in refs]


def _place_new(board: Board, at: int | None, text: str, dones: list[str],
               opts: list[str]) -> TaskRef:
    tasks = board.tasks
    k = len(tasks) if at is None else min(max(at, 0), len(tasks))
    bullet = (tasks[k] if k < len(tasks) else tasks[-1]).bullet if tasks else "-"
    eol = board.eol
    lines = [f"{bullet} [ ] {text}{eol}"]
    lines += [f"  {bullet} Done when: {v}{eol}" for v in dones]
    lines += [f"  {bullet} Option: {v}{eol}" for v in opts]
    return board.place_task(k, lines).ref


def delete_task(path: Path | str, ref: TaskRef) -> RemovedTask:
    """Remove the task and its detail lines; the RemovedTask puts them back (restore_task)."""
    def change(board: Board, name: str) -> RemovedTask:
        task = board.task_at(ref, name)
        start, end = board.span(task)
        removed = RemovedTask(task.index, start, task.text, tuple(board.lines[start:end]))
        expected = board.signature()
        del expected[task.index]
        board.replace_lines(start, end, [])
        _expect(board, expected, name)
        return removed
    return _run(path, change, removes_tasks=True)


def restore_task(path: Path | str, removed: RemovedTask) -> TaskRef:
    """Undo delete_task: the exact removed lines go back so the task is at removed.index
    again (clamped), at its old line when that still fits."""
    if not removed.lines:
        raise BoardError("There is nothing to put back.")

    def change(board: Board, name: str) -> TaskRef:
        task = board.place_task(removed.index, list(removed.lines), near=removed.line_no)
        if task.text != removed.text:
            raise BoardError(f"The deleted task could not be put back into {name} as it was.")
        return task.ref
    return _run(path, change)


def move_task(path: Path | str, ref: TaskRef, to_index: int) -> TaskRef:
    """Move the task with its detail lines so it ends up at position `to_index` (clamped)."""
    def change(board: Board, name: str) -> TaskRef:
        task = board.task_at(ref, name)
        k = min(max(to_index, 0), len(board.tasks) - 1)
        if k == task.index:
            return task.ref
        expected = board.signature()
        moving = expected.pop(task.index)
        start, end = board.span(task)
        block = board.lines[start:end]
        board.replace_lines(start, end, [])
        _expect(board, expected, name)  # lifting it out must not change the others either
        expected.insert(k, moving)
        moved = board.place_task(k, block)
        _expect(board, expected, name)
        return moved.ref
    return _run(path, change)


def rename_task(path: Path | str, ref: TaskRef, new_text: str) -> TaskRef:
    """Give the task a new text; a decision stays a decision (see the module docstring)."""
    def text_for(task: Task) -> str:
        text = _task_text(new_text, False)
        if not task.is_human or HUMAN_PREFIX.match(text):
            return text
        # Keep the task's own prefix as typed ("HUMAN: ", "human:  ").
        head = task.text[:len(task.text) - len(task.question)] if task.question else task.text + " "
        return head + text
    return _retext(path, ref, text_for)


def set_human(path: Path | str, ref: TaskRef, human: bool) -> TaskRef:
    """Make the task a decision ("HUMAN: " prefix added) or an ordinary task (prefix removed)."""
    def text_for(task: Task) -> str:
        if human == task.is_human:
            return task.text
        # The rest of the text stays exactly as the board has it: only the prefix changes.
        if not (task.text if human else task.question):
            raise BoardError("A decision needs a question." if human else "A task needs some text.")
        return f"HUMAN: {task.text}" if human else task.question
    return _retext(path, ref, text_for)


def set_checked(path: Path | str, ref: TaskRef, checked: bool) -> TaskRef:
    """Tick or untick the checkbox: one character changes (an existing "X" stays when ticked)."""
    def change(board: Board, name: str) -> TaskRef:
        task = board.task_at(ref, name)
        if task.checked == checked:
            return task.ref
        return board.check(task, checked).ref
    return _run(path, change)


def set_details(path: Path | str, ref: TaskRef, key: str, values: list[str]) -> TaskRef:
    """Make the task's `key` lines ("Done when", "Option", ...) exactly `values`.

    The new lines take the place of the first old one (its indent and bullet), or go after
    the task's last detail line when it had none. An empty list removes them. Other detail
    lines are untouched. Keys match regardless of case and spacing.
    """
    key = one_line(key).rstrip(":").strip()
    if not key:
        raise BoardError("A detail needs a name, like \"Done when\".")
    keyed = re.compile(r"[ \t]+".join(map(re.escape, key.split())) + r"[ \t]*:", re.I)
    vals = _values(values)

    def change(board: Board, name: str) -> TaskRef:
        task = board.task_at(ref, name)
        start, end = board.span(task)
        old = board.lines[start + 1:end]
        hits = [i for i, line in enumerate(old)
                if keyed.match(detail_split(split_eol(line)[0])[1])]
        if not hits and not vals:
            return task.ref
        if hits:
            body, eol = split_eol(old[hits[0]])
            prefix = detail_split(body)[0]
            prefix += "" if prefix[-1:] in (" ", "\t") else " "
        else:
            prefix, eol = board.detail_prefix(task), ""
        at = hits[0] if hits else len(old)
        kept = [line for i, line in enumerate(old) if i not in hits]
        cut = sum(1 for i in range(at) if i not in hits)
        lines = kept[:cut] + [f"{prefix}{key}: {v}{eol or board.eol}" for v in vals] + kept[cut:]
        expected = board.signature()
        details = [detail_split(split_eol(line)[0])[1] for line in lines]
        expected[task.index] = (task.text, task.checked, tuple(details))
        board.replace_lines(start + 1, end, lines)
        _expect(board, expected, name)
        return board.tasks[task.index].ref
    return _run(path, change)


def set_web(path: Path | str, ref: TaskRef, allowed: bool, folder_default: bool = False) -> TaskRef:
    """Let the task look things up on the web, or not, in one "Web:" line.

    When the wish is what the folder's default already gives, the task's "Web:" lines go
    (the task then follows the folder, as a new task does); otherwise one "Web: yes" or
    "Web: no" line says it. Every other line stays byte for byte."""
    return set_details(path, ref, WEB_KEY,
                       [] if allowed == folder_default else [WEB_YES if allowed else WEB_NO])
