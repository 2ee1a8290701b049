"""Adding an accepted line to AGENTS.md: the person's bytes kept, the cap held, bad files refused
in one sentence; and the optional AI rewording through the Claude engine on the loopback server."""

from __future__ import annotations

import json
import os

import keyring
import pytest

from app.core.engine.port import EngineConfig, EngineError
from app.core.errors import UsageError
from app.core.run.instructions import MAX_INSTRUCTIONS_CHARS, read_standing_instructions
from app.core.lessons.agents_file import InstructionsFull, add_line, with_line
from app.core.lessons.lessons import find_lessons
from app.core.lessons.reword import parse_lines, reword_lessons
from app.engines import keys
from app.engines.claude.engine import AnthropicEngine
from tests.engines.fake_servers import FakeServer, claude_error, claude_stream, text_block
from tests.lesson_runs import KEY, MESSAGES, claude_run, stalled_on_notes, workspace
from tests.memory_keyring import MemoryKeyring

LINE = "Ask me before changing prices.csv: I undid the changes made to it."


@pytest.mark.parametrize("before, after", [
    (b"", b"- L\n"),
    (b"Rules\n", b"Rules\n- L\n"),
    (b"Rules", b"Rules\n- L\n"),
    (b"a\r\nb", b"a\r\nb\r\n- L\r\n"),
    (b"a\rb\r", b"a\rb\r- L\r"),
    (b"\xef\xbb\xbf", b"\xef\xbb\xbf- L\n"),
    (b"\xef\xbb\xbf# R\r\n\r\n", b"\xef\xbb\xbf# R\r\n\r\n- L\r\n"),
])
def test_the_line_is_added_in_the_files_own_line_endings(before, after):
    assert with_line(before, "L") == after


def test_a_missing_agents_md_is_created_and_the_line_is_not_added_twice(tmp_path):
    assert add_line(tmp_path, LINE)
    assert (tmp_path / "AGENTS.md").read_text(encoding="utf-8") == f"- {LINE}\n"
    assert not add_line(tmp_path, LINE)
    assert (tmp_path / "AGENTS.md").read_text(encoding="utf-8") == f"- {LINE}\n"
    assert read_standing_instructions(tmp_path).text == f"- {LINE}\n"


def test_past_the_cap_it_is_refused_in_one_sentence_and_nothing_changes(tmp_path):
    full = ("x" * 99 + "\n") * (MAX_INSTRUCTIONS_CHARS // 100 - 1) + "é" * 60 + "\n"
    (tmp_path / "AGENTS.md").write_text(full, encoding="utf-8")
    before = (tmp_path / "AGENTS.md").read_bytes()
    with pytest.raises(InstructionsFull) as caught:
        add_line(tmp_path, LINE)
    assert caught.value.message.startswith("AGENTS.md would be 4,0")
    assert "4,000" in caught.value.message and caught.value.message.count(".") <= 4
    assert (tmp_path / "AGENTS.md").read_bytes() == before
    short = LINE[:30]
    assert add_line(tmp_path, short[: MAX_INSTRUCTIONS_CHARS - len(full) - 3])  # a short one still fits
    assert len((tmp_path / "AGENTS.md").read_text(encoding="utf-8")) <= MAX_INSTRUCTIONS_CHARS


def test_a_file_that_is_not_utf8_or_leads_outside_is_refused(tmp_path):
    (tmp_path / "AGENTS.md").write_bytes(b"caf\xe9\n")
    with pytest.raises(UsageError, match="not UTF-8"):
        add_line(tmp_path, LINE)
    assert (tmp_path / "AGENTS.md").read_bytes() == b"caf\xe9\n"
    (tmp_path / "AGENTS.md").unlink()
    outside = tmp_path.parent / f"{tmp_path.name}-outside.md"
    outside.write_text("theirs\n", encoding="utf-8")
    os.symlink(outside, tmp_path / "AGENTS.md")
    with pytest.raises(UsageError, match="Nothing was added"):
        add_line(tmp_path, LINE)
    assert outside.read_text(encoding="utf-8") == "theirs\n"


def test_parse_lines_takes_only_an_array_of_the_same_length():
    assert parse_lines('Here: ["a  b", "c"]', 2) == ["a b", "c"]
    assert parse_lines('["a"]', 2) is None
    assert parse_lines('["a", ""]', 2) is None
    assert parse_lines("no list", 1) is None
    assert parse_lines(json.dumps(["x" * 400]), 1) is None


@pytest.fixture
def claude(monkeypatch, tmp_path):
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    keys._stuck = None
    server = FakeServer()
    yield server
    server.close()
    keyring.set_keyring(previous)
    keys._stuck = None


def test_the_ai_rewords_the_lines_in_one_call_and_adds_no_lesson(tmp_path, claude):
    ws = workspace(tmp_path / "shop")
    claude_run(ws, claude, stalled_on_notes())
    before = find_lessons(ws.root)
    asked = len(claude.bodies(MESSAGES))
    claude.push(MESSAGES, claude_stream([text_block(json.dumps(
        ["Read notes.md once, then use it.", "Always answer with a tool call.", "An extra one."]))]))
    engine = AnthropicEngine(EngineConfig(model="claude-haiku-4-5", base_url=claude.url))
    assert reword_lessons(ws.root, engine) == 0  # three lines for two lessons: nothing taken
    claude.push(MESSAGES, claude_stream([text_block(json.dumps(
        ["Read notes.md once, then use it.", "Always answer with a tool call."]))]))
    assert reword_lessons(ws.root, engine) == 2
    bodies = claude.bodies(MESSAGES)[asked:]
    assert len(bodies) == 2 and "tools" not in bodies[-1]
    assert json.loads(bodies[-1]["messages"][0]["content"][0]["text"]) == \
        [x.lines["en"] for x in before.lessons]
    after = find_lessons(ws.root)
    assert [x.line for x in after.lessons] == ["Read notes.md once, then use it.",
                                               "Always answer with a tool call."]
    assert all(x.reworded for x in after.lessons)
    assert [x.evidence for x in after.lessons] == [x.evidence for x in before.lessons]
    claude.push(MESSAGES, claude_error(401, "authentication_error", "invalid x-api-key"))
    with pytest.raises(EngineError):
        reword_lessons(ws.root, engine)
    assert [x.line for x in find_lessons(ws.root).lessons] == [x.line for x in after.lessons]
