"""The window's icons: SVGs in resources/icons, drawn in the palette's text colour.

Each SVG strokes and fills with `currentColor`; `icon(name)` swaps in the palette's colour and
renders every size a screen may ask for at its own pixel size, so icons are crisp at any scale
and readable on light and dark windows alike. `set_icon` remembers the name on the widget,
so `look.follow_palette` can draw it again when the colours change.
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QAction, QColor, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QAbstractButton, QApplication

NAMES = ("run", "stop", "continue", "open-folder", "export", "settings", "decision",
         "decision-done")
APP_ICON = "harness-desk"
_PIXEL_SIZES = (16, 20, 24, 32, 40, 48, 64, 96, 128)  # logical sizes × device pixel ratios
ICON_PROPERTY = "harnessIcon"
ROLE_PROPERTY = "harnessIconRole"


def icon_path(name: str):
    from app.core.resources import resource_path

    return resource_path("icons", f"{name}.svg")


@lru_cache(maxsize=None)
def _svg_text(name: str) -> str:
    return icon_path(name).read_text(encoding="utf-8")


def _pixmaps(svg: str) -> list[QPixmap]:
    """`svg` rendered at each pixel size, from one parse."""
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    result = []
    for pixels in _PIXEL_SIZES:
        pixmap = QPixmap(pixels, pixels)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter, QRectF(0, 0, pixels, pixels))
        painter.end()
        result.append(pixmap)
    return result


def tinted(name: str, colour: QColor) -> QIcon:
    """The icon `name` drawn in `colour`, at every pixel size (no scaling blur)."""
    return _icon(name, colour.name(), "")


def icon(name: str, palette: QPalette | None = None,
         role: QPalette.ColorRole = QPalette.ColorRole.ButtonText) -> QIcon:
    """The icon `name` in the palette's `role` colour, with a dimmed disabled form."""
    palette = palette or QApplication.palette()
    return _icon(name, palette.color(QPalette.ColorGroup.Active, role).name(),
                 palette.color(QPalette.ColorGroup.Disabled,
                               QPalette.ColorRole.ButtonText).name())


@lru_cache(maxsize=256)  # a run panel switching Run/Stop/Continue draws nothing twice
def _icon(name: str, colour: str, disabled: str) -> QIcon:
    result = QIcon()
    for pixmap in _pixmaps(_svg_text(name).replace("currentColor", colour)):
        result.addPixmap(pixmap, QIcon.Mode.Normal)
    if disabled:
        for pixmap in _pixmaps(_svg_text(name).replace("currentColor", disabled)):
            result.addPixmap(pixmap, QIcon.Mode.Disabled)
    return result


def set_icon(holder: QAbstractButton | QAction, name: str,
             role: QPalette.ColorRole = QPalette.ColorRole.ButtonText) -> None:
    """Give a button or an action the icon `name` in the palette's `role` colour (the
    primary button's icon is in highlighted-text, on its highlight ground); it is drawn
    again when the palette changes."""
    holder.setProperty(ICON_PROPERTY, name)
    holder.setProperty(ROLE_PROPERTY, int(role.value))
    holder.setIcon(icon(name, None, role))  # the application's palette: the one switched


def refresh_icons() -> None:
    """Draw every named icon again in the current palette (after a light/dark switch)."""
    holders: list = list(QApplication.allWidgets())
    for window in QApplication.topLevelWidgets():
        holders.extend(window.findChildren(QAction))
    for holder in holders:
        name = holder.property(ICON_PROPERTY)
        if name:
            role = holder.property(ROLE_PROPERTY)
            set_icon(holder, name, QPalette.ColorRole(role) if role is not None
                     else QPalette.ColorRole.ButtonText)


def app_icon() -> QIcon:
    """The application's own icon (the packaging's SVG, else its PNG sizes); empty if none."""
    result = QIcon()
    svg = icon_path(APP_ICON)
    if svg.is_file():
        return QIcon(str(svg))
    for pixels in (16, 24, 32, 48, 64, 128, 256, 512):
        png = svg.with_name(f"{APP_ICON}-{pixels}.png")
        if png.is_file():
            result.addFile(str(png))
    return result
