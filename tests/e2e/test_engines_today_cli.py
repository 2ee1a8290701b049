"""End-to-end: `harness-desk run` with each engine against loopback servers that answer in the
services' newest shapes and enforce what the services enforce (issue 9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.board.board import Board
from app.core.records.events import RetryWaiting
from app.core.records.records import read_events
from tests.engines.fake_servers import (FakeServer, Reply, claude_error, claude_stream,
                                        claude_usage, oa_call, oa_error, oa_events, oa_message,
                                        oa_reasoning, oa_response, oa_stream, oa_usage,
                                        text_block, thinking_block, tool_use)

from .conftest import DONE, FAILED, Cli, assert_plain_error, run_dirs, status_file
from .test_real_engines_cli import (BOARD, KEY, MESSAGES, OPENAI_KEY, _fast_retries, board_ws,  # noqa: F401
                                    env_for, run)

USAGE = claude_usage(input_tokens=1000, output_tokens=100, cache_read=2000)
RESPONSES = "/v1/responses"


def claude_round(n: int, path: str, content: str) -> list[Reply]:
    """One round as the newest Claude models play it: narration arrives as thinking between
    the calls, some thinking is empty, and the first reply carries two calls."""
    return [
        claude_stream([thinking_block("", f"s{n}a"),
                       text_block(f"Writing {path}."),
                       thinking_block(f"{path} needs one friendly line.", f"s{n}b"),
                       tool_use(f"toolu_{n}_w", "write_file", {"path": path, "content": content}),
                       thinking_block("", f"s{n}c"),
                       tool_use(f"toolu_{n}_r", "read_file", {"path": path})], usage=USAGE),
        claude_stream([thinking_block("It reads right; the task is done.", f"s{n}d"),
                       tool_use(f"toolu_{n}_c", "complete_task",
                                {"summary": f"Wrote {path}", "evidence": [path]})], usage=USAGE),
    ]


def test_claude_runs_the_board_with_interleaved_thinking_the_service_accepts(cli, board_ws,
                                                                            server):
    server.push(MESSAGES, *claude_round(1, "hello.md", "Hello!\n"),
                *claude_round(2, "bye.md", "Goodbye!\n"))
    res = run(cli, board_ws, server)
    assert res.code == DONE, res
    assert server.refusals == []  # every thinking block went back where it was written
    assert all(t.checked for t in Board.load(board_ws / "TASKS.md").tasks)
    second_step = server.bodies(MESSAGES)[1]
    assert second_step["thinking"] == {"type": "adaptive", "display": "summarized"}
    assert [b["type"] for b in second_step["messages"][1]["content"]] == [
        "thinking", "text", "thinking", "tool_use", "thinking", "tool_use"]


def test_claude_trimming_old_tool_output_never_breaks_the_thinking_prefix(cli, board_ws, server):
    """The prompt grows too long at the third step; the retry layer shortens the oldest tool
    output, which sits before the second reply: that reply's thinking is dropped on purpose,
    the first reply's (before the change) goes back whole, and the service accepts it."""
    first, finish = claude_round(1, "hello.md", "Hello!\n")
    again = claude_stream([thinking_block("Check it once more.", "again"),
                           tool_use("toolu_again", "list_files", {})], usage=USAGE)
    server.push(MESSAGES, first, again, claude_error(
        400, "invalid_request_error", "prompt is too long: 1200000 tokens > 1000000 maximum"),
        finish, *claude_round(2, "bye.md", "Goodbye!\n"))
    res = run(cli, board_ws, server)
    assert res.code == DONE, res
    assert server.refusals == []
    retried = server.bodies(MESSAGES)[3]["messages"]
    assert "removed" in retried[2]["content"][0]["content"]  # the oldest output, shortened
    assert [b["type"] for b in retried[1]["content"]] == [
        "thinking", "text", "thinking", "tool_use", "thinking", "tool_use"]
    assert [b["type"] for b in retried[3]["content"]] == ["tool_use"]


def test_claude_spend_limit_stops_the_run_from_its_code(cli, board_ws, server):
    server.push(MESSAGES, claude_error(429, "rate_limit_error", "Request refused.",
                                       error_code="enforced_spend_limit_reached"))
    res = run(cli, board_ws, server)
    sentence = assert_plain_error(res, FAILED)
    assert "spending limit" in sentence
    assert len(server.requests) == 1
    assert status_file(board_ws)["exit_reason"] == "quota_exhausted"


def test_a_request_the_service_refused_is_sent_once_and_the_run_stops(cli, board_ws, server):
    server.default(MESSAGES, claude_error(400, "invalid_request_error", "tools.0.name: bad"))
    res = run(cli, board_ws, server)
    sentence = assert_plain_error(res, FAILED)
    assert "tools.0.name" in sentence
    assert len(server.requests) == 1
    assert status_file(board_ws)["exit_reason"] == "bad_request"


