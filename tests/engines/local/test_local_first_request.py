"""The Local engine's first request goes out before the openai SDK is loaded (_first_turn,
compat.post_early), and is in every other way the request, the reply and the error the SDK's
own path gives."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app.core.engine.conversation import Message, ToolSpec
from app.core.engine.port import EngineConfig, EngineError
from app.engines import sdk_import
from app.engines.local.engine import LocalEngine
from app.engines.openai import sdk as openai_sdk
from app.engines.raw_stream import compact_json
from tests.engines.fake_servers import (Reply, chat_stream, free_port, llama_context_rule,
                                        llama_props, oa_error, oa_models)

REPO = Path(__file__).resolve().parents[3]
CHAT = "/v1/chat/completions"
SYSTEM = "You are the agent of Harness Desk. Écris « les notes » — 笔记."
TOOLS = [ToolSpec(name="read_file", description="Read a file.",
                  parameters={"type": "object", "properties": {"path": {"type": ["string", "null"]}},
                              "required": ["path"]})]
FIRST = [Message(role="user", text="Task: summarise notes.md (½ page, 3.5 pages at most)")]


def _engine(server) -> LocalEngine:
    return LocalEngine(EngineConfig(model="qwen3:8b", base_url=server.url + "/v1", timeout_s=5))


def _turn(server, early: bool, monkeypatch) -> tuple[object, bytes]:
    """One first turn with the SDK taken as not loaded (`early`) or loaded; what it gave
    (the turn or the error) and the bytes the server got."""
    monkeypatch.setattr(sdk_import, "imported", lambda package: not early)
    engine = _engine(server)
    seen_before_sdk: list[int] = []
    kept = engine._turn_client

    def client():
        seen_before_sdk.append(len(server.bodies(CHAT)))
        return kept()

    monkeypatch.setattr(engine, "_turn_client", client)
    before = len(server.requests)
    try:
        got: object = engine.turn(SYSTEM, TOOLS, FIRST)
    except EngineError as err:
        got = (err.code, err.message, err.retryable, err.remedy)
    sent = [r for r in server.requests[before:] if r.path == CHAT]
    if early and sent:
        assert seen_before_sdk and seen_before_sdk[0] == len(server.bodies(CHAT)), \
            "the request is on the server before the SDK's client is asked for"
    return got, sent[0].raw if sent else b""


def _shape(turn: object) -> object:
    if isinstance(turn, tuple):
        return turn
    return (turn.text, [(c.id, c.name, c.arguments) for c in turn.tool_calls],
            turn.usage.model_dump(), turn.stop_reason)


def test_the_first_request_is_sent_before_the_sdk_and_is_the_same_request_and_reply(
        server, monkeypatch):
    reply = chat_stream("Reading it.", [("call_r1", "read_file", {"path": "notes.md"})],
                        usage={"prompt_tokens": 900, "completion_tokens": 20, "total_tokens": 920})
    server.push(CHAT, reply, reply)
    early, early_bytes = _turn(server, True, monkeypatch)
    usual, usual_bytes = _turn(server, False, monkeypatch)
    assert _shape(early) == _shape(usual) and _shape(early)[0] == "Reading it."
    assert early_bytes == usual_bytes and b"\\u" not in early_bytes  # the SDK's bytes exactly
    first = next(r for r in server.requests if r.path == CHAT)
    assert first.headers["authorization"] == "Bearer local"
    assert first.headers["content-type"] == "application/json"


@pytest.mark.parametrize("answer", [
    oa_error(404, 'model "qwen3:8b" not found, try pulling it first', "not_found"),
    oa_error(400, "registry.ollama.ai/library/qwen3:8b does not support tools", "api_error"),
    oa_error(401, "bad key", "authentication_error"),
    oa_error(503, "busy loading the model", "server_error", headers={"retry-after": "2"}),
    Reply(status=500, body="<html>proxy error</html>"),
], ids=["no-model", "no-tools", "unauthorized", "busy", "not-json"])
def test_an_error_answer_to_the_first_request_is_diagnosed_as_the_sdk_path_does(
        server, monkeypatch, answer):
    server.push(CHAT, answer, answer)
    early, _ = _turn(server, True, monkeypatch)
    usual, _ = _turn(server, False, monkeypatch)
    assert isinstance(early, tuple) and early == usual


def test_a_context_overflow_answer_is_diagnosed_alike(server, monkeypatch):
    server.default("/props", llama_props(True, 8192, "qwen3:8b"))
    server.default("/v1/models", oa_models(["qwen3:8b"]))
    server.rules[CHAT] = llama_context_rule(40)
    server.default(CHAT, chat_stream("never"))
    early, _ = _turn(server, True, monkeypatch)
    usual, _ = _turn(server, False, monkeypatch)
    assert isinstance(early, tuple) and early == usual and early[3]  # with what to change


def test_no_server_there_is_the_same_sentence(monkeypatch):
    class Gone:
        def __init__(self):
            self.url, self.requests = f"http://127.0.0.1:{free_port()}", []

        def bodies(self, path):
            return []

    gone = Gone()
    early, _ = _turn(gone, True, monkeypatch)
    usual, _ = _turn(gone, False, monkeypatch)
    assert isinstance(early, tuple) and early == usual and "127.0.0.1" in early[1]


def test_the_plain_serializer_writes_the_sdks_bytes():
    openapi_dumps = openai_sdk.serializer()  # the SDK's own, through its adapter

    value = {"model": "m", "messages": [{"role": "user", "content": "Écris « ça » 笔记 \n\t\"q\"",
                                         "n": [1, 2.5, -0.0, 1e21, None, True, False]}],
             "stream": True, "nested": {"a": {"b": []}, "emoji": "🙂"}}
    assert compact_json(value) == openapi_dumps(value)
    with pytest.raises(ValueError):
        compact_json({"x": float("nan")})  # as the SDK refuses it


def test_a_first_request_goes_out_before_the_sdk_is_loaded_in_a_fresh_process():
    """The real thing, in a fresh interpreter: the server notes whether the process that
    sent it had the SDK loaded when the request arrived (the server runs in that process)."""
    code = f"""
import sys
from tests.engines.fake_servers import FakeServer, chat_stream, llama_props, oa_models
from app.core.engine.conversation import Message, ToolSpec
from app.core.engine.port import EngineConfig
from app.engines.local.engine import LocalEngine
from app.engines.openai import sdk as openai_sdk
server = FakeServer()
server.default("/props", llama_props(True, 8192, "m"))
server.default("/v1/models", oa_models(["m"]))
loaded = []
def rule(request, reply):
    loaded.append("openai" in sys.modules)
    return reply
server.rules["{CHAT}"] = rule
server.push("{CHAT}", chat_stream("one"), chat_stream("two"))
engine = LocalEngine(EngineConfig(model="m", base_url=server.url + "/v1", timeout_s=5))
tools = [ToolSpec(name="t", description="d", parameters={{"type": "object"}})]
first = engine.turn("system", tools, [Message(role="user", text="go")])
second = engine.turn("system", tools, [Message(role="user", text="go")])
server.close()
print(loaded, first.text, second.text, "openai" in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["[False,", "True]", "one", "two", "True"]
