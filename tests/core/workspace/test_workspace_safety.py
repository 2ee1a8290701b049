"""The harness's own folder and the folder it is pointed at: no links out, no second run after
.harness is deleted, no run on the whole disk, a word before a home folder (issue 8, items
6, 7, 9 and 14)."""

from __future__ import annotations

import shutil
import sys
import threading
from pathlib import Path

import pytest

from app.core.errors import EXIT_USAGE, NotAWorkspace, WorkspaceLocked
from app.core.run.loop import Harness
from app.core.workspace.workspace import (Workspace, forbidden_folder_reason, init_workspace,
                                risky_folder_reason)
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX links and folders")
BOARD = "# Plan\n\n- [ ] Write a.md\n"


def _outside(tmp_path) -> Path:
    out = tmp_path / "outside"
    out.mkdir(exist_ok=True)
    return out


# -- 6. links inside .harness ------------------------------------------------------------------

@posix_only
def test_a_harness_folder_that_is_a_link_is_refused(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    (ws.root / ".harness").symlink_to(_outside(tmp_path), target_is_directory=True)
    with pytest.raises(NotAWorkspace) as exc:
        Harness(ws, ScriptedEngine([]), fast_limits()).run()
    assert ".harness" in exc.value.message and "link" in exc.value.message
    assert exc.value.exit_code == EXIT_USAGE
    assert list(_outside(tmp_path).iterdir()) == []


@posix_only
@pytest.mark.parametrize("inner", ["runs", "blobs"])
def test_a_records_folder_that_is_a_link_is_refused(tmp_path, inner):
    ws = board_workspace(tmp_path, BOARD)
    ws.ensure_harness_dir()
    shutil.rmtree(ws.harness_dir / inner)
    (ws.harness_dir / inner).symlink_to(_outside(tmp_path), target_is_directory=True)
    with pytest.raises(NotAWorkspace) as exc:
        Harness(ws, ScriptedEngine([]), fast_limits()).run()
    assert inner in exc.value.message and "link" in exc.value.message
    assert list(_outside(tmp_path).iterdir()) == []


@posix_only
@pytest.mark.parametrize("inner", [".gitignore", "lock", "status.json"])
def test_a_dangling_link_inside_harness_creates_nothing_outside(tmp_path, inner):
    ws = board_workspace(tmp_path, BOARD)
    ws.harness_dir.mkdir()
    target = _outside(tmp_path) / "planted"
    (ws.harness_dir / inner).symlink_to(target)
    with pytest.raises(NotAWorkspace) as exc:
        Harness(ws, ScriptedEngine([]), fast_limits()).run()
    assert inner in exc.value.message and exc.value.message.endswith(".")
    assert not target.exists()


def test_a_harness_that_is_a_file_is_a_usage_error(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    (ws.root / ".harness").write_text("not a folder")
    with pytest.raises(NotAWorkspace) as exc:
        ws.ensure_harness_dir()
    assert exc.value.exit_code == EXIT_USAGE and "is a file" in exc.value.message
    with pytest.raises(NotAWorkspace):
        init_workspace(ws.root)


# -- 9. the lock survives .harness being deleted ------------------------------------------------

def test_deleting_harness_mid_run_does_not_let_a_second_run_in(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    ws.ensure_harness_dir()
    with ws.lock():
        shutil.rmtree(ws.harness_dir)
        assert ws.lock().is_held_elsewhere()
        with pytest.raises(WorkspaceLocked):
            Harness(ws, ScriptedEngine([]), fast_limits()).run()
    # Released with the first run: the folder is free again.
    assert not ws.lock().is_held_elsewhere()
    result = Harness(ws, ScriptedEngine([call("give_up", reason="x", findings="")]),
                     fast_limits(max_rounds=1)).run()
    assert result.exit_reason == "max_rounds"


def test_the_same_folder_by_another_path_is_the_same_lock(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    ws.ensure_harness_dir()
    alias = Workspace(tmp_path / "." / "ws" / ".." / "ws")
    with ws.lock():
        shutil.rmtree(ws.harness_dir)
        alias.ensure_harness_dir()
        with pytest.raises(WorkspaceLocked):
            alias.lock().acquire()


def test_a_run_in_a_thread_holds_the_folder_while_harness_is_deleted(tmp_path):
    ws = board_workspace(tmp_path, BOARD)
    gate, release = threading.Event(), threading.Event()

    def slow(_messages):
        gate.set()
        release.wait(10)
        return call("give_up", reason="slow", findings="")

    first = ScriptedEngine([slow])
    runner = threading.Thread(target=lambda: Harness(ws, first, fast_limits(max_rounds=1)).run())
    runner.start()
    try:
        assert gate.wait(10)
        shutil.rmtree(ws.harness_dir)
        second = ScriptedEngine([])
        with pytest.raises(WorkspaceLocked):
            Harness(ws, second, fast_limits()).run()
        assert second.requests == []
    finally:
        release.set()
        runner.join(10)


# -- 7. home and system folders ---------------------------------------------------------------

@posix_only
def test_the_whole_disk_is_forbidden(tmp_path):
    assert "whole disk" in forbidden_folder_reason("/")
    assert forbidden_folder_reason(tmp_path) is None
    with pytest.raises(NotAWorkspace) as exc:
        Harness(Workspace("/"), ScriptedEngine([]), fast_limits()).run()
    assert "whole disk" in exc.value.message


@posix_only
def test_home_and_system_folders_are_risky(tmp_path, monkeypatch):
    home = tmp_path / "home" / "rosie"
    (home / "Documents" / "bakery").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    reason = risky_folder_reason(home)
    assert reason and "home folder" in reason and reason.endswith(".")
    assert "home folder" in risky_folder_reason(str(home) + "/")
    assert "home folder" in risky_folder_reason("~")
    assert risky_folder_reason(home.parent)  # every home folder at once
    for system in ("/", "/etc", "/usr", "/usr/local", "/var", "/bin", "/System", "/Library"):
        assert risky_folder_reason(system), system
    assert risky_folder_reason(home / "Documents" / "bakery") is None
    assert risky_folder_reason(home / "Documents") is None
    assert risky_folder_reason(tmp_path / "elsewhere") is None


@posix_only
def test_a_link_to_the_home_folder_is_just_as_risky(tmp_path, monkeypatch):
    home = tmp_path / "home" / "rosie"
    home.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    (tmp_path / "work").symlink_to(home, target_is_directory=True)
    assert "home folder" in risky_folder_reason(tmp_path / "work")


def test_checking_whether_a_run_is_alive_never_signals_it_on_windows(monkeypatch):
    """os.kill(pid, 0) terminates the process on Windows; the check must not call it there."""
    import app.core.workspace.workspace as workspace

    calls = []
    monkeypatch.setattr(workspace.sys, "platform", "win32")
    monkeypatch.setattr(workspace.os, "kill", lambda *a: calls.append(a))
    monkeypatch.setattr(workspace, "_windows_pid_alive", lambda pid: pid == 4242)
    assert workspace.pid_alive(4242) and not workspace.pid_alive(7)
    assert calls == []


# -- 10. seeing whether a run holds the lock, without filelock (issue 23) -------------------

def _filelock_held(path):
    """What the filelock package (which older copies of the app lock with) says."""
    from filelock import FileLock, Timeout

    probe = FileLock(str(path), timeout=0)
    try:
        probe.acquire(timeout=0)
    except Timeout:
        return True
    probe.release()
    return False


def test_the_light_lock_probe_sees_what_filelock_sees(tmp_path):
    import subprocess

    from filelock import FileLock

    from app.core.workspace.file_lock import is_held

    path = tmp_path / "lock"
    path.touch()
    assert is_held(path) is _filelock_held(path) is False
    held = FileLock(str(path), timeout=0)
    with held:  # by this process, through another lock object: held, as filelock says too
        assert is_held(path) is _filelock_held(path) is True
    assert is_held(path) is _filelock_held(path) is False
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys\nfrom filelock import FileLock\n"
         "lock = FileLock(sys.argv[1], timeout=0)\nlock.acquire()\n"
         "print('held', flush=True)\nsys.stdin.read()\n", str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert is_held(path) is _filelock_held(path) is True
    finally:
        holder.stdin.close()
        holder.wait(10)
    assert is_held(path) is _filelock_held(path) is False
    assert is_held(tmp_path / "missing") is None  # cannot tell


def test_our_lock_keeps_out_filelock_and_filelock_keeps_out_ours(tmp_path):
    """An older copy of the app takes its run lock with the filelock package: each keeps the
    other out, both ways."""
    from filelock import FileLock as TheirLock, Timeout

    from app.core.workspace.file_lock import FileLock, LockBusy

    path = tmp_path / "lock"
    with TheirLock(str(path), timeout=0):
        with pytest.raises(LockBusy):
            FileLock(path).acquire(timeout=0.05)
    ours = FileLock(path)
    ours.acquire(timeout=0)
    try:
        with pytest.raises(Timeout):
            TheirLock(str(path)).acquire(timeout=0.05)
    finally:
        ours.release()
    with TheirLock(str(path), timeout=0):
        pass
