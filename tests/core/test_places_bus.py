"""The person's session bus for a process cron started without one (app.core.places)."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

import pytest

from app.core import places

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's D-Bus")


@pytest.fixture
def runtime(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    yield tmp_path
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)  # adopted in a test


def test_the_bus_in_the_runtime_folder_is_adopted_when_there_is_none(runtime):
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(runtime / "bus"))
        assert places.user_bus_address() == f"unix:path={runtime / 'bus'}"
        assert places.adopt_user_bus() is True
        assert os.environ["DBUS_SESSION_BUS_ADDRESS"] == f"unix:path={runtime / 'bus'}"
        assert places.user_bus_address() is None  # it has one now: nothing to add


def test_no_bus_or_a_file_that_is_not_one_is_left_alone(runtime):

    assert places.adopt_user_bus() is False
    (runtime / "bus").write_text("not a socket")
    assert places.adopt_user_bus() is False
    assert "DBUS_SESSION_BUS_ADDRESS" not in os.environ


def test_a_session_of_its_own_is_kept(runtime, monkeypatch):

    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(runtime / "bus"))
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/its/own")
        assert places.adopt_user_bus() is False
        assert os.environ["DBUS_SESSION_BUS_ADDRESS"] == "unix:path=/its/own"


def test_without_xdg_runtime_dir_it_looks_where_systemd_puts_it(monkeypatch):
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    looked = []
    monkeypatch.setattr(Path, "is_socket", lambda self: looked.append(str(self)) or False)
    assert places.user_bus_address() is None
    assert looked == [f"/run/user/{os.getuid()}/bus"]
