"""Where bundled resources live: inside the app package, as package data, so a checkout, an
installed wheel and a frozen (PyInstaller) build all find them the same way."""

from __future__ import annotations

import sys
from importlib.resources import files
from pathlib import Path


def resources_dir() -> Path:
    # A frozen build unpacks data into its bundle folder (sys._MEIPASS), at the same path
    # relative to the root as in the source tree: app/resources.
    bundle = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and bundle:
        return Path(bundle) / "app" / "resources"
    # An ordinary package on disk (a checkout or an installed wheel), so this is a real path.
    return Path(str(files("app").joinpath("resources")))


def resource_path(*parts: str) -> Path:
    """The path of a bundled resource, e.g. resource_path("prices.json")."""
    return resources_dir().joinpath(*parts)
