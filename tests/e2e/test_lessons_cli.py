"""End-to-end: `harness-desk lessons` on records of real `run`s (Claude through the SDK against the
loopback server): numbered lessons with evidence, --accept into AGENTS.md, --dismiss, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engines.fake_servers import FakeServer, claude_stream, text_block
from tests.lesson_runs import BOARD, KEY, MESSAGES, refused_then_done, words, workspace

from .conftest import DONE, USAGE, Cli, assert_plain_error



def claude_cli_run(cli: Cli, ws: Path, server: FakeServer, replies) -> None:
    server.queues.pop(MESSAGES, None)
    server.push(MESSAGES, *replies)
    server.default(MESSAGES, words("Thinking."))
    env = dict(cli.env, ANTHROPIC_API_KEY=KEY, NO_PROXY="127.0.0.1", no_proxy="127.0.0.1")
    res = cli("run", ws, "--engine", "anthropic", "--base-url", server.url, "--max-steps", 6,
              env=env, timeout=90)
    assert res.code == DONE, res


@pytest.fixture
def refused_twice(cli, server, tmp_path) -> Path:
    ws = workspace(tmp_path / "Rosie shop").root
    (ws / "AGENTS.md").write_bytes(b"# Rules\r\nBe kind.\r\n")
    claude_cli_run(cli, ws, server, refused_then_done())
    (ws / "TASKS.md").write_text(BOARD.replace("summary", "summary again"), encoding="utf-8")
    claude_cli_run(cli, ws, server, refused_then_done())
    return ws


def test_lessons_lists_numbered_lessons_with_evidence_and_line(cli, refused_twice):
    res = cli("lessons", refused_twice)
    assert res.code == 0, res
    assert "Lessons from the 2 runs in this folder (lines in English" in res.out
    assert "1. The harness refused ../outside/secret.txt 2 times" in res.out
    assert "Evidence (2 in 2 runs):" in res.out
    assert "· run 1, round 1 — Write the summary: Refused" in res.out
    assert "· run 2, round 1 — Write the summary again: Refused" in res.out
    assert "Proposed line: Do not use ../outside/secret.txt" in res.out
    assert "--accept 1" in res.out
    assert (refused_twice / "AGENTS.md").read_bytes() == b"# Rules\r\nBe kind.\r\n"


def test_reword_asks_the_ai_once_and_keeps_the_evidence(cli, server, refused_twice):
    asked = len(server.bodies(MESSAGES))
    server.push(MESSAGES, claude_stream([text_block(
        '["Never open ../outside/secret.txt; it is outside this folder."]')]))
    env = dict(cli.env, ANTHROPIC_API_KEY=KEY, NO_PROXY="127.0.0.1", no_proxy="127.0.0.1")
    res = cli("lessons", refused_twice, "--reword", "--engine", "anthropic", "--base-url",
              server.url, env=env)
    assert res.code == 0, res
    assert res.out.startswith("1 line reworded by Claude (Anthropic); the lessons and their "
                              "evidence are the harness's own.")
    assert "Proposed line: Never open ../outside/secret.txt; it is outside this folder. " \
           "(reworded by AI)" in res.out
    assert "· run 2, round 1 — Write the summary again: Refused" in res.out
    assert len(server.bodies(MESSAGES)) == asked + 1
    res = cli("lessons", refused_twice, "--reword", "--engine", "demo")
    assert res.code == 1 and res.err.strip() == \
        "Rewording needs an AI engine; choose one with --engine."


def test_accept_adds_the_line_and_later_listings_show_its_effect(cli, server, refused_twice):
    res = cli("lessons", refused_twice, "--accept", "1")
    assert res.code == 0, res
    assert res.out.startswith("Added to AGENTS.md: - Do not use ../outside/secret.txt")
    text = (refused_twice / "AGENTS.md").read_bytes()
    assert text.startswith(b"# Rules\r\nBe kind.\r\n- Do not use ../outside/secret.txt")
    assert text.endswith(b"\r\n") and text.count(b"\n") == 3
    (refused_twice / "TASKS.md").write_text(BOARD.replace("summary", "summary 3"),
                                            encoding="utf-8")
    claude_cli_run(cli, refused_twice, server, refused_then_done()[1:])
    res = cli("lessons", refused_twice)
    assert "1. The harness refused ../outside/secret.txt 2 times [accepted " in res.out
    assert "Line in AGENTS.md: Do not use" in res.out
    assert "Effect: since accepted: 0 of 1 runs" in res.out
    again = cli("lessons", refused_twice, "--accept", "1")
    assert again.code == USAGE and again.err.strip() == \
        "Lesson 1 was accepted already; its line is in AGENTS.md."


def test_dismiss_hides_a_lesson_and_bad_requests_are_one_sentence(cli, refused_twice,
                                                                   tmp_path):
    res = cli("lessons", refused_twice, "--dismiss", "1")
    assert res.code == 0, res
    assert "Lesson 1 is dismissed and hidden; AGENTS.md was not changed." in res.out
    assert (refused_twice / "AGENTS.md").read_bytes() == b"# Rules\r\nBe kind.\r\n"
    res = cli("lessons", refused_twice)
    assert "No lessons from the 2 runs in this folder (1 dismissed; --all shows them)." in res.out
    assert "1. The harness refused ../outside/secret.txt 2 times [dismissed]" in \
        cli("lessons", refused_twice, "--all").out

    assert assert_plain_error(cli("lessons", refused_twice, "--accept", "7"), USAGE) \
        .startswith("There is no lesson 7 in this folder")
    assert assert_plain_error(cli("lessons", refused_twice, "--accept", "0"), USAGE) \
        .startswith("Bad value for --accept")
    full = b"# Rules\r\n" + b"x" * 3990 + b"\r\n"
    (refused_twice / "AGENTS.md").write_bytes(full)
    assert assert_plain_error(cli("lessons", refused_twice, "--accept", "1"), USAGE) \
        .startswith("AGENTS.md would be 4,1")
    assert (refused_twice / "AGENTS.md").read_bytes() == full
    assert_plain_error(cli("lessons", tmp_path / "nowhere"), USAGE)
