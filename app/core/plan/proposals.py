"""Proposed tasks from a planning round: what the model may propose, the checks, and the board lines.

A proposal reaches TASKS.md only when the person adds it (`add_proposals`, through the board
verbs). Before that, `check_proposals` holds every proposal to the board's rules: one line
of text, Done-when lines and options that are one line each, 2 to 4 distinct options for a
decision and none for an ordinary task, at most MAX_PROPOSALS, nothing already on the
board, and lines that read back from the board as exactly the task that was meant.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.core.board.board import Board
from app.core.clean_text import clean
from app.core.board.task import HUMAN_PREFIX, BoardError, TaskRef, norm
from app.core.board.verbs import NewTask, add_tasks, apply_new_tasks
from app.core.workspace.files import atomic_write_bytes
from app.core.policies.pending import LOOKALIKE, LOOKALIKE_REFUSAL
from app.core.workspace.workspace import BOARD_NAME

MAX_PROPOSALS = 30
MAX_TASK_CHARS = 300
MAX_DONE_WHEN = 5
MIN_OPTIONS, MAX_OPTIONS = 2, 4
# Anything an editor might show as a new line: a value must stay on its own board line.
_BREAK = re.compile(r"[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]")


@dataclass
class Proposal:
    """One proposed task: its text (without "HUMAN:"), Done-when lines, and for a decision
    (`human`) its options."""

    text: str
    done_when: list[str] = field(default_factory=list)
    human: bool = False
    options: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        # However a proposal is made (the model's call, an old plan record, the window), it
        # holds no terminal or direction controls: what `plan` prints, the window lists and
        # `--add` writes is the same text.
        self.text = clean(self.text)
        self.done_when = [clean(x) for x in self.done_when]
        self.options = [clean(x) for x in self.options]

    @property
    def board_text(self) -> str:
        """The task's text as the board will have it."""
        return f"HUMAN: {self.text}" if self.human else self.text

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "done_when": list(self.done_when), "human": self.human,
                "options": list(self.options)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Proposal":
        return cls(str(data.get("text", "")), [str(x) for x in data.get("done_when") or []],
                   bool(data.get("human", False)), [str(x) for x in data.get("options") or []])


def board_lines(p: Proposal, bullet: str = "-", eol: str = "\n") -> list[str]:
    """The lines the board verbs write for this proposal (add_task's layout)."""
    lines = [f"{bullet} [ ] {p.board_text}{eol}"]
    lines += [f"  {bullet} Done when: {v}{eol}" for v in p.done_when]
    lines += [f"  {bullet} Option: {v}{eol}" for v in p.options]
    return lines


def check_proposals(raw: Any, board: Board | None = None) -> tuple[list[Proposal], list[str]]:
    """The proposals in `raw` (propose_tasks' `tasks` argument), cleaned, and the problems
    found, each one sentence naming the task. Proposals count only when there are no problems."""
    if not isinstance(raw, list):
        return [], ["tasks must be a list of task objects."]
    if not raw:
        return [], ["tasks is empty: propose at least one task."]
    if len(raw) > MAX_PROPOSALS:
        return [], [f"{len(raw)} tasks were proposed; propose at most {MAX_PROPOSALS}, the most "
                    "useful first."]
    taken = {norm(t.text) for t in board.tasks} if board is not None else set()
    out: list[Proposal] = []
    problems: list[str] = []
    for n, item in enumerate(raw, 1):
        proposal, problem = _check_one(n, item)
        if problem is None and proposal is not None:
            key = norm(proposal.board_text)
            if key in taken:
                problem = (f"Task {n} (“{proposal.text[:80]}”) is already on the list or proposed "
                           "twice; propose each task once.")
            taken.add(key)
        if problem:
            problems.append(problem)
        elif proposal is not None:
            out.append(proposal)
    return (out, []) if not problems else ([], problems)


