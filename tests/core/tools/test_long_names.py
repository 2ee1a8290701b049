"""Names as long as the file system allows survive the AI and undo (issue 16, point 2).

84 Chinese characters and ".md" make 255 bytes, the most ext4 accepts. Temporary files,
blob copy-outs and "(before round N)" copies were longer than the name itself, so undo
failed with "File name too long" after the AI had been told the person could undo."""

from __future__ import annotations

import os

import pytest

from app.core.workspace.files import atomic_write_bytes
from app.core.tools.toolbox import ToolBox
from app.core.undo.undo import BlobStore, RoundChanges, undo_manifest

LONG = "长" * 84 + ".md"
CONTENT = "第一行\r\n第二行 with bytes \x00 kept\n".encode("utf-8") + bytes(range(256))


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "TASKS.md").write_text("- [ ] Tidy up\n")
    (root / ".harness").mkdir()
    try:
        (root / LONG).write_bytes(CONTENT)
    except OSError:
        pytest.skip("this file system does not take 255-byte names")
    return root


def _round(root, n=1):
    manifest = root / ".harness" / "runs" / "r" / "undo" / f"{n}.json"
    changes = RoundChanges(root, BlobStore(root / ".harness"), manifest, n)
    return ToolBox(root, root / "TASKS.md", "Tidy up", changes), changes, manifest


def test_the_name_is_as_long_as_ext4_allows():
    assert len(LONG.encode("utf-8")) == 255


def test_the_ai_deletes_a_long_name_and_undo_brings_it_back_byte_for_byte(ws):
    mode = os.stat(ws / LONG).st_mode
    tools, changes, manifest = _round(ws)
    out = tools.call("delete_file", {"path": LONG})
    assert not out.is_error, out.content
    assert not (ws / LONG).exists()
    changes.finish()
    report = undo_manifest(ws, ws / ".harness", manifest)
    assert report.ok and report.restored == [LONG], report.summary()
    assert (ws / LONG).read_bytes() == CONTENT
    assert os.stat(ws / LONG).st_mode == mode
    assert sorted(os.listdir(ws)) == sorted(["TASKS.md", ".harness", LONG])  # no temp left


def test_the_ai_writes_and_edits_a_long_name_and_undo_removes_it(ws):
    name, text = "新" * 84 + ".md", "文" * 84 + ".md"
    (ws / text).write_bytes("第一行\r\n第二行\n".encode("utf-8"))
    tools, changes, manifest = _round(ws)
    out = tools.call("write_file", {"path": name, "content": "一二三\n"})
    assert not out.is_error, out.content
    out = tools.call("edit_file", {"path": text, "old_text": "第二行", "new_text": "改"})
    assert not out.is_error, out.content
    assert (ws / name).read_text(encoding="utf-8") == "一二三\n"
    assert (ws / text).read_bytes() == "第一行\r\n改\n".encode("utf-8")
    changes.finish()
    report = undo_manifest(ws, ws / ".harness", manifest)
    assert report.ok, report.summary()
    assert not (ws / name).exists()
    assert (ws / text).read_bytes() == "第一行\r\n第二行\n".encode("utf-8")


def test_the_copy_saved_beside_a_long_name_fits_and_keeps_its_extension(ws):
    tools, changes, manifest = _round(ws, 12)
    assert not tools.call("write_file", {"path": LONG, "content": "AI text\n"}).is_error
    changes.finish()
    (ws / LONG).write_bytes(b"the person's edit\n")
    report = undo_manifest(ws, ws / ".harness", manifest)
    assert report.ok, report.summary()
    [(path, saved)] = report.kept_both
    assert path == LONG and saved.endswith(" (before round 12).md")
    assert len(saved.encode("utf-8")) <= 255
    assert (ws / saved).read_bytes() == CONTENT
    assert (ws / LONG).read_bytes() == b"the person's edit\n"


def test_a_fitted_name_is_cut_on_a_character_boundary():
    from app.core.undo.undo import fitted_name

    name = fitted_name("é" * 200, " (before round 3)", ".txt", limit=100)
    raw = name.encode("utf-8")
    assert len(raw) <= 100 and name.endswith(" (before round 3).txt")
    assert name.startswith("é") and name.count("é") == (100 - len(" (before round 3).txt")) // 2
    assert fitted_name("short", " (before round 3)", ".md") == "short (before round 3).md"


def test_the_atomic_writer_takes_a_long_name(tmp_path):
    target = tmp_path / LONG
    atomic_write_bytes(target, b"x")
    atomic_write_bytes(target, b"yy")
    assert target.read_bytes() == b"yy" and os.listdir(tmp_path) == [LONG]
