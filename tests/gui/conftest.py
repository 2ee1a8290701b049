"""GUI tests run offscreen: no display is needed, on CI or on a developer's machine."""

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"
