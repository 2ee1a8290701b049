"""The safety policies: small, separate functions checked before every change to a file.

Each policy reads what a tool declared it touches (a `Touch`) and the run's situation (a
`Situation`) and answers allow, ask or refuse with a reason. None of them knows a tool's
name: `write_file`, `edit_file`, `delete_file` and `set_cells` all reach them the same way,
through the declaration in `tool_specs.FILE_CHANGES`. `decide` combines the answers: one
refusal refuses; otherwise one "ask" asks (once, with every reason); otherwise allowed.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Callable, Literal

Action = Literal["change", "delete"]
Outcome = Literal["allow", "ask", "refuse"]
DEFAULT_MANY_CHANGES = 10


@dataclass(frozen=True)
class Touch:
    """One file a tool call is about to change or delete."""

    path: str            # workspace-relative, as the sandbox resolved it ('notes/plan.md')
    action: Action
    existing: bool       # in the folder before this run, not created by it (the person's own)


@dataclass
class Situation:
    """What the policies need to know about the run at the moment of the change."""

    careful: bool = False
    protected: list[str] = field(default_factory=list)   # the folder settings' entries
    many_changes: int = DEFAULT_MANY_CHANGES
    changed_this_round: set[str] = field(default_factory=set)  # existing files changed so far
    task_allowed: bool = False     # "Allow all for this task"
    round_allowed: bool = False    # the person said yes to many changes in this round


@dataclass(frozen=True)
class Verdict:
    outcome: Outcome
    policy: str
    reason: str


def _allow(policy: str, reason: str) -> Verdict:
    return Verdict("allow", policy, reason)


def _verb(touch: Touch) -> str:
    return "delete" if touch.action == "delete" else "change"


def _same(path: str) -> str:
    """A path as compared: one Unicode spelling (NFC; macOS hands out NFD names), any case.
    Casefolding can un-compose (ß, ﬁ), so it is composed again after."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", path).casefold())


def protected_paths(touch: Touch, s: Situation) -> Verdict:
    """Folders and files the person marked as never to be changed: refused in every mode,
    new files inside a protected folder included."""
    name = "protected_paths"
    target = _same(touch.path)
    for entry in s.protected:
        mark = _same(entry.strip().strip("/"))
        if mark in ("", "."):
            return Verdict("refuse", name, f"The person protected the whole folder, so "
                           f"'{touch.path}' may not be changed.")
        if target == mark or target.startswith(mark + "/"):
            what = "file" if target == mark else f"folder '{entry.strip().strip('/')}'"
            return Verdict("refuse", name, f"The person marked the {what} as never to be "
                           f"changed, so '{touch.path}' may not be {_verb(touch)}d. Leave it "
                           "as it is; put new work in another file outside it.")
    return _allow(name, "not protected")


def existing_files_need_approval(touch: Touch, s: Situation) -> Verdict:
    """Careful mode: changing or deleting a file that was in the folder before this run
    waits for the person's yes. Files this run created are free."""
    name = "existing_files_need_approval"
    if not s.careful:
        return _allow(name, "careful mode is off")
    if not touch.existing:
        return _allow(name, "the file is new in this run")
    if s.task_allowed:
        return _allow(name, "the person allowed every change for this task")
    return Verdict("ask", name, f"'{touch.path}' was in the folder before this run; careful "
                   f"mode asks the person before it is {_verb(touch)}d.")


def many_changes_at_once(touch: Touch, s: Situation) -> Verdict:
    """More than a set number of the person's existing files in one round: ask once, for
    all of them, in any mode."""
    name = "many_changes_at_once"
    if not touch.existing or touch.path in s.changed_this_round:
        return _allow(name, "not a further file of the person's")
    count = len(s.changed_this_round) + 1
    if count <= s.many_changes or s.round_allowed or s.task_allowed:
        return _allow(name, f"{count} of the person's files in this round")
    return Verdict("ask", name, f"This round would change more than {s.many_changes} files "
                   "that were in the folder before the run; the person is asked once for all.")


Policy = Callable[[Touch, Situation], Verdict]
POLICIES: tuple[Policy, ...] = (protected_paths, existing_files_need_approval,
                                many_changes_at_once)


def decide(touch: Touch, s: Situation,
           policies: tuple[Policy, ...] = POLICIES) -> tuple[Outcome, list[Verdict]]:
    """Every policy's verdict, and what they add up to: the refusals if any, else the
    questions if any, else allow."""
    verdicts = [p(touch, s) for p in policies]
    for outcome in ("refuse", "ask"):
        hits = [v for v in verdicts if v.outcome == outcome]
        if hits:
            return outcome, hits
    return "allow", verdicts
