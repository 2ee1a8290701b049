"""The window's words for careful mode's answers, through Qt's translation."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def _tr(text: str) -> str:
    return QCoreApplication.translate("CarefulWording", text)


def answer_words(answer: str) -> str:
    return {
        "allowed": _tr("allowed"),
        "allowed_for_task": _tr("allowed for the whole task"),
        "edited": _tr("allowed with your edit"),
        "not_allowed": _tr("not allowed"),
        "refused": _tr("refused: protected"),
        "waiting": _tr("waiting for your answer"),
    }.get(answer, answer)


def approvals_line(approvals: list[tuple[str, str]]) -> str:
    """'Asked you: notes.md allowed · draft.md not allowed' for a round card."""
    parts = [f"{path} {answer_words(answer)}" for path, answer in approvals[:6]]
    more = len(approvals) - 6
    if more > 0:
        parts.append(_tr("and %1 more").replace("%1", str(more)))
    return _tr("Careful mode: %1").replace("%1", " · ".join(parts))
