"""A round's web sources on screen (issue 37): the round card's lines, the sources view in the
evidence, the decision dialog and the careful approval, links that open in the browser only."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices

from app.core.records.events import RoundFinished
from app.core.run.loop import Harness
from app.core.policies.approver import ApprovalRequest
from app.core.records.records import read_rounds
from app.core.web.types import WebActivity, WebCitation, WebPage, WebSearch
from app.engines.demo.engine import DemoEngine
from app.engines.demo.web import ORDERS_URL, VISITORS_URL
from app.gui import core_calls
from app.gui.careful.approval_dialog import ApprovalDialog
from app.gui.evidence.evidence_dialog import EvidenceDialog
from app.gui.evidence.sources_view import SourcesView
from app.gui.run.decision_dialog import DecisionDialog
from app.gui.run.round_cards import RoundCard, RoundCardList, RoundView
from tests.scripted import demo_copy, fast_limits

QUERIES = ("bakery homepage: order cakes online or tell our story",
           "Ashford Green bakery website reviews")


@pytest.fixture(scope="module")
def asked(tmp_path_factory):
    """The demo's first run, stopped at its decision: round 3 looked things up and asked."""
    ws = demo_copy(tmp_path_factory.mktemp("web"))
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    assert result.exit_reason == "human_decision_needed"
    return ws, read_rounds(ws.run_files(result.run_id))


def many_lookups() -> WebActivity:
    return WebActivity(
        searches=[WebSearch(query=f"query {i}", results=i) for i in range(5)],
        pages=[WebPage(url=f"https://www.site{i}.example/p", title=f"Page {i}")
               for i in range(6)] + [WebPage(url="https://example.net/x", error="url_not_accessible")],
        search_count=5)


def lookups_label(card: RoundCard):
    return card.findChild(object, "roundLookups")


def test_the_card_says_what_the_round_looked_up(qtbot, asked):
    ws, rounds = asked
    card = RoundCard(RoundView.from_record(rounds[2]))
    qtbot.addWidget(card)
    assert lookups_label(card).text().splitlines() == [
        "Looked up: 2 searches, 2 pages read",
        f"Searched for “{QUERIES[0]}”, “{QUERIES[1]}”",
        "Sites: example.com, example.org"]
    assert "Looked up: 2 searches, 2 pages read. Searched for" in card.accessibleDescription()
    plain = RoundCard(RoundView.from_record(rounds[0]))  # a round that looked nothing up
    qtbot.addWidget(plain)
    assert lookups_label(plain) is None and "Looked up" not in plain.accessibleDescription()


def test_a_long_lookup_is_cut_short_on_the_card_and_a_refused_page_is_not_counted(qtbot):
    cards = RoundCardList()
    qtbot.addWidget(cards)
    card = cards.round_finished(RoundFinished(round=1, task="Compare suppliers",
                                              result_state="completed", web=many_lookups()),
                                is_ai=True)
    assert lookups_label(card).text().splitlines() == [
        "Looked up: 5 searches, 6 pages read",
        "Searched for “query 0”, “query 1”, “query 2” and 2 more",
        "Sites: site0.example, site1.example, site2.example, site3.example and 2 more"]
    one = WebActivity(searches=[WebSearch(query="x", results=1)], search_count=1,
                      pages=[WebPage(url="https://example.com/a")])
    single = cards.round_finished(RoundFinished(round=2, task="t", result_state="completed",
                                                web=one), is_ai=True)
    assert lookups_label(single).text().startswith("Looked up: 1 search, 1 page read\n")


def test_the_evidence_lists_searches_pages_and_citing_sentences(qtbot, asked):
    ws, rounds = asked
    dialog = EvidenceDialog(ws.root, RoundView.from_record(rounds[2]))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.evidence is not None, timeout=10_000)
    view = dialog.sources
    assert view.isVisible() and view.summary.text() == "Looked up: 2 searches, 2 pages read"
    text = view.browser.toPlainText()
    assert f"“{QUERIES[0]}” — 2 results" in text and f"“{QUERIES[1]}” — found nothing" in text
    assert "Example source (made up for the demo): How small bakeries take cake orders" in text
    assert "example.com · read in full · retrieved " in text
    assert "example.org · a search result" in text
    assert "Most celebration cakes are still ordered by phone" in text  # the citing sentence
    assert "The page says: “A made-up figure for the demo" in text
    html = view.browser.toHtml()
    assert f'href="{ORDERS_URL}"' in html and f'href="{VISITORS_URL}"' in html
    other = EvidenceDialog(ws.root, RoundView.from_record(rounds[0]))
    qtbot.addWidget(other)
    other.show()
    qtbot.waitUntil(lambda: other.evidence is not None, timeout=10_000)
    assert not other.sources.isVisible()


def test_a_link_opens_in_the_browser_and_only_a_web_address(qtbot, monkeypatch):
    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(
        lambda url: opened.append(url.toString()) or True))
    view = SourcesView()
    qtbot.addWidget(view)
    view.show_web(many_lookups())
    assert view.isVisible()
    view.browser.anchorClicked.emit(QUrl("https://www.site1.example/p"))
    view.browser.anchorClicked.emit(QUrl("file:///etc/passwd"))
    assert opened == ["https://www.site1.example/p"]
    assert "could not be read" in view.browser.toPlainText()  # the refused page, said so
    view.show_web(WebActivity())  # nothing looked up: hidden
    assert not view.isVisible()


