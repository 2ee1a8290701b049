"""Light and dark: the window follows the system's colour scheme and recolours itself live.

Both looks are the window's own palettes, built to one visual system: one accent
for the primary button, progress, selection, links and the focus ring; two surfaces (the
window, and the cards, lists and fields); one border grey for every control's edge; two text
greys (body and muted). Every text colour reads 4.5:1 on both surfaces and the border and
accent 3:1 (tests/gui/test_contrast.py measures what is drawn). After any switch, `recolour`
redraws what was worked out from the old palette: toned labels, style sheets that name
palette() roles, and the SVG icons.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from app.gui.look import icons, look, style

_ROLES = QPalette.ColorRole
# (window, card, body text, muted text, border, accent, text on the accent, tooltip ground)
LIGHT_COLOURS = ("#f4f5f7", "#ffffff", "#1f2328", "#5c6470", "#7d848e", "#2874a5", "#ffffff",
                 "#ffffff")
DARK_COLOURS = ("#2b2d30", "#1f2023", "#e8e8e8", "#a4a9b0", "#868c95", "#6cb0df", "#111417",
                "#1f2023")
_DISABLED_TEXT = {False: "#8c9299", True: "#80848a"}


def _roles(colours: tuple[str, ...], dark: bool) -> dict:
    window, card, text, muted, border, accent, on_accent, tip = colours
    return {
        _ROLES.Window: window, _ROLES.WindowText: text, _ROLES.Base: card,
        _ROLES.AlternateBase: window, _ROLES.ToolTipBase: tip, _ROLES.ToolTipText: text,
        _ROLES.PlaceholderText: muted, _ROLES.Text: text, _ROLES.Button: card,
        _ROLES.ButtonText: text, _ROLES.BrightText: "#ff7b72" if dark else "#b42318",
        _ROLES.Light: card, _ROLES.Midlight: window, _ROLES.Mid: border, _ROLES.Dark: border,
        _ROLES.Shadow: "#000000", _ROLES.Highlight: accent, _ROLES.HighlightedText: on_accent,
        _ROLES.Link: accent, _ROLES.LinkVisited: accent, _ROLES.Accent: accent,
    }


LIGHT = _roles(LIGHT_COLOURS, dark=False)
DARK = _roles(DARK_COLOURS, dark=True)


def _palette(roles: dict, dark: bool) -> QPalette:
    palette = QPalette()
    for role, colour in roles.items():
        palette.setColor(role, QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for role in (_ROLES.WindowText, _ROLES.Text, _ROLES.ButtonText, _ROLES.PlaceholderText):
        palette.setColor(disabled, role, QColor(_DISABLED_TEXT[dark]))
    palette.setColor(disabled, _ROLES.Highlight, QColor(_DISABLED_TEXT[dark]))
    palette.setColor(disabled, _ROLES.Mid, look.mix(QColor(roles[_ROLES.Mid]),
                                                    QColor(roles[_ROLES.Window]), 0.55))
    return palette


def light_palette() -> QPalette:
    return _palette(LIGHT, dark=False)


def dark_palette() -> QPalette:
    return _palette(DARK, dark=True)


def link_colour(palette: QPalette | None = None) -> QColor:
    """Links are the accent: one blue in the whole window."""
    return (palette or QApplication.palette()).color(_ROLES.Link)


def is_dark(palette: QPalette | None = None) -> bool:
    palette = palette or QApplication.palette()
    return palette.color(_ROLES.Window).lightness() < 128


def apply_scheme(scheme: Qt.ColorScheme, before_widgets: bool = False) -> None:
    """Show the window in `scheme`, in the window's own palette for it. `before_widgets`:
    the window's widgets are still to be made (the start-up), so they take the palette as
    they are made, and none is worked out again after (main_window.finish_building)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    global _recoloured_for

    style.install(app)
    want_dark = scheme == Qt.ColorScheme.Dark
    wanted = dark_palette() if want_dark else light_palette()
    switched = _palette_key(wanted) != _palette_key(app.palette())
    if switched:
        app.setPalette(wanted)
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
    if not before_widgets:
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
            apply_scheme(system_scheme())

    def _on_color_scheme_changed(self, scheme: Qt.ColorScheme) -> None:
        if self.mode != "system":
            return  # the person chose a look; the system's switch does not override it
        # After Qt has swapped in the platform's palette for the new scheme, if it does.
        QTimer.singleShot(0, lambda: apply_scheme(scheme))


def system_scheme() -> Qt.ColorScheme:
    """The system's light or dark (light when it does not say)."""
    hints = QGuiApplication.styleHints()
    scheme = hints.colorScheme() if hasattr(hints, "colorScheme") else Qt.ColorScheme.Unknown
    return scheme if scheme != Qt.ColorScheme.Unknown else Qt.ColorScheme.Light


def follow_system_scheme(parent: QObject) -> SchemeFollower:
    return SchemeFollower(parent)
