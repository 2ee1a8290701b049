"""Deeply nested JSON in our records is damage like any other (issue 16, point 6).

json.loads raises RecursionError (not ValueError) on deep nesting; every reader of our
records must treat that as a damaged file, not crash the start, the run or the undo."""

from __future__ import annotations

import pytest

from app.core.workspace.files import read_json, read_jsonl
from app.core.records.records import read_rounds, read_run, read_status
from app.core.settings import load_settings, settings_path
from app.core.undo.undo import UndoError, undo_manifest
from app.core.workspace.workspace import RunFiles

DEEP = "[" * 200_000 + "]" * 200_000
DEEP_OBJ = '{"a":' * 100_000 + "1" + "}" * 100_000


@pytest.mark.parametrize("text", [DEEP, DEEP_OBJ, '{"engine": ' + DEEP + "}"])
def test_read_json_reads_deep_nesting_as_damaged(tmp_path, text):
    path = tmp_path / "x.json"
    path.write_text(text)
    assert read_json(path) is None


def test_read_jsonl_skips_a_deep_line_and_keeps_the_others(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text('{"n": 1}\n' + DEEP + "\n" + DEEP_OBJ + '\n{"n": 2}\n')
    assert list(read_jsonl(path)) == [{"n": 1}, {"n": 2}]


def test_deep_settings_are_kept_aside_and_reset():
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"engine": ' + DEEP + "}")
    loaded = load_settings()
    assert loaded.warning and "settings.damaged.json" in loaded.warning
    assert not path.exists() and (path.parent / "settings.damaged.json").exists()
    assert load_settings().warning is None  # the next start is clean


def test_deep_records_read_as_damaged(tmp_path):
    run = RunFiles(tmp_path / "run")
    run.dir.mkdir()
    run.run.write_text(DEEP_OBJ)
    run.rounds.write_text(DEEP + "\n")
    status = tmp_path / "status.json"
    status.write_text(DEEP_OBJ)
    assert read_run(run) is None
    assert read_rounds(run) == []
    assert read_status(status)[1] is not None
    manifest = tmp_path / "1.json"
    manifest.write_text('{"round": 1, "files": ' + DEEP_OBJ + "}")
    with pytest.raises(UndoError):
        undo_manifest(tmp_path, tmp_path / ".harness", manifest)
