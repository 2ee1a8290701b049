"""Where Harness Desk keeps its own things outside any workspace: the config folder and the
folder of locks. Light (no pydantic, platformdirs only when no folder is given), so the
light commands (`decide`, `status`) can find a lock without loading the settings."""

from __future__ import annotations

import os
from pathlib import Path

APP_DIR_NAME = "harness-desk"
CONFIG_ENV = "HARNESS_DESK_CONFIG_DIR"  # lets tests and portable installs pick the folder


def config_dir() -> Path:
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    from platformdirs import user_config_dir  # noqa: PLC0415 - `decide` stays light

    return Path(user_config_dir(APP_DIR_NAME, appauthor=False))


def locks_folder() -> Path:
    """Where locks outside any workspace live: the person's cache folder (or the config
    folder the tests and portable installs pick). The run lock and the board locks."""
    if os.environ.get(CONFIG_ENV):
        return config_dir() / "locks"
    from platformdirs import user_cache_dir  # noqa: PLC0415 - `decide` stays light

    return Path(user_cache_dir(APP_DIR_NAME, appauthor=False)) / "locks"
