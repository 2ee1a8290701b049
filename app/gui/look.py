"""Colours, marks and announcements shared by the window's widgets, derived from the palette.

Colours come from the application's palette (so a dark theme later changes them in one place);
the two status hues are picked to read on light and dark windows alike.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QApplication, QWidget


# The one button that matters most, in the palette's highlight colour; a clear focus ring.
PRIMARY_BUTTON_CSS = """
QPushButton { background: palette(highlight); color: palette(highlighted-text);
              border: 2px solid palette(highlight); border-radius: 6px; padding: 6px 20px; }
QPushButton:hover { border-color: palette(dark); }
QPushButton:focus { border-color: palette(window-text); }
QPushButton:disabled { background: palette(mid); border-color: palette(mid);
                       color: palette(window); }
"""


def _dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def ok_colour(palette: QPalette | None = None) -> QColor:
    palette = palette or QApplication.palette()
    return QColor("#4cc27a") if _dark(palette) else QColor("#1e8a4c")


def attention_colour(palette: QPalette | None = None) -> QColor:
    palette = palette or QApplication.palette()
    return QColor("#f0b54a") if _dark(palette) else QColor("#a35c00")


def removed_colour(palette: QPalette | None = None) -> QColor:
    """Lines a round removed, in a before/after view."""
    palette = palette or QApplication.palette()
    return QColor("#ff7b72") if _dark(palette) else QColor("#b42318")


def muted_colour(palette: QPalette | None = None) -> QColor:
    palette = palette or QApplication.palette()
    return palette.color(QPalette.ColorRole.PlaceholderText)


def card_colour(palette: QPalette | None = None) -> QColor:
    palette = palette or QApplication.palette()
    return palette.color(QPalette.ColorRole.Base)


def dot_icon(colour: QColor, hollow: bool = False, size: int = 14) -> QIcon:
    """A round mark for lists (ready / not ready)."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = painter.pen()
    pen.setColor(colour)
    pen.setWidthF(1.6)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush if hollow else colour)
    painter.drawEllipse(2, 2, size - 4, size - 4)
    painter.end()
    return QIcon(pixmap)


def css(colour: QColor) -> str:
    return colour.name()


def scaled_font(widget: QWidget, factor: float, bold: bool = False):
    font = widget.font()
    if font.pointSizeF() > 0:
        font.setPointSizeF(font.pointSizeF() * factor)
    else:
        font.setPixelSize(max(1, int(font.pixelSize() * factor)))
    font.setBold(bold)
    return font


def set_accessible(widget: QWidget, name: str, description: str = "") -> None:
    widget.setAccessibleName(name)
    if description:
        widget.setAccessibleDescription(description)


def announce(source: QObject, text: str, assertive: bool = False) -> None:
    """Tell a screen reader something changed ("Needs your decision", "Done") without moving
    the focus. Harmless where no assistive technology listens."""
    try:
        from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent
    except ImportError:  # Qt before 6.8
        return
    event = QAccessibleAnnouncementEvent(source, text)
    if assertive:
        event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive)
    QAccessible.updateAccessibility(event)
