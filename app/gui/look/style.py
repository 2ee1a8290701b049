"""Control outlines that can be seen: check boxes, radio buttons, text fields, buttons,
drop-downs and number boxes edged in the palette's one border grey (WCAG 1.4.11: 3:1 against
the surface around them), in light and dark.

Fusion draws these edges in the window colour made 40 % darker, which no palette can bring
to 3:1 (a dark window's check boxes were 1.18:1). On Fusion the window's style is therefore
Fusion with its edges drawn again in `border_colour`, and its check boxes and radio buttons
drawn whole: an empty box on the card colour, a ticked one filled with the accent. A
platform's own style (Windows 11, macOS) is left as it is.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import (QApplication, QPlainTextEdit, QProxyStyle, QStyle,
                               QStyleFactory, QTextEdit)

PE = QStyle.PrimitiveElement
CC = QStyle.ComplexControl
State = QStyle.StateFlag
ROLE = QPalette.ColorRole
RADIUS = 3.0


def border_colour(palette: QPalette) -> QColor:
    """The one border grey: the palette's Mid role (theme.py picks it to stand out 3:1)."""
    return palette.color(QPalette.ColorGroup.Active, ROLE.Mid)


def _edge(option, palette: QPalette) -> QColor:
    if not option.state & State.State_Enabled:
        return palette.color(QPalette.ColorGroup.Disabled, ROLE.Mid)
    if option.state & State.State_HasFocus:
        return palette.color(ROLE.Highlight)
    return border_colour(palette)


class DeskStyle(QProxyStyle):
    """Fusion, with edges in the border grey and the accent (see the module's words)."""

    def drawPrimitive(self, element, option, painter, widget=None):  # noqa: N802
        if element in (PE.PE_IndicatorCheckBox, PE.PE_IndicatorItemViewItemCheck):
            return self._check_box(option, painter)
        if element == PE.PE_IndicatorRadioButton:
            return self._radio(option, painter)
        super().drawPrimitive(element, option, painter, widget)
        if element == PE.PE_FrameLineEdit:
            self._outline(painter, QRectF(option.rect), _edge(option, option.palette))
        elif element == PE.PE_PanelButtonCommand and not option.state & State.State_Sunken:
            self._outline(painter, QRectF(option.rect), _edge(option, option.palette))
        elif element == PE.PE_Frame and isinstance(widget, (QPlainTextEdit, QTextEdit)) \
                and not widget.isReadOnly():
            self._outline(painter, QRectF(option.rect), _edge(option, option.palette), 0.0)

    def drawComplexControl(self, control, option, painter, widget=None):  # noqa: N802
        super().drawComplexControl(control, option, painter, widget)
        if control == CC.CC_SpinBox and option.frame:
            self._outline(painter, QRectF(option.rect), _edge(option, option.palette))

    # -- drawing -------------------------------------------------------------------------
    @staticmethod
    def _outline(painter: QPainter, rect: QRectF, colour: QColor, radius: float = RADIUS):
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(colour, 1.0))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
        painter.restore()

    @staticmethod
    def _box(option) -> QRectF:
        # On pixel centres, so a 1 px edge is one crisp pixel, not two faint ones.
        rect = option.rect
        side = min(rect.width(), rect.height(), 16) - 1
        return QRectF(rect.left() + (rect.width() - side) // 2 + 0.5,
                      rect.top() + (rect.height() - side) // 2 + 0.5, side - 1, side - 1)

    def _check_box(self, option, painter: QPainter) -> None:
        palette, state = option.palette, option.state
        box = self._box(option)
        on = bool(state & (State.State_On | State.State_NoChange))
        enabled = bool(state & State.State_Enabled)
        accent = palette.color(QPalette.ColorGroup.Active if enabled else
                               QPalette.ColorGroup.Disabled, ROLE.Highlight)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(accent if on else _edge(option, palette), 1.0))
        painter.setBrush(accent if on else palette.color(ROLE.Base))
        painter.drawRoundedRect(box, RADIUS, RADIUS)
        if on:
            pen = QPen(palette.color(ROLE.HighlightedText), max(1.5, box.width() / 8))
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            painter.setPen(pen)
            w, x, y = box.width(), box.left(), box.top()
            if state & State.State_NoChange:
                painter.drawLine(QPointF(x + w * 0.28, y + w / 2), QPointF(x + w * 0.72, y + w / 2))
            else:
                tick = QPainterPath(QPointF(x + w * 0.25, y + w * 0.52))
                tick.lineTo(QPointF(x + w * 0.43, y + w * 0.7))
                tick.lineTo(QPointF(x + w * 0.76, y + w * 0.3))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawPath(tick)
        painter.restore()

    def _radio(self, option, painter: QPainter) -> None:
        palette, state = option.palette, option.state
        box = self._box(option)
        on = bool(state & State.State_On)
        accent = palette.color(ROLE.Highlight)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        # A round edge never covers a whole pixel: 1.5 px keeps it as strong as a square's.
        painter.setPen(QPen(accent if on and state & State.State_Enabled
                            else _edge(option, palette), 1.5))
        painter.setBrush(palette.color(ROLE.Base))
        painter.drawEllipse(box)
        if on:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(accent if state & State.State_Enabled else _edge(option, palette))
            inset = box.width() * 0.27
            painter.drawEllipse(box.adjusted(inset, inset, -inset, -inset))
        painter.restore()


def install(app: QApplication | None = None) -> None:
    """Once: on Fusion (Linux without a desktop theme, and wherever it was chosen), the window
    draws with DeskStyle. Any other style is the platform's, and stays."""
    found = app or QApplication.instance()
    if not isinstance(found, QApplication) or isinstance(found.style(), DeskStyle):
        return
    app = found
    if app.style().name().lower() != "fusion":
        return
    app.setStyle(DeskStyle(QStyleFactory.create("Fusion")))
