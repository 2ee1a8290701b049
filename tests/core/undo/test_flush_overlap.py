"""A write step's flushes off its path (issue 36): the person's file is flushed after its
replace, on the round's flusher thread, while the next model call is in flight; the undo
journal's line is on disk before the replace only when the replace puts away content of the
person's (the first change of a file that held something before the round). The round's end
waits for every flush."""

from __future__ import annotations

import os
import threading
import time

import pytest

from app.core.undo.blobs import BlobStore
from app.core.tools.toolbox import ToolBox
from app.core.undo.undo import RoundChanges
from app.core.undo.journal import journal_path, read_manifest

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/fd"),
                                reason="names a flushed file by /proc/self/fd")
BOARD = "# Tasks\n\n- [ ] Write the notes\n"
SLOW_S = 0.3  # what each flush costs on this "disk"


class Disk:
    """os.fsync and os.replace as a slow disk has them, noting in order what was flushed or
    replaced, and on which thread."""

    def __init__(self, journal: str, fail: str | None = None):
        self.journal, self.fail, self.log = journal, fail, []
        self.real_fsync, self.real_replace = os.fsync, os.replace
        self.lock = threading.Lock()

    def name(self, fd: int) -> str:
        path = os.readlink(f"/proc/self/fd/{fd}")
        return "journal" if path == self.journal else \
            "blob" if "/blobs/" in path else os.path.basename(path)

    def fsync(self, fd: int) -> None:
        name = self.name(fd)
        time.sleep(SLOW_S)
        if name == self.fail:
            raise OSError(5, "Input/output error")
        self.real_fsync(fd)
        with self.lock:
            self.log.append(("flushed", name, threading.current_thread().name))

    def replace(self, src, dst) -> None:
        if "/blobs/" not in str(dst):  # the copies undo keeps are not flushed on their own
            with self.lock:
                self.log.append(("replaced", os.path.basename(dst),
                                 threading.current_thread().name))
        self.real_replace(src, dst)

    def on_this_thread(self) -> list[tuple]:
        here = threading.current_thread().name
        return [e for e in self.log if e[0] == "flushed" and e[2] == here]

    def order(self) -> list[tuple[str, str]]:
        return [(kind, name) for kind, name, _ in self.log]


def _box(root, gate=None):
    (root / "TASKS.md").write_text(BOARD)
    changes = RoundChanges(root, BlobStore(root / ".harness"),
                           root / ".harness" / "runs" / "r" / "undo" / "1.json", 1)
    return ToolBox(root, root / "TASKS.md", "Write the notes", changes, gate=gate), changes


def _gate(root, with_gate: bool):
    if not with_gate:
        return None
    from app.core.policies.gate import ChangeGate  # a run's gate wraps every write

    return ChangeGate(root, root / ".harness", root / "TASKS.md", lambda event: None, "r")


def _timed(box, name, args):
    began = time.monotonic()
    out = box.call(name, args)
    return out, time.monotonic() - began


@pytest.mark.parametrize("with_gate", [False, True])
def test_a_new_file_is_written_without_waiting_for_any_flush(tmp_path, monkeypatch,
                                                           with_gate):
    box, changes = _box(tmp_path, _gate(tmp_path, with_gate))
    disk = Disk(str(journal_path(changes.manifest_path)))
    monkeypatch.setattr(os, "fsync", disk.fsync)
    monkeypatch.setattr(os, "replace", disk.replace)
    out, took = _timed(box, "write_file", {"path": "notes.md", "content": "the round's notes\n"})
    assert not out.is_error, out.content
    assert took < SLOW_S * 0.8, took  # before: the file's flush (and the journal's) waited for
    assert disk.on_this_thread() == [], disk.log
    assert (tmp_path / "notes.md").read_text() == "the round's notes\n"
    out, took = _timed(box, "edit_file", {"path": "notes.md", "old_text": "round's",
                                          "new_text": "round's checked"})
    assert not out.is_error, out.content
    assert took < SLOW_S * 0.8, took
    assert disk.on_this_thread() == [], disk.log
    changes.flush()  # what the round's end waits for: the journal's line, then the file, twice
    assert [e for e in disk.order() if e[0] == "flushed"] == [
        ("flushed", "journal"), ("flushed", "notes.md"), ("flushed", "notes.md")], disk.log
    assert all(e[2] == "hd-round-flush" for e in disk.log if e[0] == "flushed")


