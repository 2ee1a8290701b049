"""Whole runs with lookups (issue 37): the real loop, the real Claude and OpenAI engines and
their SDKs, against the loopback services. A task with the switch on ends with its sources
in its round record and its searches in the cost; a task without it is offered no web tool;
and each step repeats the previous request byte for byte, the tools and system prompt the
same in every round of a kind (the cached share is measured as bench/cache_prefix does)."""

from __future__ import annotations

import statistics

import pytest

from app.core.records.events import WebLookedUp
from app.core.run.loop import Harness
from app.core.records.records import read_rounds, read_run
from app.core.settings import Settings
from app.engines.prices import web_prices
from app.engines.setup import build_engine
from bench.cache_prefix import analyse
from tests.engines import fake_servers as fake
from tests.engines.conftest import CLAUDE_KEY, OPENAI_KEY
from tests.engines.web_blocks import (cited, fetch_result, oa_cited, oa_open, oa_search,
                                      search_result, server_use)
from tests.scripted import board_workspace, fast_limits

TASKS = 3


def board(web_tasks: int, plain_tasks: int) -> str:
    lines = ["# Bakery", ""]
    for n in range(1, web_tasks + 1):
        lines += [f"- [ ] Find what bakery {n} charges for sourdough", "  - Web: yes",
                  f"  - Done when: prices-{n}.md names the price and its page"]
    for n in range(1, plain_tasks + 1):
        lines += [f"- [ ] Tidy note {n}", f"  - Done when: note-{n}.md is tidy"]
    return "\n".join(lines) + "\n"


def page(n: int) -> str:
    return f"https://bakery-{n}.example/prices"


def claude_round(n: int, web: bool) -> list:
    out = f"prices-{n}.md" if web else f"note-{n}.md"
    first = ([server_use(f"srvtoolu_{n}a", "web_search", query=f"bakery {n} sourdough price"),
              search_result(f"srvtoolu_{n}a", (page(n), f"Bakery {n} prices")),
              server_use(f"srvtoolu_{n}b", "web_fetch", url=page(n)),
              fetch_result(f"srvtoolu_{n}b", page(n), f"Bakery {n}", f"Sourdough {n}.80"),
              cited(f"Bakery {n} charges {n}.80.", page(n), f"Bakery {n} prices",
                    f"Sourdough {n}.80")] if web else [fake.text_block("Tidying.")])
    evidence = [out, page(n)] if web else [out]
    return [fake.claude_stream(first + [fake.tool_use(f"toolu_{n}1", "write_file", {
                "path": out, "content": f"Sourdough {n}.80\n"})]),
            fake.claude_stream([fake.text_block("Checking."),
                                fake.tool_use(f"toolu_{n}2", "read_file", {"path": out})]),
            fake.claude_stream([fake.tool_use(f"toolu_{n}3", "complete_task", {
                "summary": "Done.", "evidence": evidence})])]


def openai_round(n: int, web: bool) -> list:
    out = f"prices-{n}.md" if web else f"note-{n}.md"
    said = f"Bakery {n} charges {n}.80."
    first = ([oa_search(f"ws_{n}a", f"bakery {n} sourdough price", page(n)),
              oa_open(f"ws_{n}b", page(n)),
              oa_cited(said, f"msg_{n}a", (f"{n}.80", page(n), f"Bakery {n} prices"))]
             if web else [fake.oa_message("Tidying.", item_id=f"msg_{n}a")])
    evidence = [out, page(n)] if web else [out]
    return [fake.oa_stream(first + [fake.oa_call(f"call_{n}1", "write_file", {
                "path": out, "content": f"Sourdough {n}.80\n"})]),
            fake.oa_stream([fake.oa_message("Checking.", item_id=f"msg_{n}b"),
                            fake.oa_call(f"call_{n}2", "read_file", {"path": out})]),
            fake.oa_stream([fake.oa_call(f"call_{n}3", "complete_task", {
                "summary": "Done.", "evidence": evidence})])]


VENDORS = {"Claude": ("anthropic", "/v1/messages", claude_round, ""),
           "OpenAI": ("openai", "/v1/responses", openai_round, "/v1")}


def run(vendor, server, tmp_path, monkeypatch, web_tasks: int, plain_tasks: int):
    monkeypatch.setenv("ANTHROPIC_API_KEY", CLAUDE_KEY)
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    engine_id, path, replies, suffix = VENDORS[vendor]
    ws = board_workspace(tmp_path, board(web_tasks, plain_tasks))
    for n in range(1, web_tasks + 1):
        server.push(path, *replies(n, True))
    for n in range(1, plain_tasks + 1):
        server.push(path, *replies(n, False))
    engine = build_engine(Settings(), ws.root, engine_id, base_url=server.url + suffix)
    events: list = []
    result = Harness(ws, engine, fast_limits(), listeners=[events.append]).run()
    assert result.exit_reason == "all_tasks_done", result.message
    assert server.refusals == [] and server.flags == []
    return ws, result, events, [r.raw for r in server.requests if r.path == path]


@pytest.mark.parametrize("vendor", list(VENDORS))
def test_a_task_that_may_look_up_ends_with_its_sources_and_their_cost(
        vendor, server, tmp_path, monkeypatch):
    ws, result, events, bodies = run(vendor, server, tmp_path, monkeypatch, 1, 1)
    web_round, plain_round = read_rounds(ws.run_files(result.run_id))
    web = web_round.web
    assert [s.query for s in web.searches] == ["bakery 1 sourdough price"]
    assert [(p.url, p.fetched) for p in web.pages] == [(page(1), True)]
    assert [c.url for c in web.citations] == [page(1)]
    assert web_round.evidence == ["prices-1.md", page(1)]
    assert plain_round.web is None
    assert any(isinstance(e, WebLookedUp) for e in events)
    # The search is in the cost, at the service's price per search.
    per_search = web_prices(VENDORS[vendor][0])[0] / 1000
    info = read_run(ws.run_files(result.run_id))
    assert info.cost_usd >= web_round.cost_usd >= per_search
    # The task without the switch was offered no web tool: not a byte of one.
    assert all(b"web_search" not in raw for raw in bodies[3:])
    assert all(b"web_search" in raw for raw in bodies[:3])


@pytest.mark.parametrize("vendor", list(VENDORS))
def test_web_rounds_keep_the_cached_prefix(vendor, server, tmp_path, monkeypatch, capsys):
    _, _, _, bodies = run(vendor, server, tmp_path, monkeypatch, TASKS, 1)
    web = analyse(vendor, [bodies[:3 * TASKS]])
    both = analyse(vendor, [bodies])
    assert min(web["kept"]) == 1.0  # each step repeats the previous request byte for byte
    assert web["heads"] == 1        # tools and system prompt the same in every web round
    assert both["heads"] == 2       # and one other head for the rounds without lookups
    with capsys.disabled():
        print(f"\n{vendor} web rounds: cached share of each step after the first, median "
              f"{statistics.median(web['served']):.1%}, lowest {min(web['served']):.1%}")
