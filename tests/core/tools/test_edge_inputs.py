"""Odd boards and odd folders get a plain answer: empty tasks, empty questions, folders nested
deeper than Python's recursion, a task of 100,000 characters (issue 8, item 14)."""

from __future__ import annotations

import os
import re
import time

import pytest

from app.core.run.loop import Harness
from app.core.tools.toolbox import ToolBox
from app.core.undo.undo import BlobStore, RoundChanges
from app.engines.demo.script import named_path
from tests.scripted import ScriptedEngine, board_workspace, fast_limits


@pytest.mark.parametrize("line", ["- [ ]", "- [ ]   ", "* [ ]"])
def test_an_empty_task_stops_the_run_and_says_which_line(tmp_path, line):
    ws = board_workspace(tmp_path, f"# Plan\n\n- [x] Done already\n{line}\n- [ ] Write a.md\n")
    engine = ScriptedEngine([])
    result = Harness(ws, engine, fast_limits()).run()
    assert (result.state, result.exit_reason) == ("failed", "error")
    assert "line 4 of TASKS.md is empty" in result.message
    assert engine.requests == []  # nothing was worked on, and nothing skipped
    assert ws.board_path.read_text().count("[ ]") == 2


@pytest.mark.parametrize("line", ["- [ ] HUMAN:", "- [ ] HUMAN:    ", "- [ ] human :"])
def test_an_empty_decision_stops_the_run_and_asks_for_the_question(tmp_path, line):
    ws = board_workspace(tmp_path, f"# Plan\n\n{line}\n- [ ] Write a.md\n")
    result = Harness(ws, ScriptedEngine([]), fast_limits()).run()
    assert (result.state, result.exit_reason) == ("failed", "error")
    assert "line 3 of TASKS.md" in result.message and "no question" in result.message
    assert not result.message.rstrip(".").endswith(":")


@pytest.fixture
def deep_chain(tmp_path):
    """1,100 nested folders `d/d/d/...`, made and removed one at a time (os.makedirs and
    shutil.rmtree recurse, and would fail on it themselves)."""
    ws = board_workspace(tmp_path, "- [ ] Find it\n", {"top.md": "needle at the top\n"})
    chain = [ws.root]
    for _ in range(1100):
        chain.append(chain[-1] / "d")
        os.mkdir(chain[-1])
    yield ws
    for folder in reversed(chain[1:]):
        for child in folder.iterdir():
            if not child.is_dir():
                child.unlink()
        folder.rmdir()


def test_search_walks_folders_nested_deeper_than_python_recursion(deep_chain):
    ws = deep_chain
    (ws.root / "d" / "d" / "near.md").write_text("needle near\n")
    changes = RoundChanges(ws.root, BlobStore(ws.harness_dir), ws.harness_dir / "u" / "1.json", 1)
    box = ToolBox(ws.root, ws.board_path, "Find it", changes)
    outcome = box.call("search_files", {"query": "needle"})
    assert not outcome.is_error, outcome.content
    # A folder's own files first, then its folders, as before.
    assert outcome.content.splitlines() == ["top.md:1: needle at the top",
                                            "d/d/near.md:1: needle near"]


OLD_PATH = re.compile(r"[\w\-./]+\.(?:md|txt|csv|html|json)\b")


@pytest.mark.parametrize("text", [
    "Write notes/plan.md and data.csv", "see a.md.bak then b.txt", "x.md5 is not y.json.",
    "./drafts/hello.html!", "TASKS.md then notes.md", "nothing here", "a.b.c.md", "v1.2.md-x",
])
def test_the_demo_finds_the_same_paths_as_before(text):
    expected = next((m.group(0).removeprefix("./") for m in OLD_PATH.finditer(text)
                     if not m.group(0).removeprefix("./").lower().endswith("tasks.md")), None)
    assert named_path(text, []) == expected


def test_the_demo_reads_a_huge_task_in_linear_time():
    started = time.perf_counter()
    assert named_path("a" * 100_000, ["b" * 100_000]) is None
    assert named_path("x" * 100_000 + " then notes.md", []) == "notes.md"
    assert time.perf_counter() - started < 1.0
