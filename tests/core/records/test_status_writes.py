"""status.json under quick steps (issue 23): rewritten at most once every STATUS_INTERVAL_S
while steps run, never further behind the event stream than that, whole at every moment,
and exact at the round's and the run's end."""

from __future__ import annotations

import threading
import time

import pytest

from app.core.records import recorder
from app.core.records.events import StepStarted
from app.core.workspace.files import read_json, read_jsonl
from app.core.run.loop import Harness
from app.core.records.records import Status
from app.core.records.status_writer import StatusWriter
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

BOARD = "# Plan\n\n- [ ] Read the notes\n  - Done when: notes.md exists\n"
STEPS = 30


def notes(tmp_path):
    files = {f"note-{n:02d}.md": f"# Note {n}\n\nopening hours {n}\n" for n in range(STEPS)}
    return board_workspace(tmp_path, BOARD, files)


def counted_status_writes(monkeypatch, ws) -> list[dict]:
    written: list[dict] = []
    real = recorder.atomic_write_json

    def write(path, obj, sync=True):
        if path == ws.status_path:
            written.append(obj)
        return real(path, obj, sync=sync)

    monkeypatch.setattr(recorder, "atomic_write_json", write)
    return written


def test_quick_steps_rewrite_status_json_a_few_times_and_the_end_exactly(tmp_path, monkeypatch):
    monkeypatch.setattr(recorder, "STATUS_INTERVAL_S", 10.0)  # no interval comes round
    ws = notes(tmp_path)
    written = counted_status_writes(monkeypatch, ws)
    engine = ScriptedEngine([call("read_file", path=f"note-{n:02d}.md") for n in range(STEPS)]
                            + [call("write_file", path="notes.md", content="Hours.\n"),
                               call("complete_task", summary="Read.", evidence=["notes.md"])])
    result = Harness(ws, engine, fast_limits(max_steps=40)).run()
    assert result.state == "done"
    # The run's start, the round's start, the task completed, its count, the round's end,
    # the run's end (and what was due when the round ended): not one write a step.
    assert len(written) <= 8, [w["last_event"] for w in written]
    status = Status.model_validate(read_json(ws.status_path))
    assert (status.state, status.exit_reason) == ("done", "all_tasks_done")
    assert (status.round, status.step, status.completed_tasks) == (1, STEPS + 2, 1)
    assert status.finished_at and status.usage.input_tokens == 100 * (STEPS + 2)


def test_a_step_that_waits_has_its_start_in_status_json_within_the_interval(tmp_path):
    # Quick steps, then a model that thinks: the step it thinks on reaches status.json by
    # the background writer, while the run's thread waits on the model.
    ws = notes(tmp_path)
    seen: list[tuple[int, int, float]] = []

    def slow(messages):
        step = (len(messages) + 1) // 2
        began = time.monotonic()
        while time.monotonic() - began < 5.0:
            status = read_json(ws.status_path)
            if status["step"] == step:
                break
            time.sleep(0.01)
        seen.append((step, status["step"], time.monotonic() - began))
        return call("give_up", reason="Thought long.", findings="Nothing.")

    engine = ScriptedEngine([call("read_file", path=f"note-{n:02d}.md") for n in range(4)],
                            then=slow)
    Harness(ws, engine, fast_limits(stall_limit=1)).run()
    ((step, shown, waited),) = seen
    assert step == 5 and shown == 5
    assert waited < recorder.STATUS_INTERVAL_S + 1.0  # the interval, and room for a load


def test_status_json_is_whole_and_of_the_right_round_at_every_event(tmp_path, monkeypatch):
    ws = notes(tmp_path)
    checked: list[tuple[int, int, int]] = []

    def look(event) -> None:
        status = read_json(ws.status_path)  # valid JSON at every moment
        if isinstance(event, StepStarted):
            lines = list(read_jsonl(ws.run_files(status["run_id"]).events))
            checked.append((event.step, status["step"], status["round"]))
            assert lines[-1]["type"] == "step_started"  # the stream has every line at once

    engine = ScriptedEngine([call("read_file", path=f"note-{n:02d}.md") for n in range(6)]
                            + [call("give_up", reason="-", findings="-")])
    Harness(ws, engine, fast_limits(stall_limit=1), listeners=[look]).run()
    assert [step for step, _, _ in checked] == list(range(1, 8))
    assert all(rnd == 1 and 0 <= shown <= step for step, shown, rnd in checked)


# -- the writer itself -----------------------------------------------------------------------
class Disk:
    def __init__(self, fail_after: int | None = None):
        self.writes: list[tuple[str, bool]] = []
        self.fail_after = fail_after

    def write(self, sync: bool) -> None:
        if self.fail_after is not None and len(self.writes) >= self.fail_after:
            raise OSError(28, "No space left on device")
        self.writes.append((threading.current_thread().name, sync))


def test_soon_writes_at_once_when_the_interval_has_passed_and_later_otherwise():
    disk = Disk()
    writer = StatusWriter(disk.write, 0.2)
    writer.soon()  # nothing written yet: at once
    writer.soon()  # within the interval: due, written by the background thread
    assert len(disk.writes) == 1 and writer.due
    began = time.monotonic()
    while writer.due and time.monotonic() - began < 5.0:
        time.sleep(0.01)
    assert len(disk.writes) == 2 and disk.writes[1][0] == "status-writer"
    assert time.monotonic() - began >= 0.1  # not before the interval was up
    writer.now(sync=True)
    assert disk.writes[-1] == (threading.current_thread().name, True)
    writer.close()
    assert writer._thread is not None and not writer._thread.is_alive()


def test_close_writes_what_is_due_and_ends_the_thread():
    disk = Disk()
    writer = StatusWriter(disk.write, 60.0)
    writer.soon()
    writer.soon()
    assert writer.due and len(disk.writes) == 1
    writer.close()
    assert not writer.due and len(disk.writes) == 2
    assert not writer._thread.is_alive()
    writer.soon()  # after the end, at once (a second try of the run's end)
    assert len(disk.writes) == 3


def test_a_write_the_background_could_not_make_fails_on_the_runs_own_thread():
    disk = Disk(fail_after=1)
    writer = StatusWriter(disk.write, 0.05)
    writer.soon()
    writer.soon()  # the background's write fails: the disk is full
    began = time.monotonic()
    while not writer._broken and time.monotonic() - began < 5.0:
        time.sleep(0.01)
    assert writer._broken and writer.due  # still due: nothing was written, nothing lost
    with pytest.raises(OSError):
        writer.soon()  # on the caller's thread now, where the run meets it
    disk.fail_after = None  # room again (the run gave back its reserve): the end is written
    writer.close()
    assert not writer.due and len(disk.writes) == 2
