"""Flushes to the disk off the write step's path: the undo journal's and the person's file's,
so a write step does not wait for them.

A write step's flushes only guard against a power cut: a crash or a kill -9 of the process
keeps everything already handed to the operating system, and the harness hands over the
pre-image's copy, then the journal's line naming it, then the new file, in that order. So
a write step through `RoundChanges.before_change(rel, overlap=True)` and
`RoundChanges.flushed_first(path)` flushes as follows (undo.py has the crash guarantees):

- The file's own fsync comes after its replace, on the round's `Flusher` thread, while the
  next model call is in flight (handed over as that call starts, not inside the step); the
  round's end (RoundChanges.finish) waits for it, before the round's undo record and the
  run's record of the round are written.
- The journal's line for a file the round creates is flushed on the same thread, first:
  its order against the new file does not matter (a power cut that keeps the file and loses
  the line leaves a new file undo does not know of; nothing of the person's is lost).
- The journal's line for a file that held content before the round (its first change in
  the round) is on disk BEFORE the replace: `BackgroundFlush` starts it beside the temp
  file's write and `files.commit_temp_file` waits for it right before the replace
  (`first_for`). A power cut can then never keep the new content and lose the line
  that undoes it. A later change of the same file needs no new flush: its line is on disk.
"""

from __future__ import annotations

import _thread  # built in: nothing to load
import os
from pathlib import Path

TYPE_CHECKING = False  # not typing's: `status` has no use for importing it
if TYPE_CHECKING:
    import contextvars
    import queue
    from typing import Callable, Optional, Tuple, Union

    Job = Union[Path, Callable[[], object]]  # a file to flush, or work to do
    Wait = Callable[[], None]
    Later = Optional[Callable[[Path], None]]
    Spare = Callable[[], Optional[Tuple[int, Path]]]  # an empty temporary file, open, or None
    First = Tuple[Optional[Wait], Later, Optional[Spare]]
    FirstVar = contextvars.ContextVar[dict[str, First]]

# {normalised path: (wait(), later(path) or None, spare() or None)}, made on use
_FIRST: FirstVar | None = None


def fsync_path(path: Path | str) -> None:
    """Flush the file at `path` to the disk. Windows flushes (FlushFileBuffers) only through
    a handle open for writing; elsewhere reading access is enough (and a file without write
    permission for its owner can still be flushed)."""
    flags = os.O_RDWR | getattr(os, "O_BINARY", 0) if os.name == "nt" else os.O_RDONLY
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Flusher:
    """A round's flushes (and other work that may wait) done on a thread of their own, in the
    order asked for. `add(job)` notes a file to flush (a path) or a function to call, and
    returns at once; `kick()` hands what was noted to the thread, once a step (waking a
    thread costs more than the rest of a step's bookkeeping, so it is done once, when the
    step is done, right before the model is asked again: RoundChanges.hand_off); `join()`
    kicks and returns once every job so far is done, raising the first that failed. A file
    gone by the time its turn comes (deleted, or replaced by a later step of the round) is
    no error: what replaced it has its own turn.

    The thread is the process's one "hd-round-flush", made on the first kick and kept for
    the rounds after (it waits on its queue meanwhile): starting a thread waits until it has
    run (for the GIL, after a core: 0.1-0.3 ms quiet, a scheduler slice on a loaded
    machine), and each round's first write step paid that when each round had its own."""

    def __init__(self) -> None:
        self._noted: list[Job] = []
        self._firsts = 0  # how many of _noted were noted `first`
        self._error: Exception | None = None  # OSError, or a bug's (join raises it)

    def add(self, job: Path | str | Callable[[], object]) -> None:
        """Note a job: a path to flush, or a function to call."""
        self._noted.append(job if callable(job) or isinstance(job, Path) else Path(job))

    def add_first(self, job: Callable[[], object]) -> None:
        """Note work no flush waits for, to be done before the flushes noted so far (after
        the other work so noted): as soon as the step is handed off (while the model is
        asked), not a slow disk's flushes later, when it would take the GIL from a later
        step."""
        self._noted.insert(self._firsts, job)
        self._firsts += 1

    def kick(self) -> None:
        """Hand the jobs noted so far to the thread."""
        if not self._noted:
            return
        jobs, self._noted, self._firsts = self._noted, [], 0
        _worker().put((self, jobs))

    def _do(self, job: Job) -> None:
        try:
            if callable(job):
                job()
            else:
                fsync_path(job)
        except FileNotFoundError:
            pass
        except OSError as exc:  # handed to join(), on the thread that asks
            if self._error is None:
                self._error = exc

    def join(self) -> None:
        """Wait for every job noted so far; raise the first that failed."""
        self.kick()
        _Worker.wait_for_all()
        error, self._error = self._error, None
        if error is not None:
            raise error

    def close(self) -> None:
        """join(): the round is done with its flusher (the thread stays for the next)."""
        self.join()


