"""A write step's own work, counted rather than timed (issue 36): the path it changes is
resolved once before the change and once right before it (not a third time), a path to write
is stat'ed once for all of its checks, and what a replace wrote is not read back to take its
fingerprint. The checks themselves stay: see test_sandbox.py and test_policies.py."""

from __future__ import annotations

import hashlib
import os

from app.core import undo
from app.core.policies.gate import ChangeGate
from app.core.sandbox import Sandbox
from app.core.tools import ToolBox
from app.core.undo_journal import journal_path


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
