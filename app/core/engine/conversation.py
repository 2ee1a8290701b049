"""Engine-neutral conversation types: messages, tool calls, tool results, tool specs, usage."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import Field

from app.core.tools.pictures import Picture
from app.core.records.model import Record
from app.core.web.types import WebActivity


_ASSIGNED = [0]


def assignments() -> int:
    """How many field assignments the messages, tool calls and tool results of this process
    have had: unchanged, a conversation an engine sent before is unchanged but for what was
    added, and engines/wire_cache.py need not compare every message to know it."""
    return _ASSIGNED[0]


class _Counted(Record):
    def __setattr__(self, name: str, value: Any) -> None:
        _ASSIGNED[0] += 1
        super().__setattr__(name, value)


class ToolSpec(Record):
    """One tool offered to the model. `parameters` is a JSON Schema object."""

    name: str
    description: str
    parameters: dict[str, Any]


class ToolCall(_Counted):
    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)

    def signature(self) -> str:
        """Name plus canonical arguments: two calls with the same signature do the same thing."""
        return self.name + json.dumps(self.arguments, sort_keys=True, ensure_ascii=False)


class ToolResult(_Counted):
    call_id: str
    name: str
    content: str
    is_error: bool = False
    # Pictures the tool showed (read_file on a picture); `content` then says what they are.
    # Engines send them with core.pictures.parts_for, which words what is not sent.
    pictures: list[Picture] = Field(default_factory=list)


class Message(_Counted):
    """One turn of the conversation.

    A user message carries text (the progress report or a notice) and/or the results of the
    previous assistant turn's tool calls. An assistant message carries text and/or tool calls.
    """

    role: Literal["user", "assistant"]
    text: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_results: list[ToolResult] = Field(default_factory=list)
    # An assistant message's ModelTurn.record, kept verbatim for the engine that made it.
    record: Any = None


class Usage(Record):
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    def __add__(self, other: "Usage") -> "Usage":
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_read_tokens=self.cache_read_tokens + other.cache_read_tokens,
            cache_write_tokens=self.cache_write_tokens + other.cache_write_tokens,
        )

    @property
    def total_tokens(self) -> int:
        return (self.input_tokens + self.output_tokens
                + self.cache_read_tokens + self.cache_write_tokens)


class ModelTurn(Record):
    """What one model call returned.

    `model` is the model that really answered (the service says; a local server may answer
    with another than was asked). `cost_usd` is filled in by the retry layer from the price
    table. `record` is the engine's own exact copy of the reply (see core/engine/port.py): opaque
    to the core, handed back to the engine verbatim on the next step.
    """

    text: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)
    model: str = ""
    stop_reason: str = ""
    cost_usd: float = 0.0
    record: Any = None
    web: WebActivity | None = None  # what the reply looked up on the web
