"""Engine services for the window: building from settings, readiness that never hangs, choices."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.core.errors import UsageError
from app.core.settings import EngineSettings, Settings
from app.engines.demo.engine import DemoEngine
from app.engines.local.engine import LocalEngine
from app.engines.setup import (EngineChoice, build_engine, cache_key, engine_choices,
                               engine_readiness)

REPO = Path(__file__).resolve().parents[2]


def local_settings(base_url: str = "http://127.0.0.1:9/v1", model: str = "qwen3") -> Settings:
    return Settings(engine="local", demo_delay_s=0.25,
                    engines={"local": EngineSettings(model=model, base_url=base_url)})


# -- building ------------------------------------------------------------------------------

def test_the_settings_choose_the_engine_its_model_and_its_address(tmp_path):
    engine = build_engine(local_settings(), tmp_path)
    assert isinstance(engine, LocalEngine)
    assert engine.model == "qwen3"
    assert engine.config.base_url == "http://127.0.0.1:9/v1"
    assert engine.config.cache_key == cache_key(tmp_path)


def test_overrides_win_over_the_settings(tmp_path):
    engine = build_engine(local_settings(), tmp_path, model="llama3.1",
                          base_url="http://localhost:1234/v1")
    assert (engine.model, engine.config.base_url) == ("llama3.1", "http://localhost:1234/v1")
    demo = build_engine(local_settings(), tmp_path, "demo", demo_delay=0.5)
    assert isinstance(demo, DemoEngine) and demo.delay_s == 0.5
    # Without an override the Demo engine takes its pause from the settings.
    assert build_engine(local_settings(), tmp_path, "demo").delay_s == 0.25


def test_an_engine_without_saved_settings_uses_its_own_defaults(tmp_path):
    engine = build_engine(Settings(), tmp_path, "anthropic")
    assert engine.model == type(engine).default_model and engine.config.base_url == ""


def test_the_cache_key_is_stable_per_folder_and_reveals_nothing_of_it(tmp_path, monkeypatch):
    folder = tmp_path / "Rosie bakery"
    folder.mkdir()
    monkeypatch.chdir(tmp_path)
    key = cache_key(folder)
    assert key == cache_key(str(folder) + os.sep) == cache_key(Path("Rosie bakery"))
    assert key == cache_key(tmp_path / "x" / ".." / "Rosie bakery")
    assert key == build_engine(Settings(), folder).config.cache_key
    assert key != cache_key(tmp_path)
    assert "Rosie" not in key and "bakery" not in key and key.startswith("harness-desk-")


def test_an_unknown_engine_is_one_sentence_naming_the_choices(tmp_path):
    with pytest.raises(UsageError) as caught:
        build_engine(Settings(), tmp_path, "gpt-17")
    message = caught.value.message
    assert "gpt-17" in message and "demo" in message and message.endswith(".")
    assert "\n" not in message


# -- readiness -----------------------------------------------------------------------------

def test_the_demo_engine_is_ready():
    ready = engine_readiness("demo", Settings())
    assert ready.ready and "offline" in ready.message


def test_an_unknown_engine_is_not_ready_and_says_why():
    ready = engine_readiness("gpt-17", Settings())
    assert not ready.ready and "gpt-17" in ready.message


def test_a_keyed_engine_without_a_key_says_how_to_add_one():
    ready = engine_readiness("anthropic", Settings(), timeout_s=5.0)
    assert not ready.ready
    assert ready.message == ("There is no Claude API key yet: paste yours in Engine settings, "
                             "or set ANTHROPIC_API_KEY.")
    assert ready.reason == "no_key"


@pytest.fixture
def silent_server():
    """A TCP port on 127.0.0.1 that accepts connections and never says a word."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept():
        listener.settimeout(0.02)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            accepted.append(conn)  # held open, never read from, never answered

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1], accepted
    stop.set()
    thread.join(2)
    for conn in accepted:
        conn.close()
    listener.close()


def test_a_server_that_never_answers_is_not_ready_within_the_timeout(silent_server):
    import openai  # noqa: F401  loaded first, so the check spends its second on the server

    port, accepted = silent_server
    settings = local_settings(base_url=f"http://127.0.0.1:{port}/v1")
    start = time.monotonic()
    ready = engine_readiness("local", settings, timeout_s=1.0)
    took = time.monotonic() - start
    assert not ready.ready
    assert took < 2.0, f"the check took {took:.1f} s with a 1 s timeout"
    # It was the server's silence it gave up on: the check's connection is there, unanswered.
    deadline = time.monotonic() + 5
    while not accepted and time.monotonic() < deadline:
        time.sleep(0.02)
    assert accepted, "the check never reached the server"
    assert f"did not answer within 1 second at http://127.0.0.1:{port}/v1." in ready.message
    assert ("Check that your local server (Ollama, LM Studio, llama.cpp's llama-server or "
            "another) is running there and has finished loading") in ready.message


# -- choices -------------------------------------------------------------------------------

def test_the_choices_list_every_engine_demo_first_with_what_each_needs():
    choices = {c.id: c for c in engine_choices()}
    assert list(choices)[:4] == ["demo", "anthropic", "openai", "local"]
    assert choices["demo"] == EngineChoice("demo", "Demo (offline, no AI)", False, False,
                                           "scripted")
    assert choices["anthropic"].needs_key and choices["openai"].needs_key
    assert not choices["local"].needs_key and choices["local"].is_ai
    assert choices["anthropic"].default_model and choices["openai"].default_model


def test_each_engine_class_says_what_its_catalog_entry_says():
    """The window's dropdown reads the catalog without loading an engine; the classes the
    registry builds must agree with it."""
    from app.engines.catalog import CATALOG
    from app.engines.registry import engine_class

    for entry in CATALOG:
        cls = engine_class(entry.id)
        assert (cls.id, cls.label, cls.is_ai, cls.needs_key) == \
            (entry.id, entry.label, entry.is_ai, entry.needs_key), entry.id


def test_the_catalog_loads_nothing_heavy():
    code = ("import sys\n"
            "import app.engines.catalog\n"
            "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('anthropic', 'openai', 'httpx', 'httpx2', 'keyring', 'PySide6', 'pydantic'))\n"
            "assert not heavy, heavy\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(REPO)), timeout=60)
    assert done.returncode == 0, done.stderr


def test_listing_the_choices_loads_no_ai_sdk_and_no_keychain():
    code = ("import sys\n"
            "from app.engines.setup import engine_choices\n"
            "assert len(engine_choices()) >= 4\n"
            "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
            "('anthropic', 'openai', 'httpx', 'httpx2', 'keyring', 'PySide6'))\n"
            "assert not heavy, heavy\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(REPO)), timeout=60)
    assert done.returncode == 0, done.stderr
