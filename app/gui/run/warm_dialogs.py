"""The decision dialog made once, unseen, in idle moments after the window is usable, so the
first one a run asks for does not pay for its first use.

A first DecisionDialog costs about 20 ms of the UI thread's own CPU to make and show (Qt's
first text browser, its fonts, the style's first polish of each kind of widget); every later
one about 7 (bench/ui_stall_cold.py: the decision's turn, at load 2 or more, 60-130 ms). So
after the window is usable its module is imported off the UI thread, then a stand-in dialog
is made and drawn into a picture (never shown) in three pieces of the after-usable work
(look/slices.py), each a turn of its own, and thrown away.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QWidget

from app.gui.background import run_for
from app.gui.look.slices import later, once

DIALOG_MODULE = "app.gui.run.decision_dialog"
SOURCES_MODULE = "app.gui.evidence.sources_view"


def warm_decision_dialog(window: QWidget) -> None:
    """Import the dialog's module off the UI thread, then make one unseen, a piece a turn."""
    if DIALOG_MODULE in sys.modules and SOURCES_MODULE in sys.modules:
        _pieces(window)
    else:
        run_for(window, lambda: [importlib.import_module(m)
                                 for m in (DIALOG_MODULE, SOURCES_MODULE)],
                lambda _modules: _pieces(window), lambda _exc: None)


def _pieces(window: QWidget) -> None:
    made: dict[str, Any] = {}

    def sources() -> None:  # Qt's first text browser: the costliest first
        from app.gui.evidence.sources_view import SourcesView  # noqa: PLC0415 - imported off the UI thread first (warm_decision_dialog)

        made["sources"] = SourcesView(window)
        made["sources"].hide()

    def dialog() -> None:
        from app.core.board.task import Task  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)
        from app.gui.run.decision_dialog import DecisionDialog  # noqa: PLC0415 - imported off the UI thread first (warm_decision_dialog)

        stand_in = Task(0, 0, "HUMAN: ?", False, ["Option: a", "Option: b", "Evidence: a.md",
                                                  "Evidence: a", "Recommendation: a: a"])
        made["dialog"] = DecisionDialog(stand_in, Path(), lambda _answer: None, window,
                                        web=None)

    def drawn() -> None:  # its paint: the style's, the fonts' first drawing
        made["dialog"].grab()
        for widget in made.values():
            widget.deleteLater()
        made.clear()

    scheduler = later()
    for piece in (sources, dialog, drawn):
        scheduler.add(window, once(piece))
