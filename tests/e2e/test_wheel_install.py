"""A normal install works: the wheel carries the demo workspace and the price table, and the
app finds them from wherever it was installed (issue 8, item 8).

The wheel is built from this checkout and installed with --no-deps into a fresh venv that
sees the shared dependencies through a .pth file, then used from a folder outside the repo
with no PYTHONPATH: exactly what `pip install .` gives a person, minus the downloads.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _run(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=180, **kwargs)
    assert proc.returncode == 0, (argv, proc.stdout[-2000:], proc.stderr[-2000:])
    return proc


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # A copy of the tracked files only, so a stray build/ or egg-info in the checkout
    # cannot hide a missing declaration; no build isolation, so nothing is downloaded.
    src = out / "src"
    src.mkdir()
    files = _run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                 cwd=REPO).stdout.split("\0")
    for rel in filter(None, files):
        if (REPO / rel).is_file():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            (src / rel).write_bytes((REPO / rel).read_bytes())
    _run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation",
          "--no-index", "-q", "-w", str(out)])
    (built,) = out.glob("harness_desk-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> tuple[Path, dict[str, str], Path]:
    """(the venv's python, an environment without this checkout, a folder outside the repo)."""
    venv = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
          "--no-index", "-q", str(wheel)])
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                      "['purelib'])"]).stdout.strip())
    # The shared dependencies (Qt, pydantic, the SDKs), appended after the venv's own
    # site-packages: `app` itself can only come from the wheel.
    (site / "shared-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "HARNESS_DESK_", "ANTHROPIC_", "OPENAI_"))
           and k not in ("DISPLAY", "WAYLAND_DISPLAY", "VIRTUAL_ENV")}
    env["HARNESS_DESK_CONFIG_DIR"] = str(venv.parent / "config")
    env["HARNESS_DESK_DEMO_DELAY"] = "0"
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["PYTHONIOENCODING"] = "utf-8"
    cwd = tmp_path_factory.mktemp("elsewhere")
    return python, env, cwd


def test_the_wheel_carries_the_demo_workspace_and_the_price_table(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "app/resources/prices.json" in names
    assert "app/resources/demo-workspace/TASKS.md" in names
    assert "app/resources/demo-workspace/AGENTS.md" in names


def test_the_installed_app_uses_its_own_resources(installed):
    python, env, cwd = installed
    code = ("import app, json; from app.core.resources import resource_path; "
            "from app.core.engine.conversation import Usage; from app.engines.prices import cost_usd; "
            "print(app.__file__); print(resource_path('prices.json')); "
            "print(cost_usd('anthropic', 'claude-sonnet-5-5', Usage(input_tokens=10**6)))")
    lines = _run([str(python), "-c", code], env=env, cwd=cwd).stdout.splitlines()
    package, prices, cost = Path(lines[0]).parent, Path(lines[1]), float(lines[2])
    assert REPO not in package.parents and package.parent.name == "site-packages"
    assert prices.is_file() and package in prices.parents
    assert cost > 0


def test_the_installed_app_lists_engines_and_runs_the_bare_demo(installed):
    python, env, cwd = installed
    engines = _run([str(python), "-m", "app", "engines"], env=env, cwd=cwd)
    assert "Demo" in engines.stdout
    # No display (and no Qt platform chosen, which would open the window offscreen): the bare
    # app runs the bundled demo in the terminal, answering for itself.
    no_display = {k: v for k, v in env.items() if k != "QT_QPA_PLATFORM"}
    demo = subprocess.run([str(python), "-m", "app"], env=no_display, cwd=cwd, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert demo.returncode == 0, (demo.stdout[-2000:], demo.stderr[-2000:])
    assert "Every task on the board is done." in demo.stdout
    assert "Traceback" not in demo.stderr
