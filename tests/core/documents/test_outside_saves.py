"""A save from outside is never lost (issue 33 point 3): a tool that read a file and computed
its change writes it only if the file still holds what it read, checked right before the
replace, in normal and careful mode; a file another program holds locked (Word, Excel on
Windows) gets a sentence asking the person to close it, and the round goes on."""

from __future__ import annotations

import errno
import os

import openpyxl
import pytest

import app.core.workspace.files as files
import app.core.tools.toolbox as tools
from app.core.run.loop import Harness
from app.core.records.narrate import describe_event
from app.core.policies.approver import Answer
from app.core.records.records import read_rounds
from app.core.tools.toolbox import ToolBox
from app.core.undo.undo import BlobStore, RoundChanges
from tests.document_files import prices_xlsx
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

BOARD = "# Shop\n\n- [ ] Update the prices\n  - Done when: prices.xlsx is updated\n"
THEIR_SAVE = b"saved by the person in Excel while the AI was working\n"


def changed(name: str) -> str:
    return (f"{name} was changed by someone else while this edit was being made, so nothing "
            "was written; read it again and redo the change.")


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "TASKS.md").write_text(BOARD)
    prices_xlsx(root / "prices.xlsx")
    (root / "notes.txt").write_text("opening hours: 8-18\n")
    return root


def box_for(ws) -> tuple[ToolBox, RoundChanges]:
    changes = RoundChanges(ws, BlobStore(ws / ".harness"), ws / ".harness/runs/r/undo/1.json", 1)
    return ToolBox(ws, ws / "TASKS.md", "Update the prices", changes), changes


def slowed(monkeypatch, name: str, while_computing):
    """Wrap the tool's computation `name` (in app.core.tools.toolbox) so that `while_computing` runs
    after the computation read the file and before the tool writes: the person's save."""
    real = getattr(tools, name)

    def slow(*args, **kwargs):
        result = real(*args, **kwargs)
        while_computing()
        return result

    monkeypatch.setattr(tools, name, slow)


def test_set_cells_keeps_a_save_made_while_it_computed(ws, monkeypatch):
    target = ws / "prices.xlsx"
    slowed(monkeypatch, "set_cells", lambda: target.write_bytes(THEIR_SAVE))
    box, changes = box_for(ws)
    out = box.call("set_cells", {"path": "prices.xlsx", "cells": {"B2": 9.99}})
    assert out.is_error and out.content == changed("prices.xlsx")
    assert out.ending is None and not out.changed
    assert target.read_bytes() == THEIR_SAVE
    assert changes.touched == []  # no pre-image kept: undo cannot take their save back


def test_edit_file_keeps_a_save_made_right_before_the_replace(ws, monkeypatch):
    """The last check, in files.commit_temp_file right before os.replace, catches a save
    made after every earlier check (here: while the new file's mode is being set)."""
    target = ws / "notes.txt"
    real = files._copy_mode

    def save_then_copy(path, tmp, mode=None):
        if path == target:
            target.write_bytes(THEIR_SAVE)
        real(path, tmp, mode)

    monkeypatch.setattr(files, "_copy_mode", save_then_copy)
    box, changes = box_for(ws)
    out = box.call("edit_file", {"path": "notes.txt", "old_text": "8-18", "new_text": "9-17"})
    assert out.is_error and out.content == changed("notes.txt")
    assert target.read_bytes() == THEIR_SAVE
    assert changes.touched == []
    assert not [p for p in ws.iterdir() if files.is_our_temp(p.name)]  # no temp file left


def test_write_file_does_not_overwrite_a_file_the_person_created_meanwhile(ws, monkeypatch):
    target = ws / "summary.txt"
    real = files._copy_mode

    def create_then_copy(path, tmp, mode=None):
        if path == target and not target.exists():
            target.write_bytes(THEIR_SAVE)
        real(path, tmp, mode)

    monkeypatch.setattr(files, "_copy_mode", create_then_copy)
    box, _ = box_for(ws)
    out = box.call("write_file", {"path": "summary.txt", "content": "the AI's summary\n"})
    assert out.content == changed("summary.txt")
    assert target.read_bytes() == THEIR_SAVE


def test_an_unchanged_file_is_written_as_before(ws):
    box, changes = box_for(ws)
    out = box.call("set_cells", {"path": "prices.xlsx", "cells": {"B2": 9.99}})
    assert not out.is_error, out.content
    assert openpyxl.load_workbook(ws / "prices.xlsx").active["B2"].value == 9.99
    out = box.call("edit_file", {"path": "notes.txt", "old_text": "8-18", "new_text": "9-17"})
    assert not out.is_error and (ws / "notes.txt").read_text() == "opening hours: 9-17\n"
    assert changes.touched == ["notes.txt", "prices.xlsx"]


