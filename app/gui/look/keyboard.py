"""The window's keys: Tab in reading order, and Enter pressing the button that has the focus.

Qt's Tab order is the order widgets were made in, so cards added later, a button a flow put
in the top bar afterwards, or a switch slotted in beside Run came at the end of the chain.
`reading_order` orders the focusable widgets as a person reads the window: by the widget
tree, each container's parts row by row (top to bottom), each row left to right; so the
top bar comes first, then the checklist half, then the run half, the newest round on top.

Outside a dialog, Qt's buttons leave Enter to their window. `EnterPressesButtons` gives
Enter to the very button the key was typed on (as Space), and to nothing else: an Enter a
text field passed on (QLineEdit does, after its returnPressed) never presses whatever
button happens to have the focus by then.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractButton, QApplication, QComboBox, QWidget


def tab_stops(window: QWidget) -> list[QWidget]:
    """The widgets Tab visits in `window`, in reading order."""
    stops: list[QWidget] = []
    _collect(window, window, stops)
    return stops


def _takes_tab(widget: QWidget, window: QWidget) -> bool:
    return (bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus) and widget.focusProxy() is None
            and widget.isVisibleTo(window) and widget.isVisible() and widget.isEnabled())


def _collect(node: QWidget, window: QWidget, stops: list[QWidget]) -> None:
    children = [c for c in node.children() if isinstance(c, QWidget) and not c.isWindow()
                and c.isVisible()]
    for child in _in_rows(children):
        if _takes_tab(child, window):
            stops.append(child)
        _collect(child, window, stops)


def _in_rows(widgets: list[QWidget]) -> list[QWidget]:
    """Top to bottom; widgets side by side (their middles on one line) left to right."""
    ordered: list[QWidget] = []
    rows: list[list[QWidget]] = []
    for widget in sorted(widgets, key=lambda w: (w.y(), w.x())):
        row = rows[-1] if rows else None
        if row is not None and row[0].y() <= widget.y() + widget.height() // 2 \
                <= row[0].y() + row[0].height():
            row.append(widget)
        else:
            rows.append([widget])
    for row in rows:
        ordered += sorted(row, key=lambda w: w.x())
    return ordered


def next_stop(window: QWidget, current: QWidget | None, forward: bool) -> QWidget | None:
    stops = tab_stops(window)
    if not stops:
        return None
    here = _stop_of(current, stops)
    if here is None:
        return stops[0] if forward else stops[-1]
    step = 1 if forward else -1
    return stops[(stops.index(here) + step) % len(stops)]


def _stop_of(widget: QWidget | None, stops: list[QWidget]) -> QWidget | None:
    """The stop `widget` belongs to: itself, the widget whose focus it takes, or an ancestor
    (an editor inside the list, a combo box's own line edit)."""
    w = widget
    while w is not None:
        if w in stops:
            return w
        owner = next((s for s in stops if _proxied_to(s, w)), None)
        if owner is not None:
            return owner
        w = w.parentWidget()
    return None


def _proxied_to(stop: QWidget, widget: QWidget) -> bool:
    proxy = stop.focusProxy()
    while proxy is not None:
        if proxy is widget:
            return True
        proxy = proxy.focusProxy()
    return False


class EnterPressesButtons(QObject):
    """Enter or Return typed on a focused button (or a closed drop-down list) of `window`
    presses it (opens it), as Space does. It watches only the widget that has the focus."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self._window = window
        self._watched: QWidget | None = None
        app = QApplication.instance()
        assert isinstance(app, QApplication), "made in the running QApplication"
        app.focusChanged.connect(self._on_focus_changed)
        self._on_focus_changed(None, app.focusWidget())  # a focus taken before it was made

    def _on_focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if self._watched is not None:
            try:
                self._watched.removeEventFilter(self)
            except RuntimeError:  # already deleted
                pass
            self._watched = None
        if isinstance(new, (QAbstractButton, QComboBox)) and new.window() is self._window:
            new.installEventFilter(self)
            self._watched = new

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if not isinstance(event, QKeyEvent) or event.type() != QEvent.Type.KeyPress or \
                event.key() not in (Qt.Key.Key_Return, Qt.Key.Key_Enter) or \
                event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        if not isinstance(watched, QWidget) or not watched.isEnabled():
            return False
        if isinstance(watched, QAbstractButton):
            watched.animateClick()
            return True
        if isinstance(watched, QComboBox) and not watched.isEditable():
            watched.showPopup()
            return True
        return False
