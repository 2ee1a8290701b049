"""What the UI thread does while the window's first frame waits for the screen.

Between `show()` and the frame's first Expose the UI thread has nothing to do: under X the
server and the window manager map the window first (25-45 ms on Xvfb with openbox, 8 ms of
it the UI thread's). The window built right after that frame imports the modules app.py
names (BUILD_MODULES; PySide6 making the Qt namespace's enum classes alone is 20 ms):
imported in that wait, one a turn, they are ready when the building begins, and the window
is usable that much sooner.
Once the frame has been exposed the rest is left to the building, which imports what is
left as before; nothing here changes what is imported, only when.
"""

from __future__ import annotations

import importlib
from collections import deque
from typing import Callable

from PySide6.QtCore import QObject, QTimer

def import_while_waiting(owner: QObject, exposed: Callable[[], bool],
                         modules: tuple[str, ...]) -> None:
    """From the turn after next on, import `modules` one a turn until `exposed()` says the
    frame is on screen (none once `owner`, the window, is gone). The first turn is left to
    what the window system has already said: where the frame is shown at once (offscreen,
    a fast display) it is exposed then, and nothing is imported before its paint."""
    left = deque(modules)

    def next_one() -> None:
        if not left or exposed():
            return
        importlib.import_module(left.popleft())
        QTimer.singleShot(0, owner, next_one)

    QTimer.singleShot(0, owner, lambda: QTimer.singleShot(0, owner, next_one))