@pytest.mark.parametrize("with_gate", [False, True])
def test_the_persons_content_is_replaced_only_once_its_undo_line_is_on_disk(
        tmp_path, monkeypatch, with_gate):
    (tmp_path / "notes.md").write_text("the person's notes\n" * 100)
    box, changes = _box(tmp_path, _gate(tmp_path, with_gate))
    disk = Disk(str(journal_path(changes.manifest_path)))
    monkeypatch.setattr(os, "fsync", disk.fsync)
    monkeypatch.setattr(os, "replace", disk.replace)
    out, took = _timed(box, "write_file", {"path": "notes.md", "content": "the round's notes\n"})
    assert not out.is_error, out.content
    order = disk.order()
    # The journal's line is on disk before the replace; the file is flushed after it, on the
    # flusher thread (before: the file's flush came before its replace, on the step's path).
    assert order.index(("flushed", "journal")) < order.index(("replaced", "notes.md")), order
    assert ("flushed", "notes.md") not in order[:order.index(("replaced", "notes.md"))], order
    assert took < SLOW_S * 1.8, took  # one flush waited for, not two
    changes.flush()
    assert disk.order()[-1] == ("flushed", "notes.md"), disk.log
    assert next(e for e in disk.log if e[1] == "notes.md" and e[0] == "flushed")[2] == \
        "hd-round-flush"
    # A second change of the same file waits for nothing: its line is on disk already.
    before = len(disk.log)
    out, took = _timed(box, "edit_file", {"path": "notes.md", "old_text": "round's",
                                          "new_text": "round's checked"})
    assert not out.is_error and took < SLOW_S * 0.8, (out.content, took)
    assert disk.on_this_thread() == [], disk.log
    changes.flush()
    assert [n for k, n, _ in disk.log[before:] if k == "flushed"] == ["notes.md"]


def test_a_write_step_flushes_the_journal_and_the_file_once_each_and_a_persons_copy(
        tmp_path, monkeypatch):
    (tmp_path / "old.md").write_text("the person's notes\n")
    box, changes = _box(tmp_path)
    disk = Disk(str(journal_path(changes.manifest_path)))
    monkeypatch.setattr("tests.core.undo.test_flush_overlap.SLOW_S", 0.0)
    monkeypatch.setattr(os, "fsync", disk.fsync)
    for name, args in [("write_file", {"path": "new.md", "content": "new\n"}),
                       ("write_file", {"path": "old.md", "content": "changed\n"}),
                       ("edit_file", {"path": "old.md", "old_text": "changed",
                                      "new_text": "changed again"})]:
        disk.log.clear()
        assert not box.call(name, args).is_error
        changes.flush()
        flushed = sorted(n for k, n, _ in disk.log if k == "flushed")
        expected = sorted(["journal", args["path"]]) if name == "write_file" else [args["path"]]
        if args["path"] == "old.md" and name == "write_file":  # what the person had, kept
            expected = sorted([*expected, "blob"])
        assert flushed == expected, (name, args, disk.log)


def test_the_copy_of_a_persons_file_is_on_disk_before_the_replace(tmp_path, monkeypatch):
    """A power cut after the replace must find the copy undo restores, not only its line."""
    (tmp_path / "old.md").write_text("the person's notes\n")
    box, changes = _box(tmp_path)
    disk = Disk(str(journal_path(changes.manifest_path)))
    monkeypatch.setattr(os, "fsync", disk.fsync)
    monkeypatch.setattr(os, "replace", disk.replace)
    assert not box.call("write_file", {"path": "old.md", "content": "changed\n"}).is_error
    changes.flush()
    order = [(k, n) for k, n, _ in disk.log]
    replaced = order.index(("replaced", "old.md"))
    assert ("flushed", "blob") in order[:replaced] and ("flushed", "journal") in order[:replaced]


def test_a_flush_of_the_journal_that_fails_leaves_the_persons_file_as_it_was(
        tmp_path, monkeypatch):
    (tmp_path / "notes.md").write_text("the person's notes\n")
    box, changes = _box(tmp_path)
    disk = Disk(str(journal_path(changes.manifest_path)), fail="journal")
    monkeypatch.setattr("tests.core.undo.test_flush_overlap.SLOW_S", 0.0)
    monkeypatch.setattr(os, "fsync", disk.fsync)
    out = box.call("write_file", {"path": "notes.md", "content": "the round's notes\n"})
    assert out.is_error and "notes.md" in out.content, out.content
    assert (tmp_path / "notes.md").read_text() == "the person's notes\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".hd-")]


def test_a_late_flush_that_fails_is_said_when_the_round_ends_and_the_record_is_kept(
        tmp_path, monkeypatch):
    box, changes = _box(tmp_path)
    disk = Disk(str(journal_path(changes.manifest_path)), fail="notes.md")
    monkeypatch.setattr("tests.core.undo.test_flush_overlap.SLOW_S", 0.0)
    monkeypatch.setattr(os, "fsync", disk.fsync)
    assert not box.call("write_file", {"path": "notes.md", "content": "notes\n"}).is_error
    with pytest.raises(OSError, match="Input/output error"):
        changes.finish()
    files = read_manifest(changes.manifest_path)["files"]
    assert changes.manifest_path.exists() and files["notes.md"]["before"] == "absent"
    assert files["notes.md"]["after"] is not None


def test_the_rounds_version_is_kept_for_the_evidence_once_the_flusher_is_done(tmp_path):
    # The step records only the fingerprint of what it wrote; the copy the evidence of a
    # round cut short shows is made on the flusher thread, and is there once it is done.
    box, changes = _box(tmp_path)
    assert not box.call("write_file", {"path": "notes.md", "content": "notes\n"}).is_error
    after = read_manifest(changes.manifest_path)["files"]["notes.md"]["after"]
    changes.flush()
    assert BlobStore(tmp_path / ".harness").get(after) == b"notes\n"
