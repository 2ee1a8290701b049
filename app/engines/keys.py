"""API keys in the OS keychain (service "harness-desk", user = engine id), never in a file."""

from __future__ import annotations

import os
import sys
import threading
from typing import Any, Callable

from app.core.records.redact import redact, remember_secret
from app.core.places import adopt_user_bus
from app.engines.deadline import Overdue, within

SERVICE = "harness-desk"
ENV_VARS = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
WINDOWS_LIMIT_BYTES = 2560   # Windows Credential Manager's limit on one secret
STATUS_TIMEOUT_S = 5.0       # keychain_status() and availability checks answer within this
CALL_TIMEOUT_S = 15.0        # set/get/delete leave room for an unlock prompt

_ENV_HINT = "set ANTHROPIC_API_KEY or OPENAI_API_KEY in the environment instead"
_HUNG = ("The keychain did not answer within a few seconds (it may be locked, or waiting for "
         f"you to type its password). Unlock it and try again, or {_ENV_HINT}.")


class KeyStoreError(Exception):
    """The keychain could not do what was asked; `message` is one plain sentence."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# Keys the person chose to keep for this session only, on a computer with no keychain the app
# can use: in this process's memory, never written anywhere, gone when the app quits.
_session: dict[str, str] = {}
_session_lock = threading.Lock()

# A keychain call that never returned (a D-Bus prompt nobody answers). While it is stuck,
# later calls fail at once instead of piling up more stuck threads.
_stuck: threading.Thread | None = None
_stuck_lock = threading.Lock()


def _guarded(fn: Callable[..., Any], *args: Any, timeout: float) -> Any:
    """Run one keyring call on a daemon thread and give up after `timeout` seconds."""
    global _stuck
    with _stuck_lock:
        if _stuck is not None and _stuck.is_alive():
            raise KeyStoreError(_HUNG)
    try:
        return within(timeout, lambda: fn(*args), name="keychain-call")
    except Overdue as exc:
        with _stuck_lock:
            _stuck = exc.worker
        raise KeyStoreError(_HUNG) from None


def _no_keychain() -> str:
    if sys.platform.startswith("linux") and not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        return ("No keychain is available: there is no D-Bus session, so GNOME Keyring or KWallet "
                f"cannot be reached. Log in to a desktop session, or {_ENV_HINT}.")
    return ("No keychain is available on this computer (\"No recommended backend\"), so keys "
            f"cannot be saved. Install and unlock GNOME Keyring or KWallet, or {_ENV_HINT}.")


def _backend_problem(backend: Any) -> str | None:
    """Why this keyring backend cannot hold our keys, or None if it can."""
    from keyring.backends import chainer, fail, null  # noqa: PLC0415 - keyring, only for a key

    if isinstance(backend, chainer.ChainerBackend):
        inner = list(backend.backends)
        if not inner:
            return _no_keychain()
        backend = inner[0]  # the chainer writes to its highest-priority backend
    if isinstance(backend, fail.Keyring):
        return _no_keychain()
    if isinstance(backend, null.Keyring):
        return ("The keychain is switched off (a backend that stores nothing is configured), "
                f"so keys cannot be saved. Remove that setting, or {_ENV_HINT}.")
    kind = f"{type(backend).__module__}.{type(backend).__name__}".lower()
    if kind.startswith("keyrings.alt") or "plaintext" in kind:
        return ("The only keychain available would keep keys in a plain file, which Harness Desk "
                f"does not do. Install GNOME Keyring or KWallet, or {_ENV_HINT}.")
    return None


def _backend_name(backend: Any) -> str:
    module = type(backend).__module__
    for marker, name in (("SecretService", "the Secret Service (GNOME Keyring or KWallet)"),
                         ("libsecret", "the Secret Service (GNOME Keyring or KWallet)"),
                         ("kwallet", "KWallet"), ("macOS", "the macOS Keychain"),
                         ("Windows", "Windows Credential Manager")):
        if marker in module:
            return name
    return type(backend).__name__


def _plain(exc: Exception) -> str:
    if isinstance(exc, KeyStoreError):
        return exc.message
    from keyring import errors  # noqa: PLC0415 - keyring, only for a key

    if isinstance(exc, errors.NoKeyringError):
        return _no_keychain()
    if isinstance(exc, errors.KeyringLocked):
        return f"The keychain is locked. Unlock it and try again, or {_ENV_HINT}."
    detail = redact(str(exc))[:200]
    return f"The keychain failed ({type(exc).__name__}{': ' + detail if detail else ''})."


def _backend(timeout: float) -> Any:
    backend = _guarded(_pick_backend, timeout=timeout)
    if backend is None:
        raise KeyStoreError(_no_keychain())
    problem = _backend_problem(backend)
    if problem:
        raise KeyStoreError(problem)
    return backend


_picked: Any = None  # the platform's own backend, once found usable


def _pick_backend() -> Any:
    """The keychain to use (None: there is none), loading no more of keyring than it takes,
    so a readiness check stays fast.

    keyring.get_keyring() imports every backend it knows and scans the installed packages
    for more, a few hundred milliseconds before the first question. A backend set in this
    process (keyring.set_keyring) or configured (PYTHON_KEYRING_BACKEND, keyringrc.cfg) is
    keyring's to load, and so is every platform but Linux. On Linux, the Secret Service
    (GNOME Keyring, KWallet) is the keychain: without a D-Bus session nothing can reach it,
    said at once; with one, its backend alone is loaded, and keyring's full search is the
    fallback when it is not usable."""
    global _picked
    adopt_user_bus()  # cron gives no D-Bus session: the person's own, when they are logged in
    keyring_core = sys.modules.get("keyring.core")
    if getattr(keyring_core, "_keyring_backend", None) is not None or _configured() \
            or not sys.platform.startswith("linux"):
        import keyring  # noqa: PLC0415 - keyring, only for a key

        return keyring.get_keyring()
    if _picked is not None:
        return _picked
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        return None  # no keychain, and keyring not even imported
    from keyring.backends import SecretService  # noqa: PLC0415 - keyring, only for a key

    backend = SecretService.Keyring()  # type: ignore[no-untyped-call]  # keyring's are not typed
    try:
        usable = backend.priority > 0  # raises when the service cannot be reached
    except Exception:
        usable = False
    if not usable:
        import keyring  # noqa: PLC0415 - keyring, only for a key

        return keyring.get_keyring()
    _picked = backend
    return backend


def _configured() -> bool:
    """Whether the person chose a keyring backend themselves (keyring's own two places)."""
    if os.environ.get("PYTHON_KEYRING_BACKEND"):
        return True
    root = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.exists(os.path.join(root, "python_keyring", "keyringrc.cfg"))


def keychain_status(timeout: float = STATUS_TIMEOUT_S) -> tuple[bool, str]:
    """(usable, a sentence for the person). Answers within about `timeout` seconds."""
    try:
        backend = _backend(timeout)
        # A locked or dead store only shows itself when asked for something.
        _guarded(backend.get_password, SERVICE, "__status__", timeout=timeout)
        return True, f"Keys are kept in {_backend_name(backend)}."
    except Exception as exc:  # status must answer, whatever the backend does
        return False, _plain(exc)


def env_var(engine_id: str) -> str | None:
    """The SDK's standard variable for this engine's key (None for engines without a key)."""
    return ENV_VARS.get(engine_id)


def _checked(secret: str) -> str:
    secret = (secret or "").strip()
    if not secret:
        raise KeyStoreError("The key is empty. Paste the whole key and try again.")
    if "\n" in secret or "\r" in secret:
        raise KeyStoreError("The key has a line break in it. Paste only the key, on one line.")
    remember_secret(secret)  # so no error text, log or export can carry it
    return secret


def keep_for_session(engine_id: str, secret: str) -> None:
    """Keep a key in memory until the app quits (no keychain needed; nothing is written).

    Raises KeyStoreError for an empty key or one with a line break."""
    secret = _checked(secret)
    with _session_lock:
        _session[engine_id] = secret


def forget_session_key(engine_id: str) -> bool:
    """Drop the key kept for this session; True if there was one."""
    with _session_lock:
        return _session.pop(engine_id, None) is not None


def session_key(engine_id: str) -> str | None:
    with _session_lock:
        return _session.get(engine_id)


def lookup_key(engine_id: str, timeout: float = CALL_TIMEOUT_S) -> tuple[str | None, str]:
    """(key, where it came from: "keychain", "session", the variable's name, or "")."""
    try:
        stored = _guarded(_backend(timeout).get_password, SERVICE, engine_id, timeout=timeout)
        if stored and stored.strip():
            remember_secret(stored.strip())
            return stored.strip(), "keychain"
    except Exception:
        pass  # no usable keychain: a key kept for the session, or the variable, still works
    kept = session_key(engine_id)
    if kept:
        return kept, "session"
    name = ENV_VARS.get(engine_id)
    value = (os.environ.get(name) or "").strip() if name else ""
    if value and name:
        remember_secret(value)
        return value, name
    return None, ""


def get_key(engine_id: str, timeout: float = CALL_TIMEOUT_S) -> str | None:
    """The key for an engine: the keychain first, then the SDK's variable. Never raises."""
    return lookup_key(engine_id, timeout)[0]


def stored_size(secret: str) -> int:
    """Bytes the secret takes in Windows Credential Manager, which stores UTF-16."""
    return len(secret.encode("utf-16-le"))


def set_key(engine_id: str, secret: str, timeout: float = CALL_TIMEOUT_S) -> str | None:
    """Store a key. Returns a warning sentence, or None. Raises KeyStoreError if not stored."""
    secret = _checked(secret)
    warning = None
    size = stored_size(secret)
    if size > WINDOWS_LIMIT_BYTES:
        too_big = (f"This key takes {size:,} bytes, more than the {WINDOWS_LIMIT_BYTES:,} bytes "
                   "Windows Credential Manager can hold.")
        if sys.platform == "win32":
            raise KeyStoreError(f"{too_big} Set {ENV_VARS.get(engine_id, 'the variable')} instead.")
        warning = f"{too_big} It was saved here, but would not fit on Windows."
    try:
        backend = _backend(timeout)
        _guarded(backend.set_password, SERVICE, engine_id, secret, timeout=timeout)
        # Reading it back catches a backend that accepts keys and keeps nothing.
        kept = _guarded(backend.get_password, SERVICE, engine_id, timeout=timeout)
    except Exception as exc:
        raise KeyStoreError(_plain(exc)) from None
    if kept != secret:
        raise KeyStoreError("The keychain accepted the key but did not keep it. "
                            f"Check that it is unlocked, or {_ENV_HINT}.")
    return warning


def delete_key(engine_id: str, timeout: float = CALL_TIMEOUT_S) -> bool:
    """Remove a stored key. True if one was removed, False if none was stored."""
    from keyring import errors  # noqa: PLC0415 - keyring, only for a key

    try:
        backend = _backend(timeout)
        if _guarded(backend.get_password, SERVICE, engine_id, timeout=timeout) is None:
            return False
        _guarded(backend.delete_password, SERVICE, engine_id, timeout=timeout)
        return True
    except errors.PasswordDeleteError:
        return False
    except Exception as exc:
        raise KeyStoreError(_plain(exc)) from None


def stored_in(engine_id: str, timeout: float = STATUS_TIMEOUT_S) -> tuple[bool, str]:
    """(whether a key is stored for the engine, the keychain's name for a person).

    Raises KeyStoreError, in one sentence, when there is no keychain the app can use."""
    try:
        backend = _backend(timeout)
        stored = _guarded(backend.get_password, SERVICE, engine_id, timeout=timeout)
    except Exception as exc:
        raise KeyStoreError(_plain(exc)) from None
    return bool(stored and stored.strip()), _backend_name(backend)
