"""A Demo run's export leaves out what did not happen: no "Tokens 0" row (the Demo uses no
AI; the Engine row says so once), in the summary and in a history of Demo runs alone; an AI
run keeps its tokens. English and Chinese."""

from __future__ import annotations

import pytest

from app.export.service import export_summary
from app.export.words import tr
from tests.export_fixtures import make_run, make_workspace

BOARD = "# Office\n\n- [ ] Summarise report.docx\n- [ ] Fix the total\n"
ROUNDS = [("Summarise report.docx", "sample", ["demo-output/summarise.md"], "", None, 2),
          ("Fix the total", "sample", ["demo-output/fix-the-total.md"], "", None, 2)]


def _rows(text: str, label: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(f"| {label} |")]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("scope", [None, "all"])
def test_a_demo_export_has_no_tokens_row(tmp_path, lang, scope):
    ws = make_workspace(tmp_path / "office", BOARD)
    make_run(ws, ROUNDS, engine="demo", is_ai=False, state="stopped",
             exit_reason="samples_shown", decision=None)
    text = export_summary(ws, "md", tmp_path / "out.md", scope, lang=lang).read_text(
        encoding="utf-8")
    assert _rows(text, tr(lang, "Rounds"))  # the table is there
    assert _rows(text, tr(lang, "Tokens")) == []


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("scope", [None, "all"])
def test_an_ai_export_keeps_its_tokens(tmp_path, lang, scope):
    ws = make_workspace(tmp_path / "office", BOARD)
    make_run(ws, [(t, "completed", c, "did it", None, s) for t, _r, c, _s, _e, s in ROUNDS],
             state="done", exit_reason="all_tasks_done", decision=None)
    text = export_summary(ws, "md", tmp_path / "out.md", scope, lang=lang).read_text(
        encoding="utf-8")
    assert len(_rows(text, tr(lang, "Tokens"))) == 1
