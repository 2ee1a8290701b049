"""The summary in the window's language: a Chinese export has no English word of ours in any
format (headings, labels, outcomes, notes, dates, durations, the chart, the page footer), the
person's questions without "HUMAN:", the harness's own decisions in Chinese, and its text set
in the Chinese face first."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.export.service import export_summary
from tests.export.test_export import FORMATS, needs_poppler, visible_text
from tests.export_fixtures import make_run, make_workspace, truncate_run
from tests.gui.test_chinese import english_words

BOARD = """# 主页改版

- [x] 起草着陆页文案
- [x] HUMAN: 主页应该强调速度还是信任？
  - Option: 速度
  - Option: 信任
  - Answer: 信任
- [x] HUMAN: The loop stopped because no progress was detected on: 画标志
  - Option: Try again
  - Option: Skip this task (check it yourself)
  - Option: Rewrite the task
  - Answer: Try again
- [ ] 画标志
- [ ] 根据决定重写主页
"""
ROUNDS = [
    ("起草着陆页文案", "completed", ["着陆页.md"], "写好了着陆页：一个标题和三段文字。", None, 30),
    ("画标志", "gave_up", [], "找不到标志的草图。", None, 95),
    ("画标志", "step_limit", [], "", None, 200),
    ("根据决定重写主页", "engine_error", [], "",
     "The AI engine did not answer in time (HTTP 529, overloaded).", 18),
]
RUN_ID = "20250303-140000-a1b2c3"


def chinese_workspace(tmp: Path) -> Path:
    ws = make_workspace(tmp / "主页", BOARD)
    make_run(ws, ROUNDS, run_id=RUN_ID, state="stopped", exit_reason="engine_failures",
             decision=("主页应该强调速度还是信任？", ["速度", "信任"]))
    return ws


def ours(text: str) -> list[str]:
    """English words left in `text` once the run's id, the app's and the model's names are
    set aside (a narrow PDF cell may break the model's name after a hyphen)."""
    text = re.sub(r"claude-\s*sonnet-\s*4-\s*5", " ", text.replace(RUN_ID, " "))
    return english_words(text.replace("Harness Desk", " "))


def shown(path: Path, fmt: str) -> str:
    """What a reader sees of the file: for a web page, not its style sheet."""
    if fmt == "html":
        page = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"<style\b.*?</style>", "", page, flags=re.S), encoding="utf-8")
    return visible_text(path, fmt)


@needs_poppler
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_chinese_summary_has_no_english_word_of_ours(qapp, tmp_path, fmt):
    ws = chinese_workspace(tmp_path)
    text = shown(export_summary(ws, fmt, tmp_path / f"s.{fmt}", lang="zh_CN"), fmt)
    assert ours(text) == []
    for said in ("概览", "第 2 轮：画标志", "放弃了", "步数用完了", "AI 引擎出错",
                 "AI 引擎多次出错，运行已停止。", "“画标志”没有进展：接下来怎么办？",
                 "已决定：再试一次", "已决定：信任", "主页应该强调速度还是信任？",
                 "2025年3月3日", "1 分 35 秒", "这一轮 AI 引擎报告了错误。"):
        assert said in text, (fmt, said)
    assert "HUMAN" not in text and "Decided" not in text
    if fmt == "pdf":  # the footer and the chart, drawn by the exporter itself
        assert "第 1 页，共" in text and "柱高：费用" in text and "轮次" in text


@needs_poppler
@pytest.mark.parametrize("fmt", ("md", "pdf"))
def test_a_chinese_history_and_a_cut_off_run_are_chinese_too(qapp, tmp_path, fmt):
    ws = chinese_workspace(tmp_path)
    truncate_run(ws / ".harness" / "runs" / RUN_ID)
    text = visible_text(export_summary(ws, fmt, tmp_path / f"s.{fmt}", lang="zh_CN"), fmt)
    assert ours(text) == [] and "这次运行没有正常结束" in text and "截断或损坏" in text
    text = visible_text(export_summary(ws, fmt, tmp_path / f"h.{fmt}", "all", lang="zh_CN"),
                        fmt)
    assert ours(text) == [] and "历史记录" in text and "第 1 次运行" in text


def test_the_same_run_in_english_keeps_its_english_words_without_the_marker(qapp, tmp_path):
    ws = chinese_workspace(tmp_path)
    md = export_summary(ws, "md", tmp_path / "s.md").read_text(encoding="utf-8")
    assert "## At a glance" in md and "Decided: Try again" in md
    assert "No progress on “画标志”: what now?" in md and "HUMAN" not in md
    assert "The AI engine did not answer in time" in md  # the details, for the command line


def test_a_chinese_document_is_set_in_its_chinese_face_first(qapp, tmp_path):
    from app.export.fonts import CJK
    from app.export.render import markdown_document

    english = markdown_document("“关于我们”", "t").defaultFont().families()
    chinese = markdown_document("“关于我们”", "t", lang="zh_CN").defaultFont().families()
    assert chinese[0] in CJK and english[0] not in CJK
    assert sorted(chinese) == sorted(english)
    html = export_summary(chinese_workspace(tmp_path), "html", tmp_path / "s.html",
                          lang="zh_CN").read_text(encoding="utf-8")
    assert re.search(r'<html lang="zh-CN"', html)


@pytest.mark.parametrize("result, zh", [
    ("step_limit", "这一轮在任务完成之前用完了步数。"),
    ("timeout", "这一轮在任务完成之前用完了时间。"),
    ("engine_error", "这一轮 AI 引擎报告了错误。")])
def test_a_round_that_ended_short_says_how_in_chinese(result, zh):
    """Not every round that ended short is called an engine's error in a Chinese document."""
    from types import SimpleNamespace

    from app.export.markdown import round_details

    row = SimpleNamespace(summary="", changed=[], web=None, undone="", result_state=result,
                          error="Round ended: the step limit (30) was reached.")
    said = "\n".join(round_details(row, "zh_CN"))
    assert zh in said and "step limit" not in said
