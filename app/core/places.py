"""Where Harness Desk keeps its own things outside any workspace: the config folder and the
folder of locks; and where the person's D-Bus session bus is, for a process started without
one. Light (no pydantic, platformdirs only when no folder is given), so the light commands
(`decide`, `status`) can find a lock without loading the settings."""

from __future__ import annotations

import os
import sys
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


# cron (and a service, an SSH command) starts a process with no DBUS_SESSION_BUS_ADDRESS, so
# nothing of the desktop session (the Secret Service keychain, the notification service) can
# be reached, although the person is logged in and their bus is there: `bus` in their runtime
# folder (XDG_RUNTIME_DIR, which cron does not set either: /run/user/<uid>), where systemd
# starts a user bus for every session.
BUS_ENV = "DBUS_SESSION_BUS_ADDRESS"


def user_bus_address() -> str | None:
    """The address of the person's session bus when this process has none and theirs is
    there (Linux), else None."""
    if not sys.platform.startswith("linux") or os.environ.get(BUS_ENV):
        return None
    runtime = os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}"
    bus = Path(runtime) / "bus"
    try:
        if not bus.is_socket():
            return None
    except OSError:  # a runtime folder we may not look into
        return None
    return f"unix:path={bus}"


def adopt_user_bus() -> bool:
    """Make the person's session bus this process's (and its children's) when it has none,
    before the keychain is first asked; True if it did."""
    address = user_bus_address()
    if address is None:
        return False
    os.environ[BUS_ENV] = address
    return True
