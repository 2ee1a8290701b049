"""Documents are read and written in a worker process bounded in time and memory, which
Stop ends (issue 34, point 4); the tools work through it as they did in process."""

from __future__ import annotations

import os
import threading
import time

import pytest

from app.core.documents import DocumentError, render_document, worker
from tests.document_files import brief_docx, prices_xlsx
from tests.hostile_documents import shared_stream_pdf
from tests.core.documents.tool_folder import toolbox

TASK = "Read the brief"  # the board's one task

pytestmark = pytest.mark.documents_worker


# Work for the worker that only a test would send (found by name in the worker).
def sleep_long(seconds: float) -> str:
    time.sleep(seconds)
    return "slept"


def hog(megabytes: int) -> int:
    held = [bytearray(1 << 20) for _ in range(megabytes)]
    return len(held)


def die() -> None:
    os._exit(3)


def whose() -> int:
    return os.getpid()


def _shutdown():
    deadline = time.monotonic() + 60
    while worker._warming.is_set() and time.monotonic() < deadline:
        time.sleep(0.05)  # a worker warming up for an earlier test is ended too
    worker.shutdown()


@pytest.fixture(autouse=True)
def fresh_workers():
    _shutdown()
    yield
    _shutdown()


@pytest.fixture
def tasks(monkeypatch):
    for name in ("sleep_long", "hog", "die", "whose"):
        monkeypatch.setitem(worker.TASKS, name, f"{__name__}:{name}")


def _box(ws, cancel=None):
    return toolbox(ws, TASK, cancel)


def test_work_past_its_time_is_ended_with_a_sentence(tasks):
    started = time.monotonic()
    with pytest.raises(DocumentError) as err:
        worker.run("sleep_long", (60,), "slow.pdf", writing=False, seconds=1.5)
    assert time.monotonic() - started < 6
    assert err.value.message == ("'slow.pdf' could not be read within 2 seconds (it is too big "
                                 "or too complex), so it was not opened.")
    with pytest.raises(DocumentError) as err:
        worker.run("sleep_long", (60,), "book.xlsx", writing=True, seconds=2)
    assert err.value.message == ("Changing 'book.xlsx' took more than 2 seconds (it is too big "
                                 "or too complex), so nothing was changed.")


def test_work_past_its_memory_is_ended_with_a_sentence(tasks, monkeypatch):
    monkeypatch.setattr(worker, "MEMORY_BYTES", 400_000_000)
    started = time.monotonic()
    with pytest.raises(DocumentError) as err:
        worker.run("hog", (2000,), "huge.docx", writing=False)
    assert time.monotonic() - started < 15
    assert err.value.message == ("'huge.docx' needs more than 400 MB of memory to be read (it is "
                                 "too big or too complex), so it was not opened.")
    assert worker.run("hog", (50,), "small.docx", writing=False) == 50  # a new worker serves


def test_stop_ends_the_work_at_once(tasks):
    cancel = threading.Event()
    threading.Timer(0.5, cancel.set).start()
    started = time.monotonic()
    with pytest.raises(DocumentError) as err:
        worker.run("sleep_long", (60,), "deck.pptx", writing=False, cancel=cancel)
    assert time.monotonic() - started < 5
    assert err.value.message == "Reading 'deck.pptx' was stopped."


def test_a_worker_that_dies_gives_the_damaged_sentence(tasks):
    with pytest.raises(DocumentError) as err:
        worker.run("die", (), "odd.docx", writing=False)
    assert err.value.message == ("'odd.docx' could not be opened as a Word document: the file "
                                 "is damaged or is not really that kind of file.")
    with pytest.raises(DocumentError, match=r"'odd\.docx' could not be changed"):
        worker.run("die", (), "odd.docx", writing=True)


def test_a_worker_is_kept_for_the_next_document_and_a_killed_one_is_not(tasks):
    first = worker.run("whose", (), "a.docx", writing=False)
    assert worker.run("whose", (), "b.docx", writing=False) == first
    with pytest.raises(DocumentError):
        worker.run("sleep_long", (60,), "c.docx", writing=False, seconds=0.5)
    assert worker.run("whose", (), "d.docx", writing=False) != first


def test_a_big_calling_process_does_not_count_as_the_workers_memory(tasks, monkeypatch):
    """Linux carries a parent's memory high-water mark across exec: a worker started by a
    window (or a test run) already holding more than RETIRE_BYTES must still be kept, and
    must measure only its own memory."""
    monkeypatch.setitem(worker.TASKS, "peak", "app.core.documents.worker:peak_bytes")
    held = bytearray(worker.RETIRE_BYTES + (64 << 20))
    for i in range(0, len(held), 4096):
        held[i] = 1  # resident, not only reserved
    first = worker.run("peak", (), "a.docx", writing=False)
    assert first < worker.RETIRE_BYTES // 2, first
    assert worker._idle, "the worker was retired as if it held the caller's memory"
    del held


def test_the_watch_ends_a_process_past_its_memory_where_no_limit_is_enforced():
    ended = []
    peaks = iter([10, 20, 2000])
    worker._watch(1000, every=0, peak=lambda: next(peaks), end=ended.append)
    assert ended == [worker.MEMORY_EXIT]


