"""A new person's walk through the window's dialogs (on a real display, the Chinese window as
well): each dialog fits the screen with its buttons in sight, and no sentence is cut down to
its first line because the dialog was squeezed."""

from __future__ import annotations

import re
import shutil

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QLabel, QWidget

from app.core.settings import Settings
from app.gui.folder import first_start
from app.gui.main_window import MainWindow
from app.gui.settings import language
from tests.gui.helpers import open_in


@pytest.fixture(params=["en", "zh_CN"])
def demo_window(request, qapp, qtbot, tmp_path, monkeypatch):
    lang = request.param
    assert language.install(qapp, lang) == lang
    language.use_fonts()
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    win = MainWindow(Settings(), demo_delay=0.0, check_engines=False)
    win.show()
    folder = tmp_path / "demo"
    shutil.copytree(first_start.bundled_demo(lang), folder)
    open_in(qtbot, win, folder)
    yield win
    win.close()
    win.deleteLater()
    language.install(qapp, "en")


def cut_sentences(dialog: QWidget) -> list[str]:
    """Visible wrapped sentences given fewer lines than their width needs."""
    out = []
    for label in dialog.findChildren(QLabel):
        if label.isVisible() and label.wordWrap() and label.text():
            need = label.heightForWidth(label.width())
            if label.height() + 1 < need:
                out.append(f"{label.text()[:40]!r}: {label.height()} px < {need} px")
    return out


def assert_fits_the_screen(dialog: QDialog, buttons: QWidget) -> None:
    room = dialog.screen().availableGeometry()
    frame = dialog.frameGeometry()
    assert frame.height() <= room.height(), (frame, room)
    bottom = buttons.mapToGlobal(buttons.rect().bottomLeft()).y()
    assert bottom <= room.bottom(), f"the buttons end at {bottom}, below the screen's {room}"


def test_settings_fit_the_screen_and_no_sentence_is_cut(qtbot, demo_window):
    demo_window.settings_action.trigger()
    dialog = demo_window.settings_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=2000)
    qtbot.wait(50)  # the layout a show posts
    assert dialog.folder_safety is not None and dialog.folder_safety.isVisible()
    assert_fits_the_screen(dialog, dialog.button_box())
    assert cut_sentences(dialog) == []
    # Nothing goes under the scroll bar: the page is no wider than what shows it.
    assert dialog.page.width() <= dialog.scroll_area.viewport().width()
    # What does not fit scrolls, and Tab brings each setting into sight.
    dialog.activateWindow()
    dialog.rounds.setFocus()
    stops = []
    for _ in range(60):  # once round every Tab stop
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        stops.append(QApplication.focusWidget())
        if dialog.language.hasFocus():
            top_left = dialog.language.mapTo(dialog.scroll_area.viewport(),
                                             dialog.language.rect().topLeft())
            bottom = dialog.scroll_area.viewport().height() - dialog.language.height()
            assert 0 <= top_left.y() <= bottom, "Tab left the language out of sight"
        if dialog.rounds.hasFocus():
            break
    assert dialog.language in stops and dialog.rounds.hasFocus()
    assert dialog.scroll_area not in stops  # no Tab stop a person cannot see or name
    dialog.reject()


def test_plan_with_ai_keeps_its_few_lines_together_before_a_plan(qtbot, tmp_path):
    from app.core.engine.port import EngineConfig
    from app.core.settings import Limits
    from app.engines.demo.engine import DemoEngine
    from app.gui.plan.plan_dialog import PlanDialog

    dialog = PlanDialog(tmp_path, lambda: DemoEngine(EngineConfig(options={"delay_s": 0.0})),
                        Limits(), "Demo (offline, no AI)", engine_is_ai=False)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    # The goal box sits under the sentence that asks for it, not half-way down the dialog.
    intro = dialog.findChildren(QLabel)[0]
    gap = dialog.goal.y() - (intro.y() + intro.heightForWidth(intro.width()))
    assert gap <= 16, f"{gap} px of nothing between the question and the goal box"
    assert dialog.close_button.geometry().bottom() > dialog.height() - 40  # still at the foot
    dialog._last = ["a proposal"]  # what a finished plan sets
    dialog._reveal()
    qtbot.wait(20)
    assert dialog.list.height() > 200  # the list takes the room once it shows


