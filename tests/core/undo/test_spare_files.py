"""A write step's temporary file is an empty one made ahead, on the round's flusher thread, in
.harness/spare (issue 36): making a file was the dearest part of a write step. The replace
stays atomic, the undo record exact; a folder the spare cannot be renamed into (another file
system, or a folder whose files take its group) gets a temporary file of its own."""

from __future__ import annotations

import errno
import os
import stat
import sys
import threading

import pytest

from app.core.tools.toolbox import ToolBox
from app.core.undo.blobs import BlobStore
from app.core.undo.undo import RoundChanges, undo_manifest
from app.core.workspace import files
from app.core.workspace.spare_files import spare_pool

BOARD = "# Tasks\n\n- [ ] Write the notes\n"


def _round(root, number=1):
    (root / "TASKS.md").write_text(BOARD)
    changes = RoundChanges(root, BlobStore(root / ".harness"),
                           root / ".harness" / "runs" / "r" / "undo" / f"{number}.json", number)
    return ToolBox(root, root / "TASKS.md", "Write the notes", changes), changes


class Made:
    """Where files.make_temp made temporary files (still making them), and which of them
    the step's own thread made."""

    def __init__(self, monkeypatch):
        self.folders: list[str] = []
        self.by_step: list[str] = []
        real = files.make_temp

        def make_temp(folder):
            self.folders.append(os.path.basename(folder))
            if threading.current_thread() is threading.main_thread():
                self.by_step.append(os.path.basename(folder))
            return real(folder)

        monkeypatch.setattr(files, "make_temp", make_temp)


def _step(box, changes, name, args):
    out = box.call(name, args)
    assert not out.is_error, out.content
    changes.hand_off()  # as the loop does before it asks the model again
    changes.flush()     # (the flusher is done: the spares are made again)
    return out


def test_a_write_step_makes_no_file_of_its_own_once_spares_are_made(tmp_path, monkeypatch):
    box, changes = _round(tmp_path)
    made = Made(monkeypatch)
    _step(box, changes, "write_file", {"path": "reports/a.md", "content": "first\n"})
    made.folders.clear()  # the first write of a process makes its own; then the spares
    made.by_step.clear()
    _step(box, changes, "write_file", {"path": "reports/b.md", "content": "second\n"})
    _step(box, changes, "edit_file", {"path": "reports/b.md", "old_text": "second",
                                      "new_text": "second, checked"})
    (tmp_path / "notes.md").write_text("the person's notes\n")
    _step(box, changes, "write_file", {"path": "notes.md", "content": "the round's notes\n"})
    # Neither beside the files nor for the copy of the person's notes: only the spares
    # (made on the flusher, while the model would be asked) and the flusher's own copies.
    assert made.by_step == [], made.by_step
    assert "reports" not in made.folders and "spare" in made.folders, made.folders
    assert not [n for n in os.listdir(tmp_path / "reports") if n.startswith(".hd-")]
    assert (tmp_path / "reports" / "b.md").read_text() == "second, checked\n"
    changes.finish()
    report = undo_manifest(tmp_path, tmp_path / ".harness", changes.manifest_path)
    assert sorted(report.removed) == ["reports/a.md", "reports/b.md"], report
    assert report.restored == ["notes.md"]
    assert (tmp_path / "notes.md").read_text() == "the person's notes\n"


def test_the_next_round_takes_up_the_spares_a_round_left(tmp_path, monkeypatch):
    box, changes = _round(tmp_path)
    _step(box, changes, "write_file", {"path": "a.md", "content": "a\n"})
    changes.finish()
    left = sorted(os.listdir(tmp_path / ".harness" / "spare"))
    assert left, "the spares outlive the round"
    made = Made(monkeypatch)
    box, changes = _round(tmp_path, 2)
    _step(box, changes, "write_file", {"path": "b.md", "content": "b\n"})
    assert tmp_path.name not in made.folders, made.folders  # none beside b.md
    assert (tmp_path / "b.md").read_text() == "b\n"
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".hd-")]


