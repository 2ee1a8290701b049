"""`harness-desk engines` answers the usual cases without an engine's module (issue 36, point 7):
the quick answers are the engines' own, word for word, and the command loads neither
pydantic nor keyring to give them."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail

from app.core.engine.port import EngineConfig
from app.engines import quick_ready
from app.engines.claude import engine as anthropic_engine
from app.engines.openai import engine as openai_engine
from app.engines.local.engine import OLLAMA_BASE_URL, LocalEngine
from app.engines.quick_ready import KEYED, quick_readiness
from app.engines.registry import create_engine
from tests.engines.conftest import CLAUDE_KEY

REPO = Path(__file__).resolve().parents[2]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_keyed_facts_are_the_engines_own():
    claude, gpt = KEYED["anthropic"], KEYED["openai"]
    assert claude.fallback == anthropic_engine.FALLBACK_MODELS
    assert claude.default_model == anthropic_engine.AnthropicEngine.default_model
    assert claude.default_base_url == anthropic_engine.DEFAULT_BASE_URL
    assert gpt.fallback == openai_engine.OPENAI_FALLBACK_MODELS
    assert gpt.default_model == openai_engine.OpenAIEngine.default_model
    assert gpt.default_base_url == openai_engine.OPENAI_BASE_URL
    assert quick_ready.OLLAMA_BASE_URL == OLLAMA_BASE_URL


@pytest.mark.parametrize("engine_id", ["demo", "anthropic", "openai"])
@pytest.mark.parametrize("keychain", ["empty", "none"])
def test_the_quick_answer_is_the_engines_own(engine_id, keychain):
    if keychain == "none":
        keyring.set_keyring(fail.Keyring())  # the conftest puts the memory keychain back
    quick = quick_readiness(engine_id)
    assert quick is not None
    assert quick == create_engine(engine_id).availability()


def test_a_saved_model_and_address_are_named_as_the_engine_names_them():
    quick = quick_readiness("openai", "gpt-5.5", "https://proxy.example/v1/")
    full = create_engine("openai", EngineConfig(model="gpt-5.5",
                                                base_url="https://proxy.example/v1/"))
    assert quick == full.availability()
    assert quick.facts == {"url": "https://proxy.example/v1", "model": "gpt-5.5"}


def test_a_key_leaves_the_answer_to_the_engine(monkeypatch, memory_keychain):
    memory_keychain.set_password("harness-desk", "anthropic", CLAUDE_KEY)
    assert quick_readiness("anthropic") is None
    monkeypatch.setenv("OPENAI_API_KEY", "sk-proj-FromTheEnvironment00000000000000")
    assert quick_readiness("openai") is None


def test_a_local_server_that_is_not_running_is_said_as_the_engine_says_it():
    url = f"http://127.0.0.1:{closed_port()}/v1"
    quick = quick_readiness("local", "", url + "/")
    assert quick is not None and not quick.ready
    assert quick == LocalEngine(EngineConfig(base_url=url)).availability()
    assert quick.message.startswith(f"Nothing is answering at {url}. Start your local server")


def test_a_local_server_that_answers_is_left_to_the_engine():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        url = f"http://127.0.0.1:{server.getsockname()[1]}/v1"
        assert quick_readiness("local", "", url) is None
    assert quick_readiness("no-such-engine") is None


# Runs `harness-desk engines` as a person does and lists what it loaded.
LOADED = r"""
import sys
from app.cli import main
rc = main(["engines", *sys.argv[1:]])
heavy = ("pydantic", "keyring", "app.core.engine.conversation", "app.core.settings",
         "app.engines.claude.engine", "app.engines.openai.engine", "app.engines.local.engine",
         "app.engines.demo.engine", "multiprocessing", "concurrent")
print("loaded:", ",".join(sorted(m for m in sys.modules if m.split(".")[0] in heavy or m in heavy)))
sys.exit(rc)
"""


def _engines(tmp_path: Path, *args: str, settings: dict | None = None,
             dbus: str | None = None) -> subprocess.CompletedProcess:
    config = tmp_path / "config"
    config.mkdir(exist_ok=True)
    local = {"local": {"base_url": f"http://127.0.0.1:{closed_port()}/v1"}}
    (config / "settings.json").write_text(json.dumps(
        settings if settings is not None else {"engines": local}), encoding="utf-8")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ANTHROPIC_", "OPENAI_", "PYTHON_KEYRING", "DBUS_"))}
    env.update(HARNESS_DESK_CONFIG_DIR=str(config), PYTHONPATH=str(REPO),
               XDG_CONFIG_HOME=str(tmp_path / "xdg"), XDG_RUNTIME_DIR=str(tmp_path))
    if dbus:
        env["DBUS_SESSION_BUS_ADDRESS"] = dbus
    return subprocess.run([sys.executable, "-c", LOADED, *args], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=60)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the D-Bus case is Linux's")
def test_the_command_loads_neither_pydantic_nor_keyring_for_the_usual_answers(tmp_path):
    done = _engines(tmp_path, "--json")
    assert done.returncode == 0, done.stderr
    printed, loaded = done.stdout.split("loaded:")
    assert loaded.strip() == ""
    answers = {a["id"]: a for a in json.loads(printed)}
    assert answers["demo"]["ready"] and answers["demo"]["models"] == ["scripted"]
    assert "no keychain to keep one in: set ANTHROPIC_API_KEY" in answers["anthropic"]["message"]
    assert answers["openai"]["models"] == list(openai_engine.OPENAI_FALLBACK_MODELS)
    assert answers["local"]["message"].startswith("Nothing is answering at http://127.0.0.1:")


def test_a_damaged_settings_file_is_read_and_set_aside_as_everywhere(tmp_path):
    done = _engines(tmp_path, settings={"engines": {"local": {"base_url": 42}}})
    assert done.returncode == 0, done.stderr
    assert "local      not ready" in done.stdout
    assert (tmp_path / "config" / "settings.damaged.json").exists()
    assert "pydantic" in done.stdout.split("loaded:")[1]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the D-Bus case is Linux's")
def test_with_a_dbus_session_only_the_secret_service_backend_is_loaded(tmp_path):
    # A bus address nothing listens at: the Secret Service backend is tried, found unusable,
    # and keyring's own search (its fail backend here) has the last word.
    done = _engines(tmp_path, dbus=f"unix:path={tmp_path / 'no-bus'}")
    assert done.returncode == 0, done.stderr
    assert "no keychain to keep one in: set OPENAI_API_KEY" in done.stdout
    assert "keyring.backends.SecretService" in done.stdout.split("loaded:")[1]
