"""A scripted engine for tests: a real Engine whose turns come from a list, not a model."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path
from typing import Callable, Union

from app.core.engine.conversation import Message, ModelTurn, ToolCall, ToolSpec, Usage
from app.core.settings import Limits
from app.core.workspace.workspace import Workspace
from app.core.engine.port import Availability, Engine, EngineError

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "resources" / "demo-workspace"

# A script item: a turn, an error to raise, or a function of the messages returning either.
Item = Union[ModelTurn, EngineError, Callable[[list[Message]], Union[ModelTurn, EngineError]]]


def call(name: str, **arguments) -> ModelTurn:
    return ModelTurn(tool_calls=[ToolCall(id=f"c-{name}", name=name, arguments=arguments)],
                     usage=Usage(input_tokens=100, output_tokens=20))


def calls(*pairs: tuple[str, dict]) -> ModelTurn:
    return ModelTurn(tool_calls=[ToolCall(id=f"c{i}", name=n, arguments=a)
                                 for i, (n, a) in enumerate(pairs)],
                     usage=Usage(input_tokens=100, output_tokens=20))


def text(words: str) -> ModelTurn:
    return ModelTurn(text=words, usage=Usage(input_tokens=100, output_tokens=20))


class ScriptedEngine(Engine):
    """Plays `script` in order; when it runs out, repeats `then` (default: a text reply).

    Records every request exactly as sent (system, tools JSON, messages) for assertions.
    A turn's text is streamed to `on_text` in pieces of `chunk` characters first, as a real
    engine streams its reply.
    """

    id = "scripted"
    label = "Scripted test engine"
    is_ai = True
    default_model = "script-1"
    chunk = 4

    def __init__(self, script: list[Item], then: Item | None = None,
                 price_per_token: float = 0.0, on_turn: Callable[[int], None] | None = None):
        super().__init__()
        self.script = list(script)
        self.then = then if then is not None else text("I am thinking about it.")
        self.price_per_token = price_per_token
        self.on_turn = on_turn
        self.requests: list[dict] = []
        self.calls: list[dict] = []  # the per-call arguments, one entry per turn

    def availability(self) -> Availability:
        return Availability(True, "Scripted.")

    def cost_usd(self, usage: Usage) -> float:
        return usage.total_tokens * self.price_per_token

    def turn(self, system: str, tools: list[ToolSpec], messages: list[Message], *,
             cancel: threading.Event | None = None, on_text=None,
             max_output_tokens: int | None = None) -> ModelTurn:
        self.calls.append({"max_output_tokens": max_output_tokens})
        self.requests.append({
            "system": system,
            "tools": json.dumps([t.model_dump() for t in tools], sort_keys=False),
            "messages": [m.model_copy(deep=True) for m in messages],
        })
        if self.on_turn:
            self.on_turn(len(self.requests))
        item = self.script.pop(0) if self.script else self.then
        if callable(item) and not isinstance(item, (ModelTurn, EngineError)):
            item = item(messages)
        if isinstance(item, EngineError):
            raise item
        if on_text is not None:
            for i in range(0, len(item.text), self.chunk):
                on_text(item.text[i:i + self.chunk])
        return item


def demo_copy(tmp_path: Path, name: str = "ws") -> Workspace:
    target = tmp_path / name
    shutil.copytree(DEMO, target)
    return Workspace(target)


def board_workspace(tmp_path: Path, board: str, files: dict[str, str] | None = None) -> Workspace:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "TASKS.md").write_text(board, encoding="utf-8")
    for rel, content in (files or {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(content, encoding="utf-8")
    return Workspace(root)


def fast_limits(**overrides) -> Limits:
    base = dict(retry_base_s=0.01, max_retry_wait_s=5.0)
    base.update(overrides)
    return Limits(**base)
