"""The records the lessons are learned from: each run's round records, events and undo records,
read back once into plain data (a damaged line or file is skipped, never a crash)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from app.core.board.board import Board, BoardError
from app.core.records.events import Event
from app.core.records.records import (RoundRecord, RunInfo, read_events, read_rounds, read_run,
                               read_undone, undone_rounds)
from app.core.workspace.workspace import RunFiles, Workspace


@dataclass(frozen=True)
class UndoneRound:
    """A round whose changes the person took back with Undo."""

    round: int
    files: tuple[str, ...]
    undone_at: str


@dataclass
class RunHistory:
    """One run as the detectors see it. `number` is its place among the folder's runs, from 1."""

    run_id: str
    number: int
    started_at: str
    rounds: list[RoundRecord] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    undone: list[UndoneRound] = field(default_factory=list)
    engine: str = ""  # the engine its record names ("demo": the scripted Demo, no AI)

    def task_of(self, round_no: int) -> str:
        return next((r.task for r in self.rounds if r.round == round_no), "")

    def round_record(self, round_no: int) -> RoundRecord | None:
        return next((r for r in self.rounds if r.round == round_no), None)


@dataclass
class FolderHistory:
    """Every recorded run of a folder, oldest first, and the decisions the person answered."""

    runs: list[RunHistory] = field(default_factory=list)
    # normalised question -> (question, answer) for each answered HUMAN task on the board
    answered: dict[str, tuple[str, str]] = field(default_factory=dict)


def norm_words(text: str) -> str:
    """Text compared by its words: case, spacing and punctuation do not matter."""
    return " ".join(re.sub(r"[^\w]+", " ", text.casefold()).split())


def read_history(ws: Workspace) -> FolderHistory:
    """The folder's runs (oldest first, ids sort by time) and its answered decisions."""
    out = FolderHistory()
    for number, run_id in enumerate(ws.run_ids(), 1):
        files = ws.run_files(run_id)
        info: RunInfo | None = read_run(files)
        rounds = read_rounds(files)
        out.runs.append(RunHistory(
            run_id=run_id, number=number, started_at=info.started_at if info else "",
            rounds=rounds, events=read_events(files), undone=_undone(files),
            engine=info.engine if info else ""))
    out.answered = _answered(ws.board_path)
    return out


def _undone(files: RunFiles) -> list[UndoneRound]:
    """The rounds the person undid (undo/<N>.undone.json, the one record of an undo), each
    with the files the undo took back."""
    found = []
    for n in sorted(undone_rounds(files)):
        record = read_undone(files, n)
        if record is None:
            continue
        taken_back = {*record.restored, *record.removed, *(a for a, _ in record.kept_both)}
        found.append(UndoneRound(n, tuple(sorted(taken_back)), record.undone_at))
    return found


def _answered(board_path: Path) -> dict[str, tuple[str, str]]:
    try:
        tasks = Board.load(board_path).tasks
    except (BoardError, OSError):
        return {}
    return {norm_words(t.question): (t.question, t.answer) for t in tasks
            if t.is_human and t.checked and t.answer}