def test_the_sources_are_reachable_by_keyboard_and_named(qtbot):
    view = SourcesView()
    qtbot.addWidget(view)
    view.show_web(many_lookups())
    flags = view.browser.textInteractionFlags()
    assert flags & Qt.TextInteractionFlag.LinksAccessibleByKeyboard
    assert view.browser.focusPolicy() & Qt.FocusPolicy.TabFocus
    assert view.browser.accessibleName() == "Sources this round looked up"
    assert "Enter opens the page" in view.browser.accessibleDescription()
    assert view.browser.toolTip() and view.accessibleName().startswith(
        "Sources this round looked up: Looked up: 5 searches")


def test_the_decision_dialog_shows_what_the_ai_looked_up_before_it_asked(qtbot, asked):
    ws, _ = asked
    task = core_calls.open_decision(ws.root)
    dialog = DecisionDialog(task, ws.root, lambda a: None)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.sources.isVisible(), timeout=5000)
    assert dialog.sources.heading.text() == "Looked up before the question was asked"
    assert "found nothing" in dialog.sources.browser.toPlainText()


def test_a_decision_with_no_lookups_shows_no_sources(qtbot, tmp_path):
    (tmp_path / "TASKS.md").write_text("- [ ] HUMAN: Blue or green?\n  - Option: blue\n"
                                       "  - Option: green\n", encoding="utf-8")
    task = core_calls.open_decision(tmp_path)
    dialog = DecisionDialog(task, tmp_path, lambda a: None)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.wait(200)
    assert not dialog.sources.isVisible()


def request(web) -> ApprovalRequest:
    return ApprovalRequest(round=2, task="Update the price list", path="prices.md",
                           action="write", before=b"Sourdough 4.00\n",
                           after=b"Sourdough 4.20\n", policies=["existing_file"], web=web)


def test_the_approval_shows_the_sources_the_proposal_rests_on(qtbot):
    web = WebActivity(pages=[WebPage(url="https://example.com/prices", title="Prices",
                                     fetched=True)],
                      citations=[WebCitation(url="https://example.com/prices", title="Prices",
                                             sentence="The others charge 4.20.")],
                      fetch_count=1)
    dialog = ApprovalDialog(request(web))
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.sources.isVisible()
    assert dialog.sources.heading.text() == "This proposal rests on these sources"
    assert "The others charge 4.20. — Prices" in dialog.sources.browser.toPlainText()
    plain = ApprovalDialog(request(None))
    qtbot.addWidget(plain)
    plain.show()
    assert not plain.sources.isVisible()


def test_an_approval_in_a_careful_run_carries_the_lookups_made_before_it(tmp_path):
    """The loop hands the round's lookups so far to the change gate: the request has them."""
    from app.core.policies.approver import Answer
    from tests.scripted import ScriptedEngine, board_workspace, call

    seen: list = []

    class Approver:
        def ask(self, req, cancel=None):
            seen.append(req)
            return Answer("allow")

    look = call("read_file", path="prices.md")
    look.web = WebActivity(searches=[WebSearch(query="sourdough price", results=1)],
                           pages=[WebPage(url="https://example.com/p", title="P")],
                           search_count=1)
    ws = board_workspace(tmp_path, "- [ ] Update prices.md\n", {"prices.md": "4.00\n"})
    engine = ScriptedEngine([look, call("write_file", path="prices.md", content="4.20\n"),
                             call("complete_task", summary="Updated.", evidence=["prices.md"])])
    Harness(ws, engine, fast_limits(max_rounds=1), careful=True, approver=Approver()).run()
    assert len(seen) == 1 and seen[0].web is not None
    assert seen[0].web.searches[0].query == "sourdough price"
    assert Path(ws.root / "prices.md").read_text(encoding="utf-8") == "4.20\n"


@pytest.fixture
def in_chinese(qapp):
    from app.gui.settings import language

    assert language.install(qapp, "zh_CN") == "zh_CN"
    yield qapp
    language.install(qapp, "en")


def test_in_chinese_the_card_and_the_sources_speak_chinese(qtbot, in_chinese, tmp_path):
    import shutil

    from app.core.resources import resource_path
    from app.core.workspace.workspace import Workspace

    target = tmp_path / "演示"
    shutil.copytree(resource_path("demo-workspace-zh"), target)
    ws = Workspace(target)
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    record = read_rounds(ws.run_files(result.run_id))[2]
    card = RoundCard(RoundView.from_record(record))
    qtbot.addWidget(card)
    assert lookups_label(card).text().splitlines() == [
        "查了资料：搜索 2 次，读了 2 个网页",
        "搜索了“面包房首页：主打在线订蛋糕还是讲我们的故事”、“青石镇 面包房 网站 评价”",
        "网站：example.com、example.org"]
    view = SourcesView(heading="")
    qtbot.addWidget(view)
    view.show_web(record.web)
    text = view.browser.toPlainText()
    assert view.heading.text() == "这一轮查阅的来源"
    assert "“青石镇 面包房 网站 评价” — 什么也没找到" in text
    assert "example.com · 读了全文 · 获取于 " in text and "引用这些来源的句子" in text
    # the Demo's sources are made up: no AI service looked them up (walk8b)
    assert "为演示编造：演示引擎什么都没有查，也没有任何内容离开这台电脑。" in text
    assert "AI 服务" not in text
