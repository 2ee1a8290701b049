"""The main window's keyboard shortcuts: how its menu actions are made, and why these keys.

Ctrl+O open a folder, Ctrl+N new task, Ctrl+E export, Ctrl+R run or continue, Ctrl+. stop,
Ctrl+D answer the open decision (Cmd on a Mac). Stop is deliberately not Esc: Esc closes
dialogs and cancels an edit in the checklist, and a stray Esc must never stop the AI; Ctrl+.
is the Mac's own "cancel the operation". Ctrl+R does not also stop, so pressing it twice
never undoes the first press. None of these clash with the checklist's keys (Space, Enter,
F2, Alt+Up/Down, Delete, Ctrl+Z), which only work while the list has the focus. The menus
show each shortcut; tooltips name it too.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from app.gui.look import icons


def add_action(menu: QMenu, text: str, slot: Callable[[], object],
               keys: QKeySequence.StandardKey | str | None = None, icon: str = "") -> QAction:
    """An action in `menu`, owned by the window, with its shortcut and SVG icon."""
    action = QAction(text, menu.parent())
    if keys is not None:
        action.setShortcut(QKeySequence(keys))
    if icon:
        icons.set_icon(action, icon)
    action.triggered.connect(slot)
    menu.addAction(action)
    return action


def press_primary(panel, modes: tuple[str, ...]) -> None:
    """Press the run panel's one button, if it now does what the shortcut names."""
    if panel.mode in modes and panel.primary.isEnabled():
        panel.primary.click()
