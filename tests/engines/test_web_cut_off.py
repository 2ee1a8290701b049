"""A Claude reply that breaks off after the service ran a search (issue 37): the search was
billed, so it counts in the run's cost and in the task's cap on lookups, through the real
anthropic SDK against the loopback Messages API."""

from __future__ import annotations

import pytest

from app.core.engine.port import EngineConfig, EngineError, STREAM_BROKEN
from app.core.records.events import WebLookedUp
from app.core.run.loop import Harness
from app.core.records.records import read_rounds, read_run
from app.core.settings import Settings
from app.core.web.types import WebAccess
from app.engines.claude.engine import AnthropicEngine
from app.engines.prices import web_prices
from app.engines.setup import build_engine
from tests.engines.conftest import CLAUDE_KEY
from tests.engines.fake_servers import (Reply, claude_events, claude_message, claude_stream,
                                        claude_usage, text_block, tool_use)
from tests.engines.fake_servers import oa_events, oa_message, oa_response
from tests.engines.claude.test_anthropic_engine import FIRST, MESSAGES, SYSTEM, TOOLS
from tests.engines.openai.test_openai_engine import FIRST as OA_FIRST
from tests.engines.openai.test_openai_engine import RESPONSES, gpt  # noqa: F401  (the fixture)
from tests.engines.web_blocks import (oa_open, oa_search, search_error, search_result,
                                      server_use)
from tests.scripted import board_workspace, fast_limits

PAGE = "https://www.rye-and-co.example/prices"
BOARD = ("# Bakery\n\n- [ ] Check what the other bakeries charge for sourdough\n"
         "  - Web: yes\n  - Done when: prices.md lists them\n")


def cut_after(blocks: list[dict], block_type: str, nth: int = 1) -> Reply:
    """A reply of `blocks` that breaks off (the connection dropped) just after the `nth`
    block of `block_type` closed."""
    events = claude_events(claude_message(blocks, usage=claude_usage(input_tokens=900)))
    starts = [i for i, (name, data) in enumerate(events) if name == "content_block_start"
              and data["content_block"]["type"] == block_type]
    index = events[starts[nth - 1]][1]["index"]
    stop = next(i for i, (name, data) in enumerate(events)
                if name == "content_block_stop" and data["index"] == index)
    return Reply(events=events, cut_after=stop + 1, cut_mode="reset")


def searching(n: int = 1) -> list[dict]:
    return [server_use(f"srvtoolu_{n}", "web_search", query="sourdough price Millbrook"),
            search_result(f"srvtoolu_{n}", (PAGE, "Rye & Co price list")),
            text_block("Found it."),
            tool_use(f"toolu_{n}", "write_file", {"path": "prices.md", "content": "4.80\n"})]


