"""The shape of the code: core free of Qt, importing app does nothing, CLI stays light."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _python(code: str, cwd: Path, env_dir: Path) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(env_dir), "PYTHONPATH": str(REPO),
           "HARNESS_DESK_CONFIG_DIR": str(env_dir / "config")}
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)


def test_core_and_engines_import_without_qt(tmp_path):
    code = ("import sys, pkgutil, importlib, app.core, app.engines\n"
            "for pkg in (app.core, app.engines):\n"
            "    for m in pkgutil.iter_modules(pkg.__path__):\n"
            "        importlib.import_module(pkg.__name__ + '.' + m.name)\n"
            "bad = [m for m in sys.modules if m.split('.')[0] == 'PySide6']\n"
            "assert not bad, bad\n")
    done = _python(code, tmp_path, tmp_path)
    assert done.returncode == 0, done.stderr


def test_importing_app_prints_nothing_and_creates_no_files(tmp_path):
    done = _python("import app, app.cli, app.core, app.engines, app.gui", tmp_path, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""
    assert list(tmp_path.iterdir()) == []


def test_no_module_in_core_or_engines_mentions_pyside():
    for folder in ("app/core", "app/engines"):
        for path in (REPO / folder).glob("*.py"):
            assert "PySide6" not in path.read_text(encoding="utf-8"), path
