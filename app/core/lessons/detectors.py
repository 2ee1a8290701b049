"""The detectors: each a named function that reads one run and says what went wrong or was
wasteful in it, as sightings keyed by their cause, so the same cause groups across runs.

A detector takes the run and the folder's history and returns sightings; it never writes,
never asks an AI, and gives the same answer for the same records. Adding one is a function
here, its entry in DETECTORS (with how many sightings make a lesson) and its words in words.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from app.core.clean_text import clean_line
from app.core.records.events import (ChangeAnswered, ChangeRefused, HumanNeeded, NoticeSent, ToolCalled,
                             ToolRefused)
from app.core.lessons.history import FolderHistory, RunHistory, norm_words
from app.core.run.outcomes import RoundResult

# Rounds that ended with nothing to show: the file read in them did not help.
_NO_PROGRESS = (RoundResult.GAVE_UP, RoundResult.STEP_LIMIT, RoundResult.NO_ACTION,
                RoundResult.TIMEOUT)
_TOOL_EVENTS = (ToolCalled, ToolRefused)


@dataclass(frozen=True)
class Sighting:
    """One time a cause showed in the records. `key` names the cause (kind and subject)."""

    kind: str
    subject: str        # the file, tool, task or question the cause is about ("" for none)
    run_id: str
    run_number: int
    round: int
    task: str
    detail: str = ""    # the refusal's reason, the error, the findings, the answer

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.subject}"


def _seen(run: RunHistory, kind: str, subject: str, round_no: int, detail: str = "") -> Sighting:
    # Whatever the records hold (a model's findings, an old log), a lesson's words have no
    # terminal or direction controls: they are shown, and may go into AGENTS.md.
    return Sighting(kind, clean_line(subject), run.run_id, run.number, round_no,
                    clean_line(run.task_of(round_no)), " ".join(clean_line(detail).split())[:300])


def _path_refused(e: ToolRefused) -> bool:
    """The refusal was about the path itself (the sandbox's sentences start "Refused"), not
    about how the tool was called."""
    path = e.arguments.get("path")
    return isinstance(path, str) and bool(path) and (e.reason.startswith("Refused")
                                                     or path in e.reason)


def refused_paths(run: RunHistory, folder: FolderHistory) -> list[Sighting]:
    """The harness refused a tool call on a path (outside the folder, the harness's own
    files). A change the person or a protection turned down is its own lesson (below)."""
    turned_down = _turned_down_in(run)
    return [_seen(run, "refused_path", str(e.arguments["path"]), e.round, e.reason)
            for e in run.events if isinstance(e, ToolRefused) and _path_refused(e)
            and (e.round, e.arguments.get("path")) not in turned_down]


def refused_tools(run: RunHistory, folder: FolderHistory) -> list[Sighting]:
    """The harness refused a tool call for how it was made (no such tool, bad arguments)."""
    turned_down = _turned_down_in(run)
    return [_seen(run, "refused_tool", e.tool, e.round, e.reason)
            for e in run.events if isinstance(e, ToolRefused) and not _path_refused(e)
            and (e.round, e.arguments.get("path")) not in turned_down]


def tool_errors(run: RunHistory, folder: FolderHistory) -> list[Sighting]:
    """A tool ran and answered with an error (text not found, a file that is not there). A
    change the person or a protection turned down is its own lesson (below), not an error."""
    turned_down = _turned_down_in(run)
    return [_seen(run, "tool_error", e.tool, e.round, e.result)
            for e in run.events if isinstance(e, ToolCalled) and e.is_error
            and (e.round, e.arguments.get("path")) not in turned_down]


def _turned_down_in(run: RunHistory) -> set[tuple[int, str]]:
    """(round, path) of each change a protection refused or the person did not allow."""
    return {(e.round, e.path) for e in run.events
            if isinstance(e, ChangeRefused)
            or (isinstance(e, ChangeAnswered) and e.answer == "not_allowed")}


def changes_not_allowed(run: RunHistory, folder: FolderHistory) -> list[Sighting]:
    """Careful mode asked, and the person said "Don't allow" (in the window, at a terminal,
    or later on the board): one sighting per file and round."""
    seen: dict[tuple[int, str], Sighting] = {}
    for e in run.events:
        if isinstance(e, ChangeAnswered) and e.answer == "not_allowed":
            seen.setdefault((e.round, e.path), _seen(run, "not_allowed", e.path, e.round,
                                                     e.action))
    return list(seen.values())


def protected_refusals(run: RunHistory, folder: FolderHistory) -> list[Sighting]:
    """The AI tried to change or delete a file the person protected (refused, never asked)."""
    return [_seen(run, "protected", e.path, e.round, e.reason)
            for e in run.events if isinstance(e, ChangeRefused)]


def rereads_in_stalled_rounds(run: RunHistory, folder: FolderHistory) -> list[Sighting]:
    """The same file read in round after round that ended with nothing done: one sighting
    per such round and file."""
    stalled = {r.round for r in run.rounds
               if r.result_state in _NO_PROGRESS and not r.changed_artifacts}
    seen: dict[tuple[int, str], Sighting] = {}
    for e in run.events:
        if isinstance(e, ToolCalled) and e.tool == "read_file" and e.round in stalled \
                and isinstance(e.arguments.get("path"), str):
            path = e.arguments["path"]
            seen.setdefault((e.round, path), _seen(run, "reread", path, e.round))
    return list(seen.values())


def text_only_turns(run: RunHistory, folder: FolderHistory) -> list[Sighting]:
    """The AI answered in words with no tool call, and the harness nudged it."""
    return _notices(run, "nudge", "text_only")


def long_rounds(run: RunHistory, folder: FolderHistory) -> list[Sighting]:
    """A round ran long: the harness sent its stall notice, or the round used all its steps."""
    rounds = {e.round for e in run.events if isinstance(e, NoticeSent)
              and e.kind in ("stall", "final_warning")}
    rounds |= {r.round for r in run.rounds if r.result_state in (RoundResult.STEP_LIMIT,
                                                                  RoundResult.TIMEOUT)}
    return [_seen(run, "long_round", "", n) for n in sorted(rounds)]


def repeated_calls(run: RunHistory, folder: FolderHistory) -> list[Sighting]:
    """The harness corrected the AI for repeating the same call; the subject is that tool."""
    out, last_tool = [], {}
    for e in run.events:
        if isinstance(e, _TOOL_EVENTS):
            last_tool[e.round] = e.tool
        elif isinstance(e, NoticeSent) and e.kind == "correction":
            out.append(_seen(run, "repeated_call", last_tool.get(e.round, ""), e.round))
    return out


def give_ups_with_findings(run: RunHistory, folder: FolderHistory) -> list[Sighting]:
    """A round gave up on its task and said what it found: worth carrying to the next try."""
    return [_seen(run, "gave_up", r.task, r.round, r.findings)
            for r in run.rounds if r.result_state == RoundResult.GAVE_UP and r.findings.strip()]


def undone_rounds(run: RunHistory, folder: FolderHistory) -> list[Sighting]:
    """The person undid a round: one sighting per file it had changed."""
    return [_seen(run, "undone", path, u.round) for u in run.undone for path in u.files]


def questions_already_answered(run: RunHistory, folder: FolderHistory) -> list[Sighting]:
    """The AI asked a question the person has answered on the board (each asking counts, the
    first included: asked twice means the answer was not used)."""
    out = []
    for e in run.events:
        if isinstance(e, HumanNeeded) and e.reason == "asked":
            found = folder.answered.get(norm_words(e.question))
            if found:
                out.append(_seen(run, "asked_again", found[0], e.round, found[1]))
    return out


Detector = Callable[[RunHistory, FolderHistory], list[Sighting]]

# Each cause's kind, its detector, and how many sightings of one cause (across all runs) make
# it a lesson: a single undo, "Don't allow" or give-up is the person's or the AI's own clear
# word; the rest must repeat before they are worth a standing instruction.
DETECTORS: tuple[tuple[str, Detector, int], ...] = (
    ("refused_path", refused_paths, 2),
    ("refused_tool", refused_tools, 2),
    ("tool_error", tool_errors, 3),
    ("reread", rereads_in_stalled_rounds, 2),
    ("text_only", text_only_turns, 2),
    ("long_round", long_rounds, 2),
    ("repeated_call", repeated_calls, 2),
    ("gave_up", give_ups_with_findings, 1),
    ("undone", undone_rounds, 1),
    ("asked_again", questions_already_answered, 2),
    ("not_allowed", changes_not_allowed, 1),
    ("protected", protected_refusals, 2),
)


def _notices(run: RunHistory, notice_kind: str, kind: str) -> list[Sighting]:
    return [_seen(run, kind, "", e.round) for e in run.events
            if isinstance(e, NoticeSent) and e.kind == notice_kind]


# The Demo engine's id (app/engines/demo): a scripted run of no AI, whose sample notes and
# example files say nothing about how an AI should work in this folder.
DEMO_ENGINE = "demo"


def sightings(run: RunHistory, folder: FolderHistory) -> list[Sighting]:
    """Everything every detector saw in one run; nothing in a Demo run (undoing its sample
    note is no lesson for an AI that never ran)."""
    if run.engine == DEMO_ENGINE:
        return []
    return [s for _, detect, _ in DETECTORS for s in detect(run, folder)]


def min_count(kind: str) -> int:
    return next((n for k, _, n in DETECTORS if k == kind), 2)
