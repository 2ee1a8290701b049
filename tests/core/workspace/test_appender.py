"""events.jsonl kept open while a run runs (issue 23): every line whole and with the OS at
once, one open for the run, a deleted file or a torn last line handled as append_jsonl did."""

from __future__ import annotations

import builtins
import os

from app.core.engine.calls import _PromptChars
from app.core.engine.conversation import Message, ToolCall, ToolResult
from app.core.workspace.files import JsonlAppender, read_jsonl
from app.core.run.loop import Harness
from app.core.tools.toolbox import TOOL_SPECS
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits


def test_lines_reach_the_file_at_once_through_one_open(tmp_path, monkeypatch):
    path = tmp_path / "runs" / "r" / "events.jsonl"
    opened: list[str] = []
    real_open = builtins.open

    def counting_open(file, *args, **kw):
        opened.append(str(file))
        return real_open(file, *args, **kw)

    monkeypatch.setattr(builtins, "open", counting_open)
    appender = JsonlAppender(path)
    for n in range(5):
        appender.append({"n": n, "text": "ünïcode"}, sync=n == 4)
        assert [obj["n"] for obj in read_jsonl(path)] == list(range(n + 1))  # before close
    appender.close()
    assert opened.count(str(path)) == 1  # the writer opened it once (reads use io.open)


def test_a_deleted_file_or_a_torn_line_is_met_as_append_jsonl_met_them(tmp_path):
    path = tmp_path / "events.jsonl"
    path.write_bytes(b'{"n": 0}\n{"n": 1, "cut')  # an earlier writer died mid-line
    with JsonlAppender(path) as appender:
        appender.append({"n": 2})
        assert [obj["n"] for obj in read_jsonl(path)] == [0, 2]
        os.remove(path)  # the folder cleared by hand mid-run
        appender.append({"n": 3})
        assert [obj["n"] for obj in read_jsonl(path)] == [3]
        path.parent.joinpath("gone").mkdir()
    assert appender._fh is None


def test_the_run_closes_its_event_log_when_it_ends(tmp_path):
    ws = board_workspace(tmp_path, "# Plan\n\n- [ ] Write a\n  - Done when: a.md exists\n")
    engine = ScriptedEngine([call("write_file", path="a.md", content="A"),
                             call("complete_task", summary="a", evidence=["a.md"])])
    harness = Harness(ws, engine, fast_limits())
    harness.run()
    assert harness.rec._events._fh is None  # on Windows an open file keeps its folder
    assert harness.rec.status_writer._closed
    kinds = [e["type"] for e in read_jsonl(harness.rec.files.events)]
    assert kinds[0] == "run_started" and kinds[-1] == "run_finished"


def test_the_prompt_size_kept_for_the_run_is_the_size_made_afresh():
    sizes = _PromptChars()
    messages = [Message(role="user", text="Task: the notes.")]
    for n in range(6):
        messages.append(Message(role="assistant", text=f"Reading {n}.", tool_calls=[
            ToolCall(id=f"c{n}", name="read_file", arguments={"path": f"note-{n}.md"})]))
        messages.append(Message(role="user", tool_results=[
            ToolResult(call_id=f"c{n}", name="read_file", content="x" * (100 * n))]))
        assert sizes("system", TOOL_SPECS, messages) == _PromptChars()("system", TOOL_SPECS,
                                                                        messages)
    messages[2].tool_results[0].content = "trimmed"  # what trimming does in place
    assert sizes("system", TOOL_SPECS, messages) == _PromptChars()("system", TOOL_SPECS, messages)
    assert sizes("system", TOOL_SPECS[:3], messages) < sizes("system", TOOL_SPECS, messages)