def openai_round(n: int, path: str, content: str) -> list[Reply]:
    usage = oa_usage(input_tokens=3000, output_tokens=100, cached=2000, reasoning=40)
    return [
        oa_stream([oa_reasoning(f"rs_{n}a", ["A file with one line."], f"enc-{n}a"),
                   oa_message(f"Writing {path}.", phase="commentary", item_id=f"msg_{n}"),
                   oa_reasoning(f"rs_{n}b", [], f"enc-{n}b"),
                   oa_call(f"call_{n}_w", "write_file", {"path": path, "content": content}),
                   oa_call(f"call_{n}_r", "read_file", {"path": path})], usage=usage),
        oa_stream([oa_reasoning(f"rs_{n}c", [], f"enc-{n}c"),
                   oa_call(f"call_{n}_c", "complete_task",
                           {"summary": f"Wrote {path}", "evidence": [path]})], usage=usage),
    ]


def run_openai(cli: Cli, ws: Path, server: FakeServer, *flags: object):
    return run(cli, ws, server, *flags, engine="openai", base="/v1", OPENAI_API_KEY=OPENAI_KEY)


def test_openai_runs_the_board_sending_output_back_in_order_with_its_phase(cli, board_ws,
                                                                          server):
    server.push(RESPONSES, *openai_round(1, "hello.md", "Hi\n"), *openai_round(2, "bye.md", "Bye\n"))
    res = run_openai(cli, board_ws, server)
    assert res.code == DONE, res
    assert server.flags == []
    bodies = server.bodies(RESPONSES)
    assert all("instructions" not in b and b["input"][0]["role"] == "developer" for b in bodies)
    replayed = [i.get("id") or i.get("call_id") for i in bodies[1]["input"][2:7]]
    assert replayed == ["rs_1a", "msg_1", "rs_1b", "call_1_w", "call_1_r"]


def test_openai_unknown_model_stops_at_once_naming_it(cli, board_ws, server):
    server.default(RESPONSES, oa_error(400, "The model `gpt-6.1-sol` does not exist or you do "
                                       "not have access to it.", code="model_not_found"))
    res = run_openai(cli, board_ws, server, "--model", "gpt-6.1-sol")
    sentence = assert_plain_error(res, FAILED)
    assert "gpt-6.1-sol" in sentence and "bug" not in sentence.lower()
    assert len(server.requests) == 1
    assert status_file(board_ws)["exit_reason"] == "model_not_found"


def test_openai_nested_stream_error_is_retried_and_its_input_counted(cli, board_ws, server):
    _fast_retries(cli)
    events = oa_events(oa_response([oa_message("x")]))[:3]
    events.append(("error", {"type": "error", "sequence_number": 3, "error": {
        "type": "server_error", "code": "server_error", "message": "The server had an error.",
        "param": None}}))
    server.push(RESPONSES, Reply(events=events), *openai_round(1, "hello.md", "Hi\n"),
                *openai_round(2, "bye.md", "Bye\n"))
    res = run_openai(cli, board_ws, server)
    assert res.code == DONE, res
    waits = [e for e in read_events(run_dirs(board_ws)[-1]) if isinstance(e, RetryWaiting)]
    assert len(waits) == 1 and waits[0].usage.input_tokens > 0


def test_local_engine_with_the_v1_left_out_names_the_right_address(cli, board_ws, server):
    server.default("/models", Reply(status=404, body="404 page not found"))
    server.default("/chat/completions", Reply(status=404, body="404 page not found"))
    res = cli("run", board_ws, "--engine", "local", "--model", "qwen3:8b", "--base-url",
              server.url, env=env_for(cli), timeout=60)
    sentence = assert_plain_error(res, FAILED)
    assert f"{server.url}/v1" in sentence and "no model called" not in sentence
    assert status_file(board_ws)["exit_reason"] == "engine_unreachable"


@pytest.mark.parametrize("engine", ["anthropic", "openai", "local"])
def test_a_base_url_with_a_bad_port_is_one_sentence(cli, board_ws, engine):
    res = cli("run", board_ws, "--engine", engine, "--model", "m", "--base-url",
              "http://127.0.0.1:abc/v1",
              env=env_for(cli, ANTHROPIC_API_KEY=KEY, OPENAI_API_KEY=OPENAI_KEY), timeout=60)
    sentence = assert_plain_error(res, FAILED)
    assert "http://127.0.0.1:abc/v1" in sentence and "port" in sentence
