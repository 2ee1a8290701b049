"""Opening a folder in the window removes what a kill mid-save left (issue 16, point 7)."""

from __future__ import annotations

import os
import time

from app.core.workspace.files import STALE_TEMP_S
from app.core.workspace.workspace import init_workspace
from app.gui.folder.workspace_info import inspect_folder


def test_opening_the_folder_in_the_window_cleans_up_too(tmp_path):
    ws, _ = init_workspace(tmp_path / "ws")
    stale = ws.root / ".TASKS.md.k2j_9x0a.tmp"
    stale.write_bytes(b"")
    old = time.time() - STALE_TEMP_S - 60
    os.utime(stale, (old, old))
    fresh = ws.root / ".hd-abcd1234.tmp"
    fresh.write_bytes(b"")
    info = inspect_folder(ws.root)
    assert info.has_board and not info.problem
    assert not stale.exists() and fresh.exists()
