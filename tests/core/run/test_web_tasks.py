"""Tasks that may look things up on the web (issue 37): the board's "Web:" line, the folder's
default, what the loop offers, counts, charges and caps, and the evidence check."""

from __future__ import annotations

import pytest

from app.core.board.board import Board
from app.core.board.verbs import set_web
from app.core.engine.conversation import ModelTurn, ToolCall, Usage
from app.core.records.events import RunStarted, WebLookedUp
from app.core.workspace.folder_settings import FolderSettings, load_folder_settings, save_folder_settings
from app.core.run.loop import Harness
from app.core.records.narrate import describe_event
from app.core.records.records import read_rounds
from app.core.run.reports import SYSTEM_PROMPT
from app.core.web.round import WEB_RULES
from app.core.web.types import WebActivity, WebPage, WebSearch
from app.engines.prices import PricedEngine, web_prices
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

PAGE = "https://www.rye-and-co.example/prices"
BOARD = """# Bakery

- [ ] Check what the other bakeries charge for sourdough
  - Web: yes
  - Done when: prices.md lists them
- [ ] Tidy the notes
"""


@pytest.fixture(autouse=True)
def config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))


class Looker(PricedEngine, ScriptedEngine):
    """The scripted engine, priced as Claude is, able to look things up; it notes what the
    loop let it offer on each turn."""

    id = "anthropic"
    label = "Claude"
    default_model = "claude-sonnet-5-5"
    looks_up = True

    def __init__(self, script, **kw):
        super().__init__(script, **kw)
        self.offered: list = []

    def turn(self, system, tools, messages, **kw):
        self.offered.append(self.web)
        return super().turn(system, tools, messages, **kw)


def searched(*calls: ToolCall, searches: int = 1, url: str = PAGE) -> ModelTurn:
    web = WebActivity(searches=[WebSearch(query=f"sourdough price {n}", results=1)
                                for n in range(searches)],
                      pages=[WebPage(url=url, title="Rye & Co", fetched=True)],
                      search_count=searches, fetch_count=1)
    return ModelTurn(tool_calls=list(calls), web=web, usage=Usage(input_tokens=10),
                     stop_reason="tool_use" if calls else "end_turn")


def done(*evidence: str) -> ToolCall:
    return ToolCall(id="c-done", name="complete_task",
                    arguments={"summary": "Listed the prices.", "evidence": list(evidence)})


def write() -> ToolCall:
    return ToolCall(id="c-w", name="write_file", arguments={"path": "prices.md",
                                                            "content": "Rye & Co 4.80\n"})


def run(ws, engine, **limits):
    events = []
    result = Harness(ws, engine, fast_limits(**limits), listeners=[events.append]).run()
    return result, events


# -- the board's line and the folder's default -----------------------------------------------

@pytest.mark.parametrize("line, said", [("Web: yes", True), ("web:NO", False), ("Web: on", True),
                                        ("Web: off.", False), ("Web: 是", True),
                                        ("Web: maybe", None), ("Website: yes", None)])
def test_the_web_line_is_read_as_a_person_writes_it(line, said):
    task = Board.parse(f"- [ ] Find the allergen rules\n  - {line}\n").tasks[0]
    assert task.web is said
    assert task.may_look_up(False) is (said is True)
    assert task.may_look_up(True) is (said is not False)


def test_setting_the_switch_changes_only_that_line(tmp_path):
    path = tmp_path / "TASKS.md"
    before = "# B\r\n\r\n* [ ] Compare oat milk suppliers\r\n    * Done when: a table\r\n* [ ] Other\r\n"
    path.write_bytes(before.encode())
    ref = Board.load(path).tasks[0].ref
    set_web(path, ref, True)
    after = path.read_bytes().decode()
    assert after == before.replace("a table\r\n", "a table\r\n    * Web: yes\r\n")
    assert Board.load(path).tasks[0].web is True
    set_web(path, ref, False, folder_default=True)  # the folder says yes: the task says no
    assert "    * Web: no\r\n" in path.read_bytes().decode()
    set_web(path, ref, True, folder_default=True)   # as the folder: the line goes
    assert path.read_bytes().decode() == before


def test_the_folder_default_is_off_and_kept(tmp_path):
    assert FolderSettings().web is False
    save_folder_settings(tmp_path, FolderSettings(web=True))
    assert load_folder_settings(tmp_path).web is True


# -- what the loop offers ----------------------------------------------------------------------

