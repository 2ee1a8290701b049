"""Undo keeps pre-images before every change and never overwrites what the person did since."""

from __future__ import annotations

import json
import os
import sys

import pytest

from app.core.undo.undo import (ABSENT, BlobStore, RoundChanges, UndoError, sha256_bytes,
                           undo_manifest)
from app.core.undo.journal import read_manifest

BINARY = bytes(range(256)) * 40 + b"\x00\xff\r\n\r"


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "keep.md").write_text("keep\n")
    (root / "old.txt").write_bytes(b"line one\r\nline two\r\n")
    (root / "img").mkdir()
    (root / "img" / "logo.png").write_bytes(BINARY)
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    return root


def manifest_for(root, n=1):
    return root / ".harness" / "runs" / "r1" / "undo" / f"{n}.json"


def recorder(root, n=1):
    return RoundChanges(root, BlobStore(root / ".harness"), manifest_for(root, n), n)


def test_blob_store_is_content_addressed(tmp_path):
    blobs = BlobStore(tmp_path / ".harness")
    sha = blobs.put(BINARY)
    assert sha == sha256_bytes(BINARY)
    assert (tmp_path / ".harness" / "blobs" / sha).read_bytes() == BINARY
    assert blobs.has(sha) and blobs.get(sha) == BINARY
    assert blobs.put(BINARY) == sha
    assert not blobs.has("0" * 64) and not blobs.has("../etc")


def test_manifest_is_written_before_the_change(ws):
    changes = recorder(ws)
    changes.before_change("old.txt")
    changes.before_change("new/file.md")
    data = read_manifest(manifest_for(ws))  # the round's journal: no record before its end
    assert data["round"] == 1
    assert data["files"]["old.txt"] == {"before": sha256_bytes(b"line one\r\nline two\r\n"),
                                        "after": None,
                                        "mode": (ws / "old.txt").stat().st_mode & 0o7777}
    assert data["files"]["new/file.md"]["before"] == ABSENT
    assert data["files"]["new/file.md"]["after"] is None
    assert changes.touched == ["new/file.md", "old.txt"]


def test_first_pre_image_wins_within_a_round(ws):
    changes = recorder(ws)
    changes.before_change("keep.md")
    (ws / "keep.md").write_text("changed once\n")
    changes.before_change("keep.md")
    data = read_manifest(manifest_for(ws))
    assert data["files"]["keep.md"]["before"] == sha256_bytes(b"keep\n")


def test_finish_records_post_images_and_returns_changed_paths(ws):
    changes = recorder(ws)
    for rel in ["old.txt", "keep.md", "made.md"]:
        changes.before_change(rel)
    (ws / "old.txt").unlink()
    (ws / "made.md").write_text("new\n")
    assert changes.finish() == ["made.md", "old.txt"]  # keep.md touched but unchanged
    files = json.loads(manifest_for(ws).read_text())["files"]
    assert files["old.txt"]["after"] == ABSENT
    assert files["made.md"]["after"] == sha256_bytes(b"new\n")
    assert files["keep.md"]["after"] == files["keep.md"]["before"]


def _agent_round(ws, finish=True):
    """A round that deletes two files (one binary), creates two (one in new folders), edits one."""
    changes = recorder(ws)
    for rel in ["old.txt", "img/logo.png", "keep.md", "made.md", "deep/er/made.md"]:
        changes.before_change(rel)
    (ws / "old.txt").unlink()
    (ws / "img" / "logo.png").unlink()
    (ws / "keep.md").write_text("agent edit\n")
    (ws / "made.md").write_text("new\n")
    (ws / "deep" / "er").mkdir(parents=True)
    (ws / "deep" / "er" / "made.md").write_text("deep\n")
    if finish:
        changes.finish()


