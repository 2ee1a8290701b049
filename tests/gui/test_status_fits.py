"""The run's status block between runs is as tall as what it shows (no empty band under the
state's sentence or under the cost line that reads as a broken layout), in English and in
Chinese, on a large and a small window; while a run goes its rooms are fixed, so its height
does not change as the live line and the notices come and go."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QLabel

from app.gui.folder import first_start
from app.gui.look.fit_text import _lines
from app.core.settings import Settings
from app.gui.settings import language
from app.gui.main_window import MainWindow
from tests.gui.helpers import open_in

DONE = {"en": ("Done", "Every task on the list is checked. The rounds below show which files "
                       "were written. Add more tasks, or export a summary to share."),
        "zh_CN": ("完成", "清单上的任务都已勾选。下面的各轮显示写了哪些文件。"
                          "可以再添加任务，或导出一份总结来分享。")}


@pytest.fixture(params=[("en", 1280, 800), ("zh_CN", 800, 600)], ids=["en", "zh_CN"])
def opened(request, qapp, qtbot, tmp_path, monkeypatch):
    lang, width, height = request.param
    assert language.install(qapp, lang) == lang
    language.use_fonts()
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    win = MainWindow(Settings(), demo_delay=0.0, check_engines=False)
    win.show()
    folder = tmp_path / "Bakery"
    shutil.copytree(first_start.bundled_demo(lang), folder)
    open_in(qtbot, win, folder)
    win.resize(width, height)
    qtbot.waitUntil(lambda: win.width() == width, timeout=5000)
    qtbot.waitUntil(lambda: win.rest_built, timeout=20_000)  # the schedule's line is in
    qtbot.wait(100)
    yield win, lang
    win.close()
    win.deleteLater()
    language.install(qapp, "en")


def _top(widget, window) -> int:
    return widget.mapTo(window, QPoint(0, 0)).y()


def _bottom(widget, window) -> int:
    return _top(widget, window) + widget.height()


def _bands(win) -> tuple[int, int, int]:
    """The empty band under the state's words (to the task bar's row), the one under the
    cost line or the notice (to the schedule's line), and one line's room."""
    panel = win.run_panel
    block = panel.status_block
    words = [w for w in (panel.state_label, panel.detail_label, panel.engine_action,
                         panel.choose_engine, panel.lessons_button) if w.isVisible()]
    tasks_name = next(label for label in block.findChildren(QLabel)
                      if label.buddy() is panel.tasks_bar)
    last = max(_bottom(w, win) for w in words)
    schedule = win.findChild(type(block.notice_slot), "scheduleSlot")
    # the cost line, or when there is none yet (no run yet) the task bar's row
    below_cost = _bottom(panel.meta_label if panel.meta_label.isVisible() else tasks_name, win)
    if win.notice.isVisible():
        below_cost = _bottom(win.notice, win)
    line = panel.meta_label.fontMetrics().lineSpacing()
    return _top(tasks_name, win) - last, _top(schedule, win) - below_cost, line


def test_between_runs_no_empty_band_under_the_words_or_the_cost(opened, qtbot):
    win, lang = opened
    panel = win.run_panel
    for state in ("idle", "done", "action", "notice"):
        if state == "done":
            heading, detail = DONE[lang]
            panel.show_state(heading, detail, tone="ok")
            panel.set_mode("done")
            panel.meta_label.setText("18 s")
        elif state == "action":
            panel.show_state("Stopped: Claude could not be reached", DONE[lang][1] * 3,
                             tone="attention")
            panel.show_engine_action("engine_unreachable", "", "local")
        elif state == "notice":
            win.notice.show_notice(DONE[lang][1], "Engine settings…", lambda: None)
        qtbot.wait(50)
        under_words, under_cost, line = _bands(win)
        assert 0 <= under_words <= line, (state, under_words, line)
        assert 0 <= under_cost <= line, (state, under_cost, line)
    win.notice.hide()
    qtbot.wait(50)
    assert 0 <= _bands(win)[1] <= _bands(win)[2]


def test_the_words_follow_the_width_and_the_font(opened, qtbot):
    """A narrower window wraps the sentence on more lines: the block grows to show them
    (nothing cut, nothing over the task bar); a larger font grows it too."""
    win, lang = opened
    panel = win.run_panel
    detail = panel.detail_label
    words = DONE[lang][1] * 2
    one_line = next(words[:n] for n in range(len(words), 0, -1)
                    if len(_lines(words[:n], detail.fontMetrics(), detail.contentsRect().width(),
                                  detail.font())) == 1)  # the longest start on one line
    panel.show_state(DONE[lang][0], one_line, tone="ok")
    qtbot.wait(50)
    wide = panel.status_block.height()
    assert detail.height() < 2 * detail.fontMetrics().lineSpacing()
    win.splitter.setSizes([win.width(), 1])  # the rounds' column as narrow as it goes
    qtbot.wait(100)
    assert panel.status_block.height() >= wide + detail.fontMetrics().lineSpacing()
    assert 0 <= _bands(win)[0] <= _bands(win)[2]
    assert not panel.detail_label.is_elided()
    narrow = panel.status_block.height()
    font = panel.status_block.font()
    font.setPointSizeF(font.pointSizeF() * 1.5)
    panel.status_block.setFont(font)
    qtbot.wait(100)
    assert panel.status_block.height() > narrow
    assert 0 <= _bands(win)[0] <= _bands(win)[2]


def test_while_a_run_goes_the_block_keeps_its_height(opened, qtbot):
    win, lang = opened
    panel = win.run_panel
    block = panel.status_block
    panel.set_mode("running")
    panel.show_state("Working", "Round 2")
    qtbot.wait(50)
    heights = [block.height()]
    for step in (lambda: panel.show_narration(DONE[lang][1] * 2),
                 lambda: panel.show_price(True, "claude-fable-9"),
                 lambda: win.notice.show_notice(DONE[lang][1], "Engine settings…", lambda: None),
                 lambda: panel.show_state("Working\n" + DONE[lang][0], DONE[lang][1] * 3),
                 lambda: win.notice.hide(),
                 lambda: panel.show_price(False),
                 lambda: panel.show_narration(""),
                 lambda: panel.show_state("Working", "")):
        step()
        qtbot.wait(30)
        heights.append(block.height())
    assert heights == [heights[0]] * len(heights)
