"""Failures below HTTP read as what they are: a bad address is final, not a dropped line."""

from __future__ import annotations

import pytest

from app.core.conversation import Message
from app.engines.anthropic_engine import AnthropicEngine
from app.core.engine import ENGINE_UNREACHABLE, EngineConfig, EngineError
from app.engines.local_engine import LocalEngine

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
