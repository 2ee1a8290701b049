"""The approver port: how the core asks the person about one change, and what comes back.

The core calls `Approver.ask` on the run's thread and waits for it; the window implements it
on the UI thread (the run thread waits, watching `cancel`), the command line at a terminal.
`None` is "no answer": nobody at a terminal, Stop pressed, the app closing. It is never
taken as yes or no: the change is kept unapplied and the question goes on the board.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Literal, Protocol

from app.core.policies.rules import Action

if TYPE_CHECKING:  # pydantic: the window's build-out must not load it, to stay fast
    from app.core.web.types import WebActivity

AnswerKind = Literal["allow", "allow_task", "deny", "edit"]
EDITABLE_SUFFIXES = (".md", ".markdown", ".txt", ".text")


class Shown:
    """Where a request's diff was put before the person (the terminal, the window): an
    approver marks it as it shows the change, from any thread. A change kept for the board
    remembers it, so `decide --answer Allow` can allow only what the person has seen."""

    def __init__(self) -> None:
        self._where: list[str] = []
        self._lock = threading.Lock()

    def mark(self, where: str) -> None:
        with self._lock:
            if where not in self._where:
                self._where.append(where)

    @property
    def where(self) -> list[str]:
        with self._lock:
            return list(self._where)


@dataclass(frozen=True)
class ApprovalRequest:
    """One proposed change, as the person sees it: the file, before and after, and the id
    that names this very change in the records (and on the board, if it has to wait)."""

    round: int
    task: str
    path: str
    action: Action
    before: bytes | None          # None: the file does not exist yet
    after: bytes | None           # None: the file would be deleted
    reasons: list[str] = field(default_factory=list)
    policies: list[str] = field(default_factory=list)
    change_id: str = ""
    web: WebActivity | None = None  # what the round looked up before it asked
    shown: Shown = field(default_factory=Shown, compare=False, repr=False)

    @property
    def editable(self) -> bool:
        """The person may edit the change before allowing it: text and Markdown files."""
        if self.after is None or PurePosixPath(self.path).suffix.lower() not in EDITABLE_SUFFIXES:
            return False
        try:
            self.after.decode("utf-8")
            return True
        except UnicodeDecodeError:
            return False


@dataclass(frozen=True)
class Answer:
    kind: AnswerKind
    text: str | None = None       # "edit": what the person wants written instead

    def __post_init__(self) -> None:
        if self.kind == "edit" and self.text is None:
            raise ValueError("an edited answer carries the person's text")


class Approver(Protocol):
    def ask(self, request: ApprovalRequest, cancel: threading.Event) -> Answer | None:
        """The person's answer, or None when there is none (never a guess)."""
        ...


class NoOneToAsk:
    """No one is there to answer (a script, a service): every question waits on the board."""

    def ask(self, request: ApprovalRequest, cancel: threading.Event) -> Answer | None:
        return None
