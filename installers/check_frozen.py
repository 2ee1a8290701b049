"""Smoke-check a frozen or installed Harness Desk: run it the way CI can, one line per check.

    python installers/check_frozen.py "dist/Harness Desk/Harness Desk.exe"

Runs the executable offscreen with its own settings folder: `--version` must name this
version, and `self-test` (the window's whole flow, headless) must pass. Exit 0 when both do.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from app import NAME, __version__  # noqa: E402


def run(exe: Path, *args: str, config: Path, timeout: float = 300):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HARNESS_DESK_", "ANTHROPIC_", "OPENAI_", "PYTHON"))}
    env.update(QT_QPA_PLATFORM="offscreen", HARNESS_DESK_CONFIG_DIR=str(config))
    started = time.monotonic()
    # Pipes for all three streams: a windowed Windows executable then has real ones too.
    out = subprocess.run([str(exe), *args], env=env, capture_output=True, text=True,
                         encoding="utf-8", errors="replace", timeout=timeout,
                         stdin=subprocess.DEVNULL, cwd=config)
    return out, time.monotonic() - started


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    exe = Path(argv[0]).resolve()
    passed = failed = 0

    def check(name: str, ok: bool, detail: str = "") -> None:
        nonlocal passed, failed
        passed += ok
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}" + (f": {detail}" if detail else ""))

    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp)
        out, _ = run(exe, "--version", config=config)
        check("version", out.stdout.strip() == f"{NAME} {__version__}",
              out.stdout.strip() or out.stderr.strip())
        out, seconds = run(exe, "self-test", config=config)
        print(out.stdout.rstrip())
        check("self-test", out.returncode == 0, f"{seconds:.1f} s, exit {out.returncode}"
              + (f": {out.stderr.strip()[-500:]}" if out.returncode else ""))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
