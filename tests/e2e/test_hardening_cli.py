"""End-to-end: what an adversarial test of the command line found (issue 8), as the person
meets it: a question before a home folder, a sentence for a full disk, an honest undo."""

from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from .conftest import (BLOCKED, FAILED, USAGE, Cli, Result, assert_plain_error, run_dirs,
                       status_file)

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX terminals and mounts")


def home_env(cli: Cli, home: Path) -> dict[str, str]:
    env = dict(cli.env)
    env["HOME"] = str(home)
    return env


# -- 7. a home folder needs a yes ---------------------------------------------------------

def test_run_on_the_home_folder_without_a_terminal_refuses_and_names_yes(cli, demo_ws):
    res = cli("run", demo_ws, "--engine", "demo", env=home_env(cli, demo_ws))
    sentence = assert_plain_error(res, USAGE)
    assert "home folder" in sentence and "--yes" in sentence
    assert run_dirs(demo_ws) == []


def test_run_on_the_home_folder_with_yes_runs(cli, demo_ws):
    res = cli("run", demo_ws, "--engine", "demo", "--yes", env=home_env(cli, demo_ws))
    assert res.code == BLOCKED, res


def _run_in_terminal(cli: Cli, answer: bytes, *args: object) -> Result:
    """Run the CLI with a terminal as its input, type `answer`, return what it did."""
    main, follower = pty.openpty()
    try:
        proc = subprocess.Popen(cli.argv(*args), cwd=cli.cwd, env=cli.env, stdin=follower,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        os.write(main, answer)
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(follower)
        os.close(main)
    return Result(proc.returncode, out, err, 0.0)


@posix_only
def test_in_a_terminal_the_person_is_asked_and_no_means_nothing_runs(cli, demo_ws):
    cli.env["HOME"] = str(demo_ws)
    res = _run_in_terminal(cli, b"n\n", "run", demo_ws, "--engine", "demo")
    assert res.code == USAGE, res
    assert "home folder" in res.out and "[y/N]" in res.out
    assert "Nothing was run" in res.err
    assert run_dirs(demo_ws) == []


@posix_only
def test_in_a_terminal_yes_runs(cli, demo_ws):
    cli.env["HOME"] = str(demo_ws)
    res = _run_in_terminal(cli, b"y\n", "run", demo_ws, "--engine", "demo")
    assert res.code == BLOCKED, res


@posix_only
def test_run_on_the_whole_disk_is_refused_even_with_yes(cli):
    res = cli("run", "/", "--engine", "demo", "--yes")
    sentence = assert_plain_error(res, USAGE)
    assert "whole disk" in sentence


def test_an_ordinary_folder_is_not_asked_about(cli, demo_ws):
    res = cli("run", demo_ws, "--engine", "demo")
    assert res.code == BLOCKED and "[y/N]" not in res.out, res


# -- 14. a .harness that is a file ------------------------------------------------------------

def test_a_harness_that_is_a_file_is_one_sentence_and_exit_2(cli, demo_ws):
    (demo_ws / ".harness").write_text("not a folder")
    for command in (("run", demo_ws, "--engine", "demo"), ("init", demo_ws)):
        sentence = assert_plain_error(cli(*command), USAGE)
        assert ".harness" in sentence and "is a file" in sentence


# -- 11. undo that brings nothing back fails -------------------------------------------------

def test_undo_with_every_saved_copy_damaged_says_so_and_exits_1(cli, demo_ws):
    assert cli("run", demo_ws, "--engine", "demo").code == BLOCKED
    assert cli("decide", demo_ws, "--answer", "trust").code == 0
    assert cli("run", demo_ws, "--engine", "demo").code == 0
    run = run_dirs(demo_ws)[-1]
    # A round that rewrote a file the person had: undo must bring that file's copy back.
    rewrote = next(int(m.stem) for m in sorted((run / "undo").glob("*.json"))
                   if any(e["before"] != "absent"
                          for e in json.loads(m.read_text())["files"].values()))
    for blob in (demo_ws / ".harness" / "blobs").iterdir():
        blob.chmod(0o644)
        blob.write_bytes(b"damaged")
    res = cli("undo", demo_ws, "--round", rewrote)
    sentence = assert_plain_error(res, FAILED)
    assert f"Nothing from round {rewrote} came back" in sentence and "damaged" in sentence


# -- 12. a full disk -------------------------------------------------------------------------

FULL_FROM_THE_START = textwrap.dedent("""
    import errno, os, sys
    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")
    os.fsync = full
    from app.cli import main
    sys.exit(main(sys.argv[1:]))
""")


def test_a_full_disk_at_run_start_is_one_sentence_and_leaves_no_run_folder(cli, demo_ws):
    assert cli("init", demo_ws).code == 0
    res = cli.python(FULL_FROM_THE_START, "run", demo_ws, "--engine", "demo")
    sentence = assert_plain_error(res, FAILED)
    assert "no space left on the disk" in sentence and ".." not in sentence
    assert "Details were saved" not in sentence
    assert run_dirs(demo_ws) == []
    assert not (cli.config_dir / "crash-reports").exists()


def _can_mount_a_small_disk() -> bool:
    if sys.platform != "linux" or os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                            "mount -t tmpfs -o size=64k tmpfs /mnt"], capture_output=True)
    return probe.returncode == 0


