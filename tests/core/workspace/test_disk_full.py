"""A full disk gets one sentence, at the start and mid-run, and status says so afterwards
(issue 8, item 12)."""

from __future__ import annotations

import errno
import os

import pytest

from app.core.errors import HarnessError
from app.core.workspace.files import read_json
from app.core.run.loop import Harness
from app.core.records.records import Status
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

BOARD = "# Plan\n\n- [ ] Write a.md\n- [ ] Write b.md\n"


class FullDisk:
    """Every fsync fails with ENOSPC while `full`; removing the run's space reserve frees
    room, as it does on a real disk."""

    def __init__(self, monkeypatch):
        self.full = False
        real_fsync, real_remove, real_unlink = os.fsync, os.remove, os.unlink

        def fsync(fd):
            if self.full:
                raise OSError(errno.ENOSPC, "No space left on device")
            return real_fsync(fd)

        def freeing(real):
            def remove(path, *a, **k):
                if os.path.basename(os.fspath(path)) == "space-reserve":
                    self.full = False
                return real(path, *a, **k)
            return remove

        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "remove", freeing(real_remove))
        monkeypatch.setattr(os, "unlink", freeing(real_unlink))


@pytest.fixture
def disk(monkeypatch):
    return FullDisk(monkeypatch)


def test_a_full_disk_at_the_start_is_one_sentence_and_leaves_no_run_folder(tmp_path, disk):
    ws = board_workspace(tmp_path, BOARD)
    ws.ensure_harness_dir()
    disk.full = True
    engine = ScriptedEngine([])
    with pytest.raises(HarnessError) as exc:
        Harness(ws, engine, fast_limits()).run()
    message = exc.value.message
    assert "no space left on the disk" in message and "could not start" in message
    assert message.endswith(".") and ".." not in message and "\n" not in message
    assert engine.requests == []
    assert list(ws.runs_dir.iterdir()) == []


def test_a_disk_that_fills_mid_run_ends_the_run_as_failed_for_lack_of_space(tmp_path, disk):
    ws = board_workspace(tmp_path, BOARD)

    def fill(turn):
        if turn == 2:
            disk.full = True

    engine = ScriptedEngine([call("write_file", path="a.md", content="a"),
                             call("list_files")], on_turn=fill)
    result = Harness(ws, engine, fast_limits()).run()
    assert (result.state, result.exit_reason) == ("failed", "error")
    assert "no space left on the disk" in result.message and ".." not in result.message
    status = Status.model_validate(read_json(ws.status_path))
    assert status.state == "failed" and "no space left on the disk" in status.message
    run = read_json(ws.run_dir(result.run_id) / "run.json")
    assert run["state"] == "failed" and "no space left on the disk" in run["message"]


def test_status_after_a_mid_run_disk_full_says_failed_not_interrupted(tmp_path, disk):
    from app.commands.follow import current_status, format_status

    ws = board_workspace(tmp_path, BOARD)
    engine = ScriptedEngine([call("list_files")],
                            on_turn=lambda turn: setattr(disk, "full", True))
    Harness(ws, engine, fast_limits()).run()
    status, _ = current_status(ws)
    text = format_status(status)
    assert "State: Failed" in text and "no space left on the disk" in text
    assert "interrupted" not in text


def test_the_space_reserve_is_kept_inside_harness_and_is_small(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    Harness(ws, ScriptedEngine([call("give_up", reason="x", findings="")]),
             fast_limits(max_rounds=1)).run()
    reserve = ws.harness_dir / "space-reserve"
    assert reserve.is_file() and 0 < reserve.stat().st_size <= 1024 * 1024
