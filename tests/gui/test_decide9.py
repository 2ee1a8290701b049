"""The decision dialog reads as one calm page (decide9): the sources the asking round looked up
are on the page whole, with no scroll bar of their own, so when the screen is short there is
one scroll, the page's; no blank band under a short list; the dialog fits the screen; Tab
reaches every option, every link and Decide later, each brought into view."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QWidget

from app.core.run.loop import Harness
from app.core.web.types import WebActivity, WebSearch
from app.core.workspace.workspace import Workspace
from app.engines.demo.engine import DemoEngine
from app.gui import core_calls
from app.gui.evidence.sources_view import SourcesView
from app.gui.run.decision_dialog import DecisionDialog
from tests.scripted import fast_limits

RESOURCES = Path(__file__).resolve().parents[2] / "resources"


def stopped_demo(tmp_path: Path, chinese: bool) -> Path:
    """A copy of the bundled demo, run with the Demo engine until it stops at its decision
    (task 3, with its made-up web sources)."""
    root = tmp_path / "ws"
    shutil.copytree(RESOURCES / ("demo-workspace-zh" if chinese else "demo-workspace"), root)
    result = Harness(Workspace(root), DemoEngine(), fast_limits()).run()
    assert result.exit_reason == "human_decision_needed"
    return root


@pytest.fixture(params=[False, True], ids=["en", "zh_CN"])
def demo_dialog(request, qtbot, qapp, tmp_path):
    from app.gui.settings import language

    chinese = request.param
    root = stopped_demo(tmp_path, chinese)
    language.install(qapp, "zh_CN" if chinese else "en")
    try:
        task = core_calls.open_decision(root)
        dialog = DecisionDialog(task, root, lambda _a: None, asked_now=True)
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        qtbot.waitUntil(lambda: dialog.sources.isVisible(), timeout=5000)
        qtbot.wait(50)  # the dialog grows for them
        yield dialog
    finally:
        language.install(qapp, "en")


def own_scroll_bars(page: QWidget) -> list[str]:
    """The widgets inside the page that show a scroll bar of their own, or could scroll."""
    found = []
    for area in page.findChildren(QAbstractScrollArea):
        if not area.isVisible():
            continue
        for bar in (area.verticalScrollBar(), area.horizontalScrollBar()):
            if bar.isVisible() or bar.maximum() > 0:
                found.append(f"{area.objectName() or type(area).__name__}: "
                             f"{bar.orientation().name} up to {bar.maximum()}")
    return found


def test_the_page_scrolls_as_one_and_the_sources_list_has_no_scroll_of_its_own(demo_dialog):
    dialog = demo_dialog
    scroll = dialog.pages.widget(0)
    page = scroll.widget()
    assert own_scroll_bars(page) == []
    browser = dialog.sources.browser
    whole = browser.document().size().height()
    assert browser.viewport().height() >= whole - 1, (browser.viewport().height(), whole)
    # All of it is on the page: the page is taller than the screen lets the dialog be, and
    # it is the page that scrolls, to its last line.
    assert scroll.verticalScrollBar().maximum() > 0
    scroll.verticalScrollBar().setValue(scroll.verticalScrollBar().maximum())
    bottom = dialog.sources.mapTo(page, dialog.sources.rect().bottomLeft()).y()
    assert bottom <= scroll.verticalScrollBar().value() + scroll.viewport().height()


def test_no_blank_band_under_the_list_and_the_dialog_fits_the_screen(demo_dialog):
    dialog = demo_dialog
    scroll = dialog.pages.widget(0)
    page = scroll.widget()
    # The page scrolls, so it is exactly as tall as what it holds: the room under the list
    # is the page's margin, not a band.
    under = page.height() - dialog.sources.geometry().bottom()
    assert under <= page.layout().contentsMargins().bottom() + 2, under
    area = dialog.screen().availableGeometry()
    frame = dialog.frameGeometry()
    assert area.top() <= frame.top() and frame.bottom() <= area.bottom(), (frame, area)
    later = dialog.later_button
    assert later.isVisible()
    assert later.mapTo(dialog, later.rect().bottomLeft()).y() <= dialog.height()


def test_a_short_list_is_as_tall_as_its_words(qtbot):
    """In the evidence window (capped, its own box) and on a page alike: one search makes a
    short list, with no blank box under it."""
    one = WebActivity(searches=[WebSearch(query="opening hours", results=0)], search_count=1)
    for cap in (200, None):
        holder = QWidget()
        qtbot.addWidget(holder)
        view = SourcesView(holder, max_height=cap)
        holder.resize(500, 600)
        view.show_web(one)
        holder.show()
        qtbot.waitExposed(holder)
        view.setGeometry(0, 0, 500, view.heightForWidth(500) if view.hasHeightForWidth()
                         else view.sizeHint().height())
        QApplication.processEvents()
        browser = view.browser
        whole = browser.document().size().height()
        assert browser.height() <= whole + 2 * browser.frameWidth() + 2, (cap, browser.height(),
                                                                         whole)
        assert browser.verticalScrollBar().maximum() == 0


def test_tab_reaches_every_link_and_decide_later_each_in_view(demo_dialog, qtbot):
    dialog = demo_dialog
    scroll = dialog.pages.widget(0)
    page = scroll.widget()
    browser = dialog.sources.browser
    assert QApplication.focusWidget() is dialog.recommended_button
    links, reached_later = [], False
    for _ in range(20):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        focused = QApplication.focusWidget()
        if focused is dialog.later_button:
            reached_later = True
            break
        if focused is browser and browser.textCursor().hasSelection():
            link = browser.textCursor()
            first, last = QTextCursor(link), QTextCursor(link)
            first.setPosition(link.selectionStart())
            last.setPosition(link.selectionEnd())
            rect = browser.cursorRect(first).united(browser.cursorRect(last))
            top = browser.viewport().mapTo(page, rect.topLeft()).y()
            shown = scroll.verticalScrollBar().value()
            assert shown <= top and top + rect.height() <= shown + scroll.viewport().height(), \
                (top, shown, scroll.viewport().height())  # all of the link's lines in view
            links.append(browser.textCursor().selectedText())
    assert reached_later
    assert len(links) == 4, links  # two pages read, each cited once


SHORT = """# Shop