def test_a_spare_on_another_file_system_falls_back_to_a_file_beside_the_target(
        tmp_path, monkeypatch):
    box, changes = _round(tmp_path)
    _step(box, changes, "write_file", {"path": "a.md", "content": "a\n"})
    real = os.replace

    def replace(src, dst):
        if "/spare/" in str(src):  # a folder on another disk: rename cannot cross
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        return real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    made = Made(monkeypatch)
    _step(box, changes, "edit_file", {"path": "a.md", "old_text": "a", "new_text": "a, again"})
    assert (tmp_path / "a.md").read_text() == "a, again\n"
    assert made.folders[0] == tmp_path.name  # its own temporary file, beside it
    spares = os.listdir(tmp_path / ".harness" / "spare")
    assert all(os.path.getsize(tmp_path / ".harness" / "spare" / n) == 0 for n in spares)
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".hd-")]


@pytest.mark.skipif(sys.platform == "win32", reason="no setgid folders")
def test_a_folder_whose_files_take_its_group_gets_its_own_temporary_file(tmp_path,
                                                                          monkeypatch):
    box, changes = _round(tmp_path)
    _step(box, changes, "write_file", {"path": "a.md", "content": "a\n"})
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(shared.stat().st_mode | stat.S_ISGID)
    made = Made(monkeypatch)
    _step(box, changes, "write_file", {"path": "shared/b.md", "content": "b\n"})
    assert made.folders[0] == "shared"
    assert (shared / "b.md").read_text() == "b\n"


def test_a_spare_a_writer_died_in_is_never_written_into_a_file(tmp_path):
    box, changes = _round(tmp_path)
    _step(box, changes, "write_file", {"path": "a.md", "content": "a\n"})
    folder = tmp_path / ".harness" / "spare"
    dirty = sorted(os.listdir(folder))
    assert dirty
    for name in dirty:  # another process's writer died in each of them
        (folder / name).write_bytes(b"half of someone else's file " * 10)
    _step(box, changes, "write_file", {"path": "b.md", "content": "b\n"})
    assert (tmp_path / "b.md").read_bytes() == b"b\n"  # not b"b\nalf of someone else's..."
    for name in dirty:  # each was passed over, left for the next run's clean-up
        assert (folder / name).read_bytes() == b"half of someone else's file " * 10
    assert spare_pool(tmp_path / ".harness").short() is False  # and made again


def test_one_flusher_thread_serves_the_rounds_of_a_process(tmp_path, monkeypatch):
    seen = []
    real = os.fsync

    def fsync(fd):
        seen.append(threading.current_thread())
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    for number in (1, 2, 3):
        box, changes = _round(tmp_path, number)
        _step(box, changes, "write_file", {"path": f"r{number}.md", "content": "x\n"})
        changes.finish()
    flushers = {t for t in seen if t.name == "hd-round-flush"}
    assert len(flushers) == 1, flushers  # before: a thread a round, started in its first write
    assert all(t is not threading.main_thread() for t in flushers)


@pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="Linux's scheduling policies")
def test_the_flusher_thread_never_takes_the_loops_core_when_it_wakes(tmp_path, monkeypatch):
    policies = []
    real = os.fsync

    def fsync(fd):
        policies.append(os.sched_getscheduler(0))  # 0: the calling thread
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    box, changes = _round(tmp_path)
    _step(box, changes, "write_file", {"path": "a.md", "content": "a\n"})
    assert policies and set(policies) == {os.SCHED_BATCH}, policies
    assert os.sched_getscheduler(0) == os.SCHED_OTHER  # the loop's own thread: as it was


def test_a_run_start_removes_the_spares_whatever_their_age(tmp_path):
    from app.core.workspace.workspace import Workspace

    box, changes = _round(tmp_path)
    _step(box, changes, "write_file", {"path": "a.md", "content": "a\n"})
    changes.finish()
    folder = tmp_path / ".harness" / "spare"
    (folder / ".hd-deadbeef.tmp").write_bytes(b"a write a kill cut short")
    (folder / "notes.md").write_text("not ours: stays")
    assert len(os.listdir(folder)) > 2
    Workspace(tmp_path).clean_stale_temps()
    assert os.listdir(folder) == ["notes.md"]
    box, changes = _round(tmp_path, 2)  # the pool's spares are gone: it makes its own
    _step(box, changes, "write_file", {"path": "b.md", "content": "b\n"})
    assert (tmp_path / "b.md").read_text() == "b\n"
