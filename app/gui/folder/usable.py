"""The moment the window is usable: the folder's checklist drawn on screen and Run enabled.

Start-up is measured to this moment (bench/startup.py), not to the first paint of an empty
frame; the window says it once, with `MainWindow.became_usable` and its `usable` property.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:  # only named: the class's first use costs start-up time
    from PySide6.QtWidgets import QAbstractItemView

USABLE_PROPERTY = "usable"


class UsableWatch(QObject):
    """Watches the checklist's paints until one shows its tasks while Run is enabled, then
    flags the window (`usable`, and the time in `usable_at`), emits `became_usable` and
    stops watching."""

    def __init__(self, window, checklist: QAbstractItemView):
        super().__init__(window)
        self.window, self.checklist = window, checklist
        # Found by its name, not with viewport(): the first call of a QAbstractScrollArea
        # method makes PySide build that class's enums, 30-90 ms the start-up need not pay.
        viewport = checklist.findChild(QWidget, "qt_scrollarea_viewport")
        assert viewport is not None  # every scroll area has it
        self.viewport = viewport
        viewport.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if obj is self.viewport and event.type() == QEvent.Type.Paint and self._ready():
            # After this paint: the rows are then in the window's backing store.
            self.viewport.removeEventFilter(self)
            window = self.window
            window.usable_at = time.perf_counter()
            window.setProperty(USABLE_PROPERTY, True)
            window.became_usable.emit()
        return False

    def _ready(self) -> bool:
        model = self.checklist.model()
        run = self.window.run_panel.primary
        return (self.window.workspace is not None and model is not None
                and model.rowCount() > 0 and run.isEnabled() and run.isVisible())


# On start-up, at most this long after the first folder is shown its later reading begins
# anyway (a window that never became usable: Run disabled by a run going elsewhere, say).
START_UP_WAIT_MS = 1500


def after_usable(window, then) -> None:
    """Call `then` once, after the window is usable. On start-up (the first folder of a
    window shown as a bare frame first) that is once the folder is usable, or has shown it
    has nothing to run, or at most START_UP_WAIT_MS later; otherwise on the next turn of
    the event loop. Work done off the UI thread before then (pydantic's import, the run
    records) holds the GIL the window's first paint of the folder needs."""
    done: list[bool] = []

    def once() -> None:
        if not done:
            done.append(True)
            then()

    if window.usable_at is None and getattr(window, "_defer_pages", False):
        window.after_first_folder(once)
        QTimer.singleShot(START_UP_WAIT_MS, window, once)  # never once the window is gone
    else:
        QTimer.singleShot(0, window, once)