# Words a person should never read (WINDOW.md, "Words"), as whole words.
JARGON = ("HUMAN", "scripted", "tokens", "bytes", "gave_up", "loop")


def test_the_demo_engine_chip_and_cost_line_read_in_plain_words(qtbot, demo_window):
    import re

    from tests.gui.helpers import run_until_end

    picker = demo_window.picker
    shown = picker.model.currentText()
    assert shown in ("no model to choose", "无需选择模型"), shown
    assert not picker.model.isEnabled()
    run_until_end(qtbot, demo_window)  # to the demo's decision
    meta = demo_window.run_panel.meta_label.text()
    assert meta.endswith(("no AI used, so no usage and no cost", "没有用到 AI，不产生用量和费用"))
    for words in (shown, meta):
        assert not [w for w in JARGON if re.search(rf"\b{w}\b", words, re.IGNORECASE)], words


def test_lessons_with_nothing_to_list_is_a_small_dialog(qtbot, demo_window):
    from app.gui.lessons.lessons_view import LessonsDialog

    dialog = LessonsDialog(demo_window.workspace.root, parent=demo_window)
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.loaded, timeout=10_000):
        dialog.show()
    qtbot.wait(50)
    assert dialog.empty.isVisible() and not dialog.split.isVisible()
    close = dialog.findChild(QDialogButtonBox)
    words_end = dialog.empty.y() + dialog.empty.heightForWidth(dialog.empty.width())
    assert close.y() - words_end <= 24, f"{close.y() - words_end} px of nothing"
    assert cut_sentences(dialog) == []


def test_a_demo_sample_round_speaks_the_windows_language(qapp):
    from app.core.run.outcomes import RoundResult
    from app.gui.words.round_text import RoundView, card_text

    view = RoundView(1, "Make a table of the dates in DateFormatTests.xlsx", RoundResult.SAMPLE,
                     ["demo-output/make-a-table.md"], 3.0, 0.0,
                     "Wrote a sample note for this task (no AI was used).", is_ai=False)
    assert language.install(qapp, "zh_CN") == "zh_CN"
    try:
        said = [line.text for line in card_text(view).lines]
    finally:
        language.install(qapp, "en")
    assert "为这个任务写了一份示例笔记（没有用到 AI）。" in said
    assert not [t for t in said if "sample note" in t]


def test_the_schedule_dialog_reads_in_chinese(qtbot, demo_window):
    if language.current() != "zh_CN":
        pytest.skip("the Chinese window's words")
    dialog = demo_window.schedules.open_dialog()
    qtbot.waitUntil(dialog.isVisible, timeout=2000)
    engines = [dialog.engine.itemText(i) for i in range(dialog.engine.count())]
    assert "演示（离线，不用 AI）" in engines and "本机（Ollama、LM Studio）" in engines
    assert not [e for e in engines if "offline" in e or "Local" in e]
    dialog.reject()


def test_the_chinese_window_says_ni_throughout():
    """One way of addressing the person: 你 everywhere, never the formal 您 in a few places
    (the schedule's sentences had it, the rest of the window says 你)."""
    from app.core.resources import resources_dir

    ts = (resources_dir() / "translations" / "harness_desk_zh_CN.ts").read_text("utf-8")
    formal = [line.strip() for line in ts.splitlines() if "<translation" in line and "您" in line]
    assert formal == []


def test_a_finished_plan_says_what_it_proposed_without_its_steps(qtbot, qapp, tmp_path):
    from app.core.engine.port import EngineConfig
    from app.core.settings import Limits
    from app.engines.demo.engine import DemoEngine
    from app.gui.plan.plan_dialog import PlanDialog

    assert language.install(qapp, "zh_CN") == "zh_CN"
    try:
        dialog = PlanDialog(tmp_path, lambda: DemoEngine(EngineConfig(options={"delay_s": 0})),
                            Limits(), "演示（离线，不用 AI）", engine_is_ai=False)
        qtbot.addWidget(dialog)
        dialog.show()
        dialog.goal.setText("为女儿筹办一场生日聚会")
        with qtbot.waitSignal(dialog.runner.plan_finished, timeout=10_000):
            dialog.plan_button.click()
        # WINDOW.md, "Chinese phrasing to fix": 这次规划提出了 3 项任务 (no "· 3 步").
        assert re.fullmatch(r"这次规划提出了 \d+ 项任务", dialog.card.text()), dialog.card.text()
    finally:
        language.install(qapp, "en")
