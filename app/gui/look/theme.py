"""Light and dark: the window follows the system's colour scheme and recolours itself live.

Where the platform's own theme supplies a dark palette (Windows 11, macOS, GNOME/KDE with
their Qt themes), Qt switches the palette itself; where it says "dark" but the style keeps
its light palette (Fusion on a bare desktop, the offscreen platform), `DARK` is applied. After
any switch, `recolour` redraws what was worked out from the old palette: toned labels,
style sheets that name palette() roles, and the SVG icons.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from app.gui.look import look

_ROLES = QPalette.ColorRole
# A calm dark palette (near Fusion's own dark one); every text role reads on its ground.
DARK = {
    _ROLES.Window: "#2b2d30", _ROLES.WindowText: "#e8e8e8", _ROLES.Base: "#1f2023",
    _ROLES.AlternateBase: "#2f3135", _ROLES.ToolTipBase: "#3a3d41", _ROLES.ToolTipText: "#f0f0f0",
    _ROLES.PlaceholderText: "#9a9ea4", _ROLES.Text: "#e8e8e8", _ROLES.Button: "#36393d",
    _ROLES.ButtonText: "#e8e8e8", _ROLES.BrightText: "#ff6b6b", _ROLES.Light: "#4a4d52",
    _ROLES.Midlight: "#3e4145", _ROLES.Mid: "#55585d", _ROLES.Dark: "#1a1b1d",
    _ROLES.Shadow: "#000000", _ROLES.Highlight: "#3d7fd6", _ROLES.HighlightedText: "#ffffff",
    _ROLES.Link: "#7db4ff", _ROLES.LinkVisited: "#c49bff",
}
_DISABLED_TEXT = "#8a8d92"


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, colour in DARK.items():
        palette.setColor(role, QColor(colour))
    for role in (_ROLES.WindowText, _ROLES.Text, _ROLES.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(_DISABLED_TEXT))
    palette.setColor(QPalette.ColorGroup.Disabled, _ROLES.Highlight, QColor("#4a4d52"))
    return palette


def is_dark(palette: QPalette | None = None) -> bool:
    palette = palette or QApplication.palette()
    return palette.color(_ROLES.Window).lightness() < 128


def apply_scheme(scheme: Qt.ColorScheme) -> None:
    """Show the window in `scheme`: the platform's palette when it matches, else our own."""
    app = QApplication.instance()
    if app is None:
        return
    global _recoloured_for
    want_dark = scheme == Qt.ColorScheme.Dark
    switched = want_dark != is_dark(app.palette())
    if switched:
        app.setPalette(dark_palette() if want_dark else app.style().standardPalette())
    key = _palette_key(app.palette())
    if not switched and _recoloured_for in (None, key):
        # The window's colours were worked out in this palette (each widget derives its own
        # when it is made): walking every widget and redrawing every icon again, as the
        # start-up did twice on each of its two calls, would change nothing.
        _recoloured_for = key
        return
    _recoloured_for = key
    recolour()
    # Widgets learn of the new palette from posted events; palette() in their style sheets
    # is read again once they have.
    QTimer.singleShot(0, recolour)


_recoloured_for: tuple[int, ...] | None = None  # the palette the last recolour was for


def _palette_key(palette: QPalette) -> tuple[int, ...]:
    """The palette's colours in every group: what a recolour works from."""
    return tuple(palette.color(group, role).rgba()
                 for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive,
                               QPalette.ColorGroup.Disabled)
                 for role in QPalette.ColorRole if role != QPalette.ColorRole.NColorRoles)


def recolour() -> None:
    """Work out again everything that was derived from the palette (after a switch)."""
    from app.gui.look import icons

    for widget in QApplication.allWidgets():
        tone = widget.property(look.TONE_PROPERTY)
        if tone is not None:
            look.set_tone(widget, tone or None)
        elif widget.styleSheet():  # palette(...) in a style sheet is read when it is set
            widget.setStyleSheet(widget.styleSheet())
    icons.refresh_icons()


class SchemeFollower(QObject):
    """The window's look: the person's choice (Settings ▸ Look: System, Light or Dark); with
    "system" it follows the system's light/dark setting for as long as it lives (Qt 6.5+)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.mode = "system"
        hints = QGuiApplication.styleHints()
        if hasattr(hints, "colorSchemeChanged"):
            hints.colorSchemeChanged.connect(self._on_color_scheme_changed)
        self.set_mode("system")

    def set_mode(self, mode: str) -> None:
        """"light" or "dark" at once, whatever the system says; "system" follows it."""
        self.mode = mode if mode in ("light", "dark") else "system"
        if self.mode == "dark":
            apply_scheme(Qt.ColorScheme.Dark)
        elif self.mode == "light":
            apply_scheme(Qt.ColorScheme.Light)
        else:
            hints = QGuiApplication.styleHints()
            scheme = hints.colorScheme() if hasattr(hints, "colorScheme") else \
                Qt.ColorScheme.Unknown
            apply_scheme(scheme if scheme != Qt.ColorScheme.Unknown else Qt.ColorScheme.Light)

    def _on_color_scheme_changed(self, scheme: Qt.ColorScheme) -> None:
        if self.mode != "system":
            return  # the person chose a look; the system's switch does not override it
        # After Qt has swapped in the platform's palette for the new scheme, if it does.
        QTimer.singleShot(0, lambda: apply_scheme(scheme))


def follow_system_scheme(parent: QObject) -> SchemeFollower:
    return SchemeFollower(parent)
