"""Starting the window: the QApplication, the window on screen first, then settings and folder.

Everything the first paint does not need (the harness, pydantic, the error dialog, the
pages) loads right after it, so the window shows about as fast as a bare Qt window.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication, QWidget

from app.export.fonts import ensure_fonts
from app.gui.background import run_for
from app.gui.folder.early_read import EarlyLayout, EarlyRead, EarlyStart
from app.gui.folder.frame_wait import import_while_waiting
from app.gui import window_state
from app.gui.main_window import MainWindow
from app.gui.settings import language

# -- imports after PySide6, without PySide6 reading each module's source -----------------
# Once PySide6.QtCore is imported, every later import in the process, on any thread, goes
# through PySide6's `__feature__` hook, which decides whether the new module "uses PySide" by
# reading and tokenizing its source (inspect.getsource) and looking for the word PySide6.
# That is a file read per module: the window's start and a run's first events import
# hundreds, and on a loaded machine it stalled the UI thread 100-400 ms (napari found
# the same). The answer only matters to a module that turns on PySide's
# `from __feature__ import snake_case/true_property`, which nothing here does. So it is
# answered from what the module holds instead: a PySide6 module or object among its names.

_PYSIDE = ("PySide6", "shiboken6")


def _holds_pyside(module: ModuleType) -> bool:
    """Whether the freshly imported `module` took anything from PySide6 (its names)."""
    try:
        names = list(vars(module).values())
    except TypeError:
        return False
    for value in names:
        if isinstance(value, ModuleType):
            owner = value.__name__
        else:
            owner = getattr(type(value) if not isinstance(value, type) else value,
                            "__module__", "") or ""
        if isinstance(owner, str) and owner.startswith(_PYSIDE):
            return True
    return False


def skip_source_scans() -> bool:
    """Answer PySide6's "does this module use PySide?" without reading source files, from
    now on. False when this PySide6 has no such hook (nothing to do)."""
    for name in ("shibokensupport.feature", "PySide6.support.feature"):
        feature: Any = sys.modules.get(name)  # a module whose hook may or may not be there
        if feature is not None and callable(getattr(feature, "_mod_uses_pyside", None)):
            feature._mod_uses_pyside = _holds_pyside
            return True
    return False


skip_source_scans()  # before the window's own imports

from app import NAME  # noqa: E402 - after PySide6's import hook is quietened


class DeskApplication(QApplication):
    """The application. On macOS a folder dropped on the Dock icon, or opened with Harness
    Desk from Finder, arrives as a QFileOpenEvent (the bundle declares folders it opens)."""

    folder_opened = Signal(str)

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.last_opened: str | None = None  # kept for a window that is not ready yet

    def event(self, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.FileOpen:
            path = event.file() or event.url().toLocalFile()  # type: ignore[attr-defined]
            if path and Path(path).is_dir():
                self.last_opened = path
                self.folder_opened.emit(path)
                return True
        return super().event(event)


def make_application(argv: list[str] | None = None) -> QApplication:
    found = QApplication.instance()
    # (fractional scaling passes through by default in Qt 6)
    app = DeskApplication(argv or [sys.argv[0] if sys.argv else NAME]) if found is None else found
    assert isinstance(app, QApplication), "the running Qt application is not a QApplication"
    app.setApplicationName("harness-desk")
    app.setApplicationDisplayName(NAME)
    app.setOrganizationName("harness-desk")
    return app


def use_language(app: QApplication, lang: str | None = None) -> str:
    """Translators for --lang, the Settings choice or the system language; before any window
    exists, so every string is built in one language. A Chinese window needs a Chinese font
    for its very first paint, so then the fonts are made ready now, not after it."""
    chosen = language.install(app, language.resolve(lang))
    if chosen != "en":
        language.use_fonts()
    return chosen


# What main_window.finish_building and compose import, each its own turn: the look first
# (Qt's namespace, the palette, the style and the icons), then the page and its controllers.
BUILD_MODULES = (
    "app.gui.look.look",
    "app.gui.look.style",
    "app.gui.look.icons",
    "app.gui.look.theme",
    "app.gui.folder.top_bar",
    "app.gui.board.board_view",
    "app.gui.run.run_panel",
    "app.gui.window.workspace_page",
    "app.gui.careful.careful_flow",
    "app.gui.window_menus",
)


def main(path: str | None = None, *, demo: bool = False, lang: str | None = None) -> int:
    """Open the window (on `path`, a fresh demo copy, the last folder, or the welcome page).

    The window frame is shown first, with nothing but Qt loaded; right after its first paint
    it is built out, and the person's settings, the harness and the first folder load off
    the UI thread.
    """
    share_the_gil_often()
    app = make_application()
    chosen = use_language(app, lang)
    # The first folder is chosen and read (off the UI thread) from now: the one named on the
    # command line, else a demo copy (--demo) or the last folder (folder/early_read.py).
    # While the frame is made and shown, the reader has the processor the UI thread leaves.
    early: EarlyRead | None = None
    if path is not None and not demo:
        early = EarlyRead(Path(path))
    elif path is None:
        early = EarlyStart(demo, chosen)
    layout = EarlyLayout()  # the window's size and columns as the person left them
    window = MainWindow(defer_pages=True)
    window_state.fit_to_screen(window)  # before its first frame: fitted later, all of it moved
    frame = after_first_expose(window,
                               lambda: _after_first_paint(window, path, demo, early, layout))
    window.show()
    import_while_waiting(window, lambda: frame.seen, BUILD_MODULES)  # folder/frame_wait.py
    return app.exec()


# How long a thread holding the GIL keeps it while another waits (Python's default: 5 ms).
# The window's work comes back to Python many times a paint (the style, the delegates, event
# filters), and each time it waits for the GIL while a worker imports or reads records: at
# 5 ms a turn, a paint of the window stood still 50-200 ms in the first run
# (bench/ui_stall_cold.py). At 1 ms a turn, workers lose a little throughput, the window none.
GIL_TURN_S = 0.001


def share_the_gil_often() -> None:
    """Let the UI thread have the GIL back within GIL_TURN_S of asking for it."""
    sys.setswitchinterval(GIL_TURN_S)


class _FirstExpose(QObject):
    def __init__(self, handle: QObject, then: Callable[[], object]):
        super().__init__(handle)
        self.handle, self.then = handle, then
        self.seen = False  # the window has been exposed (then is on its way)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Expose:
            self.seen = True
            self.handle.removeEventFilter(self)
            QTimer.singleShot(0, self.then)  # after this paint has reached the screen
        return False


def after_first_expose(window: QWidget, then: Callable[[], object]) -> _FirstExpose:
    """Call `then` once the window has been exposed (painted) for the first time (the watch
    returned says `seen` from that moment on). Watches
    the window's own QWindow only: an application-wide filter would have every event of the
    start-up wrapped for Python, which costs more than the whole first paint."""
    window.winId()  # the native window now, so its handle can be watched before show()
    handle = window.windowHandle()
    watch = _FirstExpose(handle, then)
    handle.installEventFilter(watch)
    return watch


def _after_first_paint(window, path: str | None, demo: bool, early: EarlyRead | None = None,
                       layout: EarlyLayout | None = None) -> None:
    """The frame is on screen: build the window out, lay it out as the person left it, and
    show the first folder in the same turn (named on the command line, or chosen early: the
    demo, the last folder), so the first paint of the built window is the usable one (the
    checklist drawn, Run enabled) and nothing in it moves after (bench/startup.py). The
    folder and the layout were read from main() on, off the UI thread, while the frame was
    made; a read not done yet shows when it is; a folder not chosen yet is opened the old
    way, once the settings have loaded."""
    if early is None and path is not None and not demo:
        early = EarlyRead(Path(path))
    window.finish_building()
    if layout is not None and layout.done:
        lay_out_as_left(window, layout.state)
    settle_sizes()
    _after_building(window, path, demo, early)


# Widgets added to a window on screen are shown, and laid out, from the event queue: a first
# show changes some sizes (a combo box fitted to its contents on first show), which lays out
# again from the queue, and that once more. Three passes settle the window that was built.
SETTLING_PASSES = 3


def settle_sizes() -> None:
    """Show and lay out now what was just built, so the next paint draws it where it stays
    (painted first, the top bar stood 2 px taller under X, then moved up a turn later)."""
    for _ in range(SETTLING_PASSES):
        QApplication.sendPostedEvents()


def lay_out_as_left(window, state: object) -> None:
    """The window's size, place and columns as the person left them (`state`, the settings'
    `ui.window`), or fitted to the screen: before the folder is shown, so the checklist and
    Run are drawn where they stay (the settings, loaded later, put back the same)."""
    if not window_state.restore(window, window.splitter, state):
        window_state.fit_to_screen(window)


def _after_building(window, path: str | None, demo: bool, early_read: EarlyRead | None = None
                    ) -> None:
    from app.gui.errors import install_error_handler  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

    install_error_handler(window)
    from app.gui.folder.usable import after_usable  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
    from app.gui.look.warm_types import warm_in_slices  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

    after_usable(window, warm_in_slices)  # PySide's classes, in idle slices (look/warm_types.py)
    after_usable(window, window.build_rest_in_slices)  # the focus ring, the schedule, ...
    app = QApplication.instance()
    dropped_before = getattr(app, "last_opened", None)
    path = path or dropped_before  # the app was started by dropping a folder on its icon
    start = early_read if isinstance(early_read, EarlyStart) and path is None else None
    chosen = start.chosen if start is not None else None  # the demo, or the last folder
    if chosen is not None:
        path = str(chosen)
    # A folder given by name, or chosen early, opens at once: the person's settings (pydantic,
    # a few hundred milliseconds on a busy machine) are not needed to show it, and they load
    # once it is usable; the window applies them to the open folder then (apply_settings).
    # So does the fonts' check (a fontconfig scan: tens of milliseconds on the UI thread).
    early = path is not None and (chosen is not None or not demo)
    if early and path is not None:  # (early says it is; said again for the checker)
        window.open_workspace(Path(path), early_read)
    else:
        ensure_fonts()  # a machine without Chinese fonts draws Chinese with the bundled face

    def load():
        from app.core.settings import load_settings  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
        from app.gui.folder import first_start  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        loaded = load_settings()
        settings = loaded.settings
        if demo:
            settings = settings.model_copy(update={"engine": "demo"})
        if early:
            return settings, loaded.warning, None
        # The early choice, made by now or soon (its demo copy is never made twice), else
        # which folder (and copying the demo on a first start): disk work too.
        folder = start.wait() if start is not None else None
        return settings, loaded.warning, folder or first_start.start_folder(
            path, settings, demo=demo, lang=language.current())

    def loaded(result) -> None:
        settings, warning, folder = result
        window.apply_settings(settings)
        if warning:
            window.notice.show_notice(warning, tone="attention")
        # A folder dropped on the Dock icon while this loaded wins over the one chosen here.
        dropped = getattr(app, "last_opened", None)
        folder = dropped if dropped != dropped_before else folder
        if folder is not None:
            window.open_workspace(Path(folder))  # which warms up the rest once it is shown
        elif not early:
            QTimer.singleShot(0, window.warm_up)  # after the welcome page is shown
        if isinstance(app, DeskApplication):  # from now on, straight to the window
            app.folder_opened.connect(lambda dropped: window.open_workspace(Path(dropped)))

    def load_settings_now() -> None:
        if early:
            ensure_fonts()
        run_for(window, load, loaded, window.folder_flow.open_failed)  # none if it is gone

    if early:  # after the folder is usable (or could not be opened)
        window.after_first_folder(load_settings_now)
    else:
        load_settings_now()
