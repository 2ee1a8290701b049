"""What a round card says, built by one function (`card_text`) from a RoundView.

A RoundView is what the window keeps of a round (from a live `RoundFinished` event or a
`RoundRecord` read back): a few short strings, so a thousand of them cost well under a
megabyte. The card's words, its tones and what a screen reader says are all made here, so a
new line on the card (e.g. what the round looked up) is one more `CardLine` in `card_text`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from PySide6.QtCore import QCoreApplication

from app.core.run.outcomes import RoundResult
from app.gui.words import wording


@dataclass
class RoundView:
    """What a card shows about one round."""

    round: int
    task: str
    result_state: str
    changed: list[str] = field(default_factory=list)
    seconds: float | None = None
    cost_usd: float = 0.0
    summary: str = ""
    is_ai: bool = True
    run_id: str = ""
    approvals: list[tuple[str, str]] = field(default_factory=list)  # (path, answer)
    undone: bool = False       # the person undid it: its changes were taken back
    run_started: str = ""      # when its run started (two runs each have a "Round 2")
    upper: bool = False        # its cost is an upper estimate: the model's price is not known
    web: object = None         # what it looked up on the web (core.web_types.WebActivity)
    lookup_cap: int = 0        # the task's cap on lookups, when reaching it ended the round

    @classmethod
    def from_record(cls, record, is_ai: bool = True, undone: bool = False,
                    upper: bool = False) -> "RoundView":
        return cls(record.round, record.task, record.result_state,
                   list(record.changed_artifacts), seconds_between(record.started_at,
                                                                   record.finished_at),
                   record.cost_usd, record.summary or record.findings or record.error or "",
                   is_ai, record.run_id,
                   [(a.path, a.answer) for a in getattr(record, "approvals", [])], undone,
                   upper=upper, web=getattr(record, "web", None),
                   lookup_cap=getattr(record, "lookup_cap", 0))


def seconds_between(start: str | None, end: str | None) -> float | None:
    if start is None or end is None:
        return None
    try:
        return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()
    except (TypeError, ValueError):
        return None


@dataclass
class CardLine:
    """One line of a card: its text, its tone (None, "muted", "ok", "attention") and an
    object name for the lines a test or a style sheet looks for."""

    text: str
    tone: str | None = None
    name: str = ""
    wrap: bool = True


@dataclass
class CardText:
    """Everything a card says: its head line, the lines under it, and the screen reader's
    name and description of the whole card."""

    head: str
    head_tone: str | None
    lines: list[CardLine]
    accessible_name: str
    accessible_description: str


def sample_said(wrote: bool) -> str:
    """What a Demo round on the person's task did: wrote its sample note, or (`wrote` False:
    no file changed) found the same note already there from an earlier round."""
    return QCoreApplication.translate(
        "RoundCard", "Wrote a sample note for this task (no AI was used).") if wrote else \
        QCoreApplication.translate(
            "RoundCard", "Its sample note from an earlier round was already there, word for "
            "word, so nothing was written (no AI was used).")


def card_text(view: RoundView) -> CardText:
    """The card of one round, in the person's language."""
    mark, outcome = wording.round_outcome(view.result_state, view.lookup_cap)
    tone = "ok" if view.result_state == RoundResult.COMPLETED else (
        "attention" if view.result_state not in (RoundResult.CANCELLED,) else None)
    if view.undone:  # what stands now: the round's changes were taken back
        mark, outcome, tone = "↶", QCoreApplication.translate(
            "RoundCard", "Undone: its changes were taken back"), None
    head = QCoreApplication.translate("RoundCard", "Round %1").replace(
        "%1", str(view.round)) + f"   {mark} {outcome}"
    files = (QCoreApplication.translate("RoundCard", "Had changed: %1").replace(
        "%1", ", ".join(view.changed[:3]) + ("…" if len(view.changed) > 3 else ""))
        if view.undone and view.changed else wording.files_changed(view.changed))
    numbers = []
    if view.seconds is not None:
        numbers.append(wording.duration(view.seconds))
    if view.is_ai:
        numbers.append(wording.cost(view.cost_usd, view.upper))
    lines = [CardLine(view.task), CardLine(files)]
    approvals = ""
    if view.approvals:
        from app.gui.words.careful_words import (  # noqa: PLC0415 - window start-up (bench/startup.py)
            approvals_line)

        approvals = approvals_line(view.approvals)
        lines.append(CardLine(approvals, name="roundApprovals"))
    from app.gui.words.web_words import (  # noqa: PLC0415 - window start-up (bench/startup.py)
        card_lines)

    looked = "\n".join(card_lines(view.web))  # what it looked up on the web
    if looked:
        lines.append(CardLine(looked, name="roundLookups"))
    said = view.summary
    if view.result_state == RoundResult.ENGINE_ERROR and said:
        # The core's sentence is English and the run's state already says why in full.
        from app.gui.words.engine_words import (  # noqa: PLC0415 - window start-up (bench/startup.py)
            round_problem)

        said = round_problem()
    elif view.result_state == RoundResult.STEP_LIMIT and view.lookup_cap:
        # The core's sentence is English; the head already says the limit was reached.
        said = QCoreApplication.translate(
            "RoundCard", "No lookups are left for this task in this run. Raise “Web lookups "
            "per task” in Settings to let it look further.")
    elif view.result_state == RoundResult.SAMPLE and not view.is_ai:
        # The Demo engine's fixed sentence, in the language of the task it was given: the
        # window's own words instead, in the person's language.
        said = sample_said(bool(view.changed))
    if said:
        lines.append(CardLine(wording.short(said, 400), "muted"))
    meta = " · ".join(numbers)
    if numbers:
        lines.append(CardLine(meta, "muted", wrap=False))
    description = ". ".join(p for p in (
        files, approvals, looked.replace("\n", ". "), meta, said,
        QCoreApplication.translate("RoundCard", "Press Enter to open it")) if p)
    return CardText(head, tone, lines, f"{head}: {view.task}", description)
