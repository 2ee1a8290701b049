"""A focus ring the person can always see, drawn by the window itself on every style.

Fusion's focus marks are faint or missing on some widgets (a menu tool button, a text box,
a scroll area, a flat link-like button, the round cards); the platform styles differ again.
So one overlay per window draws a ring around whatever has the keyboard focus, in the
palette's highlight colour made to stand out from the window (WCAG 1.4.11: contrast ≥ 3)
in light and dark alike. It follows the focused widget as it moves (scrolling, a splitter, a
resize) and is clipped to where that widget can be seen.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QWidget

from app.gui.look import look

RING_WIDTH = 2
RING_CONTRAST = 3.0  # non-text contrast (WCAG 1.4.11)


def ring_colour(palette: QPalette | None = None) -> QColor:
    """The highlight colour, moved towards the text colour until it stands out from both
    the window and the text boxes' ground."""
    palette = palette or QApplication.palette()
    highlight = palette.color(QPalette.ColorRole.Highlight)
    text = palette.color(QPalette.ColorRole.WindowText)
    grounds = (palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.Base))
    colour = highlight
    for share in (1.0, 0.85, 0.7, 0.55, 0.4, 0.25, 0.0):
        colour = look.mix(highlight, text, share)
        if min(look.contrast(colour, ground) for ground in grounds) >= RING_CONTRAST:
            return colour
    return colour


class FocusRing(QWidget):
    """The ring of one window: a see-through child on top of everything, never in the way
    of the mouse, sized to the focused widget plus the ring."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.setObjectName("focusRing")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.target: QWidget | None = None
        self._watched: list[QWidget] = []
        self._ring = QRect()   # in this widget's coordinates
        self.hide()

    def follow(self, widget: QWidget | None) -> None:
        for watched in self._watched:
            if _alive(watched):
                watched.removeEventFilter(self)
        self._watched = []
        self.target = widget
        if widget is not None:
            chain: list[QWidget] = []
            w: QWidget | None = widget
            while w is not None and w is not self.parentWidget():
                chain.append(w)
                w = w.parentWidget()
            for watched in chain:  # any of them moving or hiding moves or hides the ring
                watched.installEventFilter(self)
            self._watched = chain
        self.place()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() in (QEvent.Type.Move, QEvent.Type.Resize, QEvent.Type.Show,
                            QEvent.Type.Hide):
            self.place()
        return False

    def place(self) -> None:
        window = self.parentWidget()
        target = self.target if self.target is not None and _alive(self.target) else None
        if window is None or target is None or not target.isVisible() or \
                (not target.hasFocus() and QApplication.focusWidget() is not target):
            self.hide()
            return
        ring = QRect(target.mapTo(window, target.rect().topLeft()), target.size()).adjusted(
            -RING_WIDTH - 1, -RING_WIDTH - 1, RING_WIDTH + 1, RING_WIDTH + 1)
        clip = _visible_area(target, window)
        if clip.isEmpty():
            self.hide()
            return
        # Where the ring would leave what can be seen (a card at the edge of its list), it is
        # drawn just inside, on the widget's own edge: always seen whole.
        ring = ring.intersected(clip)
        self.setGeometry(ring)
        self._ring = QRect(0, 0, ring.width(), ring.height())
        self.raise_()
        self.show()
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(ring_colour(self.palette()), RING_WIDTH)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        half = RING_WIDTH / 2
        painter.drawRoundedRect(self._ring.toRectF().adjusted(half, half, -half, -half), 4, 4)
        painter.end()


def _visible_area(widget: QWidget, window: QWidget) -> QRect:
    """The part of the window where `widget` (with room for its ring) can be seen: inside
    every scroll area's viewport it sits in, and inside the window."""
    area = window.rect()
    w = widget.parentWidget()
    while w is not None and w is not window:
        parent = w.parentWidget()
        if isinstance(parent, QAbstractScrollArea) and w is parent.viewport():
            area = area.intersected(QRect(w.mapTo(window, w.rect().topLeft()), w.size()))
        w = w.parentWidget()
    return area


class FocusRings(QObject):
    """Gives every window of the application its ring, following the keyboard focus."""

    def __init__(self, app: QApplication):
        super().__init__(app)
        self._rings: dict[int, FocusRing] = {}
        app.focusChanged.connect(self._on_focus_changed)

    def ring_of(self, window: QWidget) -> FocusRing:
        ring = self._rings.get(id(window))
        if ring is None or not _alive(ring) or ring.parentWidget() is not window:
            ring = FocusRing(window)
            self._rings[id(window)] = ring
            key = id(window)
            window.destroyed.connect(lambda _=None: self._rings.pop(key, None))
        return ring

    def _on_focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if old is not None and _alive(old):
            ring = self._rings.get(id(old.window()))
            if ring is not None and _alive(ring) and ring.target is old:
                ring.follow(None)
        if new is not None and _alive(new) and not new.isWindow() and \
                new.window().windowType() != Qt.WindowType.Popup:  # a menu marks its own
            self.ring_of(new.window()).follow(new)


def _alive(obj: QObject) -> bool:
    """Whether the Qt object behind `obj` still exists (a card may be deleted meanwhile)."""
    try:
        obj.objectName()
    except RuntimeError:
        return False
    return True


def install(app: QApplication | None = None) -> FocusRings:
    """Once per application: every window shows its focus ring from now on (the widget that
    has the focus already, at once)."""
    found = app or QApplication.instance()
    assert isinstance(found, QApplication), "focus rings need the running QApplication"
    app = found
    existing = app.findChild(FocusRings)
    if existing is not None:
        return existing
    rings = FocusRings(app)
    rings._on_focus_changed(None, app.focusWidget())  # a focus taken before: ringed now
    return rings
