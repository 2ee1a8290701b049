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
