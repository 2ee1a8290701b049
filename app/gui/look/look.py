"""Colours, marks and announcements shared by the window's widgets, derived from the palette.

Colours come from the application's palette, so a dark palette changes them in one place;
the two status hues are picked to read on light and dark windows alike, and the muted grey
is mixed from the palette's own text and background until it reads (WCAG contrast 4.5).
A widget coloured through `set_tone` is coloured again when the system's light/dark scheme
changes (see theme.py).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QApplication, QProgressBar, QWidget


# The one button that matters most, in the palette's highlight colour; a clear focus ring.
PRIMARY_BUTTON_CSS = """
QPushButton { background: palette(highlight); color: palette(highlighted-text);
              border: 2px solid palette(highlight); border-radius: 6px; padding: 6px 20px; }
QPushButton:hover { border-color: palette(dark); }
QPushButton:focus { border-color: palette(window-text); }
QPushButton:disabled { background: palette(mid); border-color: palette(mid);
                       color: palette(window); }
"""


def primary_colour(palette: QPalette | None = None) -> QColor:
    """The primary button's ground: the palette's highlight, darkened until its text reads."""
    palette = palette or QApplication.palette()
    ground = palette.color(QPalette.ColorRole.Highlight)
    text = palette.color(QPalette.ColorRole.HighlightedText)
    for share in (1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.5, 0.4):
        colour = mix(ground, QColor("black") if text.lightness() > 128 else QColor("white"),
                     share)
        if contrast(text, colour) >= MIN_CONTRAST:
            return colour
    return colour


def primary_button_css(palette: QPalette | None = None) -> str:
    """PRIMARY_BUTTON_CSS with a ground whose text reads (WCAG 4.5) in this palette."""
    ground = css(primary_colour(palette))
    return PRIMARY_BUTTON_CSS.replace("background: palette(highlight)", f"background: {ground}") \
        .replace("border: 2px solid palette(highlight)", f"border: 2px solid {ground}")


def _dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def is_dark_palette(palette: QPalette | None = None) -> bool:
    return _dark(palette or QApplication.palette())


def ok_colour(palette: QPalette | None = None) -> QColor:
    palette = palette or QApplication.palette()
    return QColor("#4cc27a") if _dark(palette) else QColor("#17753f")


def attention_colour(palette: QPalette | None = None) -> QColor:
    palette = palette or QApplication.palette()
    return QColor("#f0b54a") if _dark(palette) else QColor("#9a5700")


def removed_colour(palette: QPalette | None = None) -> QColor:
    """Lines a round removed, in a before/after view."""
    palette = palette or QApplication.palette()
    return QColor("#ff7b72") if _dark(palette) else QColor("#b42318")


def muted_colour(palette: QPalette | None = None) -> QColor:
    """The second text grey (the palette's placeholder colour), quieter but still reading on
    the window and on cards (contrast ≥ 4.5); mixed from the text where a palette's does not."""
    palette = palette or QApplication.palette()
    text = palette.color(QPalette.ColorRole.WindowText)
    grounds = (palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.Base))
    own = palette.color(QPalette.ColorRole.PlaceholderText)
    key = (text.rgba(), grounds[0].rgba(), grounds[1].rgba(), own.rgba())
    found = _muted.get(key)  # each checklist row's tag paints in it: worked out once
    if found is None:
        found = _muted[key] = _muted_for(text, grounds, own)
    return QColor(found)


_muted: dict[tuple[int, int, int, int], QColor] = {}


def _muted_for(text: QColor, grounds: tuple[QColor, QColor], own: QColor | None = None) -> QColor:
    if own is not None and own != text and \
            min(contrast(own, ground) for ground in grounds) >= MIN_CONTRAST:
        return QColor(own)  # the palette's own second grey
    for share in (0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 1.0):
        colour = mix(text, grounds[0], share)
        if min(contrast(colour, ground) for ground in grounds) >= MIN_CONTRAST:
            return colour
    return text


MIN_CONTRAST = 4.5  # WCAG AA for body text


def mix(a: QColor, b: QColor, share_of_a: float) -> QColor:
    return QColor(*(round(x * share_of_a + y * (1 - share_of_a)) for x, y in
                    ((a.red(), b.red()), (a.green(), b.green()), (a.blue(), b.blue()))))


def luminance(colour: QColor) -> float:
    """WCAG relative luminance of an opaque colour."""
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return (0.2126 * channel(colour.red()) + 0.7152 * channel(colour.green())
            + 0.0722 * channel(colour.blue()))


