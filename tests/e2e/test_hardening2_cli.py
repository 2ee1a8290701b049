"""End-to-end: what the second adversarial test found (issue 16), as the person meets it on
the command line: damaged records that are too deeply nested, a read-only folder."""

from __future__ import annotations

import errno
import json

import pytest

from app.core.errors import HarnessError
from app.core.workspace.workspace import Workspace

from .conftest import BLOCKED

DEEP = "[" * 200_000 + "]" * 200_000


def test_deeply_nested_settings_are_reset_and_the_run_goes_on(cli, demo_ws):
    cli.config_dir.mkdir(parents=True, exist_ok=True)
    (cli.config_dir / "settings.json").write_text('{"engine": ' + DEEP + "}")
    res = cli("run", demo_ws, "--engine", "demo")
    assert res.code == BLOCKED, res
    assert "Something went wrong" not in res.err and "Traceback" not in res.err, res
    assert "settings file could not be read" in res.err, res
    assert (cli.config_dir / "settings.damaged.json").exists()


def test_a_folder_with_deeply_nested_records_can_be_read_run_and_undone(cli, demo_ws):
    assert cli("run", demo_ws, "--engine", "demo").code == BLOCKED
    harness = demo_ws / ".harness"
    (harness / "status.json").write_text(DEEP)
    [run] = [p for p in (harness / "runs").iterdir() if p.is_dir()]
    with open(run / "rounds.jsonl", "a", encoding="utf-8") as fh:
        fh.write(DEEP + "\n")
    with open(run / "events.jsonl", "a", encoding="utf-8") as fh:
        fh.write(DEEP + "\n")
    for command in (("status", demo_ws), ("undo", demo_ws, "--round", "1")):
        res = cli(*command)
        assert res.code in (0, 1), (command, res)
        assert "Something went wrong" not in res.err and "Traceback" not in res.err, res
    assert cli("decide", demo_ws, "--answer", "trust").code == 0
    res = cli("run", demo_ws, "--engine", "demo")
    assert res.code == 0, res
    assert json.loads((harness / "status.json").read_text())["state"] == "done"


@pytest.mark.parametrize("code", [errno.EROFS, errno.EACCES])
def test_a_folder_that_cannot_be_written_says_what_to_do(tmp_path, monkeypatch, code):
    # Root can write anywhere, so the file system's refusal is played by the lock itself.
    from app.core.workspace.file_lock import FileLock

    real_acquire = FileLock.acquire

    def refuse(self, *args, **kwargs):  # only the lock inside the folder: its disk is read-only
        if str(ws) not in str(self.path):
            return real_acquire(self, *args, **kwargs)
        raise OSError(code, "Read-only file system" if code == errno.EROFS else "Permission denied")

    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "TASKS.md").write_text("- [ ] a\n")
    monkeypatch.setenv("HARNESS_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setattr(FileLock, "acquire", refuse)
    with pytest.raises(HarnessError) as caught:
        Workspace(ws).lock().acquire()
    sentence = str(caught.value)
    assert "cannot be written to" in sentence
    assert "copy" in sentence.lower() and "permissions" in sentence
    assert sentence.count(". ") <= 2 and sentence.endswith(".")
