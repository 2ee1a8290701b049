"""The engines the app offers, as plain facts: id, name, whether it is an AI and needs a key,
and where its class lives. Reading them loads no engine, no pydantic and no SDK, so the
window builds its dropdown from them right after its first paint; app.engines.registry
builds the engines from the same entries (tests/engines/test_setup.py holds each class to
its entry)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EngineEntry:
    id: str
    label: str
    is_ai: bool
    needs_key: bool
    target: str  # "module:Class", imported only when the engine is built


CATALOG: tuple[EngineEntry, ...] = (
    EngineEntry("demo", "Demo (offline, no AI)", False, False, "app.engines.demo.engine:DemoEngine"),
    EngineEntry("anthropic", "Claude (Anthropic)", True, True,
                "app.engines.claude.engine:AnthropicEngine"),
    EngineEntry("openai", "OpenAI", True, True, "app.engines.openai.engine:OpenAIEngine"),
    EngineEntry("local", "Local (Ollama, LM Studio)", True, False,
                "app.engines.local.engine:LocalEngine"),
)
