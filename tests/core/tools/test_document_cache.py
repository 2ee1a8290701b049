"""Documents' renderings kept for the run: search_files and read_file render a document once
while it is unchanged, again when it changes, never stale after the tools write it, and
the store stays within its bound."""

from __future__ import annotations

import os
import time

import pytest

import app.core.tools.reads as tool_reads
from app.core.tools.document_cache import RENDERINGS, TIME_CUT, Renderings
from app.core.documents.guard import Full, Out
from app.core.tools.toolbox import ToolBox
from app.core.undo.undo import BlobStore, RoundChanges
from tests.document_files import brief_docx, deck_pptx, pdf_bytes, prices_xlsx


def _settle(*paths, ago: float = 60.0) -> None:
    """Date files back, as a person's folder is (a file just written is not kept)."""
    when = time.time() - ago
    for path in paths:
        os.utime(path, (when, when))


@pytest.fixture(autouse=True)
def fresh_store():
    RENDERINGS.clear()
    yield
    RENDERINGS.clear()


@pytest.fixture
def ws(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "TASKS.md").write_text("# Work\n\n- [ ] Find the scones\n")
    brief_docx(root / "brief.docx")
    prices_xlsx(root / "prices.xlsx")
    deck_pptx(root / "deck.pptx")
    (root / "menu.pdf").write_bytes(pdf_bytes(["Menu\nRye loaf\nScone with jam"]))
    _settle(*root.iterdir())
    return root


@pytest.fixture
def renders(monkeypatch):
    """The paths rendered through the tools, in order."""
    seen = []
    real = tool_reads.render_document

    def counted(path, *args, **kwargs):
        seen.append(os.path.basename(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(tool_reads, "render_document", counted)
    return seen


def _box(ws, round_no: int = 1) -> ToolBox:
    changes = RoundChanges(ws, BlobStore(ws / ".harness"),
                           ws / f".harness/runs/r/undo/{round_no}.json", round_no)
    return ToolBox(ws, ws / "TASKS.md", "Find the scones", changes)


def test_a_second_search_in_a_new_round_renders_nothing_again(ws, renders):
    first = _box(ws).call("search_files", {"query": "scone"})
    assert sorted(renders) == ["brief.docx", "deck.pptx", "menu.pdf", "prices.xlsx"]
    assert "prices.xlsx:" in first.content and "menu.pdf:" in first.content
    again = _box(ws, 2).call("search_files", {"query": "scone"})
    assert again.content == first.content
    assert len(renders) == 4
    # read_file pages from the same store: nothing is rendered for it either
    read = _box(ws, 2).call("read_file", {"path": "brief.docx"})
    assert "# Bakery brief" in read.content and len(renders) == 4


def test_a_changed_file_is_rendered_again(ws, renders):
    _box(ws).call("search_files", {"query": "scone"})
    prices_xlsx(ws / "prices.xlsx", rows=30)   # another size and time
    _settle(ws / "prices.xlsx", ago=30)
    out = _box(ws).call("search_files", {"query": "item 30"})
    assert renders[4:] == ["prices.xlsx"]
    assert "prices.xlsx:" in out.content and "Item 30" in out.content


def test_a_file_replaced_with_the_same_size_and_time_is_rendered_again(ws, renders):
    _box(ws).call("search_files", {"query": "scone"})
    data = (ws / "menu.pdf").read_bytes()
    other = ws / "menu.tmp"
    other.write_bytes(data)   # a save of the same bytes, as an editor makes it
    st = (ws / "menu.pdf").stat()
    os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(other, ws / "menu.pdf")   # same size and mtime: another inode and ctime
    assert (ws / "menu.pdf").stat().st_size == st.st_size
    assert (ws / "menu.pdf").stat().st_mtime_ns == st.st_mtime_ns
    _box(ws).call("search_files", {"query": "scone"})
    assert renders[4:] == ["menu.pdf"]


@pytest.mark.parametrize("tool, arguments, expect", [
    ("write_file", {"path": "brief.docx", "content": "# Brief\n\nScones on Sunday.\n"},
     "Scones on Sunday."),
    ("edit_file", {"path": "brief.docx", "old_text": "Order flour", "new_text": "Order scones"},
     "Order scones"),
    ("set_cells", {"path": "prices.xlsx", "cells": {"A2": "Scone tray"}}, "Scone tray"),
])
def test_a_write_through_the_tools_drops_the_rendering(ws, renders, tool, arguments, expect):
    box = _box(ws)
    box.call("search_files", {"query": "scone"})
    path = ws / arguments["path"]
    assert path in RENDERINGS
    done = box.call(tool, arguments)
    assert not done.is_error, done.content
    assert path not in RENDERINGS
    out = box.call("search_files", {"query": expect})
    assert f"{arguments['path']}:" in out.content and expect in out.content


def test_a_file_just_written_is_kept_and_checked_by_its_bytes(ws, renders, monkeypatch):
    import app.core.tools.document_cache as document_cache

    brief_docx(ws / "new.docx")   # dated now: a save in the same tick could keep its times
    _box(ws).call("read_file", {"path": "new.docx"})
    _box(ws).call("read_file", {"path": "new.docx", "offset": 3})
    assert renders == ["new.docx"]
    # A file system whose times are coarse and which tells no inode or change time: the
    # bytes, read before the rendering, tell the save apart.
    monkeypatch.setattr(document_cache, "stamp_of",
                        lambda p: (os.stat(p).st_size, os.stat(p).st_mtime_ns, 0, 0, 0))
    RENDERINGS.clear()
    _box(ws).call("read_file", {"path": "new.docx"})
    st = (ws / "new.docx").stat()
    data = (ws / "new.docx").read_bytes()
    i = data.index(b"PK\x03\x04", 1)   # another byte of the same size: another file
    (ws / "new.docx").write_bytes(data[:i - 1] + bytes([data[i - 1] ^ 1]) + data[i:])
    os.utime(ws / "new.docx", ns=(st.st_atime_ns, st.st_mtime_ns))
    _box(ws).call("read_file", {"path": "new.docx"})
    assert renders == ["new.docx", "new.docx", "new.docx"]


def test_the_store_holds_its_bound_and_lets_the_least_used_go_first(tmp_path):
    store = Renderings(max_chars=100)
    files = []
    for n in range(5):
        files.append(tmp_path / f"f{n}.docx")
        files[-1].write_text(str(n))
    _settle(*files)
    made = []

    def render(n):
        made.append(n)
        return str(n) * 30

    for n in range(3):
        assert store.rendering(files[n], lambda n=n: render(n)) == str(n) * 30
    store.rendering(files[0], lambda: render(0))            # used again: now the newest
    store.rendering(files[3], lambda: render(3))            # 120 characters: one must go
    assert store.chars <= 100 and len(store) == 3
    assert files[1] not in store and files[0] in store and files[3] in store
    assert made == [0, 1, 2, 3]
    store.rendering(files[4], lambda: "x" * 101)            # larger than the whole store
    assert files[4] not in store and store.chars <= 100


def test_a_rendering_cut_short_by_time_is_not_kept(tmp_path):
    out = Out(seconds=0)
    time.sleep(0.01)
    with pytest.raises(Full) as cut:
        out.tick()
    assert cut.value.note.startswith(TIME_CUT)
    path = tmp_path / "slow.pdf"
    path.write_text("x")
    _settle(path)
    store = Renderings()
    store.rendering(path, lambda: "Page 1\n\n" + cut.value.note + "\n")
    assert path not in store
    store.rendering(path, lambda: "Page 1\n")
    assert path in store
