"""The main window's parts built after the first folder is usable on start-up (the usable
checklist needs none of them): the focus ring, Enter on buttons, the folder's schedule line,
the window's icon, and (on start-up) a decision dialog made unseen (run/warm_dialogs.py).
Each slice is a piece of the after-usable work (look/slices.py): one idle turn of the event
loop, well under the 25 ms an idle turn of the UI thread may take (bench/ui_stall_cold.py);
a window built at once makes them at once (main_window.finish_rest)."""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.gui.look.slices import later


def slices(window: Any, start_up: bool = False) -> list[Callable[[], None]]:
    """The slices for `window` (the MainWindow: not named, main_window.py imports this);
    `start_up`: the window shown as a bare frame first (app.py)."""

    def rings() -> None:
        from app.gui.look import focus_ring  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
        from app.gui.look.keyboard import EnterPressesButtons  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        focus_ring.install()  # every focus is seen, in every window of the app
        window.enter_presses = EnterPressesButtons(window)

    def schedule() -> None:
        from app.gui.window.compose import compose_schedule  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        compose_schedule(window, window.splitter)

    def icon() -> None:
        from app.gui.look import icons  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        QApplication.setWindowIcon(icons.app_icon())

    def dialogs() -> None:
        if start_up:
            from app.gui.run.warm_dialogs import warm_decision_dialog  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

            warm_decision_dialog(window)

    return [rings, schedule, icon, dialogs]


def after_settings(window: Any, start_up: bool, check_engines: bool) -> None:
    """The person's settings are applied: the recent folders shown and the engines checked.
    On start-up, with a folder on screen, the recent folders are only in menus: shown on an
    idle turn (not in a run pressed at once) or when their menu first opens. The engines'
    checks (each engine imported on the pool) come on an idle turn at least 400 ms on, never
    while a run starts (look/slices.py)."""
    if start_up and window.folder_flow.workspace is not None:
        piece = later().add(window, window.folder_flow.show_recent)
        window.recent_menu.aboutToShow.connect(piece.run_now)
    else:
        window.folder_flow.show_recent()
    if check_engines:  # after the window is up: never in the way of the first paint
        QTimer.singleShot(400, window, lambda: later().add(window, window.picker.check_all))
