"""Without a built llama-server the real-server tests skip, saying why; where CI expects one
(HARNESS_DESK_LLAMA_EXPECTED=1, set by .ci/run), they fail instead of skipping silently."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_one(tmp_path: Path, expected: bool) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HARNESS_DESK_LLAMA")}
    env["HARNESS_DESK_LLAMA_CACHE"] = str(tmp_path / "empty-cache")  # nothing built there
    if expected:
        env["HARNESS_DESK_LLAMA_EXPECTED"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rsE", "-p", "no:cacheprovider",
         "tests/llama/test_real_llama.py::test_every_step_is_capped"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_a_missing_server_skips_with_the_reason(tmp_path):
    done = run_one(tmp_path, expected=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 skipped" in done.stdout
    assert "llama-server is not built: run `python scripts/llama_server.py build`" in done.stdout


def test_a_missing_server_fails_where_it_is_expected(tmp_path):
    done = run_one(tmp_path, expected=True)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 error" in done.stdout and "skipped" not in done.stdout  # its fixture fails
    assert "HARNESS_DESK_LLAMA_EXPECTED=1 but llama-server is not built" in done.stdout