def test_only_the_task_with_the_switch_gets_web_tools_and_rules(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    engine = Looker([searched(write()), searched(done("prices.md")),
                     call("write_file", path="notes.md", content="tidy"),
                     call("complete_task", summary="Tidied.", evidence=["notes.md"])])
    result, events = run(ws, engine)
    assert result.exit_reason == "all_tasks_done"
    first, second = engine.requests[0], engine.requests[2]
    assert engine.offered[0] is not None and engine.offered[0].max_uses == 20
    assert first["system"] == SYSTEM_PROMPT + WEB_RULES
    assert engine.offered[2] is None and second["system"] == SYSTEM_PROMPT
    assert engine.web is None  # after the round: a plan or another run decides afresh
    report = first["messages"][0].text
    assert "Web: this task may look things up (20 of 20 lookups left" in report
    assert "- Web: yes" not in report


def test_the_folder_default_and_a_tasks_no(tmp_path):
    ws = board_workspace(tmp_path, BOARD.replace("Web: yes", "Web: no"))
    save_folder_settings(ws.harness_dir, FolderSettings(web=True))
    engine = Looker([call("write_file", path="prices.md", content="x"),
                     call("complete_task", summary="ok", evidence=["prices.md"]),
                     call("write_file", path="notes.md", content="x"),
                     call("complete_task", summary="ok", evidence=["notes.md"])])
    run(ws, engine)
    assert engine.offered[0] is None and engine.offered[2] is not None


# -- counted, charged, capped -----------------------------------------------------------------

def test_the_rounds_lookups_are_summed_priced_and_shown_live(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    engine = Looker([searched(write(), searches=2), searched(done("prices.md", PAGE))])
    result, events = run(ws, engine, max_rounds=1)
    (record, *_) = read_rounds(ws.run_files(result.run_id))
    assert record.result_state == "completed"
    assert record.web.search_count == 3 and record.web.fetch_count == 2
    assert [p.url for p in record.web.pages] == [PAGE]
    assert record.evidence == ["prices.md", PAGE]
    search, fetch = web_prices("anthropic")
    assert (search, fetch) == (10.0, 0.0)
    tokens = engine.cost_usd(Usage(input_tokens=10))
    assert record.cost_usd == pytest.approx(2 * tokens + 3 * search / 1000)
    live = [e for e in events if isinstance(e, WebLookedUp)]
    assert [(e.step, e.search_count, e.task_lookups, e.max_lookups) for e in live] == [
        (1, 2, 3, 20), (2, 1, 5, 20)]


def test_the_budget_stop_counts_the_lookups(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    # Ten searches cost $0.10, far more than the tokens: the next step would pass $0.05.
    engine = Looker([searched(write(), searches=10)], then=searched(write(), searches=10))
    result, _ = run(ws, engine, budget_usd=0.05)
    assert result.exit_reason == "budget_exhausted"
    assert len(engine.requests) == 1


def test_a_task_stops_at_its_lookup_cap_with_a_sentence(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    engine = Looker([], then=searched(write(), searches=2))
    result, events = run(ws, engine, max_lookups=4, max_rounds=1)
    (record, *_) = read_rounds(ws.run_files(result.run_id))
    assert record.result_state == "step_limit" and record.steps == 2  # 3 lookups a step
    assert record.error == ("This task reached its limit of 4 web lookups (6 made), so the "
                            "round stopped. Raise \"Web lookups per task\" in Settings to let "
                            "it look further.")
    assert record.lookup_cap == 4
    finished = [e for e in events if e.type == "round_finished"]
    assert [e.lookup_cap for e in finished] == [4]
    assert describe_event(finished[0]).startswith(
        "Round 1 ended: reached this task's limit of 4 web lookups — This task reached")


def test_a_task_that_used_up_its_lookups_stops_the_run_with_a_decision(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    engine = Looker([], then=searched(write(), searches=2))
    result, events = run(ws, engine, max_lookups=4)
    # No further round: this run could look nothing more up for the task.
    assert [e.round for e in events if e.type == "round_finished"] == [1]
    assert (result.state, result.exit_reason, result.cause) == (
        "blocked_by_human", "no_progress", "lookup_limit")
    assert result.message.endswith("reached its limit of 4 web lookups for this run. A "
                                   "decision was added to the board for you.")
    asked = [e for e in events if e.type == "human_needed"]
    assert asked[0].evidence == [
        "In round 1 this task reached its limit of 4 web lookups (6 made). Raise \"Web "
        "lookups per task\" in Settings, then choose Try again to let it look further."]
    assert "ran out of steps" not in Board.load(ws.board_path).to_bytes().decode()


def test_a_round_out_of_steps_is_not_called_a_lookup_limit(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    engine = Looker([], then=searched(write(), searches=1))
    result, _ = run(ws, engine, max_lookups=50, max_steps=2, max_rounds=1)
    (record, *_) = read_rounds(ws.run_files(result.run_id))
    assert record.result_state == "step_limit" and record.lookup_cap == 0


# -- evidence ----------------------------------------------------------------------------------

def test_evidence_may_name_only_a_page_the_round_retrieved(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    made_up = "https://made-up.example/prices"
    engine = Looker([searched(write()), searched(done("prices.md", made_up)),
                     ModelTurn(tool_calls=[done("prices.md", PAGE + "/")])])
    result, events = run(ws, engine, max_rounds=1)
    refused = [e for e in events if e.type == "tool_refused"]
    assert refused and "never retrieved: 'https://made-up.example/prices'" in refused[0].reason
    (record, *_) = read_rounds(ws.run_files(result.run_id))
    assert record.result_state == "completed"  # the page it did read, a slash aside


# -- an engine that cannot look things up --------------------------------------------------------

def test_an_engine_that_cannot_look_up_says_so_before_the_run(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    engine = ScriptedEngine([call("give_up", reason="no web", findings="none")])
    engine.label = "The local model"
    _, events = run(ws, engine, max_rounds=1)
    start = next(e for e in events if isinstance(e, RunStarted))
    assert start.web_note == ("The local model cannot look things up on the web: tasks marked "
                              "to look things up run without it. Choose Claude or OpenAI for "
                              "them.")
    assert engine.requests[0]["system"] == SYSTEM_PROMPT
    from app.core.records.narrate import describe_event

    assert describe_event(start).endswith("tasks done. " + start.web_note)  # run's first line
    (tmp_path / "b").mkdir()
    ws2 = board_workspace(tmp_path / "b", BOARD.replace("  - Web: yes\n", ""))
    _, events = run(ws2, ScriptedEngine([call("give_up", reason="x", findings="y")]),
                    max_rounds=1)
    assert next(e for e in events if isinstance(e, RunStarted)).web_note == ""


def test_a_reply_the_service_paused_mid_lookup_is_sent_back_without_a_nudge(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    paused = searched()
    paused.stop_reason = "pause_turn"
    engine = Looker([paused, searched(write()), searched(done("prices.md"))])
    result, events = run(ws, engine, max_rounds=1)
    assert [e for e in events if e.type == "notice_sent"] == []
    second = engine.requests[1]["messages"]
    assert second[-1].role == "assistant"  # the paused reply, last, for the service to go on
    (record, *_) = read_rounds(ws.run_files(result.run_id))
    assert record.result_state == "completed" and record.steps == 3


def test_the_sites_are_kept_as_the_services_take_them():
    from app.core.settings import Limits

    limits = Limits(web_allowed_domains="https://www.Food.gov.uk/labels, nhs.uk nhs.uk",
                    web_blocked_domains=[" Pinterest.com ", 7, ""])
    assert limits.web_allowed_domains == ["food.gov.uk", "nhs.uk"]
    assert limits.web_blocked_domains == ["pinterest.com"]


def test_an_engine_without_a_block_list_says_so_when_sites_are_blocked(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    engine = Looker([call("give_up", reason="x", findings="y")])
    engine.label = "OpenAI"
    _, events = run(ws, engine, max_rounds=1, web_blocked_domains=["pinterest.com"])
    start = next(e for e in events if isinstance(e, RunStarted))
    assert start.web_note == ("OpenAI's web search cannot keep away from the sites under "
                              "\"Never these sites\"; list the sites it may use under \"Only "
                              "these sites\" in Settings instead.")
    _, events = run(ws, Looker([call("give_up", reason="x", findings="y")]), max_rounds=1,
                    web_blocked_domains=["pinterest.com"], web_allowed_domains=["gov.uk"])
    assert next(e for e in events if isinstance(e, RunStarted)).web_note == ""


def test_the_persons_price_file_may_change_the_web_prices(tmp_path):
    import json

    from app.engines.prices import override_path, override_warning

    assert web_prices("openai") == (10.0, 10.0) and web_prices("local") == (0.0, 0.0)
    override_path().parent.mkdir(parents=True, exist_ok=True)
    override_path().write_text(json.dumps({"engines": {}, "web_per_1000": {
        "anthropic": {"search": 12.5}, "openai": {"search": "ten"}}}), encoding="utf-8")
    assert web_prices("anthropic") == (12.5, 0.0)
    assert web_prices("openai") == (10.0, 10.0)
    assert "web_per_1000/openai" in override_warning()


def test_a_page_read_whole_is_kept_over_a_hit_and_a_hit_over_a_refused_fetch():
    refused = WebPage(url=PAGE, fetched=True, error="url_not_allowed")
    hit = WebPage(url=PAGE, title="Rye & Co")
    read = WebPage(url=PAGE, title="Rye & Co prices", fetched=True)
    assert (WebActivity(pages=[refused]) + WebActivity(pages=[hit])).pages == [hit]
    assert (WebActivity(pages=[hit, read]) + WebActivity(pages=[refused])).pages == [read]
    assert WebActivity(pages=[refused]).seen_urls() == set()
    assert WebActivity(pages=[refused, hit]).seen_urls() == {PAGE}
