"""The run summary: what it reads from a run's evidence, and the Markdown it writes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.core.errors import HarnessError
from app.core.records.records import EXIT_REASON_WORDS
from app.export.markdown import render_markdown
from app.export.summary import NoRunToExport, build_summary
from app.export.markdown import md_cell
from tests.export_fixtures import (BOARD, PLANTED_KEY, ROUNDS, fixture_workspace, make_run,
                                   make_workspace, truncate_run)

RUN = "20250303-140000-a1b2c3"


def table_rows(md: str, header: str) -> list[list[str]]:
    """The body rows of the Markdown table whose header line is `header`, split on bare |."""
    lines = md.splitlines()
    start = lines.index(header) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells, cell, i = [], "", 1
        while i < len(line):
            if line[i] == "\\" and i + 1 < len(line):
                cell += line[i:i + 2]
                i += 2
                continue
            if line[i] == "|":
                cells.append(cell.strip())
                cell = ""
            else:
                cell += line[i]
            i += 1
        rows.append(cells)
    return rows


def test_summary_reads_the_whole_run(tmp_path):
    s = build_summary(fixture_workspace(tmp_path))
    assert s.title == "Homepage refresh" and s.workspace_name == "homepage"
    assert s.engine_label == "Claude (Anthropic)" and s.model == "claude-sonnet-4-5"
    assert s.finished and s.ending == EXIT_REASON_WORDS["human_decision_needed"]
    assert (s.tasks_done, s.tasks_total, s.rounds_count) == (3, 5, 4)
    assert s.usage.total_tokens > 0 and s.cost_usd > 0
    assert [t.state for t in s.tasks] == ["Done", "Done", "Decided: trust",
                                          "Worked on, not done yet", "Waiting for your decision"]
    assert [(d.question, d.answer) for d in s.decisions] == [
        ("Should the homepage emphasize speed or trust?", "trust"),
        ("Which photo goes on the front page?", None)]
    assert s.decisions[1].options == ["team photo", "product shot"]
    assert [r.outcome for r in s.rounds] == ["Task completed", "Gave up", "Task completed",
                                             "AI engine error"]
    assert [f.path for f in s.changed_files] == ["landing.md", "comparison.md",
                                                 "notes/positioning_v2.md"]
    assert s.duration_s == pytest.approx(42 + 95 + 130 + 18 + 1)


def test_markdown_has_every_part_in_words(tmp_path):
    md = render_markdown(build_summary(fixture_workspace(tmp_path)))
    for part in ("# Homepage refresh", "## At a glance", "## Tasks", "## Decisions", "## Rounds",
                 "## Changed files", "Claude (Anthropic)", "claude-sonnet-4-5",
                 EXIT_REASON_WORDS["human_decision_needed"], "3 of 5", "$0.12",
                 "**Answer:** trust", "**Answer:** not answered yet",  # no italic, as in the window
                 "**Options:** speed · trust", "AI engine error",
                 "The AI engine did not answer in time", "`notes/positioning_v2.md`"):
        assert part in md, part
    # Raw codes never reach the reader.
    for code in ("human_decision_needed", "blocked_by_human", "engine_error", "gave_up"):
        assert code not in md
    tasks = table_rows(md, "| # | Task | State | Rounds |")
    assert len(tasks) == 5 and all(len(row) == 4 for row in tasks)
    assert tasks[3][1] == r"Rewrite the homepage based on that decision \| with care"
    glance = table_rows(md, "| Item | Detail |")
    assert ["Rounds", "4"] in glance and ["Tasks done", "3 of 5"] in glance


def test_table_cells_are_escaped():
    assert md_cell("a | b\nc\r\nd") == r"a \| b c d"
    assert md_cell("*bold* <b> [x](y) `c`") == r"\*bold\* \<b\> \[x\](y) \`c\`"
    assert md_cell("") == " "


def test_round_text_with_markup_and_pipes_stays_inside_its_row(tmp_path):
    ws = make_workspace(tmp_path / "w", "# T\n\n- [ ] first | task\n  with a tail\n")
    rounds = [("first | task", "gave_up", ["a|b.md"], "line one\n# not a heading\n- not a list",
               "boom | bang\nsecond line", 3)]
    make_run(ws, rounds, decision=None)
    md = render_markdown(build_summary(ws))
    assert "\\# not a heading" in md and "\\- not a list" in md
    files = table_rows(md, "| File | Changed in round |")
    assert files == [["`a\\|b.md`", "1"]]


def test_demo_engine_says_no_ai_was_used(tmp_path):
    ws = make_workspace(tmp_path / "w")
    make_run(ws, ROUNDS[:1], engine="demo", is_ai=False, state="done",
             exit_reason="all_tasks_done", decision=None)
    s = build_summary(ws)
    md = render_markdown(s)
    assert "Demo — no AI was used" in md and "none (no AI was used)" in md
    assert "claude" not in md.lower()


def test_truncated_run_still_exports_and_says_it_did_not_finish(tmp_path):
    ws = fixture_workspace(tmp_path)
    truncate_run(ws / ".harness" / "runs" / RUN)
    s = build_summary(ws)
    assert not s.finished and s.finished_at is None
    assert "did not finish" in s.notes[0]
    assert any("cut off or damaged (1 entry left out)" in n for n in s.notes)
    # Three whole records plus the round the run died in, known from its events.
    assert [r.recorded for r in s.rounds] == [True, True, True, False]
    assert s.rounds[3].outcome.startswith("Interrupted")
    md = render_markdown(s)
    assert "| Please note |" in md and "This run did not finish" in md
    assert "did not finish (last record after" in md


def test_missing_run_json_and_board_still_export(tmp_path):
    ws = fixture_workspace(tmp_path)
    (ws / ".harness" / "runs" / RUN / "run.json").write_text("{not json", encoding="utf-8")
    (ws / "TASKS.md").unlink()
    s = build_summary(ws, RUN)
    assert any("run.json" in n for n in s.notes) and any("TASKS.md" in n for n in s.notes)
    assert s.engine == "anthropic" and len(s.rounds) == 4
    # Decisions asked during the run survive without the board.
    assert [d.question for d in s.decisions] == ["Which photo goes on the front page?"]
    assert "not answered yet" in render_markdown(s)


def test_no_run_is_a_plain_sentence(tmp_path):
    ws = make_workspace(tmp_path / "empty")
    with pytest.raises(NoRunToExport) as err:
        build_summary(ws)
    assert isinstance(err.value, HarnessError)
    assert "no recorded run" in err.value.message and "\n" not in err.value.message
    with pytest.raises(HarnessError, match="There is no run nope"):
        build_summary(ws, "nope")
    with pytest.raises(HarnessError, match="does not exist"):
        build_summary(tmp_path / "missing")


def test_latest_run_is_the_default(tmp_path):
    ws = fixture_workspace(tmp_path)
    make_run(ws, ROUNDS[:1], run_id="20250304-090000-ffffff", decision=None)
    assert build_summary(ws).run_id == "20250304-090000-ffffff"
    assert build_summary(ws, RUN).run_id == RUN


def test_secrets_never_reach_the_summary(tmp_path):
    ws = fixture_workspace(tmp_path)
    board = BOARD.replace("Draft the landing page copy",
                          "Draft the landing page copy (token: ghp_" + "a" * 30 + ")")
    (ws / "TASKS.md").write_text(board, encoding="utf-8")
    s = build_summary(ws)
    dumped = json.dumps(s.model_dump(), ensure_ascii=False)
    md = render_markdown(s)
    for text in (dumped, md):
        assert PLANTED_KEY not in text and "sk-ant-" not in text and "ghp_aaaa" not in text
    assert "[redacted]" in dumped


def test_summary_modules_do_not_import_qt():
    code = ("import sys, app.export.summary, app.export.markdown; "
            "sys.exit(any(m.split('.')[0] == 'PySide6' for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code],
                          cwd=Path(__file__).resolve().parents[2]).returncode == 0


def test_latest_run_is_the_newest_id_even_when_its_run_json_is_damaged(tmp_path):
    """Run ids start with their start time to the millisecond, so they sort by time."""
    from datetime import datetime, timezone

    ws = make_workspace(tmp_path / "w")
    second = datetime(2025, 3, 3, 14, 0, 0, tzinfo=timezone.utc)
    make_run(ws, ROUNDS[:1], run_id="20250303-140000-001-ffffff", decision=None, start=second)
    make_run(ws, ROUNDS[1:2], run_id="20250303-140000-002-000000", decision=None,
             start=second.replace(microsecond=2000))
    assert build_summary(ws).run_id == "20250303-140000-002-000000"
    (ws / ".harness" / "runs" / "20250303-140000-002-000000" / "run.json").write_text("{oops")
    assert build_summary(ws).run_id == "20250303-140000-002-000000"


def test_a_board_with_bytes_that_are_not_utf8_still_renders(tmp_path):
    ws = fixture_workspace(tmp_path)
    (ws / "TASKS.md").write_bytes(BOARD.encode("utf-8").replace(
        b"Draft the landing page copy", b"Draft the caf\xe9 page copy"))
    md = render_markdown(build_summary(ws))
    md.encode("utf-8")  # every writer needs this to work
    assert "Draft the caf\ufffd page copy" in md


def test_a_run_still_going_says_so(tmp_path):
    import os

    ws = fixture_workspace(tmp_path)
    truncate_run(ws / ".harness" / "runs" / RUN)
    (ws / ".harness" / "status.json").write_text(json.dumps(
        {"run_id": RUN, "state": "running", "pid": os.getpid()}), encoding="utf-8")
    assert "still in progress" in build_summary(ws).notes[0]


def test_a_model_without_a_known_price_is_flagged_in_the_summary(tmp_path):
    root = fixture_workspace(tmp_path)
    run_json = next((root / ".harness" / "runs").glob("*/run.json"))
    info = json.loads(run_json.read_text(encoding="utf-8"))
    info.update(engine="openai", model="gpt-9-hypothetical")
    run_json.write_text(json.dumps(info), encoding="utf-8")
    summary = build_summary(root)
    assert summary.price_known is False
    assert any("gpt-9-hypothetical" in n and "estimate" in n for n in summary.notes)
    assert "estimate: price not known" in render_markdown(summary)


def test_a_model_with_a_known_price_is_not_flagged(tmp_path):
    summary = build_summary(fixture_workspace(tmp_path))
    assert summary.price_known is True
    assert not any("price table" in n for n in summary.notes)
