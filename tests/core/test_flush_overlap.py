"""A write step's two flushes side by side (issue 36): the undo journal's on a thread of its
own while the person's file is written and flushed, and the file replaced only after the
journal's line is on disk. On a slow disk the step waits for one flush, not two."""

from __future__ import annotations

import os
import threading
import time

import pytest

from app.core.blobs import BlobStore
from app.core.tools import ToolBox
from app.core.undo import RoundChanges
from app.core.undo_journal import journal_path

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/fd"),
                                reason="names a flushed file by /proc/self/fd")
BOARD = "# Tasks\n\n- [ ] Write the notes\n"


class Disk:
    """os.fsync and os.replace as a slow disk has them, noting what happened in what order:
    the journal's flush waits (up to 5 s) until the file's flush has begun, so it ends
    only if the two run side by side."""

    def __init__(self, journal: str):
        self.journal, self.log = journal, []
        self.file_flush_began = threading.Event()
        self.real_fsync, self.real_replace = os.fsync, os.replace

    def fsync(self, fd: int) -> None:
        name = os.readlink(f"/proc/self/fd/{fd}")
        if name == self.journal:
            self.log.append(("journal flush began", threading.current_thread().name))
            overlapped = self.file_flush_began.wait(5)
            self.real_fsync(fd)
            self.log.append(("journal flushed", overlapped))
        else:
            self.file_flush_began.set()
            self.log.append(("file flush began", threading.current_thread().name))
            time.sleep(0.05)
            self.real_fsync(fd)
            self.log.append(("file flushed", None))

    def replace(self, src, dst) -> None:
        self.log.append(("replaced", os.path.basename(dst)))
        self.real_replace(src, dst)


def _box(root, gate=None):
    (root / "TASKS.md").write_text(BOARD)
    changes = RoundChanges(root, BlobStore(root / ".harness"),
                           root / ".harness" / "runs" / "r" / "undo" / "1.json", 1)
    return ToolBox(root, root / "TASKS.md", "Write the notes", changes, gate=gate), changes


@pytest.mark.parametrize("with_gate", [False, True])
def test_the_journal_flushes_beside_the_file_and_before_its_replace(tmp_path, monkeypatch,
                                                                   with_gate):
    (tmp_path / "notes.md").write_text("the person's notes\n" * 100)
    gate = None
    if with_gate:  # a run's gate wraps every write (it counts the round's changes)
        from app.core.policies.gate import ChangeGate

        gate = ChangeGate(tmp_path, tmp_path / ".harness", tmp_path / "TASKS.md",
                          lambda event: None, "r")
    box, changes = _box(tmp_path, gate)
    disk = Disk(str(journal_path(changes.manifest_path)))
    monkeypatch.setattr(os, "fsync", disk.fsync)
    monkeypatch.setattr(os, "replace", disk.replace)
    began = time.monotonic()
    out = box.call("write_file", {"path": "notes.md", "content": "the round's notes\n"})
    took = time.monotonic() - began
    assert not out.is_error, out.content
    kinds = [k for k, _ in disk.log]
    # Before: the journal flushed and waited for on the step's own thread, then the file's
    # flush began (the journal's waited the full 5 s for it, then the step went on).
    assert kinds.index("journal flush began") < kinds.index("file flushed")
    assert ("journal flushed", True) in disk.log, disk.log  # it ran beside the file's
    assert dict(disk.log)["journal flush began"] != threading.current_thread().name
    assert kinds.index("journal flushed") < disk.log.index(("replaced", "notes.md"))  # on disk
    assert took < 4, took
    assert (tmp_path / "notes.md").read_text() == "the round's notes\n"


def test_a_flush_that_fails_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    (tmp_path / "notes.md").write_text("the person's notes\n")
    box, changes = _box(tmp_path)
    journal = str(journal_path(changes.manifest_path))
    real = os.fsync

    def failing(fd):
        if os.readlink(f"/proc/self/fd/{fd}") == journal:
            raise OSError(5, "Input/output error")
        real(fd)

    monkeypatch.setattr(os, "fsync", failing)
    out = box.call("write_file", {"path": "notes.md", "content": "the round's notes\n"})
    assert out.is_error and "notes.md" in out.content, out.content
    assert (tmp_path / "notes.md").read_text() == "the person's notes\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".hd-")]
