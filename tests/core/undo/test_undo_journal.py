"""The round's undo journal (issue 36): a line appended before each change, never rewritten;
the pre-image's copy is not flushed on its own, and undo stays byte-exact after a kill -9 at
any moment of a write step."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from app.core.undo.undo import BlobStore, RoundChanges, undo_manifest, write_user_file
from app.core.undo.journal import journal_path, read_manifest


def _changes(root, n=1):
    manifest = root / ".harness" / "runs" / "r1" / "undo" / f"{n}.json"
    return RoundChanges(root, BlobStore(root / ".harness"), manifest, n)


def _write_step(changes, root, rel, data):
    """What a tool's write does: the pre-image, the change, the post-image."""
    changes.before_change(rel)
    write_user_file(root / rel, data)
    changes.after_change(rel)


def test_a_write_step_flushes_the_journal_once_and_the_file_once(tmp_path, monkeypatch):
    (tmp_path / "notes.md").write_bytes(b"the person's notes\n" * 1000)
    changes = _changes(tmp_path)
    flushed = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (flushed.append(os.readlink(
        f"/proc/self/fd/{fd}") if os.path.exists("/proc/self/fd") else fd), real(fd))[1])
    _write_step(changes, tmp_path, "notes.md", b"the round's notes\n")
    # the journal, the copy of what the person had (a power cut must not leave a line that
    # names a copy the disk never got), then the person's file
    assert len(flushed) == 3, flushed
    if os.path.exists("/proc/self/fd"):
        assert flushed[0] == str(journal_path(changes.manifest_path))
        assert "/blobs/" in flushed[1]
        assert "/blobs/" not in flushed[2] and ".hd-" in flushed[2]
    flushed.clear()
    _write_step(changes, tmp_path, "notes.md", b"again\n")  # the pre-image is kept already
    assert len(flushed) == 1


def test_the_journal_is_appended_to_not_rewritten(tmp_path):
    for name in ("a.md", "b.md", "c.md"):
        (tmp_path / name).write_text(f"{name} before\n")
    changes = _changes(tmp_path)
    _write_step(changes, tmp_path, "a.md", b"a after\n")
    journal = journal_path(changes.manifest_path)
    first, inode = journal.read_bytes(), journal.stat().st_ino
    _write_step(changes, tmp_path, "b.md", b"b after\n")
    _write_step(changes, tmp_path, "c.md", b"c after\n")
    assert journal.stat().st_ino == inode and journal.read_bytes().startswith(first)
    assert not changes.manifest_path.exists()  # the whole record comes at the round's end
    assert sorted(read_manifest(changes.manifest_path)["files"]) == ["a.md", "b.md", "c.md"]
    assert changes.finish() == ["a.md", "b.md", "c.md"]
    assert read_manifest(changes.manifest_path)["files"]["c.md"]["after"] is not None


def test_a_torn_last_line_and_a_resumed_round_keep_every_pre_image(tmp_path):
    (tmp_path / "a.md").write_text("a before\n")
    (tmp_path / "b.md").write_text("b before\n")
    changes = _changes(tmp_path)
    _write_step(changes, tmp_path, "a.md", b"a after\n")
    with open(journal_path(changes.manifest_path), "ab") as fh:
        fh.write(b'{"op": "before", "file": "b.md", "ent')  # a kill mid-append
    again = _changes(tmp_path)  # the process that carries the round on
    _write_step(again, tmp_path, "a.md", b"a later\n")  # not a new pre-image
    _write_step(again, tmp_path, "b.md", b"b after\n")
    report = undo_manifest(tmp_path, tmp_path / ".harness", again.manifest_path)
    assert report.ok, report.summary()
    assert (tmp_path / "a.md").read_text() == "a before\n"
    assert (tmp_path / "b.md").read_text() == "b before\n"


def test_a_pre_image_lost_to_a_power_cut_is_never_written_back(tmp_path):
    # The copy is not flushed on its own: after a power cut it may be empty. The journal
    # names it by its SHA-256, so undo refuses it and leaves the file as it is.
    (tmp_path / "a.md").write_text("a before\n")
    changes = _changes(tmp_path)
    _write_step(changes, tmp_path, "a.md", b"a after\n")
    sha = read_manifest(changes.manifest_path)["files"]["a.md"]["before"]
    copy = tmp_path / ".harness" / "blobs" / sha
    os.chmod(copy, 0o600)
    copy.write_bytes(b"")
    report = undo_manifest(tmp_path, tmp_path / ".harness", changes.manifest_path)
    assert report.failed == ["a.md"]
    assert (tmp_path / "a.md").read_text() == "a after\n"


_WRITER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from app.core.undo.undo import BlobStore, RoundChanges, write_user_file
    root, overlap = Path(sys.argv[1]), sys.argv[2] == "overlap"
    changes = RoundChanges(root, BlobStore(root / ".harness"),
                           root / ".harness" / "undo" / "1.json", 1)
    print("go", flush=True)
    for step in range(100000):
        rel = f"f{step % 7}.md" if step % 3 else f"new/n{step}.md"
        changes.before_change(rel, overlap=overlap)  # the journal's flush beside the file's
        with changes.flushed_first(root / rel):
            write_user_file(root / rel, (f"step {step}\\n" * (1 + step % 50)).encode())
        changes.after_change(rel)
""")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="kill -9 is POSIX")
@pytest.mark.parametrize("flushes", ["in turn", "overlap"])
def test_undo_is_byte_exact_after_a_kill_9_at_any_moment(tmp_path, flushes):
    rng = random.Random(36)
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    for attempt in range(6):
        root = tmp_path / f"ws{attempt}"
        root.mkdir()
        originals = {f"f{k}.md": os.urandom(200 + 37 * k) for k in range(7)}
        for rel, data in originals.items():
            (root / rel).write_bytes(data)
        proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(root), flushes], cwd=repo,
                                stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": repo})
        assert proc.stdout.readline().strip() == b"go"
        time.sleep(rng.uniform(0.0, 0.3))
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        report = undo_manifest(root, root / ".harness", root / ".harness" / "undo" / "1.json")
        assert report.ok, report.summary()
        for rel, data in originals.items():
            assert (root / rel).read_bytes() == data, (attempt, rel)
        assert not (root / "new").exists() or not any((root / "new").iterdir())
        # a kill mid-write leaves a temporary file of ours; undo takes it away with the round
        assert not [p.name for p in root.iterdir() if p.name.startswith(".hd-")]
