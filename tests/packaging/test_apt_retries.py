"""scripts/apt.sh, which .ci/run and scripts/build_windows.sh install packages through: a Debian
mirror in the middle of a sync must not fail CI.

On 2026-12-05 CI stopped 2 s in: `apt-get update` exited 100 because one index file
(bookworm-security, binary-i386) had "unexpected size ... Mirror sync in progress?", though
every list the install needed had arrived. These run the real script under bash against a
stand-in `apt-get` (and `sleep`) on PATH that fails the way that mirror did.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")

MIRROR_SYNC = (
    "E: Failed to fetch http://deb.debian.org/debian-security/dists/bookworm-security/main/"
    "binary-i386/Packages.xz  File has unexpected size (371952 != 372316). "
    "Mirror sync in progress?"
)


def _run(tmp_path: Path, *, update_fails: int, install_fails: int) -> tuple[int, list[str], str]:
    """Source scripts/apt.sh under `set -euo pipefail`, as .ci/run does, and install two
    packages; the stand-in apt-get fails its first `update_fails` updates and its first
    `install_fails` installs. Returns the exit code, the calls made, and stderr."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "calls"
    (bin_dir / "apt-get").write_text(
        "#!/bin/bash\n"
        f'echo "$*" >> {calls}\n'
        'kind=install; for a in "$@"; do [ "$a" = update ] && kind=update; done\n'
        f'n=$(grep -c " $kind" {calls} || true)\n'
        f'if [ "$kind" = update ] && [ "$n" -le {update_fails} ]; then '
        f'echo "{MIRROR_SYNC}" >&2; exit 100; fi\n'
        f'if [ "$kind" = install ] && [ "$n" -le {install_fails} ]; then '
        'echo "E: Unable to locate package foo" >&2; exit 100; fi\n'
        "exit 0\n"
    )
    (bin_dir / "sleep").write_text(f'#!/bin/bash\necho "sleep $1" >> {calls}\n')
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", "-c", "set -euo pipefail; source scripts/apt.sh; apt_update; "
         "apt_install foo bar; echo installed"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=60,
    )
    made = calls.read_text().splitlines() if calls.exists() else []
    assert ("installed" in done.stdout) == (done.returncode == 0)
    return done.returncode, made, done.stderr


def _count(calls: list[str], word: str) -> int:
    return sum(1 for call in calls if f" {word}" in f" {call}")


def test_an_update_that_fails_twice_is_tried_again_and_the_install_goes_on(tmp_path):
    code, calls, err = _run(tmp_path, update_fails=2, install_fails=0)
    assert code == 0
    assert _count(calls, "update") == 3 and _count(calls, "install") == 1
    assert [c for c in calls if c.startswith("sleep")] == ["sleep 10", "sleep 20"]
    assert "attempt 2 of 5" in err


def test_an_update_that_never_succeeds_still_lets_the_install_judge(tmp_path):
    code, calls, err = _run(tmp_path, update_fails=99, install_fails=0)
    assert code == 0, err
    assert _count(calls, "update") == 5 and _count(calls, "install") == 1
    assert "going on with the package lists it did fetch" in err
    # no wait after the last failed update: the install comes straight after it
    assert calls[calls.index(next(c for c in calls if " install " in f" {c} ")) - 1].endswith(
        "update -qq")


def test_an_install_that_fails_fetches_the_lists_again_and_retries(tmp_path):
    code, calls, err = _run(tmp_path, update_fails=0, install_fails=1)
    assert code == 0, err
    assert _count(calls, "install") == 2 and _count(calls, "update") == 2
    assert "fetching the lists again" in err


def test_a_package_that_never_installs_fails_with_apts_own_words(tmp_path):
    code, calls, err = _run(tmp_path, update_fails=0, install_fails=99)
    assert code != 0
    assert _count(calls, "install") == 3
    assert "Unable to locate package foo" in err and "failed three times" in err


def test_ci_and_the_windows_build_install_through_it():
    for script in (REPO / ".ci" / "run", REPO / "scripts" / "build_windows.sh"):
        text = script.read_text()
        assert "source scripts/apt.sh" in text and "apt_install" in text, script
        assert "apt-get update" not in text.replace("# ", ""), script
