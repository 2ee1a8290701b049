"""The person's D-Bus session bus, for a process started without one.

cron (and a service, an SSH command) starts a process with no DBUS_SESSION_BUS_ADDRESS, so
nothing on the desktop session (the Secret Service keychain, the notification service) can
be reached, although the person is logged in and their bus is there: `bus` in their runtime
folder (XDG_RUNTIME_DIR, which cron does not set either: /run/user/<uid>). systemd starts a
user bus there for every session.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

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
