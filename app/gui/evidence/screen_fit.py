"""A dialog's first size, within the screen it opens on: a round's evidence (900 × 640) or
the lessons (980 × 640) ran off an 800 × 600 screen, their Undo, Accept and Close buttons
below its edge, out of a person's reach."""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

# The window manager's frame and a margin around the dialog: its title bar (openbox, GNOME,
# Windows: 20-40 px) and borders, and a little room so it does not touch the screen's edge.
FRAME_ROOM = (40, 60)


def resize_within_screen(dialog: QWidget, width: int, height: int) -> None:
    """`dialog.resize(width, height)`, made smaller where the screen (the parent's, where the
    dialog opens) is smaller, frame and title bar included."""
    parent = dialog.parentWidget()
    screen = (parent.screen() if parent is not None else dialog.screen()) \
        or QGuiApplication.primaryScreen()
    if screen is not None:
        area = screen.availableGeometry()
        width = min(width, area.width() - FRAME_ROOM[0])
        height = min(height, area.height() - FRAME_ROOM[1])
    dialog.resize(width, height)
