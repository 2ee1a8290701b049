"""Fixtures for engine tests: loopback fake servers, an in-memory keychain, a clean environment."""

from __future__ import annotations

import keyring
import pytest

from app.engines import keys
from tests.memory_keyring import MemoryKeyring

CLAUDE_KEY = "sk-ant-api03-TestKeyForFakeServer0123456789abcdef"
OPENAI_KEY = "sk-proj-TestKeyForFakeServer0123456789abcdef"

_VENDOR_ENV = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL",
               "ANTHROPIC_CUSTOM_HEADERS", "ANTHROPIC_PROFILE", "OPENAI_API_KEY", "OPENAI_BASE_URL",
               "OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "OPENAI_CUSTOM_HEADERS", "OPENAI_ADMIN_KEY")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path, request):
    """No vendor variables from the developer's shell, settings in a temp dir."""
    for name in _VENDOR_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    from app.engines.local import probe as local_probe
    monkeypatch.setattr(local_probe, "PROBED", {})  # a port used again is a new server
    yield


@pytest.fixture(autouse=True)
def memory_keychain(request):
    """Every engine test gets an empty in-memory keychain, except the real-keychain test."""
    if request.node.get_closest_marker("keychain"):
        yield None
        return
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    keys._stuck = None
    yield backend
    keyring.set_keyring(previous)
    keys._stuck = None

