"""Document renderings kept for the run, so search_files and read_file render each Word,
Excel, PDF or PowerPoint file once while it is unchanged on disk, not on every call.

One store for the process (rounds are new conversations over the same folder), in memory,
bounded by characters and least recently used first out. A rendering is served only while
the file's size, modification and change times (ns), inode and device are what they were
when it was rendered; the changing tools drop a file's entry when they write it. A file
modified within the last seconds may be saved again within the same tick of a coarse
clock, keeping its times: its rendering is served only while its bytes' digest, taken
before it was rendered, still holds. A rendering the time budget cut short, or a failure,
is not kept.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections import OrderedDict
from pathlib import Path
from typing import Callable

MAX_KEPT_CHARS = 32_000_000        # about 32-64 MB of text for most documents
SETTLED_NS = 2_000_000_000         # modified longer ago: a later save shows in the mtime
MAX_DIGEST_BYTES = 64 * 1024 * 1024  # a larger file modified just now is not kept
TIME_CUT = "[The rendering stops here: reading the document took more than"

Stamp = tuple[int, int, int, int, int]


def stamp_of(path: Path) -> Stamp | None:
    """What says the file is the one rendered: size, mtime and ctime (ns), inode, device."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def digest_of(path: Path) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return hashlib.file_digest(fh, "blake2b").digest()
    except OSError:
        return None


class Renderings:
    """Renderings keyed by path, each with the stamp (and for a file modified just before,
    the digest) of the file it was made from."""

    def __init__(self, max_chars: int = MAX_KEPT_CHARS):
        self.max_chars = max_chars
        self.chars = 0
        self._kept: OrderedDict[str, tuple[Stamp, bytes | None, str]] = OrderedDict()
        self._lock = threading.Lock()

    def rendering(self, path: Path, render: Callable[[], str]) -> str:
        """The kept rendering of `path` if the file is unchanged, else `render()` (kept when
        the file held still while it was made)."""
        key = str(path)
        before = stamp_of(path)
        with self._lock:
            kept = self._kept.get(key)
        if kept is not None and before is not None and kept[0] == before and \
                (kept[1] is None or digest_of(path) == kept[1]):
            with self._lock:
                if key in self._kept:
                    self._kept.move_to_end(key)
            return kept[2]
        digest = None
        if before is not None and not _settled(before):
            digest = digest_of(path) if before[0] <= MAX_DIGEST_BYTES else None
            if digest is None:
                return render()
        text = render()
        if before is not None and stamp_of(path) == before and TIME_CUT not in text[-300:]:
            self._keep(key, before, digest, text)
        return text

    def drop(self, path: Path) -> None:
        """Forget `path`'s rendering (the tools are about to change or have changed it)."""
        with self._lock:
            kept = self._kept.pop(str(path), None)
            if kept is not None:
                self.chars -= len(kept[2])

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.chars = 0

    def __len__(self) -> int:
        return len(self._kept)

    def __contains__(self, path: object) -> bool:
        return str(path) in self._kept

    def _keep(self, key: str, stamp: Stamp, digest: bytes | None, text: str) -> None:
        if len(text) > self.max_chars:
            return
        with self._lock:
            old = self._kept.pop(key, None)
            if old is not None:
                self.chars -= len(old[2])
            self._kept[key] = (stamp, digest, text)
            self.chars += len(text)
            while self.chars > self.max_chars:
                _, (_, _, gone) = self._kept.popitem(last=False)
                self.chars -= len(gone)


def _settled(stamp: Stamp) -> bool:
    """Was the file last modified long enough ago that a later save shows in its mtime?
    (A save within the same tick of a coarse clock could keep it: git's racy case.)"""
    return time.time_ns() - stamp[1] > SETTLED_NS


RENDERINGS = Renderings()