@pytest.fixture
def claude(server, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    engine = AnthropicEngine(EngineConfig(model="claude-sonnet-5-5", base_url=server.url,
                                          timeout_s=5))
    engine.web = WebAccess(max_uses=5)
    return engine


def failed(claude) -> EngineError:
    with pytest.raises(EngineError) as caught:
        claude.turn(SYSTEM, TOOLS, FIRST)
    return caught.value


def test_a_search_received_before_the_stream_broke_off_is_counted(claude, server):
    server.push(MESSAGES, cut_after(searching(), "web_search_tool_result"))
    err = failed(claude)
    assert err.code == STREAM_BROKEN and err.usage.input_tokens == 900
    assert (err.web.search_count, err.web.fetch_count) == (1, 0)
    assert err.web.pages == [] and err.web.searches == []  # the model never saw them


def test_a_search_whose_result_has_not_come_yet_is_counted(claude, server):
    server.push(MESSAGES, cut_after(searching(), "server_tool_use"))
    assert failed(claude).web.search_count == 1


def test_a_failed_search_is_not_billed_and_not_counted(claude, server):
    blocks = [server_use("srvtoolu_1", "web_search", query="rye"),
              search_error("srvtoolu_1", "unavailable"), text_block("It failed.")]
    server.push(MESSAGES, cut_after(blocks, "web_search_tool_result"))
    assert failed(claude).web is None


def test_a_stream_cut_before_any_lookup_counts_none(claude, server):
    server.push(MESSAGES, cut_after([text_block("Thinking aloud."), *searching()], "text"))
    assert failed(claude).web is None


def run(server, tmp_path, monkeypatch, **limits):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    ws = board_workspace(tmp_path, BOARD)
    engine = build_engine(Settings(), ws.root, "anthropic", base_url=server.url)
    events: list = []
    result = Harness(ws, engine, fast_limits(**limits), listeners=[events.append]).run()
    return ws, result, events


def test_the_cut_off_search_is_in_the_cost_and_the_tasks_count(server, tmp_path, monkeypatch):
    # The first attempt breaks off after its search; the retry searches again and writes.
    server.push(MESSAGES, cut_after(searching(1), "web_search_tool_result"),
                claude_stream(searching(2)),
                claude_stream([tool_use("toolu_3", "complete_task", {
                    "summary": "Listed the prices.", "evidence": ["prices.md", PAGE]})]))
    ws, result, events = run(server, tmp_path, monkeypatch, max_rounds=1)
    assert result.exit_reason == "all_tasks_done", result.message
    (record, ) = read_rounds(ws.run_files(result.run_id))
    assert record.web.search_count == 2   # both were run and billed
    assert [s.query for s in record.web.searches] == ["sourdough price Millbrook"]  # one seen
    live = [e for e in events if isinstance(e, WebLookedUp)]
    assert live[-1].task_lookups == 2
    # The cost: every token billed (the broken attempt's input too) and both searches.
    info = read_run(ws.run_files(result.run_id))
    priced = build_engine(Settings(), ws.root, "anthropic", base_url=server.url)
    per_search = web_prices("anthropic")[0] / 1000
    assert per_search > 0
    assert info.cost_usd == pytest.approx(priced.cost_usd(info.usage) + 2 * per_search)
    assert record.cost_usd == pytest.approx(info.cost_usd)


def test_the_cut_off_search_counts_toward_the_tasks_cap(server, tmp_path, monkeypatch):
    server.push(MESSAGES, cut_after(searching(1), "web_search_tool_result"),
                claude_stream(searching(2)),
                claude_stream([tool_use("toolu_3", "complete_task", {
                    "summary": "Listed the prices.", "evidence": ["prices.md", PAGE]})]))
    ws, result, _ = run(server, tmp_path, monkeypatch, max_lookups=2)
    (record, ) = read_rounds(ws.run_files(result.run_id))
    assert record.result_state == "step_limit" and record.lookup_cap == 2
    assert record.steps == 1   # the two searches used the cap: no second step
    assert (result.exit_reason, result.cause) == ("no_progress", "lookup_limit")


# -- OpenAI: a web_search_call finished before the stream broke off -------------------------

def oa_cut_after_search(*searches: dict) -> Reply:
    """A response that searches, then breaks off inside its message's words."""
    events = oa_events(oa_response([*searches, oa_message("Rye & Co charges 4.80 for a loaf.")]))
    delta = next(i for i, (name, _) in enumerate(events) if name == "response.output_text.delta")
    return Reply(events=events, cut_after=delta + 1, cut_mode="reset")


def test_openai_a_search_finished_before_the_break_is_counted(gpt, server):  # noqa: F811
    gpt.web = WebAccess(max_uses=5)
    server.push(RESPONSES, oa_cut_after_search(oa_search("ws_1", "sourdough price", PAGE),
                                               oa_open("ws_2", PAGE)))
    with pytest.raises(EngineError) as caught:
        gpt.turn(SYSTEM, TOOLS, OA_FIRST)
    err = caught.value
    assert err.code == STREAM_BROKEN
    assert (err.web.search_count, err.web.fetch_count) == (1, 1)
    assert err.web.pages == [] and err.web.searches == []


def test_openai_a_failed_search_is_not_counted(gpt, server):  # noqa: F811
    gpt.web = WebAccess(max_uses=5)
    server.push(RESPONSES, oa_cut_after_search(oa_search("ws_1", "rye", status="failed")))
    with pytest.raises(EngineError) as caught:
        gpt.turn(SYSTEM, TOOLS, OA_FIRST)
    assert caught.value.web is None
