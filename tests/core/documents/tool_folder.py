"""A folder with a one-task board and the tools of that task's round, as the document tests use
them (read_file, write_file, set_cells... on the folder's documents)."""

from __future__ import annotations

import threading
from pathlib import Path

from app.core.tools.toolbox import ToolBox
from app.core.undo.undo import BlobStore, RoundChanges


def one_task_folder(tmp_path: Path, task: str) -> Path:
    """`tmp_path/ws`, whose TASKS.md holds the one open task `task`."""
    root = tmp_path / "ws"
    root.mkdir()
    (root / "TASKS.md").write_text(f"# Work\n\n- [ ] {task}\n")
    return root


def toolbox(ws: Path, task: str, cancel: threading.Event | None = None) -> ToolBox:
    """The tools of round 1 of a run on `task` in `ws`, each change kept for undo."""
    changes = RoundChanges(ws, BlobStore(ws / ".harness"), ws / ".harness/runs/r/undo/1.json", 1)
    return ToolBox(ws, ws / "TASKS.md", task, changes, cancel=cancel)
