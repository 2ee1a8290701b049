"""The round's time limit (app/core/run/round_clock.py): pauses and waits for the person's
approval are not the round's time, for the check before a step and for the cut of a reply."""

from __future__ import annotations

import threading

from app.core.engine.conversation import ModelTurn
from app.core.run.loop import Harness
from app.core.policies.approver import Answer
from app.core.records.records import read_rounds
from app.core.run.round_clock import RoundClock
from tests.core.policies.test_careful_runs import BOARD, FILES, Person
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_the_deadline_is_the_start_plus_the_rounds_seconds():
    now = Clock()
    clock = RoundClock(60, lambda: 0.0, now=now)
    assert clock.deadline == 160
    now.t = 160
    assert clock.at_deadline() and not clock.past_deadline()
    now.t = 160.5
    assert clock.past_deadline()


def test_waits_for_an_approval_since_the_round_began_move_the_deadline():
    now, waited = Clock(), [30.0]  # the gate counts for the whole run: 30 s before this round
    clock = RoundClock(60, lambda: waited[0], now=now)
    assert clock.deadline == 160
    waited[0] += 45
    now.t = 200
    assert clock.not_counted_s == 45 and clock.deadline == 205 and not clock.past_deadline()


def test_a_pause_moves_the_deadline_and_stop_ends_it():
    now = Clock()
    clock = RoundClock(60, lambda: 0.0, now=now)
    paused, cancel = threading.Event(), threading.Event()
    paused.set()

    def later() -> None:
        now.t += 20  # twenty seconds pass while paused
        cancel.set()

    threading.Timer(0.05, later).start()
    clock.hold_while_paused(paused, cancel)
    assert clock.paused_s == 20 and clock.deadline == 180


def test_not_paused_holds_nothing():
    clock = RoundClock(60, lambda: 0.0, now=Clock())
    clock.hold_while_paused(threading.Event(), threading.Event())
    assert clock.paused_s == 0


class Honours(ScriptedEngine):
    """Like a real engine: a turn asked for once its cancel is set comes back cut."""

    def turn(self, system, tools, messages, *, cancel=None, on_text=None,
             max_output_tokens=None) -> ModelTurn:
        if cancel is not None and cancel.is_set():
            self.requests.append({"messages": list(messages)})
            return ModelTurn(text="", stop_reason="cancelled")
        return super().turn(system, tools, messages, cancel=cancel, on_text=on_text,
                            max_output_tokens=max_output_tokens)


def test_the_reply_after_a_long_approval_is_not_cut_by_the_rounds_time(tmp_path):
    """The person took longer to answer than the round may last: the next model call still
    has the round's time (before: it was cut at once, and the round timed out)."""
    ws = board_workspace(tmp_path, BOARD, FILES)
    engine = Honours([call("write_file", path="notes.md", content="AI\n"),
                      call("complete_task", summary="ok", evidence=["notes.md"])])
    result = Harness(ws, engine, fast_limits(round_seconds=0.6), careful=True,
                     approver=Person(Answer("allow"), delay=1.2)).run()
    rounds = read_rounds(ws.run_files(result.run_id))
    assert [r.result_state for r in rounds] == ["completed"], [r.error for r in rounds]
    assert result.state == "done", result.message
