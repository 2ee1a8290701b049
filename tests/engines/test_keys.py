"""API keys: the keychain first, then the SDK variable; unusable keychains detected quickly, never a file."""

from __future__ import annotations

import threading
import time
from typing import ClassVar

import keyring
import pytest
from keyring.backends import chainer, fail, null

from app.core.records.redact import redact
from app.engines import keys
from app.engines.keys import KeyStoreError, delete_key, get_key, keychain_status, lookup_key, set_key
from tests.engines.conftest import CLAUDE_KEY, OPENAI_KEY, MemoryKeyring


def test_set_get_delete_round_trip(memory_keychain):
    assert set_key("anthropic", f"  {CLAUDE_KEY}\n") is None
    assert memory_keychain.store == {("harness-desk", "anthropic"): CLAUDE_KEY}
    assert get_key("anthropic") == CLAUDE_KEY
    assert delete_key("anthropic") is True
    assert get_key("anthropic") is None
    assert delete_key("anthropic") is False


def test_the_keychain_wins_over_the_variable(memory_keychain, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-proj-FromTheEnvironment00000000000000")
    memory_keychain.set_password("harness-desk", "openai", OPENAI_KEY)
    assert lookup_key("openai") == (OPENAI_KEY, "keychain")


def test_the_variable_is_used_when_nothing_is_stored(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    assert lookup_key("openai") == (OPENAI_KEY, "OPENAI_API_KEY")
    assert get_key("local") is None


def test_a_key_in_use_is_redacted_even_if_it_looks_like_nothing(memory_keychain):
    odd = "Zq8-odd-shaped-credential-with-no-known-prefix"
    memory_keychain.set_password("harness-desk", "openai", odd)
    assert get_key("openai") == odd
    assert odd not in redact(f"request failed with key={odd}!")


def test_usable_keychain_reports_ok():
    usable, message = keychain_status()
    assert usable and message.startswith("Keys are kept in")


@pytest.mark.parametrize("backend", [fail.Keyring(), null.Keyring()])
def test_keychains_that_store_nothing_are_detected(backend, monkeypatch):
    keyring.set_keyring(backend)
    usable, message = keychain_status()
    assert not usable and "ANTHROPIC_API_KEY" in message
    with pytest.raises(KeyStoreError):
        set_key("anthropic", CLAUDE_KEY)


def test_no_dbus_is_named_on_linux(monkeypatch, tmp_path):
    monkeypatch.setattr(keys.sys, "platform", "linux")
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))  # no bus of the person's either
    keyring.set_keyring(fail.Keyring())
    usable, message = keychain_status()
    assert not usable and "D-Bus" in message


def test_no_recommended_backend_is_said_plainly(monkeypatch):
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nowhere")
    keyring.set_keyring(fail.Keyring())
    usable, message = keychain_status()
    assert not usable and "No recommended backend" in message and "Traceback" not in message


def test_a_chainer_with_nothing_to_chain_is_unusable():
    class EmptyChainer(chainer.ChainerBackend):
        backends: ClassVar[list] = []

    keyring.set_keyring(EmptyChainer())
    assert keychain_status()[0] is False


def test_a_plaintext_backend_is_refused():
    class PlaintextKeyring(MemoryKeyring):
        pass

    keyring.set_keyring(PlaintextKeyring())
    usable, message = keychain_status()
    assert not usable and "plain file" in message
    with pytest.raises(KeyStoreError):
        set_key("anthropic", CLAUDE_KEY)


def test_a_backend_that_keeps_nothing_is_caught_on_save():
    class Forgetful(MemoryKeyring):
        def get_password(self, service, username):
            return None

    keyring.set_keyring(Forgetful())
    with pytest.raises(KeyStoreError) as caught:
        set_key("anthropic", CLAUDE_KEY)
    assert "did not keep it" in caught.value.message


def test_a_hanging_keychain_answers_within_seconds_and_never_raises_on_get(monkeypatch):
    release = threading.Event()

    class Hanging(MemoryKeyring):
        def get_password(self, service, username):
            release.wait(30)
            return None

    keyring.set_keyring(Hanging())
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    try:
        started = time.monotonic()
        usable, message = keychain_status(timeout=0.3)
        assert not usable and "did not answer" in message
        assert time.monotonic() - started < 2.0
        # While the stuck call is pending, later calls fail at once and the variable still works.
        started = time.monotonic()
        assert get_key("anthropic") == CLAUDE_KEY
        with pytest.raises(KeyStoreError):
            set_key("anthropic", CLAUDE_KEY, timeout=0.3)
        assert time.monotonic() - started < 1.0
    finally:
        release.set()


def test_keyring_errors_become_plain_sentences():
    class Locked(MemoryKeyring):
        def set_password(self, service, username, password):
            from keyring.errors import KeyringLocked
            raise KeyringLocked(f"Failed to unlock the collection holding {password}")

    keyring.set_keyring(Locked())
    with pytest.raises(KeyStoreError) as caught:
        set_key("anthropic", CLAUDE_KEY)
    assert "locked" in caught.value.message and CLAUDE_KEY not in caught.value.message


def test_an_oversized_key_is_warned_about(memory_keychain, monkeypatch):
    monkeypatch.setattr(keys.sys, "platform", "linux")
    long_key = "sk-ant-" + "k" * 1400  # 1,407 characters are 2,814 bytes in UTF-16
    warning = set_key("anthropic", long_key)
    assert warning and "2,560" in warning
    assert memory_keychain.store[("harness-desk", "anthropic")] == long_key


def test_an_oversized_key_is_refused_on_windows(memory_keychain, monkeypatch):
    monkeypatch.setattr(keys.sys, "platform", "win32")
    with pytest.raises(KeyStoreError) as caught:
        set_key("anthropic", "sk-ant-" + "k" * 1400)
    assert "2,560" in caught.value.message and "ANTHROPIC_API_KEY" in caught.value.message
    assert memory_keychain.store == {}


@pytest.mark.parametrize("bad", ["", "   ", "sk-ant-abc\nsk-ant-def"])
def test_empty_or_multiline_keys_are_refused(bad, memory_keychain):
    with pytest.raises(KeyStoreError):
        set_key("anthropic", bad)
    assert memory_keychain.store == {}


def test_no_key_ever_lands_in_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    keyring.set_keyring(fail.Keyring())
    with pytest.raises(KeyStoreError):
        set_key("anthropic", CLAUDE_KEY)
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert all(CLAUDE_KEY.encode() not in p.read_bytes() for p in written)
