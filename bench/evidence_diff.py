"""Benchmark: the evidence window's before/after of a 1 MB notes file (issue 16: it froze the window).

Run: PYTHONPATH=. python bench/evidence_diff.py [--runs 5] [--json FILE]

A notes file of repeated lines (headings, bullets, blank lines: the worst case for
difflib, which took 75 s on 87 KB), about 1 MB, with a few lines changed here and there;
the diff is made as the window makes it (on a pool thread, shown here as wall time). The
baseline, measured in the same run, is escaping the same text for a web page once: the
least any view of the file costs. Also shown: the 87 KB case, and a 1 MB rewrite, which is
"too big to compare here" (it must say so fast, not after the time bound).
"""

from __future__ import annotations

import html
import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.gui.evidence.file_diff import TIME_LIMIT_S, TooBig, diff_html
from bench.common import arguments, hand_back, item

COLOURS = dict(removed="#b00", added="#070", muted="#777", removed_bg="#fdd", added_bg="#dfd",
               note_unchanged="same")
TARGET_S = 2.0


def notes(size: int) -> str:
    out, n = [], 0
    while sum(map(len, out)) < size:
        out.append(f"## Week {n % 7}\n\n- follow up\n- follow up\n- call the supplier\n\n")
        n += 1
    return "".join(out)


def edited(text: str) -> str:
    lines = text.splitlines(keepends=True)
    for at in range(len(lines) // 9, len(lines), len(lines) // 9):  # 8 edits, spread out
        lines[at] = "- a line the round rewrote\n"
    return "".join(lines)


def timed(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    args = arguments(__doc__, runs=5).parse_args()
    big = notes(1 << 20)
    small = notes(87 * 1024)
    rewrite = "".join(f"line {i} says something new\n" for i in range(40000))
    big_s = timed(lambda: diff_html(big, edited(big), **COLOURS), args.runs)
    small_s = timed(lambda: diff_html(small, edited(small), **COLOURS), args.runs)
    base_s = timed(lambda: html.escape(big), args.runs)

    def too_big() -> None:
        try:
            diff_html(big, rewrite, **COLOURS)
        except TooBig:
            return
        raise AssertionError("a 1 MB rewrite was compared")

    too_big_s = timed(too_big, args.runs)
    ratio = big_s / base_s if base_s else float("nan")
    print(f"1 MB notes file ({len(big):,} bytes), 8 lines changed: median {big_s * 1000:7.1f} ms "
          f"= {ratio:,.0f}x escaping it once ({base_s * 1000:.2f} ms); target <= {TARGET_S} s")
    print(f"87 KB notes file, 8 lines changed:             median {small_s * 1000:7.1f} ms")
    print(f"1 MB rewritten (\"too big to compare here\"):    median {too_big_s * 1000:7.1f} ms "
          f"(time bound {TIME_LIMIT_S} s)")
    passed = big_s <= TARGET_S and too_big_s < TIME_LIMIT_S
    return hand_back(args.json, [item(
        "evidence_diff_1mb", "Evidence window: before/after of a 1 MB notes file, off the UI "
        "thread", f"<= {TARGET_S:g} s", round(big_s * 1000, 1), "ms", passed, runs=args.runs,
        ratio_to_escaping=round(ratio, 1), escaping_ms=round(base_s * 1000, 2),
        notes_87kb_ms=round(small_s * 1000, 1), too_big_1mb_ms=round(too_big_s * 1000, 1),
        bytes=len(big))])


if __name__ == "__main__":
    sys.exit(main())
