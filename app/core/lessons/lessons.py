"""Lessons: the detectors' sightings grouped by cause across the folder's runs, each with its
evidence, a proposed line for AGENTS.md, what the person did with it, and its effect since.

A lesson's number is given the first time it is listed and kept in the store, so the number
`lessons` prints is the one `--accept N` takes, whatever new runs add in between (new lessons
get the next numbers; first-time numbers follow the order the causes first showed in).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from app.core.lessons.agents_file import plain_line
from app.core.lessons.detectors import Sighting, min_count, sightings
from app.core.lessons.history import FolderHistory, read_history
from app.core.lessons.store import LessonStore, load_store, save_store
from app.core.lessons.words import LANGUAGES, folder_language, proposed_line
from app.core.records.model import Record
from app.core.workspace.workspace import Workspace

LessonState = Literal["open", "accepted", "dismissed"]


class Evidence(Record):
    """One place in the records where the lesson's cause showed."""

    run_id: str
    run_number: int   # the run's place among the folder's runs, from 1
    round: int
    task: str = ""
    detail: str = ""


class Effect(Record):
    """How often the cause came back in runs that started after the lesson was accepted."""

    runs_since: int = 0
    runs_with_pattern: int = 0

    def sentence(self) -> str:
        return f"since accepted: {self.runs_with_pattern} of {self.runs_since} runs"


class Lesson(Record):
    number: int
    key: str                      # the cause: kind and subject
    kind: str
    subject: str = ""
    count: int                    # sightings across all runs
    runs: list[str] = Field(default_factory=list)     # run ids, oldest first
    evidence: list[Evidence] = Field(default_factory=list)
    line: str                     # the proposed line, in the folder's language
    lines: dict[str, str] = Field(default_factory=dict)  # the harness's own words, per language
    reworded: bool = False        # `line` is an AI's clearer wording of the harness's line
    state: LessonState = "open"
    decided_at: str | None = None  # when accepted or dismissed
    effect: Effect | None = None   # accepted lessons only

    def places(self) -> list[tuple[Evidence, int]]:
        """Each round the cause showed in once, with how many times it showed there."""
        out: dict[tuple[str, int], list[Any]] = {}  # [evidence, count]
        for ev in self.evidence:
            out.setdefault((ev.run_id, ev.round), [ev, 0])[1] += 1
        return [(ev, n) for ev, n in out.values()]

    @property
    def files(self) -> list[str]:
        about_a_file = ("refused_path", "reread", "undone", "not_allowed", "protected")
        return [self.subject] if self.kind in about_a_file else []


class FolderLessons(Record):
    language: str = "en"          # the folder's language: the lines are written in it
    lessons: list[Lesson] = Field(default_factory=list)   # by number
    run_ids: list[str] = Field(default_factory=list)

    def shown(self, include_dismissed: bool = False) -> list[Lesson]:
        return [x for x in self.lessons if include_dismissed or x.state != "dismissed"]

    def from_run(self, run_id: str) -> list[Lesson]:
        """Open lessons the run added evidence to: what "1 lesson from this run" counts."""
        return [x for x in self.lessons if x.state == "open" and run_id in x.runs]

    def numbered(self, number: int) -> Lesson | None:
        return next((x for x in self.lessons if x.number == number), None)


def find_lessons(root: Path | str, *, save_numbers: bool = True) -> FolderLessons:
    """The folder's lessons. Gives new lessons their numbers and keeps them in the store
    (unless `save_numbers` is False, or the folder has no harness data yet)."""
    ws = Workspace(root).require(need_board=False)
    history = read_history(ws)
    store = load_store(ws.harness_dir)
    before = dict(store.numbers)
    lessons = group(history, store, folder_language(ws.root))
    if save_numbers and store.numbers != before and ws.harness_dir.is_dir():
        save_store(ws.harness_dir, store)
    return FolderLessons(language=folder_language(ws.root), lessons=lessons,
                         run_ids=[r.run_id for r in history.runs])


def group(history: FolderHistory, store: LessonStore, language: str) -> list[Lesson]:
    """Sightings grouped by cause; the causes seen often enough become lessons."""
    by_key: dict[str, list[Sighting]] = defaultdict(list)
    for run in history.runs:
        for s in sightings(run, history):
            by_key[s.key].append(s)
    causes = [seen for seen in by_key.values() if len(seen) >= min_count(seen[0].kind)
              or seen[0].key in store.decisions]
    # New numbers in the order the causes first showed in the records.
    causes.sort(key=lambda seen: (seen[0].run_number, seen[0].round, seen[0].key))
    out = []
    for seen in causes:
        first = seen[0]
        decision = store.decisions.get(first.key)
        lines = {lang: proposed_line(first.kind, first.subject, seen, lang) for lang in LANGUAGES}
        line = store.reworded.get(first.key) or lines[language]
        if decision is not None and decision.state == "accepted" and decision.line:
            line = decision.line
        line = plain_line(line)  # as shown, so as written (agents_file.with_line)
        lesson = Lesson(
            number=store.number_for(first.key), key=first.key, kind=first.kind,
            subject=first.subject, count=len(seen),
            runs=list(dict.fromkeys(s.run_id for s in seen)),
            evidence=[Evidence(run_id=s.run_id, run_number=s.run_number, round=s.round,
                               task=s.task, detail=s.detail) for s in seen],
            line=line, lines=lines, reworded=first.key in store.reworded,
            state=decision.state if decision else "open",
            decided_at=decision.at if decision else None)
        if decision is not None and decision.state == "accepted":
            lesson.effect = _effect(history, seen, decision.at)
        out.append(lesson)
    return sorted(out, key=lambda x: x.number)


def _effect(history: FolderHistory, seen: list[Sighting], accepted_at: str) -> Effect:
    """Runs started after the acceptance, and how many of them showed the cause again.
    Times are UTC ISO strings of one format, so they compare as text."""
    since = [r.run_id for r in history.runs if r.started_at and r.started_at > accepted_at]
    again = {s.run_id for s in seen} & set(since)
    return Effect(runs_since=len(since), runs_with_pattern=len(again))
