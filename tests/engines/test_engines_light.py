"""`harness-desk engines` loads only what the readiness checks need (issue 36): not the Demo's
scripts, not the run records or the board, which cost a listing a fifth of its time."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("app.engines.demo.script", "app.engines.demo.planner", "app.core.records.records",
         "app.core.board.board", "app.core.run.reports")
PROGRAM = ("import sys\nfrom app.cli import main\nsys.argv = ['harness-desk', 'engines']\n"
           "code = main()\nprint('LOADED', [m for m in %r if m in sys.modules])\n" % (HEAVY,))


def test_listing_the_engines_loads_no_demo_script_records_or_board(tmp_path):
    with socket.socket() as s:  # the local engine pointed at a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    (tmp_path / "settings.json").write_text(json.dumps(
        {"engines": {"local": {"base_url": f"http://127.0.0.1:{port}/v1"}}}), encoding="utf-8")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HARNESS_DESK_", "ANTHROPIC_", "OPENAI_"))}
    env.update(HARNESS_DESK_CONFIG_DIR=str(tmp_path), PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, "-c", PROGRAM], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=120).stdout
    assert "demo       ready" in out and "Nothing is answering at" in out, out
    assert out.strip().splitlines()[-1] == "LOADED []", out
