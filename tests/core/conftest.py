"""Every core test keeps settings and the out-of-workspace run lock in a folder of its own."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def private_config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
