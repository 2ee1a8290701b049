"""End-to-end: `harness-desk run` with the real engines against loopback servers playing an agent."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from app.core.board.board import Board
from app.core.records.events import RetryWaiting, ToolCalled
from app.core.records.records import read_events, read_run
from tests.engines.fake_servers import (FakeServer, Reply, chat_stream, claude_error,
                                        claude_events, claude_message, claude_stream, claude_usage,
                                        oa_call, oa_stream, oa_usage, oa_models, text_block,
                                        tool_use)

from .conftest import (BLOCKED, DONE, FAILED, STOPPED, Cli, Result, assert_plain_error, jsonl,
                       run_dirs, status_file)

MESSAGES = "/v1/messages"
KEY = f"sk-ant-api03-E2E-{uuid.uuid4().hex}"
OPENAI_KEY = f"sk-proj-E2E-{uuid.uuid4().hex}"
BOARD = """# Greetings

- [ ] Write the greeting
  - Done when: hello.md says hello
- [ ] Write the farewell
  - Done when: bye.md says goodbye
"""
# Every scripted reply reports this usage: $2/M in, $10/M out, $0.10/M cache read (Sonnet 5.5).
USAGE = claude_usage(input_tokens=1000, output_tokens=100, cache_read=2000, cache_write=0)
TURN_COST = (1000 * 2.0 + 100 * 10.0 + 2000 * 0.1) / 1_000_000



@pytest.fixture
def board_ws(tmp_path: Path) -> Path:
    ws = tmp_path / "My greetings"
    ws.mkdir()
    (ws / "TASKS.md").write_text(BOARD, encoding="utf-8")
    (ws / "brief.md").write_text("Be friendly.\n", encoding="utf-8")
    return ws


def env_for(cli: Cli, **extra: str) -> dict[str, str]:
    env = dict(cli.env)
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"  # the fake server is loopback
    env.update(extra)
    return env


def run(cli: Cli, ws: Path, server: FakeServer, *flags: object, engine: str = "anthropic",
        base: str = "", **env: str) -> Result:
    env.setdefault("ANTHROPIC_API_KEY", KEY)
    return cli("run", ws, "--engine", engine, "--base-url", server.url + base, "--max-steps", 6,
               *flags, env=env_for(cli, **env), timeout=90)


def call(n: int, name: str, arguments: dict, text: str = "") -> Reply:
    blocks = ([text_block(text)] if text else []) + [tool_use(f"toolu_e2e_{n}", name, arguments)]
    return claude_stream(blocks, usage=USAGE)


def two_task_script() -> list[Reply]:
    return [
        call(1, "write_file", {"path": "hello.md", "content": "Hello!\n"}, "Writing the greeting."),
        call(2, "complete_task", {"summary": "Wrote hello.md", "evidence": ["hello.md"]}),
        call(3, "write_file", {"path": "bye.md", "content": "Goodbye!\n"}),
        call(4, "complete_task", {"summary": "Wrote bye.md", "evidence": ["bye.md"]}),
    ]


def scan_for(secret: str, *roots: Path) -> list[str]:
    hits = []
    for root in roots:
        for path in root.rglob("*") if root.exists() else []:
            if path.is_file() and secret.encode() in path.read_bytes():
                hits.append(str(path))
    return hits


def test_happy_path_over_two_tasks_with_a_stable_cached_prefix(cli, board_ws, server):
    server.push(MESSAGES, *two_task_script())
    res = run(cli, board_ws, server)
    assert res.code == DONE, res
    assert (board_ws / "hello.md").read_text() == "Hello!\n"
    assert (board_ws / "bye.md").read_text() == "Goodbye!\n"
    assert all(t.checked for t in Board.load(board_ws / "TASKS.md").tasks)

    bodies = server.bodies(MESSAGES)
    assert len(bodies) == 4  # one request per step, no hidden retries
    # Round 1 and round 2 send byte-identical tools and system prompt, marked for caching.
    assert len({json.dumps(b["tools"]) for b in bodies}) == 1
    assert len({json.dumps(b["system"]) for b in bodies}) == 1
    assert bodies[0]["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert all(json.dumps(b).count('"cache_control"') <= 4 for b in bodies)
    # Each round starts fresh: the second round's first request carries no earlier tool use.
    assert len(bodies[2]["messages"]) == 1
    result = bodies[1]["messages"][-1]["content"][0]
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_e2e_1"

    status = status_file(board_ws)
    assert status["engine"] == "anthropic" and status["exit_reason"] == "all_tasks_done"
    assert status["usage"]["cache_read_tokens"] == 4 * 2000
    assert status["cost_usd"] == pytest.approx(4 * TURN_COST)
    rounds = jsonl(run_dirs(board_ws)[-1] / "rounds.jsonl")
    assert [r["result_state"] for r in rounds] == ["completed", "completed"]
    assert sum(r["cost_usd"] for r in rounds) == pytest.approx(4 * TURN_COST)


def test_a_decision_stops_the_run_for_the_person(cli, board_ws, server):
    server.push(MESSAGES, call(1, "ask_human", {
        "question": "Formal or casual greeting?", "options": ["formal", "casual"],
        "evidence": ["brief.md"], "recommendation": "casual"}))
    res = run(cli, board_ws, server)
    assert res.code == BLOCKED, res
    task = Board.load(board_ws / "TASKS.md").next_task()
    assert task.is_human and task.options == ["formal", "casual"]
    assert status_file(board_ws)["exit_reason"] == "human_decision_needed"


def test_text_only_replies_stall_into_no_progress(cli, board_ws, server):
    server.default(MESSAGES, claude_stream([text_block("I think the greeting should be warm.")],
                                           usage=USAGE))
    res = run(cli, board_ws, server, "--stall-limit", 2)
    assert res.code == BLOCKED, res
    assert status_file(board_ws)["exit_reason"] == "no_progress"
    assert "no progress" in Board.load(board_ws / "TASKS.md").next_task().text
    assert not (board_ws / "hello.md").exists()
    nudged = server.bodies(MESSAGES)[1]["messages"][-1]["content"][-1]["text"]
    assert nudged.startswith("[harness]")


def test_a_rejected_key_fails_at_once_with_one_plain_sentence(cli, board_ws, server):
    server.push(MESSAGES, claude_error(401, "authentication_error", "invalid x-api-key"))
    res = run(cli, board_ws, server)
    sentence = assert_plain_error(res, FAILED)
    assert sentence == "Your Claude API key was rejected. Open Engine settings and paste a new key."
    assert len(server.requests) == 1
    assert status_file(board_ws)["exit_reason"] == "auth_failed"


def test_rate_limit_waits_for_retry_after_then_succeeds(cli, board_ws, server):
    server.push(MESSAGES, claude_error(429, "rate_limit_error", "Too many requests",
                                       headers={"retry-after": "1"}), *two_task_script())
    res = run(cli, board_ws, server)
    assert res.code == DONE, res
    assert "Waiting 1s before trying again" in res.out
    events = read_events(run_dirs(board_ws)[-1])
    waits = [e for e in events if isinstance(e, RetryWaiting)]
    assert len(waits) == 1 and waits[0].seconds == 1 and waits[0].next_attempt_at
    # The wait's end is recorded right after it; the streamed words never reach the file.
    kinds = [e.type for e in events]
    assert kinds[kinds.index("retry_waiting") + 1] == "retry_resumed"
    assert "model_text" not in kinds
    assert len(server.bodies(MESSAGES)) == 5


@pytest.mark.parametrize("status, kind", [(529, "overloaded_error"), (503, "api_error")])
def test_overload_is_retried_then_succeeds(cli, board_ws, server, status, kind):
    _fast_retries(cli)
    server.push(MESSAGES, claude_error(status, kind, "busy"), *two_task_script())
    assert run(cli, board_ws, server).code == DONE
    assert len(server.bodies(MESSAGES)) == 5


def test_a_stream_cut_inside_a_tool_call_runs_nothing_and_is_retried(cli, board_ws, server):
    _fast_retries(cli)
    events = claude_events(claude_message([tool_use("toolu_cut", "write_file", {
        "path": "hello.md", "content": "Hello! This text never arrives whole."})], usage=USAGE))
    cut = [i for i, (n, d) in enumerate(events) if n == "content_block_delta"][1]
    server.push(MESSAGES, Reply(events=events, cut_after=cut + 1), *two_task_script())
    res = run(cli, board_ws, server)
    assert res.code == DONE, res
    assert (board_ws / "hello.md").read_text() == "Hello!\n"  # only the whole reply's call ran
    tools_run = [e for e in read_events(run_dirs(board_ws)[-1]) if isinstance(e, ToolCalled)]
    assert len(tools_run) == 4


def test_prompt_too_long_trims_old_tool_output_once_and_retries(cli, board_ws, server):
    script = two_task_script()
    server.push(MESSAGES, script[0], claude_error(
        400, "invalid_request_error", "prompt is too long: 1200000 tokens > 1000000 maximum"),
        *script[1:])
    res = run(cli, board_ws, server)
    assert res.code == DONE, res
    retried = server.bodies(MESSAGES)[2]["messages"][-1]["content"][0]
    assert retried["type"] == "tool_result" and "removed" in retried["content"]


def test_budget_stops_before_spending_past_it(cli, board_ws, server):
    server.push(MESSAGES, *two_task_script())
    res = run(cli, board_ws, server, "--budget-usd", TURN_COST * 1.5)
    assert res.code == STOPPED, res
    status = status_file(board_ws)
    assert status["exit_reason"] == "budget_exhausted"
    assert status["cost_usd"] <= TURN_COST * 1.5
    assert len(server.bodies(MESSAGES)) == 1


def test_no_file_and_no_output_of_a_run_contains_the_key(cli, board_ws, server):
    server.push(MESSAGES, *two_task_script())
    ok = run(cli, board_ws, server)
    # A key of no known shape, echoed back by the server: only knowing the key masks it.
    odd = f"odd-shaped-credential-{uuid.uuid4().hex}"
    server.push(MESSAGES, claude_error(400, "invalid_request_error", f"bad header: x-api-key={odd}"),
                claude_error(401, "authentication_error", f"invalid x-api-key: {odd}"))
    (board_ws / "TASKS.md").write_text(BOARD, encoding="utf-8")
    failed = run(cli, board_ws, server, ANTHROPIC_API_KEY=odd)
    assert ok.code == DONE and failed.code == FAILED
    rounds = jsonl(run_dirs(board_ws)[-1] / "rounds.jsonl")
    assert "[redacted]" in json.dumps(rounds)  # the echo reached the records, masked
    for key in (KEY, odd):
        for res in (ok, failed):
            assert key not in res.out and key not in res.err
        assert scan_for(key, board_ws, cli.config_dir, cli.cwd) == []
        assert all(key.encode() not in r.raw for r in server.requests)  # only ever in a header
    assert all(KEY in r.headers.get("authorization", "") + r.headers.get("x-api-key", "")
               for r in server.requests[:4])


def test_openai_engine_runs_the_board(cli, board_ws, server):
    usage = oa_usage(input_tokens=3000, output_tokens=100, cached=2000)
    server.push("/v1/responses", *[oa_stream([oa_call(f"call_{n}", name, args)], usage=usage)
                                   for n, (name, args) in enumerate([
                                       ("write_file", {"path": "hello.md", "content": "Hi\n"}),
                                       ("complete_task", {"summary": "ok", "evidence": ["hello.md"]}),
                                       ("write_file", {"path": "bye.md", "content": "Bye\n"}),
                                       ("complete_task", {"summary": "ok", "evidence": ["bye.md"]})])])
    res = run(cli, board_ws, server, engine="openai", base="/v1", OPENAI_API_KEY=OPENAI_KEY)
    assert res.code == DONE, res
    bodies = server.bodies("/v1/responses")
    assert len({b["prompt_cache_key"] for b in bodies}) == 1
    assert len({json.dumps(b["tools"]) for b in bodies}) == 1
    assert status_file(board_ws)["usage"]["cache_read_tokens"] == 4 * 2000
    assert scan_for(OPENAI_KEY, board_ws, cli.config_dir) == []


def test_local_engine_runs_the_board_for_free(cli, board_ws, server):
    server.push("/v1/models", oa_models(["qwen3:8b"]))
    server.push("/v1/chat/completions", *[chat_stream("", [(f"call_{n}", name, args)])
                                          for n, (name, args) in enumerate([
                                              ("write_file", {"path": "hello.md", "content": "Hi\n"}),
                                              ("complete_task", {"summary": "ok", "evidence": ["hello.md"]}),
                                              ("write_file", {"path": "bye.md", "content": "Bye\n"}),
                                              ("complete_task", {"summary": "ok", "evidence": ["bye.md"]})])])
    res = run(cli, board_ws, server, engine="local", base="/v1")
    assert res.code == DONE, res
    assert {b["model"] for b in server.bodies("/v1/chat/completions")} == {"qwen3:8b"}
    assert status_file(board_ws)["cost_usd"] == 0
    # No model was chosen: the records name the one that answered, not "".
    assert read_run(run_dirs(board_ws)[-1]).model == "qwen3:8b"
    assert status_file(board_ws)["model"] == "qwen3:8b"


def test_local_engine_with_no_server_says_to_start_one(cli, board_ws):
    from tests.engines.fake_servers import free_port

    url = f"http://127.0.0.1:{free_port()}/v1"
    res = cli("run", board_ws, "--engine", "local", "--base-url", url, env=env_for(cli))
    sentence = assert_plain_error(res, FAILED)
    assert sentence == (f"Nothing is answering at {url}. Start your local server (Ollama, LM "
                        "Studio, llama.cpp's llama-server or another that speaks the same API) "
                        "and try again.")


def _fast_retries(cli: Cli) -> None:
    """Settings with a short backoff, so retried errors without retry-after wait milliseconds."""
    cli.config_dir.mkdir(parents=True, exist_ok=True)
    (cli.config_dir / "settings.json").write_text(json.dumps({"limits": {"retry_base_s": 0.05}}))