def test_a_same_size_save_within_the_same_clock_tick_is_caught_by_the_bytes(ws, monkeypatch):
    target = ws / "notes.txt"
    before = os.stat(target)

    def same_size_same_time():
        target.write_bytes(b"opening hours: 7-19\n")  # as long as the old text
        os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))

    slowed(monkeypatch, "_encode", same_size_same_time)
    box, _ = box_for(ws)
    out = box.call("edit_file", {"path": "notes.txt", "old_text": "8-18", "new_text": "9-17"})
    assert out.content == changed("notes.txt")
    assert target.read_bytes() == b"opening hours: 7-19\n"


@pytest.mark.parametrize("careful", [False, True], ids=["normal mode", "careful mode"])
def test_in_a_run_the_save_survives_and_the_ai_is_told(tmp_path, monkeypatch, careful):
    ws = board_workspace(tmp_path, BOARD, {})
    target = ws.root / "prices.xlsx"
    prices_xlsx(target)
    saves = []

    def person_saves():
        if not saves:  # the first set_cells only: the AI then reads again and redoes it
            target.write_bytes(THEIR_SAVE)
            saves.append(target.read_bytes())

    slowed(monkeypatch, "set_cells", person_saves)

    class Allows:
        def __init__(self):
            self.shown = []

        def ask(self, request, cancel):
            self.shown.append(request)
            return Answer("allow")

    person = Allows()
    engine = ScriptedEngine([call("set_cells", path="prices.xlsx", cells={"B2": 9.99}),
                             call("complete_task", summary="Kept their save",
                                  evidence=["prices.xlsx"])])
    result = Harness(ws, engine, fast_limits(), careful=careful,
                     approver=person if careful else None).run()
    told = [r.content for m in engine.requests[1]["messages"] for r in m.tool_results]
    assert told[-1] == changed("prices.xlsx")
    assert target.read_bytes() == THEIR_SAVE  # byte for byte
    assert person.shown == []  # a stale change is never put to the person
    assert result.state == "done"  # the round went on to its end
    (record,) = read_rounds(ws.run_files(result.run_id))
    assert record.changed_artifacts == []


def sharing_violation(locked):
    """os.replace as Windows does it while Excel holds the file open: PermissionError, winerror
    32 (ERROR_SHARING_VIOLATION)."""
    real = os.replace

    def replace(src, dst, *args, **kwargs):
        if os.path.basename(dst) == locked:
            exc = PermissionError(errno.EACCES, "The process cannot access the file because "
                                  "it is being used by another process")
            exc.winerror = 32
            raise exc
        return real(src, dst, *args, **kwargs)
    return replace


def test_a_document_locked_by_another_program_asks_the_person_to_close_it(tmp_path, monkeypatch):
    ws = board_workspace(tmp_path, BOARD, {"notes.txt": "x\n"})
    target = ws.root / "prices.xlsx"
    prices_xlsx(target)
    before = target.read_bytes()
    monkeypatch.setattr(files.os, "replace", sharing_violation("prices.xlsx"))
    engine = ScriptedEngine([call("set_cells", path="prices.xlsx", cells={"B2": 9.99}),
                             call("write_file", path="notes.txt", content="new prices asked\n"),
                             call("complete_task", summary="Wrote the notes",
                                  evidence=["notes.txt"])])
    events = []
    result = Harness(ws, engine, fast_limits(), listeners=[events.append]).run()
    told = [r.content for m in engine.requests[1]["messages"] for r in m.tool_results]
    sentence = ("prices.xlsx is open in another program; close it there and the AI will try "
                "again next round.")
    assert told[-1] == sentence
    (called,) = [e for e in events if e.type == "tool_called" and e.tool == "set_cells"]
    assert called.held_open == "prices.xlsx"  # the window asks the person to close it
    assert describe_event(called) == f"  set_cells prices.xlsx: {sentence}"  # and `run` does
    assert target.read_bytes() == before
    assert result.state == "done"  # the round carried on: the next tools ran
    assert (ws.root / "notes.txt").read_text() == "new prices asked\n"
    (record,) = read_rounds(ws.run_files(result.run_id))
    assert record.changed_artifacts == ["notes.txt"]
    assert not [p for p in ws.root.iterdir() if files.is_our_temp(p.name)]


def test_a_lock_on_our_own_records_still_reads_as_a_failed_save(tmp_path, monkeypatch):
    monkeypatch.setattr(files.os, "replace", sharing_violation("status.json"))
    with pytest.raises(files.DiskWriteError) as caught:
        files.atomic_write_json(tmp_path / "status.json", {"a": 1})
    assert "is open in another program" in str(caught.value)
    assert not (tmp_path / "status.json").exists()


def test_the_stamp_tells_a_changed_file_from_an_unchanged_one(tmp_path):
    from app.core.workspace.write_guard import FileStamp

    path = tmp_path / "a.txt"
    absent = FileStamp.of(path)
    assert absent.holds()  # no file, still none
    path.write_bytes(b"one")
    assert not absent.holds()  # created meanwhile
    stamp = FileStamp.of(path)
    assert stamp.holds()
    path.write_bytes(b"two")
    assert not stamp.holds()
    gone = FileStamp.of(path)
    path.unlink()
    assert not gone.holds()
