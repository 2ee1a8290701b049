"""PySide's classes made ready in idle moments, so the first run, decision and evidence window
do not stop the window to make them.

PySide6 builds a Qt class's Python enums (Python `enum` classes, about a millisecond each)
the first time the class is used. Worse, the first time a call hands back a widget whose
class it has not met yet (a scroll area's `viewport()`, say) it readies every widget class
to find the right one: about 80 enums at once, 80-170 ms with the UI thread held, in the
middle of the first decision dialog's layout (bench/ui_stall_cold.py). So once the
window is usable, the classes are readied here one at a time in slices of at most
SLICE_MS, as one piece of the after-usable work (look/slices.py: on idle turns, none while a
run starts); one used before its turn is made then, as before.
"""

from __future__ import annotations

import gc
import importlib
import time

import PySide6.QtWidgets as widgets
from PySide6.QtCore import QCoreApplication

from app.gui.look.slices import later

SLICE_MS = 6.0  # stop a slice once it has taken this long (one class may take longer)

# Beyond every widget class: what the first run, decision and evidence window read.
GUI_CLASSES = ("QAccessible", "QAccessibleAnnouncementEvent", "QTextDocument", "QTextCursor",
               "QTextOption", "QTextFormat", "QTextCharFormat", "QTextBlockFormat", "QImage",
               "QFontDatabase", "QTextLayout", "QKeySequence", "QDesktopServices",
               "QValidator", "QPainterPath", "QMovie", "QTextImageFormat")
CORE_CLASSES = ("QUrl", "QLocale", "QItemSelectionModel", "QSortFilterProxyModel",
                "QAbstractItemModel", "QStringListModel", "QDateTime", "QRegularExpression")


def class_names() -> list[tuple[str, str]]:
    """(module, class) in the order they are readied: every widget class first (what a
    widget handed back readies all at once), then the others named above."""
    names = [("PySide6.QtWidgets", name) for name in dir(widgets) if name.startswith("Q")]
    names += [("PySide6.QtGui", name) for name in GUI_CLASSES]
    names += [("PySide6.QtCore", name) for name in CORE_CLASSES]
    return names


class Warming:
    """Readies `names` (module, class) a slice at a time, each slice one turn of the
    after-usable scheduler; `done` is set when all are."""

    def __init__(self, names: list[tuple[str, str]]):
        self.names, self.at, self.done = names, 0, False
        self.slices: list[float] = []  # each slice's milliseconds

    def start(self) -> None:
        app = QCoreApplication.instance()
        assert app is not None  # warmed for a window
        later().add(app, self._slice)

    def _slice(self) -> bool:
        """One slice; True while classes are left for the next."""
        began = time.perf_counter()
        while self.at < len(self.names):
            module, name = self.names[self.at]
            self.at += 1
            try:
                getattr(importlib.import_module(module), name, None)
            except ImportError:  # a module this Qt does not have
                pass
            if (time.perf_counter() - began) * 1000 >= SLICE_MS:
                break
        self.slices.append((time.perf_counter() - began) * 1000)
        if self.at < len(self.names):
            return True  # on a later idle turn: events waiting go first
        self.done = True
        gc.freeze()  # the classes made are kept for good: full collections pass them by
        return False


_warming: Warming | None = None


def warm_in_slices() -> Warming:
    """Begin readying the classes (once per process); returns the warming under way."""
    global _warming
    if _warming is None:
        # Everything start-up made is kept for the window's life: a full collection (tens
        # of milliseconds over the start-up's objects, with the UI thread held) need not
        # look at it again. Cycles made from now are collected as before.
        gc.freeze()
        _warming = Warming(class_names())
        _warming.start()
    return _warming
