"""OpenAI's built-in web search (issue 37) through the real openai SDK against the loopback
Responses API, which serves lookups as the service does (sources only when included, only
the allowed sites, nothing when the tool was not offered) and refuses what it would refuse
(tests/engines/web_rules.py)."""

from __future__ import annotations

import json

import pytest

from app.core.engine.conversation import Message, ToolResult
from app.core.engine.port import BAD_REQUEST, EngineError
from app.core.web.types import WebAccess
from app.engines.openai import web as openai_web
from app.engines.openai.web import INCLUDE_SOURCES
from tests.engines.fake_servers import oa_call, oa_events, oa_message, oa_response, oa_stream
from tests.engines.openai.test_openai_engine import FIRST, RESPONSES, SYSTEM, TOOLS, gpt  # noqa: F401
from tests.engines.web_blocks import oa_cited, oa_open, oa_search

BAKERY = "https://www.rye-and-co.example/prices"
MILL = "https://mill.example/sourdough"
SAID = "Rye & Co sells a sourdough loaf for 4.80. The Mill asks 5.10."


def looked_up() -> list[dict]:
    return [oa_search("ws_01", "sourdough loaf price Millbrook", BAKERY, MILL),
            oa_open("ws_02", BAKERY),
            oa_cited(SAID, "msg_01", ("4.80", BAKERY, "Rye & Co price list"),
                     ("5.10", MILL, "The Mill")),
            oa_call("call_9", "write_file", {"path": "prices.md", "content": "4.80\n"})]


def test_no_web_tool_and_no_include_without_the_switch(gpt, server):
    server.push(RESPONSES, oa_stream([oa_message("ok")]))
    gpt.turn(SYSTEM, TOOLS, FIRST)
    body = server.bodies(RESPONSES)[-1]
    assert b"web_search" not in server.requests[-1].raw
    assert [t["type"] for t in body["tools"]] == ["function", "function"]
    assert INCLUDE_SOURCES not in body.get("include", [])


def test_with_the_switch_the_web_search_tool_follows_ours_and_sources_are_asked_for(gpt, server):
    gpt.web = WebAccess(max_uses=20, allowed_domains=["gov.uk", "food.gov.uk"])
    server.push(RESPONSES, oa_stream([oa_message("ok")]))
    gpt.turn(SYSTEM, TOOLS, FIRST)
    body = server.bodies(RESPONSES)[-1]
    assert body["tools"][-1] == {"type": "web_search",
                                 "filters": {"allowed_domains": ["gov.uk", "food.gov.uk"]}}
    assert [t["type"] for t in body["tools"]] == ["function", "function", "web_search"]
    assert body["include"] == ["reasoning.encrypted_content", INCLUDE_SOURCES]
    assert server.refusals == []


def test_searches_pages_and_citations_are_read_from_the_response(gpt, server):
    gpt.web = WebAccess()
    server.push(RESPONSES, oa_stream(looked_up()))
    turn = gpt.turn(SYSTEM, TOOLS, FIRST)
    web = turn.web
    assert [(s.query, s.results) for s in web.searches] == [("sourdough loaf price Millbrook", 2)]
    pages = {p.url: p for p in web.pages}
    assert pages[BAKERY].fetched and pages[BAKERY].title == "Rye & Co price list"
    assert not pages[MILL].fetched and pages[MILL].title == "The Mill"
    assert [(c.url, c.sentence) for c in web.citations] == [
        (BAKERY, "Rye & Co sells a sourdough loaf for 4.80."), (MILL, "The Mill asks 5.10.")]
    assert (web.search_count, web.fetch_count) == (1, 1)
    assert web.seen_urls() == {BAKERY, MILL}
    assert [c.name for c in turn.tool_calls] == ["write_file"]


def test_without_the_include_the_service_sends_no_sources(gpt, server, monkeypatch):
    """The fake service, as the real one, lists a search's sources only when asked: a
    request that forgot the include finds nothing to show."""
    gpt.web = WebAccess()
    monkeypatch.setattr("app.engines.openai.engine.INCLUDE_SOURCES",
                        "web_search_call.results")
    server.push(RESPONSES, oa_stream(looked_up()))
    web = gpt.turn(SYSTEM, TOOLS, FIRST).web
    assert [s.results for s in web.searches] == [0]


def test_the_response_goes_back_exactly_as_it_came(gpt, server):
    gpt.web = WebAccess()
    server.push(RESPONSES, oa_stream(looked_up()), oa_stream([oa_message("done")]))
    turn = gpt.turn(SYSTEM, TOOLS, FIRST)
    history = FIRST + [Message(role="assistant", text=turn.text, tool_calls=turn.tool_calls,
                               record=turn.record),
                       Message(role="user", tool_results=[ToolResult(
                           call_id="call_9", name="write_file", content="Wrote prices.md")])]
    gpt.turn(SYSTEM, TOOLS, history)
    assert server.refusals == [] and server.flags == []
    items = server.bodies(RESPONSES)[-1]["input"]
    came = json.loads(json.dumps(looked_up()))
    assert items[2:4] == came[:2]  # the search and the opened page, as sent
    assert items[4]["content"][0]["annotations"] == came[2]["content"][0]["annotations"]


def test_a_failed_search_is_read_with_its_status(gpt, server):
    gpt.web = WebAccess()
    server.push(RESPONSES, oa_stream([oa_search("ws_1", "rye", status="failed"),
                                      oa_message("The search failed.")]))
    web = gpt.turn(SYSTEM, TOOLS, FIRST).web
    assert [(s.query, s.results, s.error) for s in web.searches] == [("rye", 0, "failed")]


def test_the_allowed_sites_filter_the_sources(gpt, server):
    gpt.web = WebAccess(allowed_domains=["mill.example"])
    server.push(RESPONSES, oa_stream(looked_up()))
    web = gpt.turn(SYSTEM, TOOLS, FIRST).web
    assert [s.results for s in web.searches] == [1]
    assert MILL in web.seen_urls()


def test_the_events_and_response_are_the_sdks_own_types():
    from openai.types.responses import Response, ResponseStreamEvent
    from pydantic import TypeAdapter

    response = oa_response(looked_up())
    Response.model_validate(response)
    events = TypeAdapter(ResponseStreamEvent)
    for _, event in oa_events(response):
        events.validate_python(event)


def test_an_unknown_tool_type_is_refused_as_the_service_does(gpt, server, monkeypatch):
    gpt.web = WebAccess()
    monkeypatch.setattr(openai_web, "web_tool", lambda access: {"type": "web_lookup"})
    monkeypatch.setattr("app.engines.openai.engine.web_tool", openai_web.web_tool)
    server.push(RESPONSES, oa_stream([oa_message("ok")]))
    with pytest.raises(EngineError) as caught:
        gpt.turn(SYSTEM, TOOLS, FIRST)
    assert caught.value.code == BAD_REQUEST and "web_lookup" in caught.value.details
