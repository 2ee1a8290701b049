"""Which lines of two texts stay the same, bounded in time (difflib's
SequenceMatcher on the lines of a notes file with repeated lines took 75 s). Lines are
matched first, cheaply: the common start and end, then lines that occur once on each side
(patience diff), in the stretches between those; a stretch with no such line (repeated
lines) gets Myers' matching, fast while few lines differ and given up past a bound. Past
the deadline, TooBig. Shared by the window's text diff and the core's document change view.
"""

from __future__ import annotations

import bisect
import time
from collections import Counter

CONTEXT = 3  # unchanged lines shown around each change
MAX_EDITS = 3000  # lines removed plus added that Myers' matching looks for in one stretch


class TooBig(Exception):
    """The change is too big (or too tangled) to compare here within the bounds."""


def _check(deadline: float) -> None:
    if time.monotonic() > deadline:
        raise TooBig()


def _unique_anchors(a: list[str], alo: int, ahi: int, b: list[str], blo: int, bhi: int
                    ) -> list[tuple[int, int]]:
    """The longest in-order run of lines that occur exactly once on each side (patience)."""
    count_a = Counter(a[alo:ahi])
    where_b: dict[str, int] = {}
    for j in range(blo, bhi):
        where_b[b[j]] = j if b[j] not in where_b else -1
    pairs = [(i, where_b[a[i]]) for i in range(alo, ahi)
             if count_a[a[i]] == 1 and where_b.get(a[i], -1) >= 0]
    # Longest increasing subsequence of the b positions (patience sorting, O(k log k)).
    tails: list[int] = []  # b position ending the best run of each length
    tail_at: list[int] = []  # index into pairs of that end
    back = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        at = bisect.bisect_left(tails, j)
        if at == len(tails):
            tails.append(j)
            tail_at.append(k)
        else:
            tails[at], tail_at[at] = j, k
        back[k] = tail_at[at - 1] if at else -1
    out, k = [], tail_at[-1] if tail_at else -1
    while k >= 0:
        out.append(pairs[k])
        k = back[k]
    return out[::-1]


def matching_lines(a: list[str], b: list[str], deadline: float) -> list[tuple[int, int, int]]:
    """Blocks (i, j, size), in order, of lines a[i:i+size] == b[j:j+size] taken as unchanged.
    TooBig past `deadline`."""
    blocks: list[tuple[int, int, int]] = []
    stack = [(0, len(a), 0, len(b))]
    while stack:
        _check(deadline)
        alo, ahi, blo, bhi = stack.pop()
        head = _common_run(a, alo, ahi, b, blo, bhi)
        if head:
            blocks.append((alo, blo, head))
            alo, blo = alo + head, blo + head
        tail = _common_tail(a, alo, ahi, b, blo, bhi)
        if tail:
            ahi, bhi = ahi - tail, bhi - tail
            blocks.append((ahi, bhi, tail))
        if alo == ahi or blo == bhi:
            continue
        anchors = _unique_anchors(a, alo, ahi, b, blo, bhi)
        if anchors:
            i0, j0 = alo, blo
            for i, j in anchors:
                blocks.append((i, j, 1))
                stack.append((i0, i, j0, j))
                i0, j0 = i + 1, j + 1
            stack.append((i0, ahi, j0, bhi))
        else:
            found = _myers(a, alo, ahi, b, blo, bhi, MAX_EDITS, deadline)
            # None: more than MAX_EDITS lines differ here, with no line once on each side
            # to split the stretch by: it stays one rewrite.
            blocks.extend(found or ())
    blocks.sort()
    return blocks


def _myers(a: list[str], alo: int, ahi: int, b: list[str], blo: int, bhi: int, max_d: int,
           deadline: float) -> list[tuple[int, int, int]] | None:
    """The unchanged blocks of a shortest edit script (Myers' O((N+M)D) algorithm) between
    the two stretches, or None when more than `max_d` lines would be removed or added."""
    n, m = ahi - alo, bhi - blo
    if abs(n - m) > max_d:
        return None  # at least that many lines differ: no need to look
    v = {1: 0}
    trace: list[dict[int, int]] = []
    for d in range(min(max_d, n + m) + 1):
        if d % 16 == 0:
            _check(deadline)
        trace.append(dict(v))
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[k - 1] < v[k + 1]):
                x = v[k + 1]
            else:
                x = v[k - 1] + 1
            y = x - k
            x += _common_run(a, alo + x, ahi, b, blo + y, bhi)
            v[k] = x
            if x >= n and x - k >= m:
                return _myers_path(trace, n, m, alo, blo)
    return None


