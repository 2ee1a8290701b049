"""End-to-end: `harness-desk plan` with the Demo engine and with the real engines on loopback servers."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from app.core.board.board import Board
from tests.engines.fake_servers import (claude_error, claude_stream, claude_usage,
                                        oa_call, oa_stream, tool_use)

from .conftest import DONE, FAILED, USAGE, Cli, assert_plain_error, snapshot

KEY = f"sk-ant-api03-E2E-{uuid.uuid4().hex}"
OPENAI_KEY = f"sk-proj-E2E-{uuid.uuid4().hex}"
TASKS = [{"text": "Write the guest list", "done_when": ["guests.md lists each guest"],
          "human": False, "options": []},
         {"text": "Indoor or outdoor?", "done_when": [], "human": True,
          "options": ["Indoor", "Outdoor"]}]



@pytest.fixture
def empty(tmp_path: Path) -> Path:
    folder = tmp_path / "My party"
    folder.mkdir()
    (folder / "ideas.md").write_text("Garden party.\n", encoding="utf-8")
    return folder


def loopback_env(cli: Cli, **extra: str) -> dict[str, str]:
    env = dict(cli.env)
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    env.update(extra)
    return env


def test_plan_prints_numbered_proposals_and_writes_nothing(cli, empty):
    before = snapshot(empty)
    res = cli("plan", empty, "Plan a birthday party", "--engine", "demo")
    assert res.code == DONE, res
    assert "1. Collect what this folder already holds for “Plan a birthday party”" in res.out
    assert "   Done when: notes/sources.md" in res.out
    assert "3. HUMAN: How complete" in res.out and "   Option: A short first version" in res.out
    assert "5. " in res.out and "Nothing was written" in res.out
    assert snapshot(empty) == before and not (empty / "TASKS.md").exists()


def test_plan_with_add_creates_a_board_in_a_folder_without_one(cli, empty):
    res = cli("plan", empty, "Plan a birthday party", "--engine", "demo", "--add")
    assert res.code == DONE, res
    assert "Added 5 tasks to a new TASKS.md." in res.out
    board = Board.load(empty / "TASKS.md")
    assert len(board.tasks) == 5
    human = board.tasks[2]
    assert human.is_human and human.options == ["A short first version to react to",
                                                 "A complete version in one go"]
    assert board.tasks[0].done_when  # Done-when lines made it to the board


def test_add_keeps_an_existing_board_byte_for_byte(cli, empty):
    original = "# Party\r\n\r\nMy own notes.\r\n\r\n- [x] Book the garden\r\n".encode()
    (empty / "TASKS.md").write_bytes(original)
    res = cli("plan", empty, "为女儿筹办生日聚会", "--engine", "demo", "--add")
    assert res.code == DONE, res
    data = (empty / "TASKS.md").read_bytes()
    assert data.startswith(original) and b"\r\n- [ ] HUMAN: " in data
    assert "\n" not in data.replace(b"\r\n", b"").decode()  # the board's CRLF is followed
    assert len(Board.load(empty / "TASKS.md").tasks) == 6


def test_add_without_a_goal_adds_the_last_plan_as_printed_and_only_once(cli, empty):
    assert cli("plan", empty, "Plan a party", "--engine", "demo").code == DONE
    res = cli("plan", empty, "--add", "--pick", "3,1")
    assert res.code == DONE, res
    tasks = Board.load(empty / "TASKS.md").tasks
    assert [t.is_human for t in tasks] == [True, False]
    again = cli("plan", empty, "--add", "--pick", "1")
    assert "already on your list" in assert_plain_error(again, USAGE)
    assert len(Board.load(empty / "TASKS.md").tasks) == 2


@pytest.mark.parametrize("args, words", [
    ((), "Say what you want to achieve"),
    (("--add",), "no plan to add yet"),
    (("Goal", "--engine", "nope"), "nope"),
    (("Goal", "--engine", "demo", "--pick", "x"), "--pick"),
])
def test_bad_usage_is_one_sentence_and_exit_2(cli, empty, args, words):
    res = cli("plan", empty, *args)
    assert words in assert_plain_error(res, USAGE)
    assert not (empty / "TASKS.md").exists()


def test_a_missing_folder_is_exit_2(cli, tmp_path):
    res = cli("plan", tmp_path / "nowhere", "Goal", "--engine", "demo")
    assert "does not exist" in assert_plain_error(res, USAGE)


def test_plan_with_claude_over_the_wire(cli, empty, server):
    server.push("/v1/messages", claude_stream([tool_use("toolu_1", "propose_tasks",
                                                        {"tasks": TASKS})],
                                              usage=claude_usage(1000, 100)))
    res = cli("plan", empty, "Plan a party", "--engine", "anthropic", "--base-url", server.url,
              "--add", env=loopback_env(cli, ANTHROPIC_API_KEY=KEY), timeout=90)
    assert res.code == DONE, res
    assert "2. HUMAN: Indoor or outdoor?" in res.out and "$0.00" in res.out
    (body,) = server.bodies("/v1/messages")
    assert {t["name"] for t in body["tools"]} == {"list_files", "read_file", "search_files",
                                                  "propose_tasks"}
    assert [t.text for t in Board.load(empty / "TASKS.md").tasks] == [
        "Write the guest list", "HUMAN: Indoor or outdoor?"]


def test_plan_with_openai_over_the_wire_writes_nothing_without_add(cli, empty, server):
    server.push("/v1/responses", oa_stream([oa_call("call_1", "propose_tasks", {"tasks": TASKS})]))
    res = cli("plan", empty, "Plan a party", "--engine", "openai", "--base-url",
              server.url + "/v1", env=loopback_env(cli, OPENAI_API_KEY=OPENAI_KEY), timeout=90)
    assert res.code == DONE, res
    assert "1. Write the guest list\n   Done when: guests.md lists each guest" in res.out
    assert not (empty / "TASKS.md").exists()


def test_a_rejected_key_is_one_sentence_exit_1_and_no_board(cli, empty, server):
    server.push("/v1/messages", claude_error(401, "authentication_error", "invalid x-api-key"))
    res = cli("plan", empty, "Plan a party", "--engine", "anthropic", "--base-url", server.url,
              "--add", env=loopback_env(cli, ANTHROPIC_API_KEY=KEY), timeout=90)
    sentence = assert_plain_error(res, FAILED)
    assert KEY not in res.err + res.out and sentence
    assert not (empty / "TASKS.md").exists()
