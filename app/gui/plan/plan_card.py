"""A planning round as a card among the rounds: its goal, what came of it, steps, time, cost."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from app.gui.look import look
from app.gui.words import wording


def proposed_words(count: int | None) -> str:
    """"5 tasks proposed" (None: nothing was proposed)."""
    if count is None:
        return QCoreApplication.translate("PlanCard", "no tasks proposed")
    if count == 1:
        return QCoreApplication.translate("PlanCard", "1 task proposed")
    return QCoreApplication.translate("PlanCard", "%1 tasks proposed").replace("%1", str(count))


def steps_words(steps: int) -> str:
    if steps == 1:
        return QCoreApplication.translate("PlanCard", "1 step")
    return QCoreApplication.translate("PlanCard", "%1 steps").replace("%1", str(steps))


class PlanCard(QFrame):
    """One planning round. It changed no file, so it opens no evidence: everything is here."""

    def __init__(self, goal: str, proposed: int | None, steps: int, seconds: float | None,
                 cost_usd: float | None, parent: QWidget | None = None, upper: bool = False):
        super().__init__(parent)
        self.setObjectName("planCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.Base)
        head = QLabel(self)
        head.setTextFormat(Qt.TextFormat.PlainText)
        # The Demo's plan (no cost: no AI) is a sample: its title does not say "with AI".
        head.setText((self.tr("Plan with AI") if cost_usd is not None else
                      self.tr("Sample plan")) + "   " + proposed_words(proposed))
        head.setFont(look.scaled_font(head, 1.0, bold=True))
        look.set_tone(head, "ok" if proposed else "attention")
        what = QLabel(goal or self.tr("What could come next"), self)
        what.setTextFormat(Qt.TextFormat.PlainText)
        what.setWordWrap(True)
        numbers = [steps_words(steps)]
        if seconds is not None:  # as the round cards say it ("under 1 s", "2 s")
            numbers.append(wording.duration(seconds))
        # cost None: an engine with no AI (the Demo's scripted plan), said as on the run line
        numbers.append(wording.cost(cost_usd, upper) if cost_usd is not None
                       else self.tr("no AI used"))
        numbers.append(self.tr("no file changed"))
        meta = QLabel(" · ".join(numbers), self)
        meta.setToolTip(wording.tip(wording.STEP_TIP))
        look.set_tone(meta, "muted")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(2)
        for w in (head, what, meta):
            layout.addWidget(w)
        self.setAccessibleName(f"{head.text()}: {what.text()}")
        self.setAccessibleDescription(meta.text())


def plan_cards(plans) -> list[tuple[str, "PlanCard"]]:
    """Cards for recorded planning rounds (PlanRecord, oldest first), with their start times,
    as they were shown when each round ended: a folder opened again shows them too."""
    def when(value: str | None):
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None
        except ValueError:
            return None

    out = []
    for plan in plans:
        start, end = when(plan.started_at), when(plan.finished_at)
        seconds = max(0.0, (end - start).total_seconds()) if start and end else None
        proposed = len(plan.proposals) if plan.result == "proposed" else None
        out.append((plan.started_at, PlanCard(plan.goal, proposed, plan.steps, seconds,
                                              plan.cost_usd if plan.is_ai else None,
                                              upper=plan.cost_is_upper_estimate)))
    return out
