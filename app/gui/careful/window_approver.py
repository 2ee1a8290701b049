"""The window's side of the approver port: the run thread asks, the UI thread answers.

`ask` runs on the run's thread: it hands the request to the UI thread through a queued
signal and waits, watching `cancel` (Stop, the window closing), until the person answers.
Nothing here touches a widget, and the UI thread never waits: it answers through
`Question.answer`, at any time, once. A question whose run gave up waiting is `withdrawn`.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Qt, Signal

from app.core.policies.approver import Answer, ApprovalRequest

POLL_S = 0.1


class Question:
    """One request waiting for the person; answered at most once."""

    def __init__(self, request: ApprovalRequest):
        self.request = request
        self._answer: Answer | None = None
        self._done = threading.Event()

    @property
    def open(self) -> bool:
        return not self._done.is_set()

    def answer(self, answer: Answer) -> None:
        if self._done.is_set():
            return
        self._answer = answer
        self._done.set()

    def withdraw(self) -> None:
        self._done.set()

    def wait(self, cancel: threading.Event) -> Answer | None:
        while not self._done.wait(POLL_S):
            if cancel.is_set():
                self.withdraw()
                return None
        return self._answer


class WindowApprover(QObject):
    """Lives on the UI thread; `ask` is called from the run's thread."""

    approval_needed = Signal(object)    # a Question, on the UI thread
    approval_withdrawn = Signal(object)  # the Question the run stopped waiting for

    _asked = Signal(object)
    _withdrawn = Signal(object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._asked.connect(self.approval_needed, Qt.ConnectionType.QueuedConnection)
        self._withdrawn.connect(self.approval_withdrawn, Qt.ConnectionType.QueuedConnection)

    def ask(self, request: ApprovalRequest, cancel: threading.Event) -> Answer | None:
        question = Question(request)
        self._asked.emit(question)
        answer = question.wait(cancel)
        if answer is None:
            self._withdrawn.emit(question)
        return answer
