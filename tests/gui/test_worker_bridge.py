"""The bridge hands a burst of events to the UI thread in bounded batches (issue 23): the
event loop turns between them, every event arrives once and in order, the outcome last."""

from __future__ import annotations

import threading
import time

from PySide6.QtCore import QTimer, Signal

from app.gui import worker_bridge
from app.gui.worker_bridge import WorkerBridge

BURST = 400
HANDLING_S = 0.002  # what showing one event costs the window, about


class Burst(WorkerBridge):
    """Work that sends BURST events as fast as it can, then its outcome."""

    done = Signal(object)

    def start(self) -> None:
        self._launch(self._work, (), "burst", "already going")

    def _work(self, cancel: threading.Event) -> None:
        for n in range(BURST):
            self._listen(n)
        self._deliver("finished")

    def _finished(self, outcome) -> None:
        self.done.emit(outcome)


def test_a_burst_of_events_reaches_the_ui_thread_in_bounded_batches(qtbot):
    bridge = Burst()
    seen, order = [], []

    def shown(n) -> None:
        time.sleep(HANDLING_S)  # the window's work for one event
        seen.append(n)
        order.append(("event", time.perf_counter()))

    def turn() -> None:  # runs once each time the event loop turns, as a paint would
        order.append(("turn", time.perf_counter()))
        if going:
            QTimer.singleShot(0, turn)

    going = [True]
    bridge.event_received.connect(shown)
    QTimer.singleShot(0, turn)
    with qtbot.waitSignal(bridge.done, timeout=20_000) as outcome:
        bridge.start()
    going.clear()
    assert outcome.args == ["finished"]
    assert seen == list(range(BURST))  # each once, in order, all before the outcome
    assert not bridge.running
    # The event loop turned between batches all through the burst. Each event takes at least
    # HANDLING_S, so a batch of at most BATCH_S holds at most this many (one more ends it).
    batches, run = [], 0
    for kind, _at in order:
        if kind == "event":
            run += 1
        elif run:
            batches.append(run)
            run = 0
    batches.append(run)
    most = int(worker_bridge.BATCH_S / HANDLING_S) + 1
    assert max(batches) <= most, batches
    assert len(batches) >= BURST // most, batches  # not one pass with the loop shut out
    assert sum(batches) == BURST


def test_an_outcome_with_no_events_is_delivered_at_once(qtbot):
    class Quiet(Burst):
        def _work(self, cancel):
            self._deliver("nothing")

    bridge = Quiet()
    with qtbot.waitSignal(bridge.done, timeout=5_000) as outcome:
        bridge.start()
    assert outcome.args == ["nothing"] and not bridge.running


def test_a_timer_that_is_due_fires_between_two_batches(qtbot):
    # Batches posted one after another ran back to back, the window's paints between them,
    # in one turn of the event loop: a timer due meanwhile (the cold stall bench's 10 ms tick,
    # a held key's repeat) waited for them all.
    bridge = Burst()
    order: list[str] = []

    def shown(n) -> None:
        time.sleep(HANDLING_S)
        order.append("event")

    tick = QTimer()
    tick.setInterval(5)
    tick.timeout.connect(lambda: order.append("tick"))
    bridge.event_received.connect(shown)
    tick.start()
    with qtbot.waitSignal(bridge.done, timeout=20_000):
        bridge.start()
    tick.stop()
    runs = [len(run) for run in "".join("e" if x == "event" else "|" for x in order).split("|")
            if run]
    most = int(worker_bridge.BATCH_S / HANDLING_S) + 1
    assert sum(runs) == BURST
    assert max(runs) <= most, runs  # never two batches without the due tick between them
