"""Fixtures shared by every part of the suite."""

from __future__ import annotations

import pytest


@pytest.fixture
def server():
    """A loopback server speaking the vendors' wire formats (tests/engines/fake_servers.py),
    closed after the test."""
    from tests.engines.fake_servers import FakeServer

    s = FakeServer()
    yield s
    s.close()
