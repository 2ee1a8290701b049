"""The benchmarks stay runnable: each script starts, and run_all owns up to what it could not measure."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench import run_all

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("script", [b[1] for b in run_all.BENCHMARKS] + ["run_all.py"])
def test_each_benchmark_starts_and_explains_itself(script):
    done = subprocess.run([sys.executable, str(REPO / "bench" / script), "--help"],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout


def test_a_benchmark_this_checkout_cannot_run_is_shown_as_not_available(tmp_path):
    rows, ran = run_all.run_one("window", "no_such_benchmark.py", [], "the window",
                                [("startup_window", "Launch to the window", "<= 1.5x")], {})
    assert rows[0]["pass"] is None and rows[0]["measured"] is None
    assert "not available" in ran["status"]
    table = run_all.table(rows)
    assert "| Launch to the window | <= 1.5x | not available | -" in table


def test_the_markitdown_comparison_says_not_available_without_markitdown(tmp_path):
    # The app does not depend on markitdown; a Python that cannot import it gets the rows
    # as "not available", never a failure.
    blocker = tmp_path / "markitdown.py"
    blocker.write_text("raise ImportError('not here')\n")
    out = tmp_path / "out.json"
    import os
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    done = subprocess.run([sys.executable, str(REPO / "bench" / "fidelity.py"), "--json",
                           str(out)], capture_output=True, text=True, timeout=120, cwd=REPO,
                          env=env)
    assert done.returncode == 0, done.stderr
    assert "markitdown comparison: not available (markitdown is not installed)" in done.stdout
    import json
    rows = json.loads(out.read_text())["items"]
    assert [r["key"] for r in rows] == ["fidelity_checks", "fidelity_tokens", "fidelity_time",
                                        "fidelity_memory"]
    assert all(r["measured"] is None for r in rows)


def test_the_fidelity_checks_count_what_a_rendering_keeps():
    import re

    from bench.fidelity import holds

    assert holds("## Slide 1\n- Step 1\n- Step 2\n- Step 3", ["Step 1", "Step 2", "Step 3"])
    assert not holds("- Step 3\n- Step 2\n- Step 1", ["Step 1", "Step 2", "Step 3"])
    assert holds("| Item |  Price | Stock |", re.compile(r"\|\s*Item\s*\|\s*Price"))
    assert holds("costs  £4.62\nnow", "costs £4.62 now") and not holds("4.62", "£4.62")


def test_the_request_size_row_finds_tools_and_system_prompt_a_third_lighter():
    """Issue 36: the part every request repeats, as each engine's SDK would send it, within
    the row's target; and the row's own arithmetic (the whole request is larger still)."""
    from bench import request_size

    got = request_size.measure()
    assert set(got) == set(request_size.BEFORE_BYTES) == {"Claude", "OpenAI", "Local"}
    for name, sizes in got.items():
        fixed = sizes["tools"] + sizes["system"]
        assert fixed <= request_size.BEFORE_BYTES[name] * 2 // 3, (name, sizes)
        assert sizes["system"] > 500 and sizes["tools"] > 3000  # measured, not an empty part
        assert sizes["first_request"] > fixed


def test_a_partial_run_keeps_the_other_rows_from_the_last_results(tmp_path):
    import json

    from bench.common import item

    last = tmp_path / "results.json"
    last.write_text(json.dumps({"started_at": "2026-12-01T10:20:00+00:00", "results": [
        item("status_vs_python", "status", "<= +100 ms", 30.0, "ms", True, note="CPU +20 ms"),
        item("engines_vs_python", "engines", "<= +150 ms", 600.0, "ms", False)]}))
    fresh = [item("engines_vs_python", "engines", "<= +150 ms", 90.0, "ms", True),
             item("startup_window_offscreen", "start-up, offscreen", "<= 1.5x", 1.4, "x", True)]
    rows = run_all.kept_rows(last, {"startup": fresh[1:], "engines": fresh[:1]})
    assert [r["key"] for r in rows] == ["startup_window_offscreen", "status_vs_python",
                                        "engines_vs_python"]
    assert rows[1]["note"] == "CPU +20 ms (measured 2026-12-01 10:20 UTC)"
    assert rows[2]["measured"] == 90.0


def test_the_token_row_is_counted_by_a_real_tokenizer_or_not_at_all(monkeypatch):
    # cl100k from bpe-openai (the bench extra), never characters / 4 passed off as tokens.
    from bench import fidelity

    monkeypatch.setitem(sys.modules, "bpe_openai", None)   # not installed
    assert fidelity.encoding() is None
    assert "pip install -e '.[bench]'" in fidelity.TOKENIZER_MISSING


def test_the_start_up_floor_measures_each_stage_doing_more_than_the_last(tmp_path):
    """bench/startup_floor.py: every stage's child reports once shown, and each stage makes
    more of PySide6's enum classes than the one before (it does more of the window's work),
    up to the app itself, which is usable."""
    import os
    import shutil

    from bench import startup_floor

    folder = tmp_path / "Bakery"
    shutil.copytree(REPO / "resources" / "demo-workspace", folder)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO),
               HARNESS_DESK_CONFIG_DIR=str(tmp_path / "config"))
    made = []
    for name, code in startup_floor.STAGES.items():
        seconds, classes, classes_ms = startup_floor.sample(code, folder, env)
        assert 0 < seconds < 60 and classes_ms > 0, name
        made.append(classes)
    assert made == sorted(made) and made[0] < made[-1], made
    assert list(startup_floor.STAGES) == ["bare", "+ Qt namespace", "+ the window's look",
                                          "+ checklist and Run", "app, open FOLDER"]