def contrast(fore: QColor, back: QColor) -> float:
    """WCAG contrast ratio (1 to 21); a translucent `fore` is blended over `back` first."""
    if fore.alpha() < 255:
        fore = mix(fore, back, fore.alphaF())
    hi, lo = sorted((luminance(fore), luminance(back)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


TONE_PROPERTY = "harnessTone"


def tone_colour(tone: str | None, palette: QPalette | None = None) -> QColor | None:
    return {"ok": ok_colour, "attention": attention_colour, "muted": muted_colour}.get(
        tone or "", lambda _p: None)(palette)


def set_tone(widget: QWidget, tone: str | None) -> None:
    """Colour a label's text by meaning ("ok", "attention", "muted"; None for plain text), or
    make a button the window's primary one ("primary").
    The colour is worked out from the palette now and again whenever the palette changes.
    A text tone is set in the widget's own palette (its text roles, in every state, as a
    style sheet's `color:` was): a style sheet would make Qt parse it and re-polish the
    widget and everything inside it, which each round card and a run's labels would pay on
    every event; a palette change costs one repaint. The same tone again changes nothing."""
    was = widget.property(TONE_PROPERTY)
    widget.setProperty(TONE_PROPERTY, tone or "")
    if tone == "primary":
        sheet = primary_button_css()
        if widget.styleSheet() != sheet:
            widget.setStyleSheet(sheet)
        return
    if was == "primary" and widget.styleSheet():
        widget.setStyleSheet("")
    colour = tone_colour(tone)
    bits = _text_bits()
    own = widget.palette().resolveMask() & bits
    if colour is None:
        if own:  # plain text: the parent's text colours again, the widget's other roles kept
            palette = QPalette(widget.palette())
            palette.setResolveMask(widget.palette().resolveMask() & ~bits)
            widget.setPalette(palette)
        return
    if own == bits and widget.palette().color(QPalette.ColorRole.WindowText) == colour:
        return
    palette = QPalette(widget.palette())
    palette.setResolveMask(widget.palette().resolveMask())
    for role in _TEXT_ROLES:
        palette.setColor(role, colour)  # every group: disabled too, as `color:` was
    widget.setPalette(palette)


_TEXT_ROLES = (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text,
               QPalette.ColorRole.ButtonText)
_TEXT_BITS = 0  # the palette's resolve-mask bits for these roles (set on first use)


def _text_bits() -> int:
    global _TEXT_BITS
    if not _TEXT_BITS:
        palette = QPalette()
        for role in _TEXT_ROLES:
            palette.setColor(role, QColor("black"))
        _TEXT_BITS = palette.resolveMask()
    return _TEXT_BITS


def set_bar(bar: QProgressBar, value: int, maximum: int) -> None:
    """Set a progress bar's range (from 0) and value without the synchronous repaint of
    QProgressBar.setValue (and of the reset a new range may cause): it paints every pending
    change of the whole window there and then, the checklist too, on each step of a run.
    The bar is drawn with the window's next ordinary paint instead."""
    if bar.value() == value and bar.minimum() == 0 and bar.maximum() == maximum:
        return
    bar.setUpdatesEnabled(False)  # repaint() does nothing while updates are disabled
    bar.setRange(0, maximum)
    bar.setValue(value)
    bar.setUpdatesEnabled(True)   # and this schedules the ordinary update()


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


# The one type scale of the whole window: body, section and state heading, about
# 13 / 15 / 20 px on a 13 px body; regular and semibold only, never italic.
TYPE_SCALE = {"body": 1.0, "section": 15 / 13, "heading": 20 / 13}
SEMIBOLD = 600  # QFont.Weight.DemiBold


def type_font(widget: QWidget, level: str = "body", semibold: bool = False):
    """`widget`'s font (its family, the CJK face first in Chinese) at one of the three sizes
    of the type scale, regular or semibold, upright."""
    font = QFont(widget.font())
    base = QApplication.font() if QApplication.instance() is not None else QFont()
    factor = TYPE_SCALE[level]
    if base.pointSizeF() > 0:
        font.setPointSizeF(base.pointSizeF() * factor)
    else:
        font.setPixelSize(max(1, round(base.pixelSize() * factor)))
    font.setWeight(QFont.Weight.DemiBold if semibold else QFont.Weight.Normal)
    font.setItalic(False)
    return font


def level_for(factor: float) -> str:
    """The step of the type scale nearest to a size `factor` times the body's."""
    return min(TYPE_SCALE, key=lambda level: abs(TYPE_SCALE[level] - factor))


def scaled_font(widget: QWidget, factor: float, bold: bool = False):
    """The type-scale font nearest to `factor` times the body size (semibold for `bold`):
    every heading of the window lands on one of the scale's three sizes."""
    return type_font(widget, level_for(factor), semibold=bold)


def set_accessible(widget: QWidget, name: str, description: str = "") -> None:
    widget.setAccessibleName(name)
    if description:
        widget.setAccessibleDescription(description)


def announce(source: QObject, text: str, assertive: bool = False) -> None:
    """Tell a screen reader something changed ("Needs your decision", "Done") without moving
    the focus. Harmless where no assistive technology listens."""
    try:
        from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent  # noqa: PLC0415 - an ImportError is caught below
    except ImportError:  # Qt before 6.8
        return
    event = QAccessibleAnnouncementEvent(source, text)
    if assertive:
        event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive)
    QAccessible.updateAccessibility(event)
