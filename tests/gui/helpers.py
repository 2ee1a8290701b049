"""Shared pieces of the window tests: a demo copy, a window on it, and waiting for the run."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "resources" / "demo-workspace"


def demo_copy(tmp_path: Path, name: str = "Bakery") -> Path:
    target = tmp_path / name
    shutil.copytree(DEMO, target)
    return target


def drop_on(widget, path: Path) -> None:
    """What the OS does when a file manager's folder is dropped on the widget."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    centre = QPointF(widget.width() / 2, widget.height() / 2)
    enter = QDragEnterEvent(QPoint(int(centre.x()), int(centre.y())), Qt.DropAction.CopyAction,
                            mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, enter)
    assert enter.isAccepted(), "the window refused the drag"
    drop = QDropEvent(centre, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(widget, drop)


def open_in(qtbot, window, folder: Path) -> None:
    with qtbot.waitSignal(window.workspace_opened, timeout=10_000):
        window.open_workspace(folder)


def run_until_end(qtbot, window, timeout: int = 60_000):
    """Press the primary button and wait for the run to end; returns the RunResult."""
    with qtbot.waitSignal(window.run_ended, timeout=timeout) as blocker:
        window.run_panel.primary.click()
    return blocker.args[0]


def run_past_the_decision(qtbot, window, folder: Path, between=None):
    """The demo's two runs: the first stops at its decision, which is answered (the
    recommended "trust"), and the second finishes. `between()` is called between the two.
    Returns the two RunResults."""
    with qtbot.waitSignal(window.decision_shown, timeout=60_000) as shown:
        first = run_until_end(qtbot, window)
    if between is not None:
        between()
    dialog = shown.args[0]
    with qtbot.waitSignal(window.run_ended, timeout=60_000) as ended:
        dialog.recommended_button.click()  # answering carries on at once
    return first, ended.args[0]


# A task of the bundled demo, word for word: the Demo engine does it for real (and ticks it);
# any other task it only shows as a sample (issue 35).
DEMO_TASK = ("- [ ] Summarise the brief in five bullet points\n"
             "  - Done when: notes/brief-summary.md lists the five most important points of "
             "brief.md\n")


def demo_task_board(folder: Path) -> None:
    """TASKS.md with one task the Demo engine finishes, and the brief it reads."""
    (folder / "TASKS.md").write_text(DEMO_TASK, encoding="utf-8")
    shutil.copy(DEMO / "brief.md", folder / "brief.md")


def has_chinese(text: str) -> bool:
    return any("\u4e00" <= c <= "\u9fff" for c in text)
