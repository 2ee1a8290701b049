"""Lessons from real run records (the Claude engine against the loopback server): a stall on the
same file, repeated refusals and an undone round give lessons with their evidence; accept and
dismiss; AGENTS.md untouched until an accept; recurrence counted after it."""

from __future__ import annotations

import keyring
import pytest

from app.core.errors import UsageError
from app.core.lessons.actions import accept_lesson, dismiss_lesson, instructions_after
from app.core.lessons.lessons import find_lessons
from app.core.lessons.store import store_path
from app.core.undo.undo import undo_round
from app.engines import keys
from tests.engines.fake_servers import FakeServer
from tests.lesson_runs import (BOARD, KEY, claude_run, refused_then_done, stalled_on_notes,
                               tool, workspace)
from tests.memory_keyring import MemoryKeyring


@pytest.fixture(autouse=True)
def claude_key(monkeypatch, tmp_path):
    for name in ("ANTHROPIC_BASE_URL", "ANTHROPIC_AUTH_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    keys._stuck = None
    yield
    keyring.set_keyring(previous)
    keys._stuck = None


@pytest.fixture
def server():
    s = FakeServer()
    yield s
    s.close()


def by_kind(folder, kind):
    return [x for x in folder.lessons if x.kind == kind]


def test_a_stall_on_the_same_file_gives_a_lesson_with_its_rounds(tmp_path, server):
    ws = workspace(tmp_path / "shop")
    result = claude_run(ws, server, stalled_on_notes())
    assert result.exit_reason == "no_progress"
    folder = find_lessons(ws.root)
    [reread] = by_kind(folder, "reread")
    assert reread.subject == "notes.md" and reread.count == 2
    assert [(e.run_number, e.round) for e in reread.evidence] == [(1, 1), (1, 2)]
    assert reread.evidence[0].task == "Write the summary"
    assert "notes.md" in reread.line and reread.files == ["notes.md"]
    [talk] = by_kind(folder, "text_only")
    assert talk.count == 4 and talk.runs == [result.run_id]
    assert folder.from_run(result.run_id) == folder.lessons


def test_repeated_refusals_across_runs_group_into_one_lesson(tmp_path, server):
    ws = workspace(tmp_path / "shop")
    first = claude_run(ws, server, refused_then_done())
    assert find_lessons(ws.root).lessons == []  # once is not yet a lesson
    ws.board_path.write_text(BOARD.replace("summary", "summary again"), encoding="utf-8")
    second = claude_run(ws, server, refused_then_done())
    folder = find_lessons(ws.root)
    [refused] = by_kind(folder, "refused_path")
    assert refused.subject == "../outside/secret.txt" and refused.count == 2
    assert refused.runs == [first.run_id, second.run_id]
    assert "outside" in refused.evidence[0].detail.lower()
    assert refused.line.startswith("Do not use ../outside/secret.txt")


def test_an_undone_round_gives_a_lesson_naming_its_file(tmp_path, server):
    ws = workspace(tmp_path / "shop")
    result = claude_run(ws, server, [
        tool("write_file", path="summary.md", content="wrong\n"),
        tool("complete_task", summary="Wrote summary.md", evidence=["summary.md"])])
    assert find_lessons(ws.root).lessons == []
    assert undo_round(ws.root, 1).ok
    [undone] = find_lessons(ws.root).lessons
    assert (undone.kind, undone.subject, undone.count) == ("undone", "summary.md", 1)
    assert (undone.evidence[0].run_id, undone.evidence[0].round) == (result.run_id, 1)
    assert undone.line == "Ask me before changing summary.md: I undid the changes made to it."


def test_agents_md_is_untouched_until_accept_then_keeps_its_bytes(tmp_path, server):
    ws = workspace(tmp_path / "shop")
    original = "\ufeff# House rules\r\nBe brief.".encode("utf-8")
    (ws.root / "AGENTS.md").write_bytes(original)
    claude_run(ws, server, stalled_on_notes())
    folder = find_lessons(ws.root)
    assert len(folder.lessons) == 2
    preview = instructions_after(ws.root, folder.lessons[0].line)
    assert (ws.root / "AGENTS.md").read_bytes() == original  # listing and preview write nothing
    dismiss_lesson(ws.root, folder.lessons[1].number)
    assert (ws.root / "AGENTS.md").read_bytes() == original
    done = accept_lesson(ws.root, folder.lessons[0].number)
    after = (ws.root / "AGENTS.md").read_bytes()
    assert done.added
    assert after == original + b"\r\n- " + folder.lessons[0].line.encode() + b"\r\n"
    assert after.decode("utf-8").lstrip("\ufeff") == preview
    again = find_lessons(ws.root)
    assert [x.state for x in again.lessons] == ["accepted", "dismissed"]
    assert again.shown() == again.lessons[:1] and again.lessons[0].decided_at
    with pytest.raises(UsageError, match="accepted already"):
        accept_lesson(ws.root, folder.lessons[0].number)
    assert (ws.root / "AGENTS.md").read_bytes() == after


def test_recurrence_is_counted_in_runs_after_the_accept(tmp_path, server):
    ws = workspace(tmp_path / "shop")
    claude_run(ws, server, refused_then_done())
    ws.board_path.write_text(BOARD.replace("summary", "summary 2"), encoding="utf-8")
    claude_run(ws, server, refused_then_done())
    [lesson] = find_lessons(ws.root).lessons
    accept_lesson(ws.root, lesson.number)
    assert find_lessons(ws.root).lessons[0].effect.sentence() == "since accepted: 0 of 0 runs"
    for n, refused in ((3, False), (4, True), (5, False)):
        ws.board_path.write_text(BOARD.replace("summary", f"summary {n}"), encoding="utf-8")
        claude_run(ws, server, refused_then_done() if refused else refused_then_done()[1:])
    [after] = find_lessons(ws.root).lessons
    assert after.count == 3 and after.state == "accepted"
    assert after.effect.sentence() == "since accepted: 1 of 3 runs"


def test_numbers_stay_when_later_runs_add_lessons(tmp_path, server):
    ws = workspace(tmp_path / "shop")
    claude_run(ws, server, stalled_on_notes())
    first = {x.key: x.number for x in find_lessons(ws.root).lessons}
    assert sorted(first.values()) == [1, 2]
    dismiss_lesson(ws.root, 1)
    ws.board_path.write_text(BOARD.replace("summary", "summary 2"), encoding="utf-8")
    claude_run(ws, server, refused_then_done())
    ws.board_path.write_text(BOARD.replace("summary", "summary 3"), encoding="utf-8")
    claude_run(ws, server, refused_then_done())
    now = {x.key: x.number for x in find_lessons(ws.root).lessons}
    assert {k: now[k] for k in first} == first
    assert now["refused_path:../outside/secret.txt"] == 3


def test_a_damaged_store_reads_as_empty_and_agents_md_survives(tmp_path, server):
    ws = workspace(tmp_path / "shop")
    (ws.root / "AGENTS.md").write_text("Keep me.\n", encoding="utf-8")
    claude_run(ws, server, stalled_on_notes())
    find_lessons(ws.root)
    store_path(ws.harness_dir).write_bytes(b"{\"numbers\": {\"x\": \"not a number\"")
    folder = find_lessons(ws.root)
    assert [x.number for x in folder.lessons] == [1, 2]
    assert (ws.root / "AGENTS.md").read_text(encoding="utf-8") == "Keep me.\n"
