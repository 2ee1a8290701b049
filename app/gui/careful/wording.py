"""The window's words for careful mode's answers, through Qt's translation."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication



def answer_words(answer: str) -> str:
    words = {
        "allowed": QCoreApplication.translate("CarefulWording", "allowed"),
        "allowed_for_task": QCoreApplication.translate("CarefulWording", "allowed for the whole task"),
        "edited": QCoreApplication.translate("CarefulWording", "allowed with your edit"),
        "not_allowed": QCoreApplication.translate("CarefulWording", "not allowed"),
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
def board_question(task) -> str | None:
    """The window's words for careful mode's board question (the core writes it in English
    for the file), or None when the task is not one."""
    from app.core.policies.pending import OPTIONS

    if not getattr(task, "is_human", False) or list(task.options) != OPTIONS:
        return None
    m = re.fullmatch(r"Careful mode: may the AI (change|delete) your file (.+)\?", task.question)
    if m is None:
        return None
    if m.group(1) == "delete":
        return QCoreApplication.translate("CarefulWording",
                                          "Careful mode: may the AI delete your file %1?"
                                          ).replace("%1", m.group(2))
    return QCoreApplication.translate("CarefulWording",
                                      "Careful mode: may the AI change your file %1?"
                                      ).replace("%1", m.group(2))


def board_option(option: str) -> str:
    return {"Allow": QCoreApplication.translate("CarefulWording", "Allow"),
            "Don't allow": QCoreApplication.translate("CarefulWording", "Don't allow")
            }.get(option, option)
