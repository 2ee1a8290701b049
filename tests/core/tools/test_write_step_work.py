"""A write step's own work, counted rather than timed (issue 36): the path it changes is
resolved once before the change and once right before it (not a third time), a path to write
is stat'ed once for all of its checks, and what a replace wrote is not read back to take its
fingerprint. The checks themselves stay: see test_sandbox.py and test_policies.py."""

from __future__ import annotations

import hashlib
import os

from app.core.undo import undo
from app.core.policies.gate import ChangeGate
from app.core.tools.sandbox import Sandbox
from app.core.tools.toolbox import ToolBox
from app.core.undo.journal import journal_path


def _box(root):
    (root / "TASKS.md").write_text("# Tasks\n\n- [ ] Write the report\n", encoding="utf-8")
    changes = undo.RoundChanges(root, undo.BlobStore(root / ".harness"),
                                root / ".harness" / "undo" / "1.json", 1)
    gate = ChangeGate(root, root / ".harness", root / "TASKS.md", lambda event: None, "r")
    return ToolBox(root, root / "TASKS.md", "Write the report", changes, gate=gate), changes


def test_a_write_step_resolves_its_path_twice_not_three_times(tmp_path, monkeypatch):
    box, changes = _box(tmp_path)
    calls = []
    real = Sandbox._resolve

    def counted(self, rel, writing):
        calls.append((rel, writing))
        return real(self, rel, writing)

    monkeypatch.setattr(Sandbox, "_resolve", counted)
    out = box.call("write_file", {"path": "reports/a.md", "content": "# A\n\npoint one\n"})
    assert not out.is_error, out.content
    assert calls == [("reports/a.md", True)] * 2  # before reading it, and right before writing
    calls.clear()
    out = box.call("edit_file", {"path": "reports/a.md", "old_text": "one", "new_text": "two"})
    assert not out.is_error, out.content
    assert calls == [("reports/a.md", True)] * 2
    changes.finish()
    assert (tmp_path / "reports" / "a.md").read_text(encoding="utf-8") == "# A\n\npoint two\n"


def test_a_path_to_write_is_stated_once_for_all_its_checks(tmp_path, monkeypatch):
    (tmp_path / "TASKS.md").write_text("# Tasks\n", encoding="utf-8")
    (tmp_path / "AGENTS.md").write_text("Be brief.\n", encoding="utf-8")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.md").write_text("hello\n", encoding="utf-8")
    sandbox = Sandbox(tmp_path)
    stats = []
    real = os.stat
    monkeypatch.setattr(os, "stat", lambda *a, **kw: stats.append(a[0]) or real(*a, **kw))
    real_path = sandbox.resolve_write("notes/a.md")
    monkeypatch.setattr(os, "stat", real)
    assert real_path == tmp_path.resolve() / "notes" / "a.md"
    # the file once (a special file? read-only?), the board and AGENTS.md once each (an alias?)
    assert len(stats) == 3, stats


def test_a_replace_is_not_read_back_for_its_fingerprint(tmp_path, monkeypatch):
    box, changes = _box(tmp_path)
    content = "# Report\n\n" + "a line of the report\n" * 50
    hashed = []
    real = undo.sha256_file
    monkeypatch.setattr(undo, "sha256_file", lambda p: hashed.append(p) or real(p))
    out = box.call("write_file", {"path": "report.md", "content": content})
    assert not out.is_error, out.content
    assert hashed == []
    changes.flush()
    lines = journal_path(changes.manifest_path).read_text(encoding="utf-8").splitlines()
    sha = hashlib.sha256(content.encode("utf-8")).hexdigest()
    assert f'"after": "{sha}"' in lines[-1].replace('":"', '": "')
    changes.finish()
    record = undo.read_manifest(changes.manifest_path)
    assert record["files"]["report.md"]["after"] == sha


def test_a_write_step_walks_no_folder_to_find_its_stamp(tmp_path, monkeypatch):
    """The stamp of the file a tool changes is keyed by the real path the sandbox resolved:
    no os.path.realpath (a lstat of every folder from /) when it is set or looked up."""
    box, changes = _box(tmp_path)
    (tmp_path / "notes.md").write_text("opening at 8\n", encoding="utf-8")
    walked = []
    real = os.path.realpath
    monkeypatch.setattr(os.path, "realpath", lambda p, **kw: walked.append(p) or real(p, **kw))
    out = box.call("edit_file", {"path": "notes.md", "old_text": "8", "new_text": "9"})
    monkeypatch.setattr(os.path, "realpath", real)
    assert not out.is_error, out.content
    assert walked == []
    changes.finish()
    assert (tmp_path / "notes.md").read_text(encoding="utf-8") == "opening at 9\n"


