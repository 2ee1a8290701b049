"""Atomic state files: disk full leaves the original, JSONL survives torn lines."""

from __future__ import annotations

import errno
import os

import pytest

from app.core.workspace.files import (DiskWriteError, append_jsonl, atomic_write_bytes, atomic_write_json,
                            read_json, read_jsonl)
from app.core.settings import Limits, Settings, load_settings, save_settings


def test_disk_full_while_saving_keeps_the_original_and_leaves_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "status.json"
    target.write_bytes(b'{"state": "done"}')

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(DiskWriteError) as caught:
        atomic_write_bytes(target, b'{"state": "running"}')
    assert target.read_bytes() == b'{"state": "done"}'
    assert os.listdir(tmp_path) == ["status.json"]
    assert "No space left" in str(caught.value) and "unchanged" in str(caught.value)


def test_atomic_write_keeps_the_file_mode(tmp_path):
    target = tmp_path / "notes.md"
    target.write_text("x")
    os.chmod(target, 0o640)
    atomic_write_bytes(target, b"y")
    assert (os.stat(target).st_mode & 0o777) == 0o640


def test_jsonl_reader_skips_a_torn_last_line_and_the_next_append_starts_clean(tmp_path):
    path = tmp_path / "events.jsonl"
    append_jsonl(path, {"n": 1})
    with open(path, "ab") as fh:
        fh.write(b'{"n": 2, "tru')
    assert [o["n"] for o in read_jsonl(path)] == [1]
    append_jsonl(path, {"n": 3})
    assert [o["n"] for o in read_jsonl(path)] == [1, 3]


def test_read_json_returns_none_for_damaged_files(tmp_path):
    path = tmp_path / "s.json"
    path.write_bytes(b"\x00\xffnot json")
    assert read_json(path) is None
    atomic_write_json(path, {"a": 1})
    assert read_json(path) == {"a": 1}


def test_a_damaged_settings_file_is_kept_aside_and_defaults_are_used(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path))
    (tmp_path / "settings.json").write_text('{"limits": {"max_steps": "lots"', encoding="utf-8")
    loaded = load_settings()
    assert loaded.settings == Settings()
    assert "could not be read" in loaded.warning
    assert (tmp_path / "settings.damaged.json").exists()
    save_settings(Settings(limits=Limits(max_steps=7)))
    assert load_settings().settings.limits.max_steps == 7


def test_a_read_during_a_windows_replace_waits_for_it_instead_of_failing(tmp_path, monkeypatch):
    # Windows refuses to open a file another thread is replacing ("access denied") for a moment;
    # the board's reader rides over it the way the writer does, and gives up only if it lasts.
    from pathlib import Path

    from app.core.workspace import files
    from app.core.board.board import Board

    board = tmp_path / "TASKS.md"
    board.write_text("- [ ] one\n", encoding="utf-8")
    real = Path.read_bytes
    refusals = {"left": 2}

    def busy(self):
        if self == board and refusals["left"]:
            refusals["left"] -= 1
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", busy)
    monkeypatch.setattr(files.sys, "platform", "win32")
    monkeypatch.setattr(files, "_REPLACE_DELAY_S", 0.0)
    assert [t.text for t in Board.load(board).tasks] == ["one"]
    assert refusals["left"] == 0

    refusals["left"] = 10_000  # a file that stays locked: a sentence, not a hang
    with pytest.raises(Exception, match=r"Could not read TASKS\.md"):
        Board.load(board)
