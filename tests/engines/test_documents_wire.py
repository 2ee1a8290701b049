"""A document's rendering reaches each service as tool-result text in its own wire format,
and the ten tools (set_cells with its object schema) go out as the services take them."""

from __future__ import annotations

import pytest

from app.core.engine.conversation import Message, ToolCall, ToolResult
from app.core.engine.port import EngineConfig
from app.core.tools.specs import TOOL_SPECS
from app.core.tools.toolbox import ToolBox
from app.core.undo.undo import BlobStore, RoundChanges
from app.engines.claude.engine import AnthropicEngine
from app.engines.openai.engine import OpenAIEngine
from tests.document_files import brief_docx, prices_xlsx
from tests.engines.conftest import CLAUDE_KEY, OPENAI_KEY
from tests.engines.fake_servers import claude_stream, oa_message, oa_stream, text_block

SYSTEM = "You are the agent of Harness Desk. Work only through the tools."


def _read(tmp_path, name):
    ws = tmp_path / "ws"
    ws.mkdir(exist_ok=True)
    (ws / "TASKS.md").write_text("# W\n\n- [ ] Read\n")
    (brief_docx if name.endswith(".docx") else prices_xlsx)(ws / name)
    changes = RoundChanges(ws, BlobStore(ws / ".harness"), ws / ".harness/u/1.json", 1)
    out = ToolBox(ws, ws / "TASKS.md", "Read", changes).call("read_file", {"path": name})
    assert not out.is_error
    return out.content


def _history(call_id, content):
    return [Message(role="user", text="Task: read the brief"),
            Message(role="assistant", text="", tool_calls=[
                ToolCall(id=call_id, name="read_file", arguments={"path": "brief.docx"})]),
            Message(role="user", text="", tool_results=[
                ToolResult(call_id=call_id, name="read_file", content=content)])]


@pytest.mark.parametrize("name", ["brief.docx", "prices.xlsx"])
def test_claude_gets_the_rendering_as_a_tool_result(tmp_path, server, monkeypatch, name):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    content = _read(tmp_path, name)
    server.push("/v1/messages", claude_stream([text_block("ok")]))
    engine = AnthropicEngine(EngineConfig(model="claude-sonnet-5-5", base_url=server.url,
                                          timeout_s=5))
    engine.turn(SYSTEM, TOOL_SPECS, _history("toolu_01", content))
    body = server.requests[0].json
    result = body["messages"][2]["content"][0]
    assert result["type"] == "tool_result" and result["content"] == content
    assert ("We sell **fresh** bread" in content if name.endswith("docx")
            else "2|Bread|3.5|=B2*1.1\n" in content)
    sent = {t["name"]: t for t in body["tools"]}
    assert sent["set_cells"]["input_schema"]["properties"]["cells"]["type"] == "object"


def test_openai_gets_the_rendering_as_a_function_call_output(tmp_path, server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    content = _read(tmp_path, "brief.docx")
    server.push("/v1/responses", oa_stream([oa_message("ok")]))
    engine = OpenAIEngine(EngineConfig(model="gpt-6.1-sol", base_url=server.url + "/v1",
                                       cache_key="w", timeout_s=5))
    engine.turn(SYSTEM, TOOL_SPECS, _history("call_1", content))
    body = server.requests[0].json
    output = next(i for i in body["input"] if i.get("type") == "function_call_output")
    assert output == {"type": "function_call_output", "call_id": "call_1", "output": content}
    assert "set_cells" in [t["name"] for t in body["tools"]]
