"""Many writers of one board at once lose no edit (issue 16, point 1).

The checklist's writer (a pool thread), the run's complete_task / ask_human (the run
thread) and another Harness Desk process (the command line, a second window) all change
TASKS.md through update_board. Each worker here adds its own tasks and ticks them while the
others do the same, from threads and from separate processes at once; afterwards every
task must be on the board exactly once, and ticked."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from app.core.board.board import Board, update_board

ROOT = Path(__file__).resolve().parents[3]
THREADS = 3
PROCESSES = 2
TASKS_EACH = 5

# One worker: wait for the go file, then add task j and tick task j-1, TASKS_EACH times.
_WORKER = """
import sys, time
from pathlib import Path
from app.core.board.board import update_board
board, go, name, count = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
while not go.exists():
    time.sleep(0.002)
for j in range(count):
    update_board(board, lambda b: b.add_task(f"{name} task {j}"))
    if j:
        update_board(board, lambda b: b.set_checked(f"{name} task {j - 1}"))
update_board(board, lambda b: b.set_checked(f"{name} task {count - 1}"))
"""


def _work(board: Path, go: Path, name: str, count: int) -> None:
    while not go.exists():
        time.sleep(0.002)
    for j in range(count):
        update_board(board, lambda b, j=j: b.add_task(f"{name} task {j}"))
        if j:
            update_board(board, lambda b, j=j: b.set_checked(f"{name} task {j - 1}"))
    update_board(board, lambda b: b.set_checked(f"{name} task {count - 1}"))


def test_threads_and_processes_at_once_lose_no_edit(tmp_path):
    board = tmp_path / "TASKS.md"
    board.write_text("# Tasks\n\n- [ ] already here\n", encoding="utf-8")
    go = tmp_path / "go"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs = [subprocess.Popen([sys.executable, "-c", _WORKER, str(board), str(go), f"p{i}",
                               str(TASKS_EACH)], cwd=ROOT, env=env, stderr=subprocess.PIPE)
             for i in range(PROCESSES)]
    errors: list[BaseException] = []

    def thread_main(name: str) -> None:
        try:
            _work(board, go, name, TASKS_EACH)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=thread_main, args=(f"t{i}",)) for i in range(THREADS)]
    for t in threads:
        t.start()
    time.sleep(0.5)  # let the processes import and wait at the line
    go.touch()
    for t in threads:
        t.join(60)
    outputs = [p.communicate(timeout=60)[1].decode() for p in procs]
    assert not errors, errors
    assert [p.returncode for p in procs] == [0] * PROCESSES, outputs

    tasks = Board.parse(board.read_bytes()).tasks
    texts = [t.text for t in tasks]
    expected = [f"{w} task {j}" for w in [f"t{i}" for i in range(THREADS)]
                + [f"p{i}" for i in range(PROCESSES)] for j in range(TASKS_EACH)]
    missing = sorted(set(expected) - set(texts))
    unticked = sorted(t.text for t in tasks if t.text in expected and not t.checked)
    assert not missing, f"{len(missing)} added tasks were lost: {missing}"
    assert not unticked, f"{len(unticked)} ticks were lost: {unticked}"
    assert sorted(texts) == sorted(expected + ["already here"])  # and none twice
