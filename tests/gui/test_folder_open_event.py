"""A folder dropped on the Dock icon (macOS's QFileOpenEvent) opens in the window, at launch and later."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# The real start-up (app.gui.app.main) with Qt's events standing in for macOS: one folder
# "dropped on the icon" before the window exists, another once it shows the first.
SCRIPT = r"""
import json, sys
from pathlib import Path
from PySide6.QtCore import QTimer
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication
from app.gui import app as gui_app

first, second, a_file = sys.argv[1:4]
application = gui_app.make_application()
QApplication.sendEvent(application, QFileOpenEvent(first))
seen = {"app": type(application).__name__, "file_taken": None, "opened": []}

def window():
    return next((w for w in QApplication.topLevelWidgets() if hasattr(w, "open_workspace")), None)

def poll():
    w = window()
    folder = str(w.workspace) if w is not None and w.workspace is not None else None
    if folder and folder not in seen["opened"]:
        seen["opened"].append(folder)
        if folder == first:
            seen["file_taken"] = QApplication.sendEvent(application, QFileOpenEvent(a_file))
            QApplication.sendEvent(application, QFileOpenEvent(second))
    if len(seen["opened"]) == 2:
        application.quit()

timer = QTimer(); timer.timeout.connect(poll); timer.start(20)
QTimer.singleShot(30_000, application.quit)  # a failure ends too
gui_app.main(None)
print(json.dumps(seen))
"""


def test_dropped_folders_open_at_launch_and_while_running_and_files_are_left_alone(tmp_path):
    first, second = tmp_path / "First folder", tmp_path / "Second folder"
    for folder in (first, second):
        folder.mkdir()
        (folder / "TASKS.md").write_text("# Plan\n\n- [ ] Draft the page\n", encoding="utf-8")
    a_file = first / "TASKS.md"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HARNESS_DESK_", "ANTHROPIC_", "OPENAI_", "QT_QPA"))}
    env.update(QT_QPA_PLATFORM="offscreen", HARNESS_DESK_CONFIG_DIR=str(tmp_path / "config"),
               PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(first), str(second), str(a_file)],
                         env=env, capture_output=True, text=True, encoding="utf-8",
                         timeout=120, cwd=REPO)
    assert out.returncode == 0, out.stderr
    seen = json.loads(out.stdout.splitlines()[-1])
    assert seen["app"] == "DeskApplication"
    assert seen["opened"] == [str(first), str(second)]
    assert seen["file_taken"] is False  # a file is not a folder to open: Qt may handle it
