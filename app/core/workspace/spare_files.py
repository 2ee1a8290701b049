"""Empty temporary files made ahead of time, so a write step does not make one.

Creating a file is the dearest part of an atomic write on a journalling file system (0.2-0.6
ms of kernel time on ext4, ten times the write of a page of text): the inode is allocated and
the folder's entry logged. A round's write steps take the temporary file they fill and
rename over the person's file from here instead: made earlier, while the model was asked
(on the round's flusher thread, undo/flush.py), in `.harness/spare`, the workspace's own
folder. A rename moves a file between folders of one file system as it does within one, so
the replace is as atomic as with a temporary file beside the target; across file systems
(a folder that is a mount point, or a link to another disk) it fails with EXDEV and the
writer makes a temporary file beside the target after all (files.atomic_write_bytes).

A spare is a private (0600), empty file named as our temporary files are (files.TEMP_PREFIX),
so what a kill leaves is recognised and removed at the next run's start, whatever its age
(Workspace.clean_stale_temps). The pool is one per folder and process, shared by the rounds
of its runs (a run holds the workspace's lock, so no other process writes from it
meanwhile); it knows its spares by heart, never by listing the folder (a step scans no
folder), and a spare gone when it is taken (removed by that clean-up) is skipped."""

from __future__ import annotations

import os
from pathlib import Path

TYPE_CHECKING = False  # not typing's: `status` has no use for importing it
if TYPE_CHECKING:
    import collections

SPARE_FOLDER = "spare"  # in .harness
# Ready at once: a step may write a few files (parallel tool calls), and the spares are made
# again after the flushes handed over before (behind a slow disk's, steps later).
KEEP = 6

_POOLS: dict[str, SparePool] = {}


def spare_pool(harness_dir: Path | str) -> SparePool:
    """The process's pool of spare files for the workspace whose .harness is `harness_dir`."""
    folder = Path(harness_dir) / SPARE_FOLDER
    key = os.path.normcase(os.path.abspath(folder))
    pool = _POOLS.get(key)
    if pool is None:
        pool = _POOLS[key] = SparePool(folder)
    return pool


class SparePool:
    """Spare files in one folder: `take()` on the writer's thread, `fill()` on the flusher's."""

    def __init__(self, folder: Path, keep: int = KEEP):
        import collections  # noqa: PLC0415 - `status` stays light: it never writes

        self.folder, self.keep = folder, keep
        # made on the flusher's thread, paths and all; appends and pops are atomic
        self._ready: collections.deque[Path] = collections.deque()

    def short(self) -> bool:
        """True when fewer than `keep` spares are ready (fill() would make some)."""
        return len(self._ready) < self.keep

    def take(self) -> tuple[int, Path] | None:
        """An empty spare file, open for writing: (descriptor, path); None when there is none
        ready (the writer makes its own)."""
        while True:
            try:
                path = self._ready.popleft()
            except IndexError:
                return None
            try:  # never through a link put in its place
                fd = os.open(path, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0)
                             | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
            except OSError:
                continue  # removed meanwhile: the next one
            # Not O_TRUNC: ext4 starts writing out a file truncated to nothing as it is
            # closed (its guard for "replace by truncate"), 20 us more a write. A spare a
            # writer died in (another process's, adopted) holds bytes: it is skipped.
            try:
                empty = os.fstat(fd).st_size == 0
            except OSError:
                empty = False
            if not empty:
                os.close(fd)
                continue
            return fd, path

    def drain(self) -> None:
        """Remove the ready spares (a run's end: the folder is left as the run found it; the
        next run makes them again). One a flusher makes meanwhile is removed at the next
        run's start (Workspace.clean_stale_temps)."""
        while True:
            try:
                path = self._ready.popleft()
            except IndexError:
                return
            try:
                os.unlink(path)
            except OSError:
                pass  # gone already, or the folder went read-only: the next start tries again

    def fill(self) -> None:
        """Make spares until `keep` are ready (on the round's flusher thread: it makes files
        while the model is asked). OSError when the folder cannot be written (the writers
        then make their own temporary files, as they always did)."""
        from app.core.workspace.files import make_temp  # noqa: PLC0415 - files imports flush, which undo imports first

        while len(self._ready) < self.keep:
            try:
                fd, path = make_temp(self.folder)
            except FileNotFoundError:  # (never .harness itself: deleted, it stays deleted)
                self.folder.mkdir(exist_ok=True)
                fd, path = make_temp(self.folder)
            os.close(fd)
            self._ready.append(path)