def test_a_stamp_is_found_by_a_path_through_a_link_too(tmp_path):
    """The cheap key does not narrow what the guard catches: a replace through another
    spelling of the stamped file (a link to its folder) is still checked."""
    from app.core.workspace.files import atomic_write_bytes
    from app.core.workspace.write_guard import ChangedOnDisk, FileStamp, expect_unchanged

    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "a.txt"
    target.write_bytes(b"one\n")
    try:
        (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    except OSError:
        import pytest
        pytest.skip("no symbolic links here")
    stamp = FileStamp.of(target.resolve())
    target.write_bytes(b"their save\n")
    with expect_unchanged(stamp, "a.txt", resolved=True):
        try:
            atomic_write_bytes(tmp_path / "link" / "a.txt", b"ours\n")
        except ChangedOnDisk:
            pass
        else:
            raise AssertionError("a save through a link was not caught")
    assert target.read_bytes() == b"their save\n"


def test_a_replace_stats_the_file_it_replaces_once(tmp_path, monkeypatch):
    from app.core.workspace.files import atomic_write_bytes

    target = tmp_path / "private.txt"
    target.write_bytes(b"one\n")
    target.chmod(0o640)
    stats = []
    real = os.stat
    monkeypatch.setattr(os, "stat", lambda p, *a, **kw: stats.append(str(p)) or real(p, *a, **kw))
    atomic_write_bytes(target, b"two\n", sync=False)
    monkeypatch.setattr(os, "stat", real)
    seen = [p for p in stats if p == str(target)]
    assert len(seen) == 2, seen  # the early read-only check, then the replace's (mode kept)
    assert target.read_bytes() == b"two\n"
    if os.name == "posix":
        assert target.stat().st_mode & 0o777 == 0o640


def test_the_folder_settings_are_read_again_only_when_their_file_changes(tmp_path, monkeypatch):
    from app.core.workspace.folder_settings import FolderSettings, save_folder_settings
    from app.core.policies import gate as gate_module

    box, changes = _box(tmp_path)
    save_folder_settings(tmp_path / ".harness", FolderSettings(protected=["private"]))
    reads = []
    real = gate_module.load_folder_settings
    monkeypatch.setattr(gate_module, "load_folder_settings",
                        lambda folder: reads.append(folder) or real(folder))
    for k in range(3):
        out = box.call("write_file", {"path": f"reports/p{k}.md", "content": f"part {k}\n"})
        assert not out.is_error, out.content
    assert len(reads) == 1
    out = box.call("write_file", {"path": "private/diary.md", "content": "no\n"})
    assert out.is_error and not (tmp_path / "private").exists()
    # A change in the window counts at the next change of a file.
    save_folder_settings(tmp_path / ".harness", FolderSettings(protected=["private", "reports"]))
    out = box.call("write_file", {"path": "reports/p9.md", "content": "more\n"})
    assert out.is_error and not (tmp_path / "reports" / "p9.md").exists()
    assert len(reads) == 2
    changes.finish()


def _stats_of(path, monkeypatch):
    """Every stat and lstat of `path` (by any spelling) while the returned list is live."""
    seen = []
    target = os.fspath(path)
    for name in ("stat", "lstat"):
        real = getattr(os, name)

        def counted(p, *a, _real=real, _name=name, **kw):
            if os.fspath(p) == target:
                seen.append(_name)
            return _real(p, *a, **kw)
        monkeypatch.setattr(os, name, counted)
    return seen


def test_a_write_step_stats_its_file_no_more_than_its_checks_need(tmp_path, monkeypatch):
    # The stamp taken before the change already says whether the file is there and its size,
    # and one lstat tells the undo recorder a new file from a folder: no stat beyond those.
    box, changes = _box(tmp_path)
    (tmp_path / "reports").mkdir()
    target = tmp_path.resolve() / "reports" / "a.md"
    seen = _stats_of(target, monkeypatch)
    out = box.call("write_file", {"path": "reports/a.md", "content": "# A\n\npoint one\n"})
    assert not out.is_error, out.content
    new_file = list(seen)
    seen.clear()
    out = box.call("write_file", {"path": "reports/a.md", "content": "# A\n\npoint two\n"})
    assert not out.is_error, out.content
    again = list(seen)
    monkeypatch.undo()
    changes.finish()
    assert target.read_text(encoding="utf-8") == "# A\n\npoint two\n"
    # 15 and 14 before the stamp and the lstat stood in for Path.is_file/stat/is_dir/lexists
    assert len(new_file) <= 13, new_file
    assert len(again) <= 12, again
