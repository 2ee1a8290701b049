"""Helpers for the end-to-end tests: the CLI runs as a subprocess on a temp copy of the demo
workspace, with its own config folder (no real user settings) and no network."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEMO_WORKSPACE = REPO / "resources" / "demo-workspace"

# Exit codes of PRODUCT.md §9, spelled out here so the tests do not trust the code under test.
DONE, FAILED, USAGE, BLOCKED, STOPPED, LOCKED = 0, 1, 2, 3, 4, 5


@dataclass
class Result:
    code: int
    out: str
    err: str
    seconds: float

    def __repr__(self) -> str:  # shown by pytest when an assertion fails
        return (f"Result(code={self.code}, seconds={self.seconds:.2f},\n--- stdout ---\n"
                f"{self.out}\n--- stderr ---\n{self.err})")


class Cli:
    """Runs `python -m app ...` in a clean environment."""

    def __init__(self, env: dict[str, str], cwd: Path, config_dir: Path):
        self.env = env
        self.cwd = cwd
        self.config_dir = config_dir

    def argv(self, *args: object) -> list[str]:
        return [sys.executable, "-m", "app", *map(str, args)]

    def __call__(self, *args: object, timeout: float = 60, env: dict | None = None) -> Result:
        start = time.perf_counter()
        proc = subprocess.run(self.argv(*args), cwd=self.cwd, env=env or self.env,
                              capture_output=True, text=True, encoding="utf-8",
                              errors="replace", timeout=timeout, stdin=subprocess.DEVNULL)
        return Result(proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start)

    def start(self, *args: object) -> subprocess.Popen:
        return subprocess.Popen(self.argv(*args), cwd=self.cwd, env=self.env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, text=True, encoding="utf-8",
                                errors="replace")

    def python(self, code: str, *args: object, timeout: float = 60) -> Result:
        """`python -c CODE ARGS...` with the same environment."""
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", code, *map(str, args)], cwd=self.cwd,
                              env=self.env, capture_output=True, text=True, encoding="utf-8",
                              errors="replace", timeout=timeout, stdin=subprocess.DEVNULL)
        return Result(proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start)


def clean_env(config_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in list(env):
        # No keys, no base URLs, no demo delay and no display leak in from the machine.
        if name.startswith(("HARNESS_DESK_", "ANTHROPIC_", "OPENAI_")) or name in (
                "DISPLAY", "WAYLAND_DISPLAY", "PYTHONWARNINGS"):
            del env[name]
    env["HARNESS_DESK_CONFIG_DIR"] = str(config_dir)
    # The subprocess runs from a temp folder: make sure it imports this checkout's `app`.
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in env.get("PYTHONPATH", "")
                                                        .split(os.pathsep) if p])
    env["PYTHONIOENCODING"] = "utf-8"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # No network: anything that tried to reach out would hit a closed local port.
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy",
                 "all_proxy"):
        env[name] = "http://127.0.0.1:9"
    env["NO_PROXY"] = env["no_proxy"] = ""
    env["QT_QPA_PLATFORM"] = "offscreen"
    return env


@pytest.fixture
def config_dir(tmp_path: Path) -> Path:
    return tmp_path / "config"  # not created: the app must cope with a missing folder


@pytest.fixture
def cli(tmp_path: Path, config_dir: Path) -> Cli:
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    return Cli(clean_env(config_dir), cwd, config_dir)


@pytest.fixture
def demo_ws(tmp_path: Path) -> Path:
    """A fresh copy of the bundled demo workspace (a space in the name, as people's folders have)."""
    target = tmp_path / "Rosie bakery"
    shutil.copytree(DEMO_WORKSPACE, target)
    return target


# -- reading what a run left --------------------------------------------------------------

def snapshot(root: Path) -> dict[str, bytes]:
    """Every file of the workspace outside .harness/, by relative path."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel == ".harness" or rel.startswith(".harness/") or not path.is_file():
            continue
        out[rel] = path.read_bytes()
    return out


def status_file(ws: Path) -> dict:
    return json.loads((ws / ".harness" / "status.json").read_text(encoding="utf-8"))


def try_status_file(ws: Path) -> dict | None:
    try:
        return status_file(ws)
    except (OSError, ValueError):
        return None


def run_dirs(ws: Path) -> list[Path]:
    runs = ws / ".harness" / "runs"
    return sorted(p for p in runs.iterdir() if p.is_dir()) if runs.is_dir() else []


def jsonl(path: Path) -> list[dict]:
    out = []
    for line in path.read_bytes().splitlines():
        if line.strip():
            out.append(json.loads(line))
    return out


def wait_until(predicate, timeout: float = 15.0, interval: float = 0.02, what: str = ""):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what or predicate}")
        time.sleep(interval)


def wait_for_round(ws: Path, proc: subprocess.Popen, at_least: int = 1, step: int = 1,
                   timeout: float = 15.0) -> dict:
    """Wait until the run in `proc` is running round `at_least` at step `step` or later."""
    def ready():
        if proc.poll() is not None:
            raise AssertionError(f"the run ended early with code {proc.returncode}: "
                                 f"{proc.communicate()}")
        s = try_status_file(ws)
        if s and s.get("state") == "running" and (s.get("round") or 0) >= at_least \
                and (s.get("step") or 0) >= step:
            return s
        return None
    return wait_until(ready, timeout, what=f"round {at_least} step {step} to start")


def finish(proc: subprocess.Popen, timeout: float = 60) -> Result:
    start = time.perf_counter()
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"process did not end within {timeout}s:\n{out}\n{err}") from None
    return Result(proc.returncode, out, err, time.perf_counter() - start)


@pytest.fixture
def procs():
    """Popen objects to kill if a test fails while they still run (only our own processes)."""
    started: list[subprocess.Popen] = []
    yield started
    for p in started:
        if p.poll() is None:
            p.kill()
            p.communicate()


def assert_plain_error(res: Result, code: int) -> str:
    """One plain sentence on stderr, the expected exit code, never a traceback."""
    assert res.code == code, res
    assert "Traceback" not in res.err and "Traceback" not in res.out, res
    lines = [ln for ln in res.err.splitlines() if ln.strip()]
    assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}: {res!r}"
    sentence = lines[0].strip()
    assert sentence.endswith((".", "?", "!")), res
    return sentence


def only_checkboxes_changed(before: bytes, after: bytes) -> bool:
    """True if `after` equals `before` except for `[ ]` -> `[x]` on task lines."""
    b, a = before.split(b"\n"), after.split(b"\n")
    if len(a) != len(b):
        return False
    for old, new in zip(b, a):
        if old != new and old.replace(b"- [ ]", b"- [x]", 1) != new:
            return False
    return True
