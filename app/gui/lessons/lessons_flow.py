"""How the main window reaches the Lessons view: the count after a run ends, and opening it."""

from __future__ import annotations

from app.gui.background import run_for
from app.gui.lessons import lessons_data


def count_after_run(window, run_id: str) -> None:
    """Read (off the UI thread) how many lessons the run just ended taught, and show the
    quiet "1 lesson from this run" link on the run panel when there are any."""
    root = window.workspace
    if root is None or not run_id:
        return
    window._lessons_run_id = run_id
    run_for(window, lambda: lessons_data.lessons_from_run(root, run_id),
            window.run_panel.show_lessons, lambda _exc: window.run_panel.show_lessons(0))


def open_lessons(window) -> None:
    """The Lessons view for the open folder (the run that just ended's lessons first)."""
    from PySide6.QtCore import Qt

    from app.gui.lessons.lessons_view import LessonsDialog

    root = window.workspace
    if root is None:
        return
    previous = getattr(window, "lessons_dialog", None)
    if previous is not None:
        previous.close()
    dialog = LessonsDialog(root, window.history.open_round, window,
                           select_run=getattr(window, "_lessons_run_id", ""))
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.changed.connect(lambda: count_after_run(window, getattr(window, "_lessons_run_id", "")))
    dialog.destroyed.connect(lambda *_: setattr(window, "lessons_dialog", None))
    window.lessons_dialog = dialog
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
