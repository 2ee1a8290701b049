"""Engine settings' calls into the keychain and the engines (each may wait: background only).

Nothing here imports Qt; the dialog calls these through `app.gui.background`.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.engines import connection
from app.engines.connection import known_models as known
from app.engines.keys import (KeyStoreError, delete_key, env_var, forget_session_key,
                              keep_for_session as keep, session_key, set_key, stored_in)

if TYPE_CHECKING:
    from app.core.settings import Settings
    from app.engines.connection import ConnectionCheck


@dataclass(frozen=True)
class KeyState:
    """Where an engine's key stands, for the dialog's key line."""

    usable: bool          # a keychain the app can write to exists
    stored: bool          # a key for this engine is in it
    keychain: str         # its name ("the macOS Keychain"), "" when there is none
    problem: str          # why there is no usable keychain (the core's sentence), or ""
    env_var: str          # the SDK's variable for this engine's key
    env_set: bool         # that variable is set in this process's environment
    session: bool = False  # a key is kept for this session only (in memory, no keychain)


def key_state(engine_id: str) -> KeyState:
    var = env_var(engine_id) or ""
    env_set = bool(var and (os.environ.get(var) or "").strip())
    session = session_key(engine_id) is not None
    try:
        stored, name = stored_in(engine_id)
    except KeyStoreError as err:
        return KeyState(False, False, "", err.message, var, env_set, session)
    return KeyState(True, stored, name, "", var, env_set, session)


def keep_for_session(engine_id: str, secret: str) -> KeyState:
    """Keep the key in this process's memory until the app quits. Raises KeyStoreError."""
    keep(engine_id, secret)
    return key_state(engine_id)


def store_key(engine_id: str, secret: str) -> tuple[KeyState, str | None]:
    """Store the key; (the new state, a warning sentence or None). Raises KeyStoreError."""
    warning = set_key(engine_id, secret)
    return key_state(engine_id), warning


def remove_key(engine_id: str) -> KeyState:
    """Remove the engine's key: the one kept for this session, and the keychain's."""
    if not forget_session_key(engine_id):
        delete_key(engine_id)
    return key_state(engine_id)


def check_connection(engine_id: str, settings: Settings) -> ConnectionCheck:
    return connection.check_connection(engine_id, settings)


def known_models(engine_id: str) -> list[str]:
    return known(engine_id)


def not_an_address(url: str) -> bool:
    """True when `url` (not empty) cannot be a server's address: no http:// or https://, no
    computer named, or a port that is not a number in range (what the engines refuse too,
    app.engines.wire.check_base_url), said before a test would call it "not answering"."""
    text = url.strip()
    if not text:
        return False  # the engine's usual address
    try:
        parts = urlsplit(text)
        _ = parts.port  # raises ValueError for a port that is not a number from 0 to 65535
    except ValueError:
        return True
    return parts.scheme not in ("http", "https") or not parts.hostname
