"""The window's words for careful mode's answers, through Qt's translation."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from app.core.policies.pending import OPTIONS



def answer_words(answer: str) -> str:
    words = {
        "allowed": QCoreApplication.translate("CarefulWording", "allowed"),
        "allowed_for_task": QCoreApplication.translate("CarefulWording", "allowed for the whole task"),
        "edited": QCoreApplication.translate("CarefulWording", "allowed with your edit"),
        "not_allowed": QCoreApplication.translate("CarefulWording", "not allowed"),
        "not_shown": QCoreApplication.translate("CarefulWording",
                                                "not made: you had not seen the change"),
        "refused": QCoreApplication.translate("CarefulWording", "refused: protected"),
        "waiting": QCoreApplication.translate("CarefulWording", "waiting for your answer"),
    }
    return words.get(answer, answer)


def approvals_line(approvals: list[tuple[str, str]]) -> str:
    """'Careful mode: notes.md allowed · draft.md not allowed' for a round card."""
    parts = [f"{path} {answer_words(answer)}" for path, answer in approvals[:6]]
    more = len(approvals) - 6
    if more > 0:
        parts.append(QCoreApplication.translate("CarefulWording", "and %1 more").replace("%1", str(more)))
    return QCoreApplication.translate("CarefulWording", "Careful mode: %1").replace("%1", " · ".join(parts))


# -- the question careful mode puts on the board when no one was there to answer ---------------
_CAREFUL = re.compile(r"Careful mode: may the AI (change|delete) your file (.+)\? \(change [0-9a-f]+\)")
_MANY = re.compile(r"The AI is changing more than (\d+) of your files in one round: may it "
                   r"(change|delete) your file (.+)\? \(change [0-9a-f]+\)")


def board_question(task) -> str | None:
    """The window's words for the question the core puts on the board about a kept change
    (written in English for the file, with the change's id at its end), or None when the
    task is not one."""
    if not getattr(task, "is_human", False) or list(task.options) != OPTIONS:
        return None
    if m := _CAREFUL.fullmatch(task.question):
        if m.group(1) == "delete":
            words = QCoreApplication.translate("CarefulWording",
                                               "Careful mode: may your file %1 be deleted?")
        else:
            words = QCoreApplication.translate("CarefulWording",
                                               "Careful mode: may your file %1 be changed?")
        return words.replace("%1", m.group(2))
    if m := _MANY.fullmatch(task.question):
        if m.group(2) == "delete":
            words = QCoreApplication.translate(
                "CarefulWording", "The AI is changing more than %1 of your files in one round: "
                "may it delete your file %2?")
        else:
            words = QCoreApplication.translate(
                "CarefulWording", "The AI is changing more than %1 of your files in one round: "
                "may it change your file %2?")
        return words.replace("%1", m.group(1)).replace("%2", m.group(3))
    return None


def board_option(option: str) -> str:
    return {"Allow": QCoreApplication.translate("CarefulWording", "Allow"),
            "Don't allow": QCoreApplication.translate("CarefulWording", "Don't allow")
            }.get(option, option)
