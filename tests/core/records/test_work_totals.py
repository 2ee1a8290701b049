"""One count of a piece of work (issue 35 point 3): the runs' own time, not the person's
deciding between them; every run's tokens and cost; durations rounded one way for the window
and the export."""

from __future__ import annotations

from app.core.engine.conversation import Usage
from app.core.records.records import RunInfo
from app.core.records.work_totals import clock, totals


def run(run_id: str, start: str, end: str | None, tokens: int, cost: float,
        continues: str | None = None) -> RunInfo:
    return RunInfo(run_id=run_id, workspace="/w", engine="anthropic", started_at=start,
                   finished_at=end, usage=Usage(input_tokens=tokens), cost_usd=cost,
                   continues=continues)


def test_a_run_and_its_continuation_count_their_own_time_not_the_decision():
    first = run("a", "2026-12-04T10:00:00+00:00", "2026-12-04T10:00:04+00:00", 100, 0.01)
    # the person took 50 s to answer; the run after the answer took 3.5 s
    second = run("b", "2026-12-04T10:00:54+00:00", "2026-12-04T10:00:57.5+00:00", 50, 0.02,
                 continues="a")
    work = totals([first, second])
    assert work.seconds == 7.5
    assert (work.runs, work.decisions) == (2, 1)
    assert work.tokens == 150 and round(work.cost_usd, 2) == 0.03
    assert work.finished


def test_a_run_without_an_end_counts_to_its_last_record():
    cut = run("a", "2026-12-04T10:00:00+00:00", None, 10, 0.0)
    work = totals([cut], last_time="2026-12-04T10:01:05+00:00")
    assert work.seconds == 65 and not work.finished


def test_durations_round_to_the_whole_second_the_same_everywhere():
    from app.export.markdown import format_duration

    assert clock(0.4) is None and format_duration(0.4) == "under 1 s"
    assert clock(7.5) == (0, 0, 8) and format_duration(7.5) == "8 s"
    assert clock(3725) == (1, 2, 5) and format_duration(3725) == "1 h 2 min"
