"""The window's icons: SVGs in resources/icons, drawn in the palette's text colour.

Each SVG strokes and fills with `currentColor`; `icon(name)` swaps in the palette's colour and
renders each size a screen asks for at its own pixel size when it is first asked for (an
`_SvgEngine`), so icons are crisp at any scale and readable on light and dark windows alike;
rendering all nine sizes of every icon up front was tens of milliseconds of the start-up.
`set_icon` remembers the name on the widget,
so `look.follow_palette` can draw it again when the colours change.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from PySide6 import QtSvg
from PySide6.QtCore import QByteArray, QRectF, QSize, Qt
from PySide6.QtGui import QAction, QColor, QIcon, QIconEngine, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QAbstractButton, QApplication, QStyleOption

from app.core.resources import resource_path

if TYPE_CHECKING:
    from PySide6.QtSvg import QSvgRenderer

NAMES = ("run", "stop", "continue", "open-folder", "export", "settings", "decision",
         "decision-done")
APP_ICON = "harness-desk"
_PIXEL_SIZES = (16, 20, 24, 32, 40, 48, 64, 96, 128)  # the sizes an icon says it has
ICON_PROPERTY = "harnessIcon"
ROLE_PROPERTY = "harnessIconRole"


def icon_path(name: str):
    return resource_path("icons", f"{name}.svg")


@lru_cache(maxsize=None)
def _svg_text(name: str) -> str:
    return icon_path(name).read_text(encoding="utf-8")


class _SvgEngine(QIconEngine):
    """An icon drawn from one SVG text in one colour (and `disabled`'s, when given, for the
    disabled form; else the style's greyed form), each pixel size rendered when first asked
    for and kept."""

    def __init__(self, svg: str, disabled_svg: str = ""):
        super().__init__()
        self.svg, self.disabled_svg = svg, disabled_svg
        self._renderers: dict[bool, QSvgRenderer] = {}
        self._drawn: dict[tuple[int, int, bool | None], QPixmap] = {}  # None: greyed by the style

    def _render(self, width: int, height: int, disabled: bool) -> QPixmap:
        key = (width, height, disabled)
        pixmap = self._drawn.get(key)
        if pixmap is None:
            renderer = self._renderers.get(disabled)
            if renderer is None:
                text = self.disabled_svg if disabled else self.svg
                renderer = self._renderers[disabled] = QtSvg.QSvgRenderer(
                    QByteArray(text.encode("utf-8")))
            pixmap = QPixmap(width, height)
            pixmap.fill(Qt.GlobalColor.transparent)
            painter = QPainter(pixmap)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            side = min(width, height)  # square, centred, as a square pixmap scaled would be
            renderer.render(painter, QRectF((width - side) / 2, (height - side) / 2, side, side))
            painter.end()
            self._drawn[key] = pixmap
        return pixmap

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        width, height = max(1, size.width()), max(1, size.height())
        if mode == QIcon.Mode.Disabled:
            if self.disabled_svg:
                return self._render(width, height, True)
            key = (width, height, None)
            greyed = self._drawn.get(key)
            if greyed is None:
                greyed = QApplication.style().generatedIconPixmap(
                    mode, self._render(width, height, False), QStyleOption())
                self._drawn[key] = greyed
            return greyed
        return self._render(width, height, False)

    def paint(self, painter: QPainter, rect, mode: QIcon.Mode, state: QIcon.State) -> None:
        ratio = painter.device().devicePixelRatioF() if painter.device() else 1.0
        pixmap = self.pixmap(QSize(round(rect.width() * ratio), round(rect.height() * ratio)),
                             mode, state)
        painter.drawPixmap(rect, pixmap)

    def availableSizes(self, mode=QIcon.Mode.Normal, state=QIcon.State.Off):
        return [QSize(pixels, pixels) for pixels in _PIXEL_SIZES]

    def clone(self) -> QIconEngine:
        return _SvgEngine(self.svg, self.disabled_svg)


def tinted(name: str, colour: QColor) -> QIcon:
    """The icon `name` drawn in `colour`, at each pixel size asked for (no scaling blur)."""
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
    text = _svg_text(name)
    return QIcon(_SvgEngine(text.replace("currentColor", colour),
                            text.replace("currentColor", disabled) if disabled else ""))


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
