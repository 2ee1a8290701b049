"""Engine settings' "Test connection": which kind of not-ready it is, so the window can say
what to do, within seconds and never raising."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from app.core.settings import EngineSettings, Settings
from app.engines import keys
from app.engines.connection import check_connection, known_models, local_presets
from tests.engines.conftest import CLAUDE_KEY, OPENAI_KEY
from tests.engines.fake_servers import (claude_error, claude_models, free_port, oa_error,
                                        oa_models)

ROOT = Path(__file__).resolve().parents[2]


def at(engine_id: str, url: str, model: str = "") -> Settings:
    return Settings(engines={engine_id: EngineSettings(base_url=url, model=model)})


def test_ready_with_the_engines_own_models(server):
    keys.set_key("anthropic", CLAUDE_KEY)
    server.default("/v1/models", claude_models(["claude-sonnet-5-5", "claude-opus-5"]))
    found = check_connection("anthropic", at("anthropic", server.url, "claude-sonnet-5-5"))
    assert found.verdict == "ready" and found.models == ["claude-sonnet-5-5", "claude-opus-5"]


@pytest.mark.parametrize("engine_id,key,reply", [
    ("anthropic", CLAUDE_KEY, claude_error(401, "authentication_error", "invalid x-api-key")),
    ("openai", OPENAI_KEY, oa_error(401, "Incorrect API key provided", "invalid_request_error",
                                    "invalid_api_key")),
])
def test_a_rejected_key_is_key_rejected_with_the_known_models(server, engine_id, key, reply):
    keys.set_key(engine_id, key)
    server.default("/v1/models", reply)
    url = server.url if engine_id == "anthropic" else server.url + "/v1"
    started = time.monotonic()
    found = check_connection(engine_id, at(engine_id, url))
    assert found.verdict == "key_rejected" and time.monotonic() - started < 5
    assert found.models == known_models(engine_id)
    assert key not in found.detail


def test_no_key_is_no_key(server):
    found = check_connection("openai", at("openai", server.url + "/v1"))
    assert found.verdict == "no_key" and "OPENAI_API_KEY" in found.detail
    assert server.requests == []  # nothing is sent without a key


def test_a_model_the_key_cannot_use_is_no_model(server):
    keys.set_key("openai", OPENAI_KEY)
    server.default("/v1/models", oa_models(["gpt-5.5"]))
    found = check_connection("openai", at("openai", server.url + "/v1", "gpt-nonesuch"))
    assert found.verdict == "no_model" and "gpt-5.5" in found.models


def test_a_closed_port_is_not_running_for_a_local_server():
    started = time.monotonic()
    found = check_connection("local", at("local", f"http://127.0.0.1:{free_port()}/v1"))
    assert found.verdict == "not_running" and time.monotonic() - started < 5


def test_a_local_server_without_that_model_is_no_model(server):
    server.default("/v1/models", oa_models(["qwen3:8b"]))
    found = check_connection("local", at("local", server.url + "/v1", "llama9"))
    assert found.verdict == "no_model" and found.models == ["qwen3:8b"]


def test_the_presets_are_ollama_and_lm_studio():
    assert local_presets() == {"Ollama": "http://localhost:11434/v1",
                               "LM Studio": "http://localhost:1234/v1"}


def test_the_keychain_says_where_a_key_is_stored(memory_keychain):
    assert keys.stored_in("anthropic") == (False, "MemoryKeyring")
    keys.set_key("anthropic", CLAUDE_KEY)
    assert keys.stored_in("anthropic") == (True, "MemoryKeyring")


def test_a_server_that_never_answers_is_no_answer_within_the_time_given(server):
    from tests.engines.fake_servers import Reply

    keys.set_key("openai", OPENAI_KEY)
    server.default("/v1/models", Reply(body={"data": []}, delay_s=6.0))
    started = time.monotonic()
    found = check_connection("openai", at("openai", server.url + "/v1", "gpt-5.5"), timeout_s=2.0)
    assert found.verdict == "no_answer"
    assert time.monotonic() - started < 4.5


@pytest.mark.parametrize("module,engine", [("app.engines.claude.engine:AnthropicEngine",
                                            "anthropic"),
                                           ("app.engines.openai.engine:OpenAIEngine", "openai")])
def test_without_a_key_the_readiness_check_imports_no_sdk(tmp_path, module, engine):
    """"No key" is said at once: the SDK (seconds to import on a loaded computer, inside the
    readiness check's 8 seconds) is imported only once there is a key to use it with."""
    import subprocess
    import sys

    path, name = module.split(":")
    code = (f"import sys; from {path} import {name}; from app.core.engine.port import EngineConfig; "
            f"a = {name}(EngineConfig()).availability(); "
            f"print(a.ready, a.reason, {engine!r} in sys.modules)")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update(HARNESS_DESK_CONFIG_DIR=str(tmp_path), PYTHONPATH=str(ROOT),
               PYTHON_KEYRING_BACKEND="tests.memory_keyring.MemoryKeyring")
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.stdout.split() == ["False", "no_key", "False"], done.stdout + done.stderr
