"""The exported summary of a round whose task used up its web lookups (issue 37) says so,
in English and in Chinese, not "Reached the step limit"."""

from __future__ import annotations

import pytest

from app.core.loop import Harness
from app.export.service import export_summary
from tests.core.test_web_tasks import BOARD, Looker, searched, write
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
