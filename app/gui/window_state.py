"""The window's size, place, maximized state and splitter, kept in the app's settings file.

Stored under `Settings.ui["window"]` (one settings file, written atomically by the core, so
there is no second store to go stale or be damaged on its own). Anything unreadable there is
ignored and the default layout used; a place no longer on any screen (a monitor unplugged)
is moved onto the screen the window is on.
"""

from __future__ import annotations

import base64
import binascii
from typing import Callable

from PySide6.QtCore import QByteArray, QEvent, QObject, QRect, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QSplitter

KEY = "window"


def capture(window: QMainWindow, splitter: QSplitter | None) -> dict:
    """What to remember of `window` and its `splitter`: plain JSON."""
    state = {
        "geometry": _encode(window.saveGeometry()),
        "maximized": window.isMaximized(),
    }
    if splitter is not None:
        state["splitter"] = _encode(splitter.saveState())
    return state


def restore(window: QMainWindow, splitter: QSplitter | None, state: object) -> bool:
    """Put `window` back as `state` describes; False (and no change) if it cannot be read."""
    if not isinstance(state, dict):
        return False
    geometry = _decode(state.get("geometry"))
    if geometry is None or not window.restoreGeometry(geometry):
        return False
    if splitter is not None:
        saved = _decode(state.get("splitter"))
        if saved is not None:
            splitter.restoreState(saved)
    keep_on_screen(window)
    if state.get("maximized") is True:
        from PySide6.QtCore import Qt  # noqa: PLC0415 - the window's first paint: reading Qt builds its enums (app.py fits the frame to the screen with this module)

        window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)
    return True


class WindowStateKeeper(QObject):
    """Calls `remember(state)` a moment after the window is moved, resized, maximized or its
    splitter dragged (so a crash loses nothing), and at once on `flush()` (on closing)."""

    def __init__(self, window: QMainWindow, splitter: QSplitter | None,
                 remember: Callable[[dict], None], delay_ms: int = 1500):
        super().__init__(window)
        self._window, self._splitter, self._remember = window, splitter, remember
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self.flush)
        window.installEventFilter(self)
        if splitter is not None:
            splitter.splitterMoved.connect(lambda *_: self._timer.start())

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() in (QEvent.Type.Move, QEvent.Type.Resize,
                            QEvent.Type.WindowStateChange):
            self._timer.start()
        return False

    def stop(self) -> dict:
        """No more saving; the state as it is now (the window is closing)."""
        self._timer.stop()
        self._window.removeEventFilter(self)
        return capture(self._window, self._splitter)

    def flush(self) -> None:
        self._timer.stop()
        self._remember(capture(self._window, self._splitter))


def remembered(settings, state: dict, save_now: bool = False):
    """`settings` with the window's `state` in them, or None if that changes nothing. With
    `save_now` (the window is closing, nothing is left to wait for) they are written here;
    a failed write only means the default layout next time."""
    if settings is None or settings.ui.get(KEY) == state:
        return None
    updated = settings.model_copy(update={"ui": {**settings.ui, KEY: state}})
    if save_now:
        from app.core.settings import save_settings  # noqa: PLC0415 - the window's first paint (the saved layout is put back before the settings load: folder/early_read.py)

        try:
            save_settings(updated)
        except OSError:
            pass
    return updated


def restore_and_keep(window: QMainWindow, splitter: QSplitter | None, state: object,
                     remember: Callable[[dict], None]) -> WindowStateKeeper:
    """Restore the saved layout (if it can be read; else fit the first size to the screen),
    then keep remembering changes."""
    if not restore(window, splitter, state):
        fit_to_screen(window)
    return WindowStateKeeper(window, splitter, remember)


# The window manager's frame around a window not yet shown (its title bar and borders are
# known only once it is): about what Windows, macOS, GNOME, KDE and openbox draw, or more.
FRAME_GUESS = (8, 38, 8, 8)  # left, top, right, bottom


def frame_margins(window: QMainWindow) -> tuple[int, int, int, int]:
    """The frame's left, top, right and bottom widths: the real ones once the window manager
    has drawn them, else FRAME_GUESS."""
    frame, inner = window.frameGeometry(), window.geometry()
    real = (inner.left() - frame.left(), inner.top() - frame.top(),
            frame.right() - inner.right(), frame.bottom() - inner.bottom())
    return real if real[1] > 0 else FRAME_GUESS


def fit_to_screen(window: QMainWindow, share: float = 0.95) -> None:
    """The first start on a small screen: the window's size, frame and title bar included,
    at most `share` of the screen's free area (and within it), centred: 1180 × 760 ran off a
    1280 × 800 screen once its title bar was counted, and off 1100 × 800 or 1024 × 768."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return
    area = screen.availableGeometry()
    left, top, right, bottom = frame_margins(window)
    width = min(window.width(), int(area.width() * share) - left - right)
    height = min(window.height(), int(area.height() * share) - top - bottom)
    if (width, height) == (window.width(), window.height()):
        return
    window.resize(max(window.minimumWidth(), width), max(window.minimumHeight(), height))
    outer_width = window.width() + left + right
    outer_height = window.height() + top + bottom
    # move() places the frame's top-left corner (its title bar), not the inside's.
    window.move(area.left() + max(0, (area.width() - outer_width) // 2),
                area.top() + max(0, (area.height() - outer_height) // 2))


def keep_on_screen(window: QMainWindow) -> None:
    """Move (and if need be shrink) the window so its title bar is on an available screen."""
    frame = window.frameGeometry()
    screens = QGuiApplication.screens()
    if not screens:
        return
    title = QRect(frame.left(), frame.top(), frame.width(), 40)
    if any(screen.availableGeometry().intersects(title) for screen in screens):
        return
    screen = QGuiApplication.screenAt(frame.center()) or QGuiApplication.primaryScreen()
    area = screen.availableGeometry()
    width, height = min(frame.width(), area.width()), min(frame.height(), area.height())
    window.resize(max(400, width - (frame.width() - window.width())),
                  max(300, height - (frame.height() - window.height())))
    window.move(area.left() + (area.width() - width) // 2,
                area.top() + (area.height() - height) // 2)


def _encode(data: QByteArray) -> str:
    return base64.b64encode(bytes(data.data())).decode("ascii")


def _decode(text: object) -> QByteArray | None:
    if not isinstance(text, str) or not text:
        return None
    try:
        return QByteArray(base64.b64decode(text.encode("ascii"), validate=True))
    except (binascii.Error, ValueError, UnicodeEncodeError):
        return None
