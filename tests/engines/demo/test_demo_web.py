"""The Demo engine's scripted lookup (issue 37): the bakery's compare task looks things up,
with made-up sources that say so, and the loop records them on the round and its event."""

from __future__ import annotations

import shutil

from app.core.board.board import update_board
from app.core.records.events import RoundFinished
from app.core.run.loop import Harness
from app.core.records.records import read_events, read_rounds
from app.core.resources import resource_path
from app.core.workspace.workspace import Workspace
from app.core.web.types import WebActivity, WebCitation, WebPage, WebSearch
from app.engines.demo.engine import DemoEngine
from app.engines.demo.web import COMPARE_TASKS
from tests.scripted import ScriptedEngine, board_workspace, call, demo_copy, fast_limits

COMPARE = "Compare two directions for the homepage"


def _rounds(ws, run_id):
    return read_rounds(ws.run_files(run_id))


def test_the_demo_compare_round_records_labelled_made_up_sources(tmp_path):
    ws = demo_copy(tmp_path)
    first = Harness(ws, DemoEngine(), fast_limits()).run()
    assert first.exit_reason == "human_decision_needed"
    rounds = _rounds(ws, first.run_id)
    assert [r.web is not None for r in rounds] == [False, False, True]  # only the compare task
    web = rounds[2].web
    assert rounds[2].task.startswith(COMPARE) and rounds[2].result_state == "needs_human"
    assert [(s.query, s.results) for s in web.searches] == [
        ("bakery homepage: order cakes online or tell our story", 2),
        ("Ashford Green bakery website reviews", 0)]  # one search found nothing
    assert (web.search_count, web.fetch_count) == (2, 1)
    assert [p.site for p in web.pages] == ["example.com", "example.org"]  # reserved names
    assert [p.fetched for p in web.pages] == [True, False]  # the read copy replaced the hit
    assert all(p.title.startswith("Example source (made up for the demo): ")
               and p.retrieved_at for p in web.pages)
    assert len(web.citations) == 2 and all("made-up" in c.cited_text for c in web.citations)
    assert web.seen_urls() == {p.url for p in web.pages}
    finished = [e for e in read_events(ws.run_files(first.run_id))
                if isinstance(e, RoundFinished)]
    assert finished[2].web == web and finished[0].web is None  # the live card gets it too
    # Once the person has answered, the second round of the task writes without lookups.
    update_board(ws.board_path, lambda b: b.answer_human("trust"))
    second = Harness(ws, DemoEngine(), fast_limits()).run()
    assert second.exit_reason == "all_tasks_done"
    assert all(r.web is None for r in _rounds(ws, second.run_id))


def test_the_chinese_demo_looks_up_with_chinese_labels(tmp_path):
    target = tmp_path / "演示"
    shutil.copytree(resource_path("demo-workspace-zh"), target)
    ws = Workspace(target)
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    web = _rounds(ws, result.run_id)[2].web
    assert web is not None and web.searches[0].query.startswith("面包房首页")
    assert all(p.title.startswith("示例来源（为演示编造）：") for p in web.pages)
    assert all(p.site in ("example.com", "example.org") for p in web.pages)
    assert "为演示编造" in web.citations[0].cited_text


def test_a_persons_own_task_gets_no_made_up_sources(tmp_path):
    # The compare task's very words, but the person's own file: a sample, and no lookup.
    board = ("- [ ] Compare two directions for the homepage: speed (order online fast) or trust "
             "(our story and our bakers)\n  - Done when: notes/ideas.md lists both\n"
             "  - Web: yes\n")
    ws = board_workspace(tmp_path, board)
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    assert result.exit_reason == "samples_shown"
    assert all(r.web is None for r in _rounds(ws, result.run_id))


def test_with_the_switch_off_the_demo_looks_nothing_up(tmp_path):
    """Without its "Web: yes" line the compare task may not look things up: the loop gives
    the round no web access (the engine's `web` is None) and the Demo looks nothing up."""
    ws = demo_copy(tmp_path)
    board = ws.board_path.read_text(encoding="utf-8")
    ws.board_path.write_text(board.replace("  - Web: yes\n", ""), encoding="utf-8")
    engine = DemoEngine()
    engine.web = None  # as the loop sets it for such a round
    result = Harness(ws, engine, fast_limits()).run()
    assert result.exit_reason == "human_decision_needed"
    assert all(r.web is None for r in _rounds(ws, result.run_id))


def test_the_demo_boards_let_the_compare_task_look_things_up():
    from app.core.board.board import Board

    for folder in ("demo-workspace", "demo-workspace-zh"):
        tasks = Board.load(resource_path(folder, "TASKS.md")).tasks
        marked = [t.text for t in tasks if "Web: yes" in " ".join(t.details)]
        assert len(marked) == 1 and marked[0] in COMPARE_TASKS


def test_the_loop_sums_every_reply_lookups_into_the_round(tmp_path):
    one = call("list_files", path=".")
    one.web = WebActivity(searches=[WebSearch(query="oat milk suppliers", results=3)],
                          pages=[WebPage(url="https://example.com/a", title="A")],
                          search_count=1)
    two = call("complete_task", summary="Compared.", evidence=["TASKS.md"])
    two.web = WebActivity(pages=[WebPage(url="https://example.com/a", title="A", fetched=True),
                                 WebPage(url="https://example.org/b", title="B")],
                          citations=[WebCitation(url="https://example.org/b", title="B",
                                                 sentence="B is cheapest.")],
                          fetch_count=1)
    ws = board_workspace(tmp_path, "- [ ] Compare oat milk suppliers\n")
    result = Harness(ws, ScriptedEngine([one, two]), fast_limits(max_rounds=1)).run()
    web = _rounds(ws, result.run_id)[0].web
    assert (web.search_count, web.fetch_count, len(web.searches)) == (1, 1, 1)
    assert [(p.url, p.fetched) for p in web.pages] == [("https://example.com/a", True),
                                                       ("https://example.org/b", False)]
    assert web.citations[0].sentence == "B is cheapest."
