"""The real OS keychain (the Secret Service, in CI under dbus-run-session): set, read back, delete."""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid

import pytest

from app.engines.keys import SERVICE, delete_key, get_key, keychain_status, lookup_key, set_key

pytestmark = [
    pytest.mark.keychain,
    pytest.mark.skipif(os.environ.get("HARNESS_DESK_REAL_KEYCHAIN") != "1",
                       reason="needs the real Secret Service: run under "
                              "`bash .ci/keyring-session.sh ...`, which sets HARNESS_DESK_REAL_KEYCHAIN=1"),
]


def test_a_key_round_trips_through_the_real_keychain():
    usable, message = keychain_status()
    assert usable, message
    engine_id = f"harness-desk-test-{uuid.uuid4().hex[:8]}"  # never a real engine's entry
    secret = f"sk-ant-api03-RealKeychainTest-{uuid.uuid4().hex}"
    try:
        assert set_key(engine_id, secret) is None
        assert lookup_key(engine_id) == (secret, "keychain")
        if shutil.which("secret-tool"):
            # Read it back with another client, to be sure it is in the Secret Service itself.
            found = subprocess.run(["secret-tool", "lookup", "service", SERVICE,
                                    "username", engine_id],
                                   capture_output=True, text=True, timeout=10)
            assert found.stdout.strip() == secret
    finally:
        assert delete_key(engine_id) is True
    assert get_key(engine_id) is None
    assert delete_key(engine_id) is False