- [ ] HUMAN: Which colour for the logo?
  - Option: blue
  - Option: green
  - Evidence: the customers liked both
  - Recommendation: green: it matches the shop front.
"""


@pytest.mark.parametrize("chinese", [False, True])
def test_a_question_that_fits_leaves_no_blank_band(qtbot, qapp, tmp_path, chinese):
    """A short question (no sources) is a short dialog: the page shows all of it, does not
    scroll, and has no more than a line's room under its last line."""
    from app.gui.settings import language

    (tmp_path / "TASKS.md").write_text(SHORT, encoding="utf-8")
    language.install(qapp, "zh_CN" if chinese else "en")
    try:
        task = core_calls.open_decision(tmp_path)
        dialog = DecisionDialog(task, tmp_path, lambda _a: None, web=None)
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        qtbot.wait(50)
        scroll = dialog.pages.widget(0)
        assert scroll.verticalScrollBar().maximum() == 0
        page = scroll.widget()
        last = max((w for w in page.findChildren(QWidget)
                    if w.isVisible() and w.parentWidget() is page),
                   key=lambda w: w.geometry().bottom())
        band = scroll.viewport().height() - last.geometry().bottom()
        assert band <= page.layout().contentsMargins().bottom() + 12, band
    finally:
        language.install(qapp, "en")


def test_the_evidence_window_keeps_its_room_for_the_file(qtbot, tmp_path):
    """The evidence window (it does not scroll as a whole): the sources list scrolls in its own
    box, no taller than a fifth of the screen, so the changed file under it keeps more room."""
    from app.core.records.records import read_rounds
    from app.gui.evidence.evidence_dialog import EvidenceDialog
    from app.gui.run.round_cards import RoundView
    from tests.scripted import demo_copy

    ws = demo_copy(tmp_path)
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    asked = read_rounds(ws.run_files(result.run_id))[2]
    dialog = EvidenceDialog(ws.root, RoundView.from_record(asked))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.evidence is not None, timeout=10_000)
    qtbot.wait(50)
    browser = dialog.sources.browser
    assert dialog.sources.isVisible()
    assert browser.height() <= dialog.screen().availableGeometry().height() // 5
    assert browser.verticalScrollBar().maximum() > 0  # the rest, in its own box
    assert dialog.diff.height() > browser.height(), (dialog.diff.height(), browser.height())


def test_the_list_grows_with_a_larger_font(qtbot):
    """The list's height follows its words when they are drawn larger (a font or style
    change), not the height it had before."""
    one = WebActivity(searches=[WebSearch(query="opening hours", results=0)], search_count=1)
    view = SourcesView(max_height=None)
    qtbot.addWidget(view)
    view.show_web(one)
    before = view.browser.heightForWidth(400)
    font = view.browser.font()
    font.setPointSizeF(font.pointSizeF() * 2)
    view.browser.setFont(font)
    assert view.browser.heightForWidth(400) > before * 1.5


@pytest.mark.parametrize("chinese", [False, True])
def test_the_saved_page_has_no_blank_band_above_its_buttons(qtbot, qapp, tmp_path, chinese):
    """After "Skip this task", the dialog says what to do next with Continue right under it,
    not a page-sized gap between the sentence and the buttons."""
    from app.gui.settings import language
    from tests.gui.test_decision_dialog import STUCK, dialog_for

    language.install(qapp, "zh_CN" if chinese else "en")
    try:
        dialog = dialog_for(qtbot, tmp_path, STUCK, about="Draw the logo")
        qtbot.waitExposed(dialog)
        dialog.option_buttons[1].click()
        qtbot.waitUntil(lambda: dialog.pages.currentIndex() == 1, timeout=5000)
        qtbot.wait(50)
        words = dialog.next_text
        below = words.mapTo(dialog, words.rect().bottomLeft()).y()
        button = dialog.continue_button
        gap = button.mapTo(dialog, button.rect().topLeft()).y() - below
        assert gap <= 3 * words.fontMetrics().lineSpacing(), gap
        assert button.isVisible() and dialog.not_now_button.isVisible()
        assert button.mapTo(dialog, button.rect().bottomLeft()).y() <= dialog.height()
    finally:
        language.install(qapp, "en")
