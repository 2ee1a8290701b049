"""Failures below HTTP read as what they are: a bad address is final, not a dropped line."""

from __future__ import annotations

import pytest

from app.core.engine.conversation import Message
from app.engines.claude.engine import AnthropicEngine
from app.core.engine.port import ENGINE_UNREACHABLE, EngineConfig, EngineError
from app.engines.local.engine import LocalEngine

FIRST = [Message(role="user", text="hello")]


@pytest.mark.parametrize("make", [
    lambda: AnthropicEngine(EngineConfig(base_url="localhost:9999", timeout_s=2)),
    lambda: LocalEngine(EngineConfig(model="m", base_url="localhost:11434/v1", timeout_s=2)),
])
def test_a_base_url_without_a_scheme_is_final_and_says_how_to_fix_it(make, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-0000000000000000")
    with pytest.raises(EngineError) as caught:
        make().turn("system", [], FIRST)
    assert caught.value.code == ENGINE_UNREACHABLE and not caught.value.retryable
    assert "http://" in caught.value.message


BAD_ADDRESSES = ["http://127.0.0.1:abc/v1", "http://[::1", "localhost:11434/v1"]


@pytest.mark.parametrize("engine_id", ["anthropic", "openai", "local"])
@pytest.mark.parametrize("url", BAD_ADDRESSES)
def test_a_base_url_that_is_not_a_web_address_is_one_sentence(engine_id, url, monkeypatch):
    from app.core.engine.conversation import Message
    from app.core.engine.port import ENGINE_UNREACHABLE, EngineConfig, EngineError
    from app.engines.registry import create_engine

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-api03-TestKeyForBadAddress0123456789")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-proj-TestKeyForBadAddress0123456789")
    engine = create_engine(engine_id, EngineConfig(model="m", base_url=url, timeout_s=2))
    state = engine.availability()
    assert not state.ready and "cannot be used" in state.message
    assert state.reason == "bad_address"
    # Where the person corrects it: the local server's address is in Engine settings; a
    # cloud engine's comes from its SDK's variable or --base-url (no field for it there).
    where = {"anthropic": "ANTHROPIC_BASE_URL", "openai": "OPENAI_BASE_URL",
             "local": "the server address in Engine settings"}[engine_id]
    assert where in state.message
    with pytest.raises(EngineError) as caught:
        engine.turn("s", [], [Message(role="user", text="hi")])
    assert caught.value.code == ENGINE_UNREACHABLE and not caught.value.retryable
    assert caught.value.message.count(". ") <= 1 and "Traceback" not in caught.value.message
