"""End-to-end: a person's work spans a decision, so the folder has two runs; `export --run all`
writes one document with the rounds of both, and the history lists both with their outcome."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from .conftest import BLOCKED, DONE, Cli, assert_plain_error, run_dirs


@pytest.fixture
def two_runs(cli: Cli, demo_ws: Path) -> Path:
    assert cli("run", demo_ws, "--engine", "demo").code == BLOCKED
    assert cli("decide", demo_ws, "--answer", "trust").code == 0
    assert cli("run", demo_ws, "--engine", "demo").code == DONE
    assert len(run_dirs(demo_ws)) == 2
    return demo_ws


def test_export_run_all_writes_the_rounds_of_both_runs_in_order(cli, two_runs, tmp_path):
    out = tmp_path / "history.md"
    res = cli("export", two_runs, "--run", "all", "--format", "md", "--output", out)
    assert res.code == 0, res
    assert res.out.strip() == f"Wrote {out}"
    text = out.read_text(encoding="utf-8")
    first, second = text.split("\n## Run 1:")[1].split("\n## Run 2:")
    assert "Run 1, round 2: Draft the \"About us\" page" in first
    assert "Asked for your decision" in first                  # how run 1 ended its round 3
    assert "Run 2, round 6:" in second and "contact page" in second  # numbered on
    assert "| Rounds | 6 |" in text                            # totals summed over both runs
    assert text.count("### Decision") == 1 and "**Answer:** trust" in text
    assert "- **Asked in:** run 1, round 3" in text


def test_history_lists_both_runs_with_their_outcome(cli, two_runs, tmp_path):
    out = tmp_path / "history.md"
    assert cli("export", two_runs, "--run", "all", "--format", "md", "--output", out).code == 0
    table = out.read_text(encoding="utf-8").split("## Runs")[1].split("## Decisions")[0]
    rows = [ln for ln in table.splitlines() if ln.startswith(("| 1 ", "| 2 "))]
    assert len(rows) == 2
    assert "Stopped to ask you a decision." in rows[0] and "| 3 |" in rows[0]
    assert "Every task on the board is done." in rows[1]
    # The window's history reads the same records: newest first, each with its outcome.
    res = cli.python("from app.gui.evidence.evidence_data import list_runs; import sys;"
                     "print([r.state for r in list_runs(sys.argv[1])])", two_runs)
    assert res.code == 0, res
    assert res.out.strip() == "['done', 'blocked_by_human']"


@pytest.mark.parametrize("fmt", ["pdf", "odt", "html"])
def test_export_run_all_in_every_document_format(cli, two_runs, tmp_path, fmt):
    out = tmp_path / f"history.{fmt}"
    res = cli("export", two_runs, "--run", "all", "--format", fmt, "--output", out)
    assert res.code == 0, res
    data = out.read_bytes()
    if fmt == "pdf":
        assert data.startswith(b"%PDF") and b"history" in data
    elif fmt == "odt":
        content = zipfile.ZipFile(out).read("content.xml").decode("utf-8")
        assert "Run 1, round 1" in content and "Run 2, round 6" in content
    else:
        assert "Run 2, round 6" in data.decode("utf-8")


def test_export_run_all_without_any_run_is_one_sentence(cli, demo_ws, tmp_path):
    res = cli("export", demo_ws, "--run", "all", "--format", "md", "--output",
              tmp_path / "h.md")
    assert_plain_error(res, 1)
    assert "no recorded run" in res.err
