"""Can the local model call tools at all? One tiny forced tool call finds out, where the
server does not say (LM Studio can prompt any model for tools) or speaks for the chat
template only (llama.cpp's /props: SmolLM2-135M, given a template that supports tools,
writes words instead of the call). The verdict is kept for the process."""

from __future__ import annotations

import re
from typing import Any

from app.core.engine.conversation import ToolSpec
from app.core.engine.port import EngineError
from app.engines.deadline import within

PROBED: dict[tuple[str, str], bool | None] = {}  # (base URL, model) -> what the probe found
_THOUGHT = re.compile(r"<think>.*?(</think>|$)", re.S)  # a thinking model's inline thought
_PING = ToolSpec(name="ping", description="Say that you are here.",
                 parameters={"type": "object", "properties": {}})


def probe_tools(engine: Any, timeout_s: float) -> bool | None:
    """Ask `engine`'s model (a LocalEngine) for one tiny forced tool call. True: it made one;
    False: it cannot (the server refused tools, or the model answered in words); None: no
    answer in time, or only thinking before the cap (a thinking model is not judged on a cut
    thought). A probe that finishes after `timeout_s` still records its verdict."""
    key = (engine.base_url(), engine._ensure_model())
    if PROBED.get(key) is not None:
        return PROBED[key]
    # 24 tokens: a call to "ping" fits, and a small model's words show as soon (the fewer
    # tokens, the sooner the verdict on a CPU-only server, within the readiness check).
    # Temperature 0: the question is what the model most likely does, and the verdict must not
    # be a dice roll (sampled, SmolLM2 sometimes starts a JSON object it never finishes, which
    # llama.cpp hides as a partial call: no words and no call, so no verdict; CI saw it).
    request = {"model": engine.model, "max_tokens": 24, "temperature": 0,
               "tools": engine._tools([_PING]),
               "messages": [{"role": "user", "content": "Call the ping tool now."}],
               "tool_choice": "required"}
    found = PROBED  # the table of this call, even if a test swaps the module's for a new one

    def ask() -> bool | None:
        try:
            reply = engine._run(lambda client: client.chat.completions.create(**request))
        except EngineError as exc:
            if "cannot call tools" in exc.message:
                found[key] = False
                return False
            return None
        choice = (reply.choices or [None])[0]
        message = choice.message if choice else None
        if message is not None and message.tool_calls:
            found[key] = True
        elif message is not None and _THOUGHT.sub("", message.content or "").strip():
            found[key] = False  # it wrote words where the call was asked for
        else:
            return None
        return found[key]

    try:
        return within(timeout_s, ask, name="local-probe")
    except TimeoutError:
        return None
