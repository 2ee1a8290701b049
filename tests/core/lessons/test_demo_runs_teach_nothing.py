"""A run of the Demo engine (scripted, no AI) teaches no lesson: undoing its sample note under
demo-output/ once offered "Ask me before changing demo-output/….md" for AGENTS.md (after9)."""

from __future__ import annotations

from app.core.lessons import detectors as d
from app.core.lessons.history import read_history
from app.core.lessons.lessons import find_lessons
from app.core.run.loop import Harness
from app.core.undo.undo import undo_round
from app.engines.demo.engine import DemoEngine
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

BOARD = "# Shop\n\n- [ ] Check the monthly budget\n  - Done when: budget.md is checked\n"


def test_undoing_the_demos_sample_note_teaches_no_lesson(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    Harness(ws, DemoEngine(), fast_limits()).run()
    history = read_history(ws)
    (demo_run,) = history.runs
    assert demo_run.engine == "demo"
    (record,) = demo_run.rounds
    assert record.changed_artifacts and record.changed_artifacts[0].startswith("demo-output/")
    assert undo_round(ws.root, 1).removed == record.changed_artifacts
    history = read_history(ws)
    assert history.runs[0].undone  # the undo is recorded ...
    assert d.undone_rounds(history.runs[0], history)  # ... and would be seen in an AI's run
    assert d.sightings(history.runs[0], history) == []
    assert [x for x in find_lessons(ws.root).lessons if x.kind == "undone"] == []


def test_undoing_an_ai_rounds_file_still_teaches_at_once(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    Harness(ws, ScriptedEngine([call("write_file", path="budget.md", content="x\n"),
                                call("complete_task", summary="done", evidence=["budget.md"])]),
            fast_limits(max_steps=10)).run()
    undo_round(ws.root, 1)
    history = read_history(ws)
    assert history.runs[0].engine != "demo"
    assert [(x.kind, x.subject) for x in d.sightings(history.runs[0], history)] == [
        ("undone", "budget.md")]
    assert [x.kind for x in find_lessons(ws.root).lessons] == ["undone"]
