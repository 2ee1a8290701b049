"""Temporary files of ours left by a kill are cleaned up and never shown (issue 16, point 7).

A kill during a save leaves `.hd-XXXXXXXX.tmp` (before issue 16, `.TASKS.md.<random>.tmp`)
in the person's folder. The next run (and the window, when it opens the folder) removes
ours, recognised by name and age, and nothing else; the AI never sees one listed."""

from __future__ import annotations

import os
import time

from app.core.workspace.files import STALE_TEMP_S
from app.core.tools.toolbox import ToolBox
from app.core.undo.undo import BlobStore, RoundChanges
from app.core.workspace.workspace import Workspace, init_workspace

OLD = time.time() - STALE_TEMP_S - 60


def _plant(folder, name, age=OLD):
    path = folder / name
    path.write_bytes(b"")
    os.utime(path, (age, age))
    return path


def test_a_run_start_removes_our_stale_temporary_files_and_nothing_else(tmp_path):
    ws, _ = init_workspace(tmp_path / "ws")
    root = ws.root
    stale = [_plant(root, ".TASKS.md.k2j_9x0a.tmp"), _plant(root, ".hd-abcd1234.tmp"),
             _plant(ws.harness_dir, ".status.json.q1w2e3r4.tmp"),
             _plant(ws.harness_dir / "blobs", ".incoming-zz9y8x7w"),
             _plant(ws.harness_dir / "blobs", ".hd-0000aaaa.tmp")]
    fresh = _plant(root, ".hd-fresh123.tmp", age=time.time())  # a save going on right now
    theirs = [_plant(root, "notes.tmp"), _plant(root, ".hd-notes.tmp"),
              _plant(root, "draft.md.abcd1234.tmp"), _plant(root, ".TASKS.md.tmp")]
    (root / "sub").mkdir()
    theirs.append(_plant(root / "sub", ".hd-abcd1234.tmp"))  # deeper folders are not scanned
    assert ws.clean_stale_temps() == len(stale)
    assert not any(p.exists() for p in stale)
    assert fresh.exists() and all(p.exists() for p in theirs)


def test_a_run_cleans_up_before_it_starts(tmp_path):
    from app.core.run.loop import Harness
    from app.engines.demo.engine import DemoEngine

    ws, _ = init_workspace(tmp_path / "ws")
    stale = _plant(ws.root, ".TASKS.md.k2j_9x0a.tmp")
    Harness(Workspace(ws.root), DemoEngine()).run()
    assert not stale.exists()


def test_list_files_never_shows_our_temporary_files(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "TASKS.md").write_text("- [ ] a\n")
    (root / "plan.md").write_text("x")
    for name in (".hd-abcd1234.tmp", ".plan.md.abcd1234.tmp"):
        _plant(root, name, age=time.time())
    changes = RoundChanges(root, BlobStore(root / ".harness"), root / ".harness" / "u.json", 1)
    tools = ToolBox(root, root / "TASKS.md", "a", changes)
    listing = tools.call("list_files", {"path": "."}).content
    assert "plan.md" in listing and ".tmp" not in listing
    found = tools.call("search_files", {"query": "x"}).content
    assert ".tmp" not in found

