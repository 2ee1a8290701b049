"""Where bundled resources live, in a source checkout and in a frozen (PyInstaller) build."""

from __future__ import annotations

import sys
from pathlib import Path

import app


def resources_dir() -> Path:
    # A frozen build unpacks data next to the executable's bundle (sys._MEIPASS);
    # a checkout keeps resources/ beside the app package.
    bundle = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and bundle:
        return Path(bundle) / "resources"
    return Path(app.__file__).resolve().parent.parent / "resources"


def resource_path(*parts: str) -> Path:
    """The path of a bundled resource, e.g. resource_path("prices.json")."""
    return resources_dir().joinpath(*parts)
