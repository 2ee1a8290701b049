"""Fixtures shared by every part of the suite."""

from __future__ import annotations

import signal

import pytest


def pytest_configure(config):
    """Ctrl+C as a terminal gives it, whatever started the suite. A shell without job control
    starts a background job (`cmd &`, nohup) with SIGINT ignored; every process the tests
    start inherits that, and Python then never installs its KeyboardInterrupt handler, so
    `harness-desk watch` could not be stopped with Ctrl+C in the tests that send one (a
    fresh-clone .ci/run started in the background failed that way). Handled here, SIGINT is
    back to its default in every program the tests start (exec resets what is handled)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def documents_in_process(request, monkeypatch):
    """Documents are read and written in this process, as plain calls, so a test may change
    the document modules' limits; the app itself (and every program a test starts) uses a
    worker process bounded in time and memory. Tests marked `documents_worker` use it too."""
    if request.node.get_closest_marker("documents_worker") is None:
        from app.core.documents import worker

        monkeypatch.setattr(worker, "ISOLATED", False)


@pytest.fixture
def server():
    """A loopback server speaking the vendors' wire formats (tests/engines/fake_servers.py),
    closed after the test."""
    from tests.engines.fake_servers import FakeServer

    s = FakeServer()
    yield s
    s.close()
