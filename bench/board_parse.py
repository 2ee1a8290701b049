"""Median time to parse a 2,000-task board (plain, and with comments and code among the tasks)."""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.core.board.board import Board

RUNS = 15


def plain() -> bytes:
    head = "# Big plan\r\n\r\nNotes the person wrote.\r\n\r\n"
    return (head + "".join(f"- [ ] Task number {i}\r\n  - Done when: file{i}.md exists\r\n"
                           for i in range(2000))).encode()


def mixed() -> bytes:
    # Every 100th task: a commented-out task, a fenced example or an HTML block, so the
    # parser runs on a window around each of them (60 windows).
    lines = []
    for i in range(2000):
        if i % 100 == 25:
            lines.append("<!--\n- [ ] commented out\n-->\n")
        elif i % 100 == 50:
            lines.append("```md\n- [ ] an example\n```\n")
        elif i % 100 == 75:
            lines.append("<details>\n- [ ] inside HTML\n</details>\n\n")
        lines.append(f"- [ ] Task number {i}\n  - Done when: file{i}.md exists\n")
    return "".join(lines).encode()


def median_ms(raw: bytes, tasks: int) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        board = Board.parse(raw)
        times.append(time.perf_counter() - start)
        assert len(board.tasks) == tasks
    return 1000 * statistics.median(times)


def main() -> None:
    Board.parse(mixed())  # the parser is imported on first need: not part of a parse
    print(f"2,000 tasks, plain board:           median {median_ms(plain(), 2000):6.1f} ms "
          f"over {RUNS} runs")
    print(f"2,000 tasks, 60 comments/code/HTML: median {median_ms(mixed(), 2000):6.1f} ms "
          f"over {RUNS} runs")


if __name__ == "__main__":
    main()
