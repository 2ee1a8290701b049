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
    created: list[str] = field(default_factory=list)  # of `changed`, the files it made new

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
                   lookup_cap=getattr(record, "lookup_cap", 0),
                   created=list(getattr(record, "created_artifacts", None) or []))


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


def unbroken(name: str) -> str:
    """A file name as shown in running text, kept whole on a line where it fits: its hyphens
    non-breaking (U+2011) and a word joiner (U+2060, not drawn) after each slash, so a line
    never ends at "par-" with "alignment.docx" under it, nor at "demo-output/" (Qt breaks
    after both; in Chinese, where the name follows a character with no space, it broke at
    the slash rather than before the name)."""
    return name.replace("-", "\u2011").replace("/", "/\u2060")


def plain(text: str) -> str:
    """Shown text as a screen reader says it: the file names' own hyphens and slashes."""
    return text.replace("\u2011", "-").replace("\u2060", "")


def names_whole(text: str, names: list[str]) -> str:
    """`text` with each of the file `names` in it kept whole on a line (unbroken), longest
    first so a name inside another is not broken up first."""
    for name in sorted(set(names), key=len, reverse=True):
        if "-" in name or "/" in name:
            text = text.replace(name, unbroken(name))
    return text


def files_line(changed: list[str], created: list[str]) -> str:
    """What the round did to files: "1 new file: drafts/contact.docx", "2 files changed: …",
    or both counted ("1 new file, 2 changed: …", the new ones named first); names whole."""
    if not changed:
        return QCoreApplication.translate("RoundCard", "No files changed")
    new = [p for p in changed if p in created]
    old = [p for p in changed if p not in created]
    ordered = new + old
    names = ", ".join(unbroken(p) for p in ordered[:3]) + ("…" if len(ordered) > 3 else "")
    if not new:
        said = (QCoreApplication.translate("RoundCard", "1 file changed: %2") if len(old) == 1
                else QCoreApplication.translate("RoundCard", "%1 files changed: %2"))
    elif not old:
        said = (QCoreApplication.translate("RoundCard", "1 new file: %2") if len(new) == 1
                else QCoreApplication.translate("RoundCard", "%1 new files: %2"))
    else:
        said = (QCoreApplication.translate("RoundCard", "1 new file, %3 changed: %2")
                if len(new) == 1 else
                QCoreApplication.translate("RoundCard", "%1 new files, %3 changed: %2")
                ).replace("%3", str(len(old)))
    return said.replace("%1", str(len(new) or len(old))).replace("%2", names)


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
        "%1", ", ".join(unbroken(p) for p in view.changed[:3])
        + ("…" if len(view.changed) > 3 else ""))
        if view.undone and view.changed else files_line(view.changed, view.created))
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
    return CardText(head, tone, lines, f"{head}: {view.task}", plain(description))
