"""Undo says plainly when something did not come back (issue 8, item 11)."""

from __future__ import annotations

from app.core.undo.undo import BlobStore, RoundChanges, undo_manifest


def _round_that_deleted(root, *names):
    changes = RoundChanges(root, BlobStore(root / ".harness"),
                           root / ".harness" / "runs" / "r1" / "undo" / "1.json", 1)
    for name in names:
        changes.before_change(name)
        (root / name).unlink()
    changes.finish()
    return changes.manifest_path


def _damage_every_blob(root):
    for blob in (root / ".harness" / "blobs").iterdir():
        blob.chmod(0o644)
        blob.write_bytes(b"damaged")


def test_undo_with_every_saved_copy_damaged_fails_and_says_nothing_came_back(tmp_path):
    (tmp_path / "a.md").write_text("alpha\n")
    (tmp_path / "b.md").write_text("beta\n")
    manifest = _round_that_deleted(tmp_path, "a.md", "b.md")
    _damage_every_blob(tmp_path)
    report = undo_manifest(tmp_path, tmp_path / ".harness", manifest)
    assert not report.ok
    assert report.failed == ["a.md", "b.md"] and report.restored == []
    summary = report.summary()
    assert summary.startswith("Nothing from round 1 came back")
    assert "a.md" in summary and "damaged" in summary
    assert not (tmp_path / "a.md").exists()


def test_undo_with_one_damaged_copy_restores_the_rest_and_still_fails(tmp_path):
    (tmp_path / "a.md").write_text("alpha\n")
    (tmp_path / "b.md").write_text("beta\n")
    manifest = _round_that_deleted(tmp_path, "a.md", "b.md")
    blobs = BlobStore(tmp_path / ".harness")
    import json

    damaged = json.loads(manifest.read_text())["files"]["b.md"]["before"]
    (blobs.dir / damaged).chmod(0o644)
    (blobs.dir / damaged).write_bytes(b"damaged")
    report = undo_manifest(tmp_path, tmp_path / ".harness", manifest)
    assert not report.ok and report.restored == ["a.md"] and report.failed == ["b.md"]
    assert (tmp_path / "a.md").read_text() == "alpha\n"
    assert "1 restored" in report.summary() and "1 could not be restored" in report.summary()


def test_a_clean_undo_is_ok(tmp_path):
    (tmp_path / "a.md").write_text("alpha\n")
    report = undo_manifest(tmp_path, tmp_path / ".harness", _round_that_deleted(tmp_path, "a.md"))
    assert report.ok and report.restored == ["a.md"]
