"""Where bundled resources live. The repository keeps them in the top-level resources/ folder,
installed as the package ``app.resources`` (setup.py maps it), so a checkout, an editable
install, an installed wheel and a frozen (PyInstaller) build all find them here, in one place."""

from __future__ import annotations

import sys
from importlib.resources import files
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2] / "resources"


def resources_dir() -> Path:
    # A frozen build unpacks data into its bundle folder (sys._MEIPASS), under app/resources
    # (build.spec puts them there, as an installed wheel has them).
    bundle = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and bundle:
        return Path(bundle) / "app" / "resources"
    try:
        # An installed wheel (site-packages/app/resources) or an editable install (which maps
        # app.resources to the checkout's resources/): an ordinary package on disk.
        found = Path(str(files("app.resources")))
    except ModuleNotFoundError:
        found = None
    if found is not None and (found / "__init__.py").is_file():
        return found
    # A bare checkout run without installing (python -m app from the repository), or a stale
    # empty app/resources folder left in an old checkout, which Python takes for a namespace.
    return _CHECKOUT


def resource_path(*parts: str) -> Path:
    """The path of a bundled resource, e.g. resource_path("prices.json")."""
    return resources_dir().joinpath(*parts)
