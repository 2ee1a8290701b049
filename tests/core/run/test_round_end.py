"""Between two rounds (app/core/run/round_end.py): which task is next, and what a finished round
means for the run. Pure functions, held here by tables: one row a rule."""

from __future__ import annotations

import pytest

from app.core.board.board import Board
from app.core.run.outcomes import ExitReason, RoundResult, RunState
from app.core.run.round_end import GO_ON, Next, RoundEnd, Streaks, decide, next_task
from app.core.settings import Limits
from app.core.run.stops import RunStop
from app.core.web.round import LOOKUP_LIMIT

R = RoundResult
LIMITS = Limits(max_rounds=5, stall_limit=2, max_attempts=3, max_engine_failures=3)
ONE = "# Plan\n\n- [ ] Tidy the notes\n"


def board(text: str) -> Board:
    return Board.parse(text)


# -- which task is next --------------------------------------------------------------------
def test_the_first_unticked_task_is_next():
    b = board("# Plan\n\n- [x] Done one\n- [ ] Second\n- [ ] Third\n")
    assert next_task(b, set(), 0, LIMITS).text == "Second"


def test_a_task_shown_as_a_sample_is_passed_over():
    b = board("# Plan\n\n- [ ] First\n- [ ] Second\n")
    first = b.tasks[0]
    assert next_task(b, {first.task_id}, 1, LIMITS).text == "Second"


@pytest.mark.parametrize("text, sampled, rounds, state, reason, words", [
    ("# Plan\n\nNo tasks here.\n", False, 0, RunState.FAILED, ExitReason.ERROR,
     "TASKS.md has no tasks yet"),
    ("# Plan\n\n- [x] Done\n", False, 0, RunState.DONE, ExitReason.ALL_TASKS_DONE,
     "Every task on the board is done."),
    ("# Plan\n\n- [ ] Only one\n", True, 1, RunState.STOPPED, ExitReason.SAMPLES_SHOWN,
     "showed 1 task as a sample"),
    ("# Plan\n\n- [ ] HUMAN: Which colour?\n", False, 0, RunState.BLOCKED_BY_HUMAN,
     ExitReason.HUMAN_DECISION_NEEDED, "Your decision is needed: Which colour?"),
    ("# Plan\n\n- [ ] HUMAN:\n", False, 0, RunState.FAILED, ExitReason.ERROR, ""),
    (ONE, False, 5, RunState.STOPPED, ExitReason.MAX_ROUNDS,
     "Stopped after 5 rounds, the limit for one run."),
])
def test_what_ends_the_run_before_a_round(text, sampled, rounds, state, reason, words):
    b = board(text)
    done = {t.task_id for t in b.tasks} if sampled else set()
    with pytest.raises(RunStop) as stop:
        next_task(b, done, rounds, LIMITS)
    assert (stop.value.state, stop.value.exit_reason) == (state, reason)
    assert words in stop.value.message


def test_one_round_short_of_the_limit_goes_on():
    assert next_task(board(ONE), set(), 4, LIMITS).text == "Tidy the notes"


# -- the streaks ---------------------------------------------------------------------------
@pytest.mark.parametrize("before, end, after", [
    (Streaks(1, 2), RoundEnd(R.COMPLETED), Streaks(0, 0)),
    (Streaks(1, 2), RoundEnd(R.GAVE_UP, changed=True), Streaks(0, 0)),   # a file changed
    (Streaks(1, 2), RoundEnd(R.GAVE_UP), Streaks(2, 0)),
    (Streaks(1, 0), RoundEnd(R.STEP_LIMIT), Streaks(2, 0)),
    (Streaks(1, 2), RoundEnd(R.ENGINE_ERROR), Streaks(1, 3)),   # says nothing about the task
    (Streaks(1, 2), RoundEnd(R.ENGINE_ERROR, changed=True), Streaks(1, 3)),
])
def test_streaks_after_a_round(before, end, after):
    assert before.after(end) == after


# -- what a finished round means ------------------------------------------------------------
FATAL = RunStop(RunState.FAILED, ExitReason.AUTH_FAILED, "The API key was rejected.")


def verdict(end: RoundEnd, streaks: Streaks | None = None, attempts: int = 1,
            may_lack_tools: bool = False):
    return decide(end, streaks or Streaks(), attempts, LIMITS, task="Tidy the notes", model="qwen3",
                  may_lack_tools=may_lack_tools)


