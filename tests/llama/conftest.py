"""A real llama.cpp llama-server with the SmolLM2-135M model, started per module on loopback.

The tests here are marked `llama_server` and skip, saying why, when `scripts/llama_server.py
build` has not been run. CI builds it first and sets HARNESS_DESK_LLAMA_EXPECTED=1: there a
missing server fails the tests instead of skipping them. Nothing is built from here: the
build takes minutes and belongs to its own step.
"""

from __future__ import annotations

import importlib.util
import os
import signal
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("llama_server", ROOT / "scripts" / "llama_server.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LLAMA = _script()
NOT_BUILT = (f"llama-server is not built: run `python scripts/llama_server.py build` "
             f"(it caches under {LLAMA.home()})")


EXPECTED = os.environ.get("HARNESS_DESK_LLAMA_EXPECTED") == "1"  # set by .ci/run


def pytest_collection_modifyitems(config, items):
    if LLAMA.built() or EXPECTED:  # expected and missing: start_llama fails, saying why
        return
    for item in items:
        if "llama_server" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=NOT_BUILT))


class Served:
    """One running llama-server: its process, port and /v1 address."""

    def __init__(self, tmp: Path, ctx: int, tools: bool, extra: list[str] | None = None):
        self.log = tmp / f"llama-{ctx}-{'tools' if tools else 'plain'}.log"
        self.proc, self.port = LLAMA.start(ctx=ctx, tools=tools, log=self.log, extra=extra)
        self.url = f"http://127.0.0.1:{self.port}/v1"

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=20)
            except Exception:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def start_llama(tmp_path):
    """Start a llama-server (ctx, tools, extra flags); every one started is stopped at the end."""
    if not LLAMA.built():
        pytest.fail(f"HARNESS_DESK_LLAMA_EXPECTED=1 but {NOT_BUILT}", pytrace=False)
    started: list[Served] = []

    def start(ctx: int = 8192, tools: bool = False, extra: list[str] | None = None) -> Served:
        served = Served(tmp_path, ctx, tools, extra)
        started.append(served)
        return served

    yield start
    for served in started:
        served.stop(signal.SIGKILL)
