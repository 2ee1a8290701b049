"""Answering the person's decisions: the first open HUMAN task, and writing its answer."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.core.board.board import Board, BoardError, Task, one_line, update_board
from app.core.errors import UsageError
from app.core.policies import pending
from app.core.workspace.workspace import Workspace


class EmptyAnswer(UsageError):
    """The answer had no words in it."""


class NotShown(UsageError):
    """An Allow for a kept change the person has not been shown: nothing was written."""

    def __init__(self, file: str, folder: str):
        super().__init__(not_shown_sentence(file, folder))
        self.file = file


def not_shown_sentence(file: str, folder: str) -> str:
    return (f"You have not seen the change to {file} yet, so it was not allowed: look at it "
            f"first with `harness-desk approve {folder}`, or open the folder in the Harness "
            "Desk window.")


@dataclass(frozen=True)
class Decided:
    """A decision that was just answered: its question and the answer as written."""

    question: str
    answer: str


def open_decision(root: Path | str) -> Task | None:
    """The first unchecked HUMAN task on the folder's board, or None when nothing waits."""
    ws = Workspace(root).require()
    try:
        board = Board.load(ws.board_path)
    except BoardError as err:
        raise UsageError(str(err)) from None
    return next((t for t in board.tasks if t.is_human and not t.checked), None)


def decide(root: Path | str, answer: str, *, task_text: str | None = None,
           seen: str | None = None, folder_word: str | None = None) -> Decided:
    """Answer the first open decision (or the one whose task text is `task_text`, as the
    window names the decision it showed): check its HUMAN task and add an `Answer:` line.

    A decision about a kept change (its question carries the change's id) is answered on
    that change's record too: an Allow only when the change was shown to the person (at a
    terminal, in the window, by `harness-desk approve`, or just now: `seen` says where),
    else NotShown; `folder_word` is how that sentence names the folder.

    The next run reads the answer from the board and carries on. Raises UsageError with one
    sentence when the folder has no board, the answer is empty, or nothing waits for one.
    """
    ws = Workspace(root).require()
    answer = " ".join(one_line(answer or "").split())  # as the board shows it: one line,
    # single spaces, no terminal or direction controls
    if not answer:
        raise EmptyAnswer("The answer is empty. Write what you decided.")

    def answer_it(board: Board) -> Task:
        if task_text is not None:
            named = board.find(task_text)
            if named is None or not named.is_human:
                raise BoardError(f"The decision “{one_line(task_text)}” is no longer on the "
                                 "board.")
        else:
            named = next((t for t in board.tasks if t.is_human and not t.checked), None)
        if named is not None and pending.marker_of(named.question):
            _answer_change(ws, named, answer, seen, folder_word or str(ws.root))
        return board.answer_human(answer, task_text)

    try:
        task = update_board(ws.board_path, answer_it)
    except BoardError as err:
        raise UsageError(str(err)) from None
    return Decided(question=task.question, answer=answer)


def _answer_change(ws: Workspace, task: Task, answer: str, seen: str | None,
                   folder_word: str) -> None:
    """Put the answer on the change's own record first (the board follows)."""
    kept = pending.find(ws.harness_dir / "pending", pending.marker_of(task.question))
    allowed = pending.is_yes(answer)
    if kept is None:
        if allowed:
            raise UsageError("The change this question is about is no longer waiting (it was "
                             "made, refused or dropped), so there is nothing to allow.")
        return
    if allowed and kept.answer == "not_allowed":
        raise UsageError(f"You already refused this change to {kept.path}; it will not be "
                         "made.")
    if seen:
        kept = pending.mark_shown(kept, seen)
    if allowed and not kept.shown:
        raise NotShown(kept.path, folder_word)
    pending.record_answer(kept, allowed, answer, via=seen or "decide")