@pytest.mark.parametrize("end, streaks, attempts, lacks, want", [
    # the round went well, or the run waits on the person: the next round
    (RoundEnd(R.COMPLETED), Streaks(), 1, False, (Next.GO_ON, None, False)),
    (RoundEnd(R.NEEDS_HUMAN), Streaks(5, 0), 9, False, (Next.GO_ON, None, False)),
    (RoundEnd(R.ENGINE_ERROR), Streaks(0, 2), 9, False, (Next.GO_ON, None, False)),
    # a round without progress, within the limits: try again
    (RoundEnd(R.GAVE_UP), Streaks(1, 0), 2, False, (Next.GO_ON, None, False)),
    (RoundEnd(R.TIMEOUT), Streaks(1, 0), 1, True, (Next.GO_ON, None, False)),
    # samples: shown, never done; the run goes on with the other tasks
    (RoundEnd(R.SAMPLE, sample=True), Streaks(), 1, False, (Next.SAMPLED, None, False)),
    (RoundEnd(R.STEP_LIMIT, sample=True), Streaks(9, 0), 9, False, (Next.SAMPLED, None, False)),
    (RoundEnd(R.NEEDS_HUMAN, sample=True), Streaks(), 1, False, (Next.GO_ON, None, False)),
    (RoundEnd(R.ENGINE_ERROR, sample=True), Streaks(0, 1), 1, False, (Next.GO_ON, None, False)),
    # the run stops
    (RoundEnd(R.CANCELLED), Streaks(), 1, False,
     (Next.STOP, (RunState.STOPPED, ExitReason.STOPPED_BY_USER), False)),
    (RoundEnd(R.ENGINE_ERROR, error="boom"), Streaks(0, 3), 1, False,
     (Next.STOP, (RunState.FAILED, ExitReason.ENGINE_FAILURES), False)),
    (RoundEnd(R.GAVE_UP), Streaks(2, 0), 1, False,
     (Next.STOP, (RunState.BLOCKED_BY_HUMAN, ExitReason.NO_PROGRESS), True)),
    (RoundEnd(R.GAVE_UP, changed=True), Streaks(0, 0), 3, False,
     (Next.STOP, (RunState.BLOCKED_BY_HUMAN, ExitReason.NO_PROGRESS), True)),
    (RoundEnd(R.STEP_LIMIT, lookup_cap=4), Streaks(1, 0), 1, False,
     (Next.STOP, (RunState.BLOCKED_BY_HUMAN, ExitReason.NO_PROGRESS), True)),
    (RoundEnd(R.NO_ACTION), Streaks(1, 0), 1, True,
     (Next.STOP, (RunState.FAILED, ExitReason.NO_PROGRESS), False)),
    # ... but a model that used a tool, or an engine sure of its tools, gets its attempts
    (RoundEnd(R.NO_ACTION, tool_steps=1), Streaks(1, 0), 1, True, (Next.GO_ON, None, False)),
    (RoundEnd(R.NO_ACTION), Streaks(1, 0), 1, False, (Next.GO_ON, None, False)),
])
def test_what_a_round_means_for_the_run(end, streaks, attempts, lacks, want):
    v = verdict(end, streaks, attempts, lacks)
    stop = None if v.stop is None else (v.stop.state, v.stop.exit_reason)
    assert (v.next, stop, v.ask) == want


def test_an_engine_stop_that_ends_the_round_ends_the_run_as_it_said():
    v = verdict(RoundEnd(R.ENGINE_ERROR, fatal=FATAL), Streaks(0, 1))
    assert v.next is Next.STOP and v.stop is FATAL


def test_the_sentences_of_the_stops_after_a_round():
    failures = verdict(RoundEnd(R.ENGINE_ERROR, error="The service is down."), Streaks(0, 3))
    assert failures.stop is not None and failures.stop.message == (
        "The AI engine failed in 3 rounds in a row: The service is down.")
    stalled = verdict(RoundEnd(R.GAVE_UP), Streaks(2, 0))
    assert stalled.stop is not None and stalled.stop.message == (
        "No progress was detected on “Tidy the notes”. A decision was added to the board for you.")
    capped = verdict(RoundEnd(R.STEP_LIMIT, lookup_cap=1))
    assert capped.stop is not None and capped.stop.cause == LOOKUP_LIMIT
    assert capped.stop.message.startswith("“Tidy the notes” reached its limit of 1 web lookup ")
    words = verdict(RoundEnd(R.NO_ACTION), may_lack_tools=True)
    assert words.stop is not None and "qwen3" in words.stop.message


def test_going_on_is_one_verdict():
    assert verdict(RoundEnd(R.COMPLETED)) is GO_ON