def test_undo_restores_deleted_files_byte_for_byte_and_removes_created_ones(ws):
    _agent_round(ws)
    report = undo_manifest(ws, ws / ".harness", manifest_for(ws))
    assert (ws / "old.txt").read_bytes() == b"line one\r\nline two\r\n"
    assert (ws / "img" / "logo.png").read_bytes() == BINARY
    assert (ws / "keep.md").read_text() == "keep\n"
    assert not (ws / "made.md").exists()
    assert not (ws / "deep").exists()  # the empty folders the round made are gone too
    assert sorted(report.restored) == ["img/logo.png", "keep.md", "old.txt"]
    assert sorted(report.removed) == ["deep/er/made.md", "made.md"]
    assert report.kept_both == [] and report.messages == []
    assert report.summary().startswith("Undid round 1: 3 restored, 2 removed.")
    assert (ws / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"


def test_undo_keeps_folders_that_existed_or_are_not_empty(ws):
    changes = recorder(ws)
    changes.before_change("img/new.png")
    changes.before_change("fresh/a.md")
    (ws / "img" / "new.png").write_bytes(b"x")
    (ws / "fresh").mkdir()
    (ws / "fresh" / "a.md").write_text("a")
    changes.finish()
    (ws / "fresh" / "mine.md").write_text("the person's own file")
    undo_manifest(ws, ws / ".harness", manifest_for(ws))
    assert (ws / "img").is_dir()
    assert (ws / "fresh" / "mine.md").exists() and not (ws / "fresh" / "a.md").exists()


def test_undo_after_a_kill_without_finish_still_restores(ws):
    _agent_round(ws, finish=False)  # the process died before finish(): "after" is null
    assert all(v["after"] is None
               for v in read_manifest(manifest_for(ws))["files"].values())
    report = undo_manifest(ws, ws / ".harness", manifest_for(ws))
    assert (ws / "img" / "logo.png").read_bytes() == BINARY
    assert (ws / "old.txt").exists() and not (ws / "made.md").exists()
    assert len(report.restored) == 3 and len(report.removed) == 2


def test_person_edit_after_the_round_keeps_both_versions(ws):
    changes = recorder(ws, 3)
    changes.before_change("keep.md")
    (ws / "keep.md").write_text("agent edit\n")
    changes.finish()
    (ws / "keep.md").write_text("the person's edit\n")
    report = undo_manifest(ws, ws / ".harness", manifest_for(ws, 3))
    assert (ws / "keep.md").read_text() == "the person's edit\n"
    assert (ws / "keep (before round 3).md").read_text() == "keep\n"
    assert report.kept_both == [("keep.md", "keep (before round 3).md")]
    assert report.restored == []
    assert "keep (before round 3).md" in report.summary()
    assert "changed after round 3" in report.messages[0]
    # Undoing again does not pile up copies.
    again = undo_manifest(ws, ws / ".harness", manifest_for(ws, 3))
    assert again.kept_both == [("keep.md", "keep (before round 3).md")]
    assert sorted(p.name for p in ws.iterdir() if p.name.startswith("keep")) == [
        "keep (before round 3).md", "keep.md"]


def test_created_file_the_person_edited_is_kept(ws):
    changes = recorder(ws)
    changes.before_change("made.md")
    (ws / "made.md").write_text("agent\n")
    changes.finish()
    (ws / "made.md").write_text("agent\nplus the person's notes\n")
    report = undo_manifest(ws, ws / ".harness", manifest_for(ws))
    assert (ws / "made.md").read_text() == "agent\nplus the person's notes\n"
    assert report.removed == []
    assert "Kept made.md" in report.summary()


def test_file_the_person_deleted_after_the_round_is_put_back(ws):
    changes = recorder(ws)
    changes.before_change("keep.md")
    (ws / "keep.md").write_text("agent\n")
    changes.finish()
    (ws / "keep.md").unlink()
    report = undo_manifest(ws, ws / ".harness", manifest_for(ws))
    assert (ws / "keep.md").read_text() == "keep\n"
    assert report.restored == ["keep.md"] and report.messages


def test_undo_of_an_untouched_state_reports_unchanged(ws):
    changes = recorder(ws)
    changes.before_change("keep.md")
    changes.finish()
    report = undo_manifest(ws, ws / ".harness", manifest_for(ws))
    assert report.unchanged == ["keep.md"]
    assert "already as before" in report.summary()


def test_tampered_manifest_cannot_reach_git_or_outside(ws, tmp_path):
    blob = BlobStore(ws / ".harness").put(b"evil")
    path = manifest_for(ws)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"round": 1, "files": {
        ".git/HEAD": {"before": blob, "after": None},
        "../escaped.txt": {"before": blob, "after": None},
        "TASKS.md": {"before": blob, "after": None},
        "x.md": {"before": ABSENT, "after": None, "new_dirs": ["../.."]},
    }}))
    report = undo_manifest(ws, ws / ".harness", path)
    assert (ws / ".git" / "HEAD").read_text() == "ref: refs/heads/main\n"
    assert not (tmp_path / "escaped.txt").exists() and not (ws / "TASKS.md").exists()
    assert sum(m.startswith("Skipped") for m in report.messages) == 3


def test_missing_or_corrupt_manifest_raises_a_plain_error(ws):
    with pytest.raises(UndoError):
        undo_manifest(ws, ws / ".harness", manifest_for(ws, 9))
    manifest_for(ws, 8).parent.mkdir(parents=True)
    manifest_for(ws, 8).write_text("{not json")
    with pytest.raises(UndoError) as exc:
        undo_manifest(ws, ws / ".harness", manifest_for(ws, 8))
    assert "no readable undo record" in exc.value.message


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
def test_restored_file_keeps_its_mode(ws):
    os.chmod(ws / "keep.md", 0o640)
    changes = recorder(ws)
    changes.before_change("keep.md")
    (ws / "keep.md").write_text("agent\n")
    changes.finish()
    undo_manifest(ws, ws / ".harness", manifest_for(ws))
    assert (ws / "keep.md").stat().st_mode & 0o777 == 0o640


def test_after_a_kill_undo_still_keeps_the_persons_later_edits(ws):
    """The tools record each file's post-image right after writing it, so a round killed
    before finish() still lets undo tell the round's content from the person's edit."""
    from app.core.tools.toolbox import ToolBox

    changes = recorder(ws, 2)
    tools = ToolBox(ws, ws / "TASKS.md", "Write the essay", changes)
    assert not tools.call("write_file", {"path": "keep.md", "content": "round text\n"}).is_error
    assert not tools.call("write_file", {"path": "notes/new.md", "content": "new\n"}).is_error
    # ... the process is killed here: finish() never runs. Then the person edits both files.
    (ws / "keep.md").write_text("the person's rewrite\n")
    (ws / "notes" / "new.md").write_text("the person's notes\n")
    report = undo_manifest(ws, ws / ".harness", manifest_for(ws, 2))
    assert (ws / "keep.md").read_text() == "the person's rewrite\n"
    assert (ws / "keep (before round 2).md").read_text() == "keep\n"
    assert (ws / "notes" / "new.md").read_text() == "the person's notes\n"
    assert report.removed == [] and report.restored == []
