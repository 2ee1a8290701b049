"""The AI's words while it answers, as throttled model_text events for a live view."""

from __future__ import annotations

import math
import time
from typing import Callable

from app.core.records.events import ModelText
from app.core.records.recorder import Recorder
from app.core.records.redact import redact

MIN_INTERVAL_S = 0.2  # at most 5 model_text events a second
TAIL_CHARS = 300      # a live line shows the end of what is being said


class LiveText:
    """The engine's `on_text` for one step.

    Collects the pieces of the reply as they stream in and emits the step's latest text
    (its last TAIL_CHARS) at most every MIN_INTERVAL_S; `flush` delivers whatever was held
    back once the reply is over, so the last text always arrives. `restart` drops a failed
    attempt's words before the call is tried again. Runs on the run's thread, like the engine.
    `grow(chars)` counts what arrives that is not words to show (a tool call's arguments),
    so the event's `tokens` (about 4 characters a token) tells how far the reply has got.
    """

    def __init__(self, rec: Recorder, round_no: int, step: int,
                 clock: Callable[[], float] = time.monotonic):
        self._rec = rec
        self._round, self._step = round_no, step
        self._clock = clock
        self._text = ""
        self._other = 0          # characters of tool-call arguments so far
        self._held = False       # text arrived since the last event
        self._sent_at = -math.inf

    def __call__(self, piece: str) -> None:
        if not piece:
            return
        self._text += piece
        self._held = True
        if self._clock() - self._sent_at >= MIN_INTERVAL_S:
            self._send()

    def grow(self, chars: int) -> None:
        if chars <= 0:
            return
        self._other += chars
        self._held = True
        if self._clock() - self._sent_at >= MIN_INTERVAL_S:
            self._send()

    @property
    def tokens(self) -> int:
        return (len(self._text) + self._other) // 4

    def restart(self) -> None:
        self._text, self._other, self._held = "", 0, False

    def flush(self) -> None:
        if self._held:
            self._send()

    def _send(self) -> None:
        # Redacted whole before the cut, so a key split by the cut is still recognised.
        tail = redact(self._text)[-TAIL_CHARS:]
        self._held = False
        self._sent_at = self._clock()
        self._rec.emit(ModelText(round=self._round, step=self._step, text=tail,
                                 tokens=self.tokens))
