"""The main window's parts built after the first folder is usable on start-up (the usable
checklist needs none of them): the focus ring, Enter on buttons, the folder's schedule line,
the window's icon, and (on start-up) a decision dialog made unseen (run/warm_dialogs.py).
Each slice is a piece of the after-usable work (look/slices.py): one idle turn of the event
loop, well under the 25 ms an idle turn of the UI thread may take (bench/ui_stall_cold.py);
a window built at once makes them at once (main_window.finish_rest)."""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtWidgets import QApplication


def slices(window: Any) -> list[Callable[[], None]]:
    """The slices for `window` (the MainWindow: not named, main_window.py imports this)."""

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
        if getattr(window, "_defer_pages", False):  # the start-up's window (app.py)
            from app.gui.run.warm_dialogs import warm_decision_dialog  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

            warm_decision_dialog(window)

    return [rings, schedule, icon, dialogs]
