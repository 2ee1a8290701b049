"""The export of the whole history carries the lessons: what was proposed, what was accepted
when, and how often the cause came back since."""

from __future__ import annotations

from app.core.lessons.actions import accept_lesson
from app.core.loop import Harness
from app.export.history import build_history, render_history_markdown
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

BOARD = "# Shop\n\n- [ ] Write {name}\n"


def refused_then_done(ws, name):
    ws.board_path.write_text(BOARD.format(name=name), encoding="utf-8")
    script = [call("read_file", path="../secret.txt"), call("write_file", path=name, content="x"),
              call("complete_task", summary="done", evidence=[name])]
    Harness(ws, ScriptedEngine(script), fast_limits()).run()


def test_history_lists_lessons_with_their_acceptance_and_effect(tmp_path):
    ws = board_workspace(tmp_path, BOARD.format(name="a.md"))
    refused_then_done(ws, "a.md")
    text = render_history_markdown(build_history(ws.root))
    assert "## Lessons\n\nNo lessons were found in these runs." in text
    refused_then_done(ws, "b.md")
    text = render_history_markdown(build_history(ws.root))
    assert "### Lesson 1: The harness refused ../secret.txt 2 times" in text
    assert "- **Seen in:** run 1 round 1, run 2 round 1" in text
    assert "- **Proposed line (not accepted):** Do not use ../secret.txt" in text
    assert not (ws.root / ".harness" / "lessons.json").exists()  # exporting numbers nothing
    accept_lesson(ws.root, 1)
    refused_then_done(ws, "c.md")
    text = render_history_markdown(build_history(ws.root))
    assert "- **Accepted:** " in text and "in AGENTS.md: Do not use ../secret.txt" in text
    assert "- **Effect:** since accepted: 1 of 1 runs" in text