def test_a_rendering_past_its_budget_is_ended_with_a_sentence(tmp_path, monkeypatch):
    # One page of a stream that takes pypdf minutes: only ending the process ends it.
    path = shared_stream_pdf(tmp_path / "slow.pdf", pages=1, operations=300_000)
    monkeypatch.setattr(worker, "READ_SECONDS", 3.0)
    started = time.monotonic()
    with pytest.raises(DocumentError, match=r"'slow\.pdf' could not be read within 3 seconds"):
        render_document(path)
    assert time.monotonic() - started < 8


def test_the_tools_read_search_write_edit_and_set_cells_through_the_worker(ws):
    box = _box(ws)
    brief_docx(ws / "brief.docx")
    prices_xlsx(ws / "prices.xlsx")
    read = box.call("read_file", {"path": "brief.docx", "limit": 1})
    assert read.content.startswith("1\t# Bakery brief\n") and not read.is_error
    found = box.call("search_files", {"query": "opening hours"})
    assert found.content == "brief.docx:11: > The new opening hours start in May."
    written = box.call("write_file", {"path": "new.docx", "content": "# Menu\n\nRye bread\n"})
    assert written.content.startswith("Created 'new.docx'")
    assert "Rye bread" in render_document(ws / "new.docx")
    edited = box.call("edit_file", {"path": "new.docx", "old_text": "Rye bread",
                                    "new_text": "Spelt bread"})
    assert edited.content.startswith("Edited 'new.docx'"), edited.content
    assert "Spelt bread" in render_document(ws / "new.docx")
    cells = box.call("set_cells", {"path": "prices.xlsx", "cells": {"B2": 4.25}})
    assert cells.content.startswith("Set 1 cell in 'prices.xlsx'"), cells.content
    assert "\n2|Bread|4.25|" in render_document(ws / "prices.xlsx")
    formatted = box.call("set_cells", {"path": "prices.xlsx", "cells": {"B3": 0.5},
                                       "formats": {"B3": "0%"}})
    assert formatted.content.startswith("Set 1 cell in 'prices.xlsx'"), formatted.content
    import openpyxl
    assert openpyxl.load_workbook(ws / "prices.xlsx")["Prices"]["B3"].number_format == "0%"
    refused = box.call("edit_file", {"path": "new.docx", "old_text": "Nothing like it",
                                     "new_text": "x"})
    assert refused.is_error and "old_text was found 0 times in 'new.docx'" in refused.content


def test_stop_ends_a_document_read_by_a_tool(ws, monkeypatch):
    shared_stream_pdf(ws / "slow.pdf", pages=1, operations=300_000)
    cancel = threading.Event()
    threading.Timer(1.0, cancel.set).start()
    started = time.monotonic()
    out = _box(ws, cancel).call("read_file", {"path": "slow.pdf"})
    assert time.monotonic() - started < 6
    assert out.is_error and out.content == "Reading 'slow.pdf' was stopped."


def test_a_round_in_a_folder_with_documents_starts_a_worker_while_the_model_thinks(ws):
    (ws / "notes.md").write_text("x\n")
    _box(ws, threading.Event())
    time.sleep(0.5)
    assert not worker._warming.is_set() and not worker._idle  # no document: nothing started
    brief_docx(ws / "brief.docx")
    _box(ws, threading.Event())
    deadline = time.monotonic() + 60
    while not worker._idle and time.monotonic() < deadline:
        time.sleep(0.1)
    assert worker._idle, "no worker was started"
    warmed = worker._idle[0].proc.pid
    started = time.monotonic()
    assert "Bakery brief" in render_document(ws / "brief.docx")
    assert time.monotonic() - started < 5
    assert worker._idle and worker._idle[0].proc.pid == warmed  # the warm one read it


def test_a_worker_that_cannot_start_gives_a_sentence(monkeypatch):
    def refuse():
        raise OSError("no processes left")

    monkeypatch.setattr(worker, "_Worker", refuse)
    with pytest.raises(DocumentError) as err:
        worker.run("render", ("x.docx", None), "x.docx", writing=False)
    assert err.value.message == ("'x.docx' could not be opened: the helper that reads "
                                 "documents could not start.")


def test_no_more_than_a_few_workers_work_at_once(tasks, monkeypatch):
    monkeypatch.setattr(worker, "_at_once", threading.BoundedSemaphore(1))
    results = []
    slow = threading.Thread(target=lambda: results.append(
        worker.run("sleep_long", (2,), "a.docx", writing=False)))
    slow.start()
    time.sleep(0.3)
    with pytest.raises(DocumentError, match="could not be read within 1 seconds"):
        worker.run("whose", (), "b.docx", writing=False, seconds=1)  # waited for a turn
    slow.join()
    assert results == ["slept"]


def test_a_search_after_stop_reads_no_more_documents(ws, monkeypatch):
    for n in range(5):
        brief_docx(ws / f"brief{n}.docx")
    cancel = threading.Event()
    cancel.set()
    started = []
    monkeypatch.setattr(worker, "_Worker", lambda: started.append(1) or pytest.fail("started"))
    out = _box(ws, cancel).call("search_files", {"query": "bakery"})
    assert out.content == "... stopped: the run was stopped."
    assert started == []
