"""GUI tests run offscreen: no display is needed, on CI or on a developer's machine."""

import importlib.util
import os
import sys

os.environ["QT_QPA_PLATFORM"] = "offscreen"

# Until the checklist widget lands on main, the window embeds a test-only stand-in.
if importlib.util.find_spec("app.gui.board_view") is None:
    from tests.gui import board_stand_in

    sys.modules["app.gui.board_view"] = board_stand_in
