"""How the agent ended a round through a tool: completed, asked the person, gave up, or (an
engine without AI on a person's task) showed a sample."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Union

from app.core.run.outcomes import RoundResult


@dataclass(frozen=True)
class Completed:
    """complete_task: the task was checked off on the board."""

    result: ClassVar[RoundResult] = RoundResult.COMPLETED
    summary: str
    evidence: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Asked:
    """ask_human: a decision was put on the board, exactly as written here."""

    result: ClassVar[RoundResult] = RoundResult.NEEDS_HUMAN
    question: str
    options: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    recommendation: str | None = None
    kind: str = "asked"  # "approval": careful mode put a change's question on the board


@dataclass(frozen=True)
class GaveUp:
    """give_up: the round ended honestly with what was learned."""

    result: ClassVar[RoundResult] = RoundResult.GAVE_UP
    reason: str
    findings: str = ""


@dataclass(frozen=True)
class Sampled:
    """complete_task from an engine that only shows how a run looks (the Demo engine on a
    person's own task): the task stays unticked; what it wrote is a sample, not the work."""

    result: ClassVar[RoundResult] = RoundResult.SAMPLE
    summary: str
    evidence: list[str] = field(default_factory=list)


# `result` is the round's result_state in the round record.
RoundEnding = Union[Completed, Asked, GaveUp, Sampled]


def record_fields(ending: RoundEnding | None) -> tuple[str, list[str], str]:
    """The round record's summary, evidence and findings, from how the round ended."""
    if isinstance(ending, (Completed, Sampled)):
        return ending.summary, ending.evidence, ""
    if isinstance(ending, Asked):
        return ending.question, ending.evidence, ""
    if isinstance(ending, GaveUp):
        return ending.reason, [], ending.findings
    return "", [], ""