def _common_run(a: list[str], i: int, ahi: int, b: list[str], j: int, bhi: int) -> int:
    """How many lines from a[i] and b[j] on are the same: compared a slice at a time (in C),
    so the long unchanged stretches of a big file cost little."""
    run, step = 0, 256
    while step:
        while i + run + step <= ahi and j + run + step <= bhi and \
                a[i + run:i + run + step] == b[j + run:j + run + step]:
            run += step
        step //= 4
    return run


def _common_tail(a: list[str], alo: int, i: int, b: list[str], blo: int, j: int) -> int:
    """How many lines before a[i] and b[j] are the same (as _common_run, backwards)."""
    run, step = 0, 256
    while step:
        while i - run - step >= alo and j - run - step >= blo and \
                a[i - run - step:i - run] == b[j - run - step:j - run]:
            run += step
        step //= 4
    return run


def _myers_path(trace: list[dict[int, int]], x: int, y: int, alo: int, blo: int
                ) -> list[tuple[int, int, int]]:
    blocks: list[tuple[int, int, int]] = []
    for d in range(len(trace) - 1, -1, -1):
        v, k = trace[d], x - y
        prev_k = k + 1 if k == -d or (k != d and v[k - 1] < v[k + 1]) else k - 1
        prev_x = v[prev_k]
        prev_y = prev_x - prev_k
        size = min(x - prev_x, y - prev_y)
        if size > 0:
            blocks.append((alo + x - size, blo + y - size, size))
        x, y = prev_x, prev_y
    return blocks


def opcodes(blocks: list[tuple[int, int, int]], n: int, m: int
            ) -> list[tuple[str, int, int, int, int]]:
    """difflib-style opcodes ("equal", "replace", "delete", "insert") from unchanged blocks."""
    out: list[tuple[str, int, int, int, int]] = []
    i = j = 0
    for bi, bj, size in blocks + [(n, m, 0)]:
        if bi > i or bj > j:
            tag = "replace" if bi > i and bj > j else "delete" if bi > i else "insert"
            out.append((tag, i, bi, j, bj))
        if size:
            if out and out[-1][0] == "equal" and out[-1][2] == bi and out[-1][4] == bj:
                out[-1] = ("equal", out[-1][1], bi + size, out[-1][3], bj + size)
            else:
                out.append(("equal", bi, bi + size, bj, bj + size))
        i, j = bi + size, bj + size
    return out


def grouped(codes: list[tuple[str, int, int, int, int]], context: int = CONTEXT
            ) -> list[list[tuple[str, int, int, int, int]]]:
    """The opcodes in groups of changes with up to `context` unchanged lines around each
    (what difflib's get_grouped_opcodes gives)."""
    if not codes or all(c[0] == "equal" for c in codes):
        return []
    codes = list(codes)
    if codes[0][0] == "equal":
        _, i1, i2, j1, j2 = codes[0]
        codes[0] = ("equal", max(i1, i2 - context), i2, max(j1, j2 - context), j2)
    if codes[-1][0] == "equal":
        _, i1, i2, j1, j2 = codes[-1]
        codes[-1] = ("equal", i1, min(i2, i1 + context), j1, min(j2, j1 + context))
    groups: list[list[tuple[str, int, int, int, int]]] = []
    group: list[tuple[str, int, int, int, int]] = []
    for tag, i1, i2, j1, j2 in codes:
        if tag == "equal" and i2 - i1 > 2 * context:
            group.append((tag, i1, i1 + context, j1, j1 + context))
            groups.append(group)
            group = []
            i1, j1 = i2 - context, j2 - context
        group.append((tag, i1, i2, j1, j2))
    if group and not (len(group) == 1 and group[0][0] == "equal"):
        groups.append(group)
    return groups
