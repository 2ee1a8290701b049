"""Records written before the outcomes became types (app/core/run/outcomes.py) read back as the
types, and are written again byte for byte: the words on disk did not change.

tests/data/records_before_outcomes holds two runs' records as the version before wrote them
(the Demo engine stopping for a decision, and a scripted run stopping for no progress)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.core.clean_text import clean_obj
from app.core.records.events import RoundFinished, RunFinished
from app.core.workspace.files import append_jsonl, atomic_write_json
from app.core.run.outcomes import ExitReason, RoundResult, RunState
from app.core.records.records import read_events, read_rounds, read_run, read_status
from app.core.records.redact import redact_obj
from app.core.workspace.workspace import RunFiles

DATA = Path(__file__).resolve().parent.parent.parent / "data" / "records_before_outcomes"
RUNS = {"decision": (RunState.BLOCKED_BY_HUMAN, ExitReason.HUMAN_DECISION_NEEDED,
                     [RoundResult.COMPLETED, RoundResult.COMPLETED, RoundResult.NEEDS_HUMAN]),
        "no_progress": (RunState.BLOCKED_BY_HUMAN, ExitReason.NO_PROGRESS,
                        [RoundResult.GAVE_UP, RoundResult.GAVE_UP])}


def as_written(model) -> object:
    return clean_obj(redact_obj(model.model_dump(mode="json")))


@pytest.mark.parametrize("name", sorted(RUNS))
def test_an_older_status_and_run_read_back_as_the_types_and_write_the_same_bytes(name, tmp_path):
    state, reason, _ = RUNS[name]
    status, damaged = read_status(DATA / name / "status.json")
    assert damaged is None
    assert status.state is state and status.exit_reason is reason
    info = read_run(RunFiles(DATA / name))
    assert info is not None
    for model, source in ((status, "status.json"), (info, "run.json")):
        atomic_write_json(tmp_path / source, as_written(model))
        assert (tmp_path / source).read_bytes() == (DATA / name / source).read_bytes(), source


@pytest.mark.parametrize("name", sorted(RUNS))
def test_older_rounds_read_back_as_the_types_and_write_the_same_bytes(name, tmp_path):
    rounds = read_rounds(RunFiles(DATA / name))
    assert [r.result_state for r in rounds] == RUNS[name][2]
    assert all(type(r.result_state) is RoundResult for r in rounds)
    for record in rounds:
        append_jsonl(tmp_path / "rounds.jsonl", as_written(record))
    assert (tmp_path / "rounds.jsonl").read_bytes() == (DATA / name / "rounds.jsonl").read_bytes()


@pytest.mark.parametrize("name", sorted(RUNS))
def test_older_events_read_back_with_the_same_words(name):
    state, reason, results = RUNS[name]
    events = read_events(RunFiles(DATA / name))
    finished = [e for e in events if isinstance(e, RunFinished)]
    assert [(e.state, e.exit_reason) for e in finished] == [(state, reason)]
    assert [e.result_state for e in events if isinstance(e, RoundFinished)] == results
    lines = (DATA / name / "events.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["type"] for line in lines] == [e.type for e in events]


def test_the_types_are_their_words():
    assert json.dumps({"state": RunState.DONE, "result": RoundResult.GAVE_UP,
                       "reason": ExitReason.STOPPED_BY_USER}) == \
        '{"state": "done", "result": "gave_up", "reason": "stopped_by_user"}'
    assert f"{RoundResult.NEEDS_HUMAN}" == "needs_human" == RoundResult("needs_human")


def test_a_word_assigned_without_the_type_is_written_as_the_word_without_warnings():
    import warnings

    from app.core.records.records import Status

    status = Status()
    status.state, status.exit_reason = "done", "all_tasks_done"  # as older callers may
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        data = status.model_dump(mode="json")
    assert (data["state"], data["exit_reason"]) == ("done", "all_tasks_done")
    assert Status().model_dump()["exit_reason"] is None


def test_a_list_of_outcomes_prints_as_the_words():
    assert repr([RunState.DONE, RoundResult.SAMPLE]) == "['done', 'sample']"
