"""Records for the lessons' tests, made by real runs: the Claude engine through the official SDK
against the loopback Messages API server, playing an agent that stalls, is refused, or writes
a file the person then undoes."""

from __future__ import annotations

from pathlib import Path

from app.core.engine.port import EngineConfig
from app.core.run.loop import Harness
from app.core.workspace.workspace import Workspace
from app.engines.claude.engine import AnthropicEngine
from tests.engines.fake_servers import (FakeServer, Reply, claude_stream, claude_usage,
                                        text_block, tool_use)
from tests.scripted import fast_limits

MESSAGES = "/v1/messages"
KEY = "sk-ant-api03-LessonsTestKey0123456789abcdef"
BOARD = "# Shop\n\n- [ ] Write the summary\n  - Done when: summary.md lists the three points\n"
_n = 0


def tool(name: str, **arguments) -> Reply:
    global _n
    _n += 1
    return claude_stream([tool_use(f"toolu_lesson_{_n}", name, arguments)],
                         usage=claude_usage(input_tokens=300, output_tokens=20))


def words(text: str) -> Reply:
    return claude_stream([text_block(text)], usage=claude_usage(input_tokens=300,
                                                                 output_tokens=20))


def workspace(root: Path, board: str = BOARD) -> Workspace:
    root.mkdir(parents=True, exist_ok=True)
    (root / "TASKS.md").write_text(board, encoding="utf-8")
    (root / "notes.md").write_text("Three points: fresh, local, kind.\n", encoding="utf-8")
    return Workspace(root)


def claude_run(ws: Workspace, server: FakeServer, replies: list[Reply], **limits):
    """One run of the real loop with the Claude engine; the server plays `replies`, then
    words without a tool call."""
    server.queues.pop(MESSAGES, None)
    server.push(MESSAGES, *replies)
    server.default(MESSAGES, words("Let me think about it."))
    engine = AnthropicEngine(EngineConfig(model="claude-sonnet-5-5", base_url=server.url,
                                          timeout_s=5))
    limits.setdefault("max_steps", 8)
    return Harness(ws, engine, fast_limits(**limits)).run()


def stalled_on_notes() -> list[Reply]:
    """Two rounds that read notes.md, then only talk: nudged twice each, nothing done."""
    one = [tool("read_file", path="notes.md"), words("I see the notes."), words("Still thinking."),
           words("Hmm.")]
    return one + [tool("read_file", path="notes.md"), words("The notes again."),
                  words("Thinking."), words("Hmm.")]


def refused_then_done(path: str = "../outside/secret.txt") -> list[Reply]:
    """A read the harness refuses, then the task done properly."""
    return [tool("read_file", path=path),
            tool("write_file", path="summary.md", content="- fresh\n- local\n- kind\n"),
            tool("complete_task", summary="Wrote summary.md", evidence=["summary.md"])]
