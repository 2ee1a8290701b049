"""The Chinese demo board: the same bakery story; the Demo engine writes its drafts in Chinese."""

from __future__ import annotations

import re
import shutil

from app.core.board.board import Board, update_board
from app.core.documents import render_document
from app.core.run.loop import Harness
from app.core.resources import resource_path
from app.core.workspace.workspace import Workspace
from app.engines.demo.engine import DemoEngine
from app.engines.demo.script import BAKERY_TASKS
from app.engines.demo.script_zh import BAKERY_TASKS as BAKERY_TASKS_ZH
from tests.scripted import board_workspace, fast_limits

HAN = re.compile(r"[\u4e00-\u9fff]")


def chinese_demo(tmp_path) -> Workspace:
    target = tmp_path / "演示工作区"
    shutil.copytree(resource_path("demo-workspace-zh"), target)
    return Workspace(target)


def test_the_chinese_board_lists_the_tasks_the_script_knows_word_for_word():
    board = Board.load(resource_path("demo-workspace-zh", "TASKS.md"))
    assert [t.text for t in board.tasks] == list(BAKERY_TASKS_ZH)
    # the same files as the English story, in the same order
    assert [f for f, _ in BAKERY_TASKS_ZH.values()] == [f for f, _ in BAKERY_TASKS.values()]


def test_a_chinese_demo_run_asks_its_decision_in_chinese_then_writes_chinese_drafts(tmp_path):
    ws = chinese_demo(tmp_path)
    first = Harness(ws, DemoEngine(), fast_limits()).run()
    assert (first.state, first.exit_reason) == ("blocked_by_human", "human_decision_needed")
    human = Board.load(ws.board_path).next_task()
    assert human.is_human and human.options == ["速度", "信任"]
    assert "首页" in human.question
    update_board(ws.board_path, lambda b: b.answer_human("速度"))
    second = Harness(ws, DemoEngine(), fast_limits()).run()
    assert (second.state, second.exit_reason) == ("done", "all_tasks_done")
    assert all(t.checked for t in Board.load(ws.board_path).tasks)
    for rel in ("notes/brief-summary.md", "drafts/about-us.md", "notes/homepage-options.md",
                "drafts/homepage.md", "drafts/contact.docx"):
        shown = (render_document(ws.root / rel) if rel.endswith(".docx")
                 else (ws.root / rel).read_text(encoding="utf-8"))
        # An e-mail address, a link target and "AI" stay as they are in Chinese text too.
        text = re.sub(r"\S+@\S+|\(#\w+\)|AI|\.docx|\.xlsx", "", shown)
        letters = [c for c in text if c.isalpha()]
        assert len(HAN.findall(text)) > 0.95 * len(letters), rel  # written in Chinese
    homepage = (ws.root / "drafts" / "homepage.md").read_text(encoding="utf-8")
    assert homepage.startswith("# 一分钟订好你的庆祝蛋糕")  # the answer shaped the draft
    contact = render_document(ws.root / "drafts" / "contact.docx")  # a real Word document
    assert "周二至周五 7:00–16:00，周六 7:00–14:00，周日、周一休息。" in contact  # from the brief
    assert "青石镇磨坊路 14 号。电话 0571-5550 0714。" in contact
    assert "| 维多利亚海绵蛋糕 | 8 | 168 |" in contact  # from the price list


def test_on_any_board_a_task_written_in_chinese_gets_its_demo_draft_in_chinese(tmp_path):
    from app.core.records.events import FileChanged
    from app.core.records.records import read_events
    from tests.scripted import board_workspace

    board = "# 计划\n\n- [ ] 整理会议记录\n  - Done when: 会议记录.md 按日期排好\n- [ ] Tidy the notes\n"
    ws = board_workspace(tmp_path, board, {"会议记录.md": "周一：开第二家店。\n预算很紧。\n"})
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    assert result.exit_reason == "samples_shown"
    writes = [e.path for e in read_events(ws.run_files(result.run_id))
              if isinstance(e, FileChanged)]
    chinese, english = ((ws.root / w).read_text(encoding="utf-8") for w in writes)
    assert "## 任务要求" in chinese and "> 周一：开第二家店。" in chinese
    assert "会议记录.md" in chinese and "没有用到 AI" in chinese
    assert (ws.root / "会议记录.md").read_text(encoding="utf-8") == "周一：开第二家店。\n预算很紧。\n"
    assert "## What the task asks" in english  # an English task still gets English


def test_a_chinese_task_of_the_persons_is_shown_as_a_sample_in_chinese(tmp_path):
    from app.core.records.events import RoundFinished
    from app.core.records.records import read_events

    board = "- [ ] 准备菜单\n  - Done when: menu.md 和 shopping.csv 都存在\n"
    ws = board_workspace(tmp_path, board)
    result = Harness(ws, DemoEngine(), fast_limits()).run()
    assert not Board.load(ws.board_path).tasks[0].checked
    assert not (ws.root / "menu.md").exists()
    finished = [e for e in read_events(ws.run_files(result.run_id))
                if isinstance(e, RoundFinished)]
    assert finished[-1].result_state == "sample" and "示例笔记" in finished[-1].summary


def test_the_round_that_records_the_answer_says_you_chose_it_not_rosie():
    """The person answered the question ("需要你来决定"); the round's card then said "罗西选了
    “信任”" ("Rosie chose trust"), a name they never gave. The bakery's own note keeps Rosie."""
    for tasks, line, said in (
            (BAKERY_TASKS, "Should the homepage lead with speed or trust? Answer: trust",
             "Compared both directions; you chose trust."),
            (BAKERY_TASKS_ZH, "首页主打哪个方向？ Answer: 信任", "比较了两个方向；你选了“信任”。")):
        target, plan = next(v for k, v in tasks.items() if "two directions" in k or "两个方向" in k)
        steps = plan(target, [line], "")
        assert steps[-1] == ("complete_task", {"summary": said, "evidence": [target]})
        written = next(args["content"] for tool, args in steps if tool == "write_file")
        assert "Rosie chose" in written or "罗西选了" in written
