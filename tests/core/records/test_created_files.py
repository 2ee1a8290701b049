"""A round's record and its round_finished event say which of its changed files are new: the
window's card says "1 new file: …" for a file that did not exist before (after9)."""

from __future__ import annotations

from app.core.records.events import RoundFinished
from app.core.records.records import read_rounds
from app.core.run.loop import Harness
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

BOARD = "# Shop\n\n- [ ] Write the summary\n  - Done when: summary.md exists\n"


def test_a_rounds_new_files_are_recorded_apart_from_the_ones_it_changed(tmp_path):
    ws = board_workspace(tmp_path, BOARD, {"notes.md": "old\n", "same.md": "same\n"})
    seen: list[RoundFinished] = []
    script = [call("write_file", path="summary.md", content="new\n"),
              call("write_file", path="notes.md", content="changed\n"),
              call("write_file", path="same.md", content="same\n"),  # touched, not changed
              call("complete_task", summary="done", evidence=["summary.md"])]
    Harness(ws, ScriptedEngine(script), fast_limits(max_steps=10),
            listeners=[lambda e: seen.append(e) if isinstance(e, RoundFinished) else None]).run()
    (record,) = read_rounds(ws.run_files(ws.run_ids()[-1]))
    assert record.changed_artifacts == ["notes.md", "summary.md"]
    assert record.created_artifacts == ["summary.md"]
    (event,) = seen
    assert event.created_artifacts == ["summary.md"]