class _Worker:
    """The process's flusher thread: batches of (Flusher, its jobs), done in order."""

    _queue: queue.Queue[tuple[Flusher, list[Job]]] | None = None

    @classmethod
    def wait_for_all(cls) -> None:
        """Return once every batch handed over so far is done (nothing, if none ever was)."""
        if cls._queue is not None:
            import threading  # noqa: PLC0415 - loaded by then (the thread is one)

            done = threading.Event()
            cls._queue.put((_DONE, [done.set]))  # done in order: after everything before it
            done.wait()

    @staticmethod
    def run(todo: queue.Queue[tuple[Flusher, list[Job]]]) -> None:
        _never_preempting()
        while True:
            flusher, jobs = todo.get()
            for job in jobs:
                try:
                    flusher._do(job)
                except Exception as exc:  # a bug in a job: said by join(), the thread goes on
                    if flusher._error is None:
                        flusher._error = exc


def _never_preempting() -> None:
    """Make the calling thread one that never takes a core from another when it wakes
    (Linux's SCHED_BATCH: the same share of the processor, its turn at the next tick). The
    flusher is woken as a step ends, and on a loaded machine it took the core from the
    loop's thread then, which waited a scheduler slice (1-4 ms) to go on: a write step
    was preempted three times as often as a read step (bench/step_overhead.py, issue 36)."""
    batch = getattr(os, "SCHED_BATCH", None)
    if batch is None:
        return  # not Linux: its scheduler has no such policy
    try:
        os.sched_setscheduler(0, batch, os.sched_param(0))  # 0: this thread
    except OSError:
        pass  # refused (a sandbox's seccomp filter): flushes as any thread does


_MAKING = _thread.allocate_lock()  # two runs' first kicks at once make one thread


def _worker() -> queue.Queue[tuple[Flusher, list[Job]]]:
    with _MAKING:
        todo = _Worker._queue
        if todo is None:
            import queue  # noqa: PLC0415 - `status` stays light
            import threading  # noqa: PLC0415 - `status` stays light

            todo = _Worker._queue = queue.Queue()
            threading.Thread(target=_Worker.run, args=(todo,), name="hd-round-flush",
                             daemon=True).start()
    return todo


_DONE = Flusher()  # the owner of the batches that say "done so far" (wait_for_all)


class BackgroundFlush:
    """os.fsync of each of `paths`, each on a thread of its own (side by side: a slow disk
    costs one flush's time, not one per path); `wait()` returns once all are on disk and
    raises what a flush raised."""

    def __init__(self, *paths: Path | str):
        import threading  # noqa: PLC0415 - `status` stays light

        self.paths = [Path(p) for p in paths]
        self._errors: list[BaseException] = []
        self._threads = [threading.Thread(target=self._run, args=(p,), name="hd-journal-flush",
                                          daemon=True) for p in self.paths]
        for thread in self._threads:
            thread.start()

    def _run(self, path: Path) -> None:
        try:
            fsync_path(path)
        except BaseException as exc:  # handed to wait(), on the thread that asked
            self._errors.append(exc)

    def wait(self) -> None:
        for thread in self._threads:
            thread.join()
        errors, self._errors = self._errors, []
        if errors:
            raise errors[0]


def _key(path: Path | str) -> str:
    return os.path.normcase(os.path.abspath(path))


def _first_var() -> FirstVar:
    global _FIRST
    if _FIRST is None:
        import contextvars  # noqa: PLC0415 - `status` stays light

        _FIRST = contextvars.ContextVar("hd_flushed_first")
    return _FIRST


class flushed_first:
    """While inside, a replace of `path` (files.commit_temp_file) first calls `wait`; with
    `later`, files.atomic_write_bytes does not flush the new file itself but hands its path
    to `later` once it is in place (Flusher.add); with `spare`, it writes into the file that
    returns, if any, instead of making a temporary file (spare_files.py)."""

    def __init__(self, path: Path | str, wait: Wait, later: Later = None,
                 spare: Spare | None = None):
        self.path, self.wait, self.later, self.spare = path, wait, later, spare
        self._token: contextvars.Token[dict[str, First]] | None = None

    def __enter__(self) -> "flushed_first":
        var = _first_var()
        self._token = var.set({**var.get({}),
                               _key(self.path): (self.wait, self.later, self.spare)})
        return self

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _first_var().reset(self._token)


def first_for(path: Path | str) -> First:
    """What a write of `path` inside flushed_first is to do, each None when not given: (what
    must be on disk before the replace, waited for; who flushes `path` once replaced, when
    not the writer; where the writer takes its temporary file from, when not from `path`'s
    folder)."""
    if _FIRST is None:
        return _NONE
    first = _FIRST.get({})
    return first.get(_key(path), _NONE) if first else _NONE


_NONE: First = (None, None, None)