def _check_one(n: int, item: Any) -> tuple[Proposal | None, str | None]:
    if not isinstance(item, dict):
        return None, f"Task {n} must be an object with text, done_when, human and options."
    unknown = sorted(str(k)[:30] for k in item if k not in ("text", "done_when", "human", "options"))
    if unknown:
        return None, f"Task {n} has unknown fields: {', '.join(unknown)}."
    text = item.get("text")
    if isinstance(text, str):
        text = clean(text)
    if not isinstance(text, str) or not text.strip():
        return None, f"Task {n} has no text."
    human = item.get("human", False)
    if human is None:
        human = False
    if not isinstance(human, bool):
        return None, f"Task {n}: human must be true or false."
    text = text.strip()
    m = HUMAN_PREFIX.match(text)
    if m:  # "HUMAN: ..." written into the text means what human: true means
        text, human = text[m.end():].strip(), True
        if not text:
            return None, f"Task {n} is a decision without a question."
    where = f"Task {n} (“{text[:80]}”)"
    if LOOKALIKE.match(text):
        return None, f"{where}: {LOOKALIKE_REFUSAL}"
    if _BREAK.search(text):
        return None, f"{where}: the text must be one line."
    if len(text) > MAX_TASK_CHARS:
        return None, f"{where}: the text is {len(text)} characters; keep it under {MAX_TASK_CHARS}."
    dones, problem = _one_line_list(item.get("done_when"), f"{where}: done_when")
    if problem:
        return None, problem
    if len(dones) > MAX_DONE_WHEN:
        return None, f"{where}: at most {MAX_DONE_WHEN} done_when lines."
    options, problem = _one_line_list(item.get("options"), f"{where}: options")
    if problem:
        return None, problem
    if human:
        if not MIN_OPTIONS <= len(options) <= MAX_OPTIONS:
            return None, (f"{where} is a decision: give it {MIN_OPTIONS} to {MAX_OPTIONS} "
                          f"options; it has {len(options)}.")
        if len({o.casefold() for o in options}) != len(options):
            return None, f"{where}: the options must differ from each other."
    elif options:
        return None, (f"{where} has options but is not a decision: set human to true if the "
                      "person must choose, or leave options empty.")
    proposal = Proposal(text, dones, human, options)
    if not _reads_back(proposal):
        return None, (f"{where} would not read back from TASKS.md as one task (Markdown would "
                      "take it as something else); reword it in plain words.")
    return proposal, None


def _one_line_list(value: Any, name: str) -> tuple[list[str], str | None]:
    if value is None:
        return [], None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return [], f"{name} must be a list of text lines."
    items = [v.strip() for v in map(clean, value) if v.strip()]
    if any(_BREAK.search(v) for v in items):
        return [], f"{name}: each item must be one line."
    if any(len(v) > MAX_TASK_CHARS for v in items):
        return [], f"{name}: keep each item under {MAX_TASK_CHARS} characters."
    return items, None


def _reads_back(p: Proposal) -> bool:
    """The proposal's lines, on a board of their own and after an existing task, parse as
    exactly that task with exactly those details (so nothing in it opens a comment, a code
    block or anything else that would swallow or change a neighbour)."""
    lines = board_lines(p)
    for before in ([], ["- [ ] An earlier task\n"]):
        board = Board.parse("".join(before + lines + ["- [ ] A later task\n"]))
        tasks = board.tasks
        if len(tasks) != len(before) + 2 or tasks[-1].text != "A later task":
            return False
        task = tasks[len(before)]
        if (task.text != p.board_text or task.done_when != p.done_when
                or task.options != p.options or len(task.details) != len(p.done_when) + len(p.options)):
            return False
    return True


# A board made for proposals in a folder that had none: a heading and the template's
# explanation, without the template's example tasks (the person asked for these instead).
NEW_BOARD_HEAD = """# Tasks

Write one task per line as "- [ ] what you want done", in the order they should be done.
Under a task, add "  - Done when: ..." lines that say how to tell it is finished.
Start a task with "HUMAN:" when it is a decision only you should make; the run stops and asks you.

"""


def add_proposals(root: Path | str, proposals: list[Proposal]) -> tuple[list[TaskRef], bool]:
    """Append the proposals to the folder's TASKS.md through the board verbs, in one write:
    everything already on the board stays byte for byte. A folder without a board gets one.
    Returns the new tasks' refs and whether the board was created."""
    if not proposals:
        raise BoardError("There are no tasks to add.")
    path = Path(root) / BOARD_NAME
    items = [NewTask(p.text, p.human, tuple(p.done_when), tuple(p.options)) for p in proposals]
    if not os.path.lexists(path):
        board = Board.parse(NEW_BOARD_HEAD)
        refs = apply_new_tasks(board, [(p.board_text, list(p.done_when), list(p.options))
                                       for p in proposals])
        if not os.path.lexists(path):  # checked again: someone may have just made one
            atomic_write_bytes(path, board.to_bytes())
            return refs, True
    return add_tasks(path, items), False
