"""The checklist's file: our own writes do not come back as outside edits; outside ones do, once."""

from __future__ import annotations

import os

from app.core.board.board import Board, TaskRef
from app.core.board.verbs import set_checked
from app.gui.board.board_file import BoardFile


def test_our_write_is_read_back_once_and_its_echo_is_ignored(qtbot, tmp_path):
    path = tmp_path / "TASKS.md"
    path.write_bytes(b"- [ ] One\n- [ ] Two\n")
    file = BoardFile()
    reads = []
    file.board_read.connect(reads.append)
    file.open(path)
    qtbot.waitUntil(lambda: len(reads) == 1, timeout=3000)
    file.write(lambda p: set_checked(p, TaskRef(1, "Two"), True))
    qtbot.waitUntil(lambda: len(reads) == 2, timeout=3000)
    assert reads[-1].tasks[1].checked
    qtbot.wait(BoardFile.DEBOUNCE_MS * 3)  # the watcher saw our write; nothing new is read
    assert len(reads) == 2 and file.idle


def test_an_outside_save_by_rename_is_read_and_watched_again(qtbot, tmp_path):
    path = tmp_path / "TASKS.md"
    path.write_bytes(b"- [ ] One\n")
    file = BoardFile()
    reads = []
    file.board_read.connect(reads.append)
    file.open(path)
    qtbot.waitUntil(lambda: len(reads) == 1, timeout=3000)
    for n, text in enumerate((b"- [x] One\n", b"- [x] One\n- [ ] Two\n"), start=2):
        tmp = tmp_path / "TASKS.md.new"
        tmp.write_bytes(text)
        os.replace(tmp, path)
        qtbot.waitUntil(lambda n=n: len(reads) == n, timeout=2000)
        assert reads[-1].to_bytes() == text


def test_a_missing_board_is_reported_once_while_the_folder_changes(qtbot, tmp_path):
    file = BoardFile()
    missing = []
    file.board_missing.connect(missing.append)
    file.open(tmp_path / "TASKS.md")
    qtbot.waitUntil(lambda: len(missing) == 1, timeout=3000)
    for n in range(3):  # the folder changes (an AI writing files), still no TASKS.md
        (tmp_path / f"notes{n}.md").write_text("x")
        qtbot.wait(BoardFile.DEBOUNCE_MS + 100)
    qtbot.waitUntil(lambda: file.idle, timeout=3000)
    assert missing == [tmp_path / "TASKS.md"]


def test_results_for_a_board_no_longer_shown_are_dropped(qtbot, tmp_path):
    first, second = tmp_path / "a" / "TASKS.md", tmp_path / "b" / "TASKS.md"
    for path, text in ((first, b"- [ ] In a\n"), (second, b"- [ ] In b\n")):
        path.parent.mkdir()
        path.write_bytes(text)
    file = BoardFile()
    reads = []
    file.board_read.connect(lambda board: reads.append(board.tasks[0].text))
    file.open(first)
    file.write(lambda p: set_checked(p, TaskRef(0, "In a"), True))
    file.open(second)
    qtbot.waitUntil(lambda: file.idle and bool(reads), timeout=3000)
    assert reads == ["In b"]
    assert first.read_bytes() == b"- [x] In a\n"  # the write itself still happened


def test_a_write_still_lands_after_its_list_is_closed(qtbot, tmp_path):
    path = tmp_path / "TASKS.md"
    path.write_bytes(b"- [ ] One\n")
    file = BoardFile()
    file.open(path)
    file.write(lambda p: set_checked(p, TaskRef(0, "One"), True))
    file.deleteLater()  # the window closed at once; the result has nowhere to go
    qtbot.waitUntil(lambda: path.read_bytes() == b"- [x] One\n", timeout=3000)
    qtbot.wait(200)  # delivering to the deleted object would raise in the event loop here


def test_the_checklist_and_a_run_writing_at_once_lose_no_edit(qtbot, tmp_path):
    # Issue 16, point 1: the checklist's writes (a pool thread) and the run's ticks (the run
    # thread, complete_task) both go through update_board; neither may undo the other.
    import threading

    from app.core.board.board import update_board
    from app.core.board.verbs import add_task

    path = tmp_path / "TASKS.md"
    path.write_bytes(b"".join(b"- [ ] Run task %d\n" % i for i in range(12)))
    file = BoardFile()
    reads, failures = [], []
    file.board_read.connect(reads.append)
    file.write_failed.connect(failures.append)
    file.open(path)
    qtbot.waitUntil(lambda: len(reads) == 1, timeout=3000)

    def run_thread() -> None:
        for i in range(12):
            update_board(path, lambda b, i=i: b.set_checked(f"Run task {i}"))

    runner = threading.Thread(target=run_thread)
    runner.start()
    for i in range(12):
        file.write(lambda p, i=i: add_task(p, f"Typed task {i}"))
    runner.join(30)
    qtbot.waitUntil(lambda: file.idle and not file.writes_waiting, timeout=30000)
    assert not failures
    tasks = {t.text: t.checked for t in Board.parse(path.read_bytes()).tasks}
    assert tasks == {**{f"Run task {i}": True for i in range(12)},
                     **{f"Typed task {i}": False for i in range(12)}}
