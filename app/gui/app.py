"""Starting the window: the QApplication, the window on screen first, then settings and folder.

Everything the first paint does not need (the harness, pydantic, the error dialog, the
pages) loads right after it, so the window shows about as fast as a bare Qt window.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from app import NAME


def make_application(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance()
    if app is None:  # (fractional scaling passes through by default in Qt 6)
        app = QApplication(argv or [sys.argv[0] if sys.argv else NAME])
    app.setApplicationName("harness-desk")
    app.setApplicationDisplayName(NAME)
    app.setOrganizationName("harness-desk")
    return app  # type: ignore[return-value]


def main(path: str | None = None, *, demo: bool = False) -> int:
    """Open the window (on `path`, a fresh demo copy, the last folder, or the welcome page).

    The window frame is shown first, with nothing but Qt loaded; right after its first paint
    it is built out, and the person's settings, the harness and the first folder load off
    the UI thread.
    """
    from app.gui.main_window import MainWindow

    app = make_application()
    window = MainWindow(defer_pages=True)
    after_first_expose(window, lambda: _after_first_paint(window, path, demo))
    window.show()
    return app.exec()


class _FirstExpose(QObject):
    def __init__(self, handle: QObject, then: Callable[[], None]):
        super().__init__(handle)
        self.handle, self.then = handle, then

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Expose:
            self.handle.removeEventFilter(self)
            QTimer.singleShot(0, self.then)  # after this paint has reached the screen
        return False


def after_first_expose(window: QWidget, then: Callable[[], None]) -> None:
    """Call `then` once the window has been exposed (painted) for the first time. Watches
    the window's own QWindow only: an application-wide filter would have every event of the
    start-up wrapped for Python, which costs more than the whole first paint."""
    window.winId()  # the native window now, so its handle can be watched before show()
    handle = window.windowHandle()
    handle.installEventFilter(_FirstExpose(handle, then))


def _after_first_paint(window, path: str | None, demo: bool) -> None:
    from app.gui.background import run_in_background
    from app.gui.errors import install_error_handler

    window.finish_building()
    install_error_handler(window)

    def load():
        from app.core.settings import load_settings
        from app.gui import first_start

        loaded = load_settings()
        settings = loaded.settings
        if demo:
            settings = settings.model_copy(update={"engine": "demo"})
        # Which folder (and copying the demo on a first start) is disk work too.
        return settings, loaded.warning, first_start.start_folder(path, settings, demo=demo)

    def loaded(result) -> None:
        settings, warning, folder = result
        window.apply_settings(settings)
        if warning:
            window.notice.show_notice(warning, tone="attention")
        if folder is not None:
            window.open_workspace(Path(folder))

    run_in_background(load, loaded, window._on_open_failed)
