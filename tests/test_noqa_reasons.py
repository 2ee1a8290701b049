"""An import kept inside a function in app/ says why (scripts/noqa_reasons.py, run by lint.sh),
and ruff fails on one that has no noqa at all (PLC0415, pyproject.toml)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "noqa_reasons.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_every_import_inside_a_function_in_app_says_why():
    done = _run()
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ""


def test_a_noqa_without_its_reason_fails_and_says_where(tmp_path):
    (tmp_path / "bare.py").write_text(
        "def a():\n"
        "    import json  # noqa: PLC0415\n"                      # line 2: no reason
        "def b():\n"
        "    import csv  # noqa: F401, PLC0415\n"                 # line 4: no reason
        "def c():\n"
        "    import ssl  # noqa: PLC0415 -\n"                     # line 6: a dash, no words
        "def d():\n"
        "    import zlib  # noqa: PLC0415 - startup\n"            # line 8: one word
        "def e():\n"
        "    from os import (  # noqa: PLC0415, F401\n"           # line 10: no reason
        "        path)\n", encoding="utf-8")
    (tmp_path / "fine.py").write_text(
        "TEXT = '# noqa: PLC0415'  # a string, not a comment\n"
        "def a():\n"
        "    import json  # noqa: PLC0415 - window start-up (bench/startup.py)\n"
        "def b():\n"
        "    import csv  # noqa: F401, PLC0415 - Windows only\n"
        "def c():\n"
        "    import ssl  # noqa: E501\n", encoding="utf-8")
    done = _run(str(tmp_path))
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(": ")[0] for line in lines] == [
        f"{tmp_path / 'bare.py'}:{n}" for n in (2, 4, 6, 8, 10)]
    assert all("does not say why the import is inside a function" in line for line in lines)


def test_ruff_fails_on_a_bare_import_inside_a_function_in_app_only(tmp_path):
    code = "def a():\n    import json\n    return json\n"
    (tmp_path / "app").mkdir()
    (tmp_path / "tests").mkdir()
    (tmp_path / "app" / "probe.py").write_text(code, encoding="utf-8")
    (tmp_path / "tests" / "probe.py").write_text(code, encoding="utf-8")
    config = ROOT / "pyproject.toml"
    (tmp_path / "pyproject.toml").write_text(config.read_text(encoding="utf-8"), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache",
                           "--output-format", "concise", "app", "tests"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    found = [line for line in done.stdout.splitlines() if "PLC0415" in line]
    assert found == [f"app{os.sep}probe.py:2:5: PLC0415 `import` should be at the "
                     "top-level of a file"], done.stdout
