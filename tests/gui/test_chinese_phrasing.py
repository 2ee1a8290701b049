"""The Chinese review's awkward phrases (found in a review of the Chinese window) are gone: the
reviewed wording is what the window looks up, and the sentences the code puts together (a
lesson's date and effect, the planning status on the whole folder) read as reviewed."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication

from app.gui.settings import language
from tests.gui.test_chinese import messages, translated

# Fragments of the reviewed phrasing that must not come back in any translation.
AWKWARD = ["不耗用量", "被你停止", "  （推荐）", "每一轮，最新", "显示哪次运行的每一轮",
           "在“每一轮”上方", "开始的那次运行的第", "因为它们是", "曾改动", "它的改动已收回",
           "它说自己做了", "它给出的依据", "并且在处理此任务期间", "拟议的文字", "整个任务都已允许",
           "花费达到多少", "干活", "钥匙串没有收下", "会停在下一步之前",
           "回答待定的决定", "得到的经验", "打开一份全新的演示", "本程序", "你撤销了对",
           "接受以后", "于 %1 接受", "出了问题而停止", "AI 停下来问你", " 的运行已结束",
           "在 %1 里做了什么"]


@pytest.fixture
def chinese(qapp):
    assert language.install(qapp, "zh_CN") == "zh_CN"
    yield qapp
    language.install(qapp, "en")


def test_no_translation_keeps_a_phrase_the_review_found_awkward():
    found = [(context, message.findtext("source"), translated(message))
             for context, message in messages()
             for bad in AWKWARD if bad in translated(message)]
    assert found == []
    assert "按你的修改允许" not in [translated(m) for _c, m in messages()]  # "已按…" now


@pytest.mark.parametrize("context, source, reviewed", [
    ("", "no AI used, so no usage and no cost", "没有用到 AI，不产生用量和费用"),
    ("", "Stopped by you", "已由你停止"),
    ("DecisionDialog", "%1  (recommended)", "%1（推荐）"),
    ("DecisionDialog", "Not now", "以后再说"),
    ("DecisionDialog", "The run stopped to ask you:", "需要你来决定："),
    ("", "Working on: %1", "正在处理\n%1"),
    ("ExportDialog", "This run (the one picked above the rounds)", "当前选中的那次运行"),
    ("HistoryPicker", "Stopped by a problem", "因出错而停止"),
    ("HistoryPicker", "Show the rounds of", "查看哪次运行"),
    ("HistoryPicker", "Done", "已完成"),  # as the round cards say it: one word
])
def test_the_window_looks_up_the_reviewed_words(chinese, context, source, reviewed):
    assert QCoreApplication.translate(context, source) == reviewed


def test_a_name_is_quoted_not_spaced(chinese):
    from app.gui.evidence.export_flow import ExportDialog

    said = QCoreApplication.translate("DecisionFlow", "The run in “%1” has ended: %2.")
    done = QCoreApplication.translate("", "Done")
    assert said.replace("%1", "演示工作区").replace("%2", done) == "“演示工作区”的运行已结束：已完成。"
    source = ("Save a document that tells what happened in %1: the tasks, the decisions, "
              "each round and, where an AI worked, what it cost.")
    assert "在“%1”里" in QCoreApplication.translate(ExportDialog.__name__, source)


def test_one_date_format_everywhere_in_chinese(chinese):
    from app.gui.words import wording

    assert wording.date_time("2026-12-04T18:31:00+00:00").startswith("2026年12月")
    assert "年" in wording.clock_time("2020-01-02T03:04:00+00:00")
    assert wording.date_time("not a time") == ""


def test_a_lesson_accepted_with_no_run_since_says_so(chinese, qtbot, tmp_path):
    from app.core.lessons.lessons import Effect
    from app.gui.lessons.lessons_view import LessonsDialog

    class Accepted:
        state, decided_at, runs = "accepted", "2026-12-04T18:31:00+00:00", ["r1"]
        effect = Effect(runs_since=0, runs_with_pattern=0)

    dialog = LessonsDialog(tmp_path)
    qtbot.addWidget(dialog)
    lesson = Accepted()
    text = dialog._state_text(lesson)
    assert text.startswith("2026年12月") and text.endswith("接受 · 接受后还没有新的运行")
    lesson.effect = Effect(runs_since=3, runs_with_pattern=1)
    assert dialog._state_text(lesson).endswith("接受后的 3 次运行里又出现了 1 次")


def test_the_window_exports_its_summary_in_its_own_language(chinese, tmp_path):
    from app.gui import core_calls
    from tests.export_fixtures import fixture_workspace

    ws = fixture_workspace(tmp_path, chinese=True)
    text = core_calls.export_summary(ws, "md", tmp_path / "s.md").read_text(encoding="utf-8")
    assert "## 概览" in text and "At a glance" not in text and "HUMAN" not in text
    language.install(chinese, "en")
    text = core_calls.export_summary(ws, "md", tmp_path / "e.md").read_text(encoding="utf-8")
    assert "## At a glance" in text


# -- type: the CJK face first, no italic, Chinese lines joined --------------------------------
def test_the_chinese_window_draws_full_width_quotes_in_its_chinese_face(chinese):
    from PySide6.QtGui import QFontMetricsF
    from PySide6.QtWidgets import QApplication

    from app.export.fonts import CJK

    font = QApplication.font()
    assert font.families()[0] in CJK
    metrics = QFontMetricsF(font)
    assert metrics.horizontalAdvance("“") >= 0.9 * metrics.horizontalAdvance("中")
    language.install(chinese, "en")
    assert QApplication.font().families()[0] not in CJK


def test_markdown_joins_chinese_lines_and_never_slants(qapp):
    from app.gui.evidence.markdown_view import markdown_html

    html = markdown_html("罗西面包房的\n新网站，*强调*信任。\nNext line\nand more", muted="#5c6470")
    assert "罗西面包房的新网站" in html and "<em>" not in html
    assert '<span style="color: #5c6470;">强调</span>' in html
    assert "信任。Next" not in html and "Next line\nand more" in html


def test_the_live_line_is_muted_not_italic(chinese, qtbot):
    from app.gui.look import look
    from app.gui.run.run_panel import RunPanel

    panel = RunPanel()
    qtbot.addWidget(panel)
    assert not panel.narration.font().italic()
    assert panel.narration.palette().color(panel.narration.foregroundRole()) \
        == look.muted_colour()
