"""The engine interface: check availability, take one model turn, diagnose errors."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable, ClassVar

from app.core.conversation import Message, ModelTurn, ToolSpec, Usage

# Codes an EngineError can carry. The non-retryable ones are also run exit_reasons.
AUTH_FAILED = "auth_failed"
QUOTA_EXHAUSTED = "quota_exhausted"
MODEL_NOT_FOUND = "model_not_found"
ENGINE_UNREACHABLE = "engine_unreachable"
PROMPT_TOO_LONG = "prompt_too_long"
TRANSIENT = "transient"          # 429 rate limit, 5xx, 529, timeouts, dropped connections
STREAM_BROKEN = "stream_broken"  # a stream ended early; nothing from it was run; retryable
BAD_REQUEST = "bad_request"      # our request was refused (400); not retryable


class EngineError(Exception):
    """An engine failure, already diagnosed: a plain sentence, a code, and whether to retry."""

    def __init__(self, message: str, *, code: str, retryable: bool = False,
                 retry_after: float | None = None, action: str = "", details: str = ""):
        super().__init__(message)
        self.message = message
        self.code = code
        self.retryable = retryable
        self.retry_after = retry_after
        self.action = action      # what the person should do, in words
        self.details = details    # technical detail for "Copy details" (already redacted)


@dataclass
class Availability:
    """Whether an engine can run now, and if not, why in plain words."""

    ready: bool
    message: str
    models: list[str] = field(default_factory=list)


@dataclass
class EngineConfig:
    """What a run tells an engine: the model, an optional base URL, the workspace's cache key."""

    model: str = ""
    base_url: str = ""
    cache_key: str = ""            # stable per workspace (OpenAI prompt_cache_key)
    timeout_s: float = 120.0
    extra: dict = field(default_factory=dict)


class Engine:
    """A provider of model turns. Subclasses set the class attributes and implement turn().

    turn() makes exactly one attempt: it never retries (the loop owns the only retry layer)
    and raises EngineError for every failure. `cancel` is set when the person presses Stop;
    an engine that streams checks it between chunks.
    """

    id: ClassVar[str] = ""
    label: ClassVar[str] = ""
    is_ai: ClassVar[bool] = True
    needs_key: ClassVar[bool] = False
    default_model: ClassVar[str] = ""

    def __init__(self, config: EngineConfig | None = None):
        self.config = config or EngineConfig()
        if not self.config.model:
            self.config.model = self.default_model

    @property
    def model(self) -> str:
        return self.config.model

    def availability(self) -> Availability:
        raise NotImplementedError

    def turn(self, system: str, tools: list[ToolSpec], messages: list[Message],
             cancel: threading.Event | None = None,
             on_text: Callable[[str], None] | None = None) -> ModelTurn:
        raise NotImplementedError

    def cost_usd(self, usage: Usage) -> float:
        """What a turn with this usage cost, from the price table (the person can edit it)."""
        from app.engines.prices import cost_usd

        return cost_usd(self.id, self.model, usage)
