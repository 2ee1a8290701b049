"""The exported summary of a round whose task used up its web lookups (issue 37) says so,
in English and in Chinese, not "Reached the step limit"."""

from __future__ import annotations

import pytest

from app.core.run.loop import Harness
from app.export.service import export_summary
from tests.core.run.test_web_tasks import BOARD, Looker, searched, write
from tests.export.test_export import visible_text
from tests.scripted import board_workspace, fast_limits


@pytest.mark.parametrize("lang, said", [
    ("en", "Reached this task's limit of 4 web lookups"),
    ("zh_CN", "已达到这个任务的上网查询上限：4 次")])
def test_the_summary_says_the_task_reached_its_limit_of_lookups(qapp, tmp_path, monkeypatch,
                                                                lang, said):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    ws = board_workspace(tmp_path, BOARD)
    engine = Looker([], then=searched(write(), searches=2))
    Harness(ws, engine, fast_limits(max_lookups=4)).run()
    text = visible_text(export_summary(ws.root, "md", tmp_path / "s.md", lang=lang), "md")
    assert said in text
    assert "Reached the step limit" not in text and "步数用完了" not in text
    assert "Error" not in text and "出错" not in text  # not an engine's error
    # The decision the run stopped with names the task once, in the document's words.
    asked = {"en": "No progress on “Check what the other bakeries charge for sourdough”: "
                   "what now?",
             "zh_CN": "“Check what the other bakeries charge for sourdough”没有进展：接下来怎么办？"}
    assert asked[lang] in text and "The AI made no progress on" not in text


@pytest.mark.parametrize("lang, said, english", [
    ("en", "In round 1 this task reached its limit of 4 web lookups", None),
    ("zh_CN", "第 1 轮这个任务达到了上网查询上限：4 次", "In round")])
def test_the_decisions_evidence_line_is_in_the_documents_language(qapp, tmp_path, monkeypatch,
                                                                   lang, said, english):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    ws = board_workspace(tmp_path, BOARD)
    engine = Looker([], then=searched(write(), searches=2))
    Harness(ws, engine, fast_limits(max_lookups=4)).run()
    text = visible_text(export_summary(ws.root, "md", tmp_path / "s.md", lang=lang), "md")
    assert said in text
    assert english is None or english not in text


@pytest.mark.parametrize("line, zh", [
    ("In round 6 the AI gave up: the price list is missing. What it found: notes.md is empty.",
     "第 6 轮 AI 放弃了：the price list is missing。它发现的情况：notes.md is empty。"),
    ("In round 2 the AI ran out of steps.", "第 2 轮 AI 用完了步数。"),
    ("In round 3 the AI kept going round in circles.", "第 3 轮 AI 一直在原地打转。"),
    ("A line of the person's own", "A line of the person's own")])
def test_each_no_progress_line_the_harness_writes_reads_in_chinese(line, zh):
    from app.core.run.reports import no_progress_evidence
    from app.export.board_words import evidence

    assert evidence(line, "zh_CN") == zh and evidence(line, "en") == line
    # the lines above are exactly what the harness writes
    assert no_progress_evidence("gave_up", 6, "the price list is missing",
                                "notes.md is empty") == \
        "In round 6 the AI gave up: the price list is missing. What it found: notes.md is empty."
