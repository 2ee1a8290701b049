"""Answering the person's decisions: the first open HUMAN task, and writing its answer."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.core.board import Board, BoardError, Task, one_line, update_board
from app.core.errors import UsageError
from app.core.workspace import Workspace


class EmptyAnswer(UsageError):
    """The answer had no words in it."""


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


def decide(root: Path | str, answer: str, *, task_text: str | None = None) -> Decided:
    """Answer the first open decision (or the one whose task text is `task_text`, as the
    window names the decision it showed): check its HUMAN task and add an `Answer:` line.

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
        return board.answer_human(answer, task_text)

    try:
        task = update_board(ws.board_path, answer_it)
    except BoardError as err:
        raise UsageError(str(err)) from None
    return Decided(question=task.question, answer=answer)
