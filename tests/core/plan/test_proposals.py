"""Proposed tasks: the board's rules they are held to, and adding them without touching the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.board.board import Board
from app.core.plan.proposals import (MAX_PROPOSALS, NEW_BOARD_HEAD, Proposal, _reads_back,
                                add_proposals, check_proposals)


def task(text: str, **kw) -> dict:
    return {"text": text, "done_when": kw.get("done_when", []), "human": kw.get("human", False),
            "options": kw.get("options", [])}


def problems(raw, board: Board | None = None) -> list[str]:
    return check_proposals(raw, board)[1]


def test_good_proposals_come_back_clean():
    ok, bad = check_proposals([task("  Draft the menu ", done_when=[" menu.md lists dishes "]),
                               task("Lunch or dinner?", human=True, options=["Lunch", "Dinner"])])
    assert bad == []
    assert ok == [Proposal("Draft the menu", ["menu.md lists dishes"]),
                  Proposal("Lunch or dinner?", [], True, ["Lunch", "Dinner"])]
    assert ok[1].board_text == "HUMAN: Lunch or dinner?"


def test_a_human_prefix_in_the_text_makes_a_decision():
    ok, bad = check_proposals([task("HUMAN: Lunch or dinner?", options=["Lunch", "Dinner"])])
    assert bad == [] and ok[0].human and ok[0].text == "Lunch or dinner?"


@pytest.mark.parametrize("raw, words", [
    ([], "empty"),
    ("write things", "must be a list"),
    ([task("x")] * 0 + [task(f"Task {i}") for i in range(MAX_PROPOSALS + 1)], "at most 30"),
    ([task("")], "no text"),
    ([task("Two\nlines")], "one line"),
    ([task("Line\u2028separator")], "one line"),
    ([task("Ok", done_when=["two\nlines"])], "one line"),
    ([task("Pick one", human=True, options=["Only"])], "2 to 4 options"),
    ([task("Pick one", human=True, options=list("abcde"))], "2 to 4 options"),
    ([task("Pick one", human=True, options=["Same", "same"])], "differ"),
    ([task("Draft", options=["A", "B"])], "not a decision"),
    ([task("Draft"), task("draft")], "proposed twice"),
    ([{"text": "Draft", "priority": 1}], "unknown fields"),
    ([task("x" * 301)], "characters"),
    ([task("Draft", human="yes")], "true or false"),
])
def test_bad_proposals_are_refused_with_a_reason(raw, words):
    found = problems(raw)
    assert found and any(words in p for p in found), found
    assert check_proposals(raw)[0] == []  # nothing counts while anything is wrong


@pytest.mark.parametrize("text", ["<!-- hidden", "```", "<pre>", "    - [ ] nested", "# x",
                                  "[ ] x", "> quote", "1. first"])
def test_markdown_inside_a_task_still_reads_back_as_that_one_task(text):
    ok, bad = check_proposals([task(text, done_when=["```"])])
    assert bad == [] and ok[0].text == text.strip()


@pytest.mark.parametrize("proposal", [
    Proposal("One\n- [ ] Two"),                       # would read back as two tasks
    Proposal("One", ["x\n- [ ] Two"]),                # a detail that ends the task
    Proposal("One", [], False, ["a\n\n<!--"]),         # a comment opened after the task
])
def test_the_read_back_check_catches_lines_that_break_the_board(proposal):
    assert not _reads_back(proposal)


def test_a_task_already_on_the_board_is_refused():
    board = Board.parse("- [x] Draft the menu\n- [ ] HUMAN: Lunch or dinner?\n")
    assert "already on the list" in problems([task("draft the  menu")], board)[0]
    assert "already on the list" in problems(
        [task("Lunch or dinner?", human=True, options=["Lunch", "Dinner"])], board)[0]


def test_adding_to_a_folder_without_a_board_creates_one(tmp_path: Path):
    refs, created = add_proposals(tmp_path, [Proposal("Draft the menu", ["menu.md lists dishes"]),
                                             Proposal("Lunch?", [], True, ["Yes", "No"])])
    assert created and [r.text for r in refs] == ["Draft the menu", "HUMAN: Lunch?"]
    text = (tmp_path / "TASKS.md").read_text(encoding="utf-8")
    assert text == NEW_BOARD_HEAD + ("- [ ] Draft the menu\n  - Done when: menu.md lists dishes\n"
                                     "- [ ] HUMAN: Lunch?\n  - Option: Yes\n  - Option: No\n")
    board = Board.load(tmp_path / "TASKS.md")
    assert [t.options for t in board.tasks] == [[], ["Yes", "No"]]


def test_adding_keeps_everything_already_there_byte_for_byte(tmp_path: Path):
    original = ("\ufeff# Plan\r\n\r\nMy notes stay.\r\n\r\n* [x] Old task\r\n"
                "  * Done when: done\r\n\r\n```\r\n- [ ] not a task\r\n```\r\n").encode("utf-8")
    (tmp_path / "TASKS.md").write_bytes(original)
    add_proposals(tmp_path, [Proposal("New task", ["new.md exists"])])
    data = (tmp_path / "TASKS.md").read_bytes()
    # The new task goes after the last task; every old byte stays, in its place.
    head = original[:original.index(b"\r\n\r\n```") + 2]
    assert data.startswith(head)
    assert data[len(head):] == b"* [ ] New task\r\n  * Done when: new.md exists\r\n" \
        + original[len(head):]
    assert [t.text for t in Board.load(tmp_path / "TASKS.md").tasks] == ["Old task", "New task"]