@pytest.mark.skipif(not _can_mount_a_small_disk(),
                    reason="needs root and unshare to mount a small disk of its own")
def test_a_real_disk_that_fills_mid_run_leaves_a_status_of_failed_for_lack_of_space(
        cli, demo_ws, tmp_path):
    """On a 2 MB disk of its own (a private mount namespace): the run starts, the disk is
    filled to the last byte while it works, and `status` afterwards says what happened."""
    disk = tmp_path / "disk"
    disk.mkdir()
    script = textwrap.dedent(f"""
        set -e
        mount -t tmpfs -o size=2m tmpfs "{disk}"
        cp -r "{demo_ws}" "{disk}/ws"
        {sys.executable} -m app run "{disk}/ws" --engine demo --demo-delay 0.4 \
            > "{tmp_path}/run.out" 2> "{tmp_path}/run.err" &
        pid=$!
        for i in $(seq 1 200); do
            grep -q '"round": 1' "{disk}/ws/.harness/status.json" 2>/dev/null && break
            sleep 0.05
        done
        dd if=/dev/zero of="{disk}/fill" bs=4k 2>/dev/null || true
        set +e
        wait $pid
        echo "run exit $?" >> "{tmp_path}/run.out"
        {sys.executable} -m app status "{disk}/ws" > "{tmp_path}/status.out" 2>&1
        cp "{disk}/ws/.harness/status.json" "{tmp_path}/status.json"
    """)
    proc = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script],
                          env=cli.env, cwd=cli.cwd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc
    out = (tmp_path / "run.out").read_text()
    err = (tmp_path / "run.err").read_text()
    assert "run exit 1" in out, (out, err)
    assert "Traceback" not in err and "no space left on the disk" in err
    status_text = (tmp_path / "status.out").read_text()
    assert "State: Failed" in status_text and "no space left on the disk" in status_text
    assert "interrupted" not in status_text
    assert json.loads((tmp_path / "status.json").read_text())["state"] == "failed"


# -- 5. short keys and keys in addresses ------------------------------------------------------

def test_a_short_key_and_a_key_in_the_base_url_appear_nowhere(cli, demo_ws):
    env = dict(cli.env)
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    url = "http://127.0.0.1:9/v1?api_key=QSECRET42&model=x"
    res = cli("run", demo_ws, "--engine", "local", "--model", "m", "--base-url", url, env=env)
    assert res.code == FAILED, res
    assert "QSECRET42" not in res.out + res.err
    assert "127.0.0.1:9" in res.out + res.err  # the address itself is still shown
    for path in demo_ws.rglob("*"):
        if path.is_file():
            assert b"QSECRET42" not in path.read_bytes(), path
    status = status_file(demo_ws)
    assert "QSECRET42" not in json.dumps(status)
