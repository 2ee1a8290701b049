"""Every read and write of a document runs in a process of its own, bounded in time and
memory whatever the file, so a hostile one cannot hang or exhaust the app.

The document libraries are pure Python over zip and XML: a hostile file can keep them busy
inside one call for minutes, or make them allocate gigabytes, before any check of ours runs
again. A thread cannot be stopped; a process can. So the work is sent to a worker process:

- time: the caller waits at most READ_SECONDS for a reading (the rendering itself stops
  at guard.MAX_RENDER_SECONDS with what it has, so a slow file still shows its start) and
  WRITE_SECONDS for a change; past that, or when the person presses Stop, the worker is
  killed and the sentence says why.
- memory: on Linux the worker's address space is capped (RLIMIT_AS), so an allocation past
  MEMORY_BYTES fails inside it; macOS and Windows do not enforce that limit, so there a
  thread in the worker watches the process's peak memory and ends it past MEMORY_BYTES.
  Either way the caller's own memory is untouched.
- spawn, not fork, on every platform (the window's process has Qt threads); the frozen app
  runs the worker through multiprocessing.freeze_support() in app/__main__.py.
- a worker is kept for the next document (a small document's read then costs a message,
  not a new process) and ends by itself after IDLE_SECONDS; one that grew past
  RETIRE_BYTES is not kept. A round in a folder with documents starts one in the
  background (prewarm), so even its first document does not wait for a process to start.

`ISOLATED = False` runs the same work in the calling process (the tests that reach into
the document modules' limits use it); the bounds then do not hold.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import sys
import threading
import time
from typing import TYPE_CHECKING, Any, Callable

from app.core.documents.base import DocumentError, kind_of

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

ISOLATED = True
READ_SECONDS = 20.0
WRITE_SECONDS = 60.0
MEMORY_BYTES = 1_000_000_000
RETIRE_BYTES = 300 * 1024 * 1024
IDLE_SECONDS = 120.0
KEPT = 2                    # idle workers kept for the next document
AT_ONCE = 3                 # workers at work at once (the window may preview while a run reads)
MEMORY_EXIT = 75            # the worker's exit code when it ended itself over MEMORY_BYTES

# The work a worker does, by name: "module:function", imported only in the worker.
TASKS = {
    "render": "app.core.documents.render:render",
    "write": "app.core.documents.render:write",
    "edit": "app.core.documents.word_edit:edit_docx",
    "set_cells": "app.core.documents.cells:set_cells",
    "page_pictures": "app.core.documents.pdf_pictures:page_pictures",
    "change_view": "app.core.documents.change_view:change_view",
}


def run(task: str, args: tuple[Any, ...], name: str, writing: bool, seconds: float | None = None,
        cancel: threading.Event | None = None) -> Any:
    """The result of TASKS[task](*args), from a worker within its bounds; DocumentError
    with one sentence about the file `name` when it fails or goes past them."""
    target = TASKS[task]
    if not ISOLATED:
        return _function(target)(*args)
    limit = seconds if seconds is not None else WRITE_SECONDS if writing else READ_SECONDS
    if cancel is not None and cancel.is_set():
        raise DocumentError(_sentence("stopped", name, writing, limit))
    deadline = time.monotonic() + limit
    if not _at_once.acquire(timeout=limit):
        raise DocumentError(_sentence("time", name, writing, limit))
    try:
        return _run(target, args, name, writing, limit, deadline, cancel)
    finally:
        _at_once.release()


def _run(target: str, args: tuple[Any, ...], name: str, writing: bool, limit: float, deadline: float,
         cancel: threading.Event | None) -> Any:
    try:
        worker = _take()
        try:
            worker.conn.send((target, args))
        except OSError:  # it ended while idle: a fresh one
            worker.kill()
            worker = _take(fresh=True)
            worker.conn.send((target, args))
    except (OSError, RuntimeError):  # no process could be started
        raise DocumentError(_sentence("start", name, writing, limit)) from None
    while True:
        if worker.conn.poll(0.05):
            try:
                kind, value, peak = worker.conn.recv()
            except (EOFError, OSError):
                break  # it died while answering
            _give_back(worker, peak, kind)
            if kind == "ok":
                return value
            if kind == "error":
                raise DocumentError(value)
            raise DocumentError(_sentence(kind, name, writing, limit))
        if cancel is not None and cancel.is_set():
            worker.kill()
            raise DocumentError(_sentence("stopped", name, writing, limit))
        if time.monotonic() > deadline:
            worker.kill()
            raise DocumentError(_sentence("time", name, writing, limit))
        if not worker.proc.is_alive():
            break
    worker.kill()
    code = worker.proc.exitcode
    memory = code == MEMORY_EXIT or code == -9  # -9: the system's out-of-memory killer
    raise DocumentError(_sentence("memory" if memory else "crash", name, writing, limit))


def _sentence(kind: str, name: str, writing: bool, seconds: float) -> str:
    gigabytes = (f"{MEMORY_BYTES / 1e9:.0f} GB" if MEMORY_BYTES >= 1e9
                 else f"{MEMORY_BYTES / 1e6:.0f} MB")
    if writing:
        return {
            "time": f"Changing '{name}' took more than {seconds:.0f} seconds (it is too big or "
                    "too complex), so nothing was changed.",
            "memory": f"Changing '{name}' needed more than {gigabytes} of memory (it is too "
                      "big or too complex), so nothing was changed.",
            "stopped": f"Changing '{name}' was stopped, so nothing was changed.",
            "start": f"'{name}' could not be changed: the helper that works on documents "
                     "could not start, so nothing was changed.",
        }.get(kind, f"'{name}' could not be changed: it could not be processed, so nothing "
                    "was changed.")
    return {
        "time": f"'{name}' could not be read within {seconds:.0f} seconds (it is too big or "
                "too complex), so it was not opened.",
        "memory": f"'{name}' needs more than {gigabytes} of memory to be read (it is too big "
                  "or too complex), so it was not opened.",
        "stopped": f"Reading '{name}' was stopped.",
        "start": f"'{name}' could not be opened: the helper that reads documents could not "
                 "start.",
    }.get(kind, f"'{name}' could not be opened as {kind_of(name) or 'a document'}: the file "
                "is damaged or is not really that kind of file.")


# -- the calling side: a few workers kept ------------------------------------------------
class _Worker:
    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.proc = context.Process(target=serve, args=(child, MEMORY_BYTES, IDLE_SECONDS * 2),
                                    name="harness-desk documents", daemon=True)
        self.proc.start()
        child.close()
        self.used = time.monotonic()

    def kill(self) -> None:
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()


_idle: list[_Worker] = []
_lock = threading.Lock()
_at_once = threading.BoundedSemaphore(AT_ONCE)


def _take(fresh: bool = False) -> _Worker:
    with _lock:
        while _idle and not fresh:
            worker = _idle.pop()
            if worker.proc.is_alive() and time.monotonic() - worker.used < IDLE_SECONDS:
                return worker
            worker.kill()
    return _Worker()


def _give_back(worker: _Worker, peak: int, kind: str) -> None:
    worker.used = time.monotonic()
    with _lock:
        if kind in ("ok", "error") and peak < RETIRE_BYTES and len(_idle) < KEPT:
            _idle.append(worker)
            return
    worker.kill()


_warming = threading.Event()


def prewarm() -> None:
    """Start a worker in the background, its libraries imported, so the first document a
    round reads costs a message, not a process start (called when a round may read one)."""
    if not ISOLATED or _warming.is_set():
        return
    with _lock:
        if _idle:
            return
    _warming.set()

    def start() -> None:
        try:
            worker = _Worker()
            worker.conn.send(("app.core.documents.worker:warm", ()))
            if worker.conn.poll(60):
                kind, _value, peak = worker.conn.recv()
                _give_back(worker, peak, kind)
            else:
                worker.kill()
        except Exception:  # no worker now: the first document starts one
            pass
        finally:
            _warming.clear()

    threading.Thread(target=start, name="documents warm-up", daemon=True).start()


def warm() -> None:
    """In the worker: import what reading a document needs."""
    import app.core.documents.pdf  # noqa: PLC0415 - the worker's warm-up imports them ahead, in its own process; pypdf is imported when a PDF is read
    import app.core.documents.render  # noqa: F401, PLC0415 - the worker's warm-up imports them ahead, in its own process
    import docx  # noqa: F401, PLC0415 - the worker's warm-up imports them ahead, in its own process
    import lxml.etree  # noqa: F401, PLC0415 - the worker's warm-up imports them ahead, in its own process; slides are read with it
    import openpyxl  # noqa: F401, PLC0415 - the worker's warm-up imports them ahead, in its own process
    import pypdf  # noqa: F401, PLC0415 - the worker's warm-up imports them ahead, in its own process


def shutdown() -> None:
    """End the kept workers (they end by themselves too, when idle or when we exit)."""
    with _lock:
        kept, _idle[:] = list(_idle), []
    for worker in kept:
        worker.kill()


# -- the worker's side -------------------------------------------------------------------
def serve(conn: Connection, memory_bytes: int, idle_seconds: float) -> None:
    """The worker's loop: one task at a time, each answered with (kind, value, peak)."""
    _limit_memory(memory_bytes)
    while conn.poll(idle_seconds):
        try:
            target, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply = ("ok", _function(target)(*args))
        except DocumentError as exc:
            reply = ("error", exc.message)
        except MemoryError:
            reply = ("memory", None)
        except Exception:
            reply = ("crash", None)
        if reply[0] != "ok" and _near_ceiling(memory_bytes):
            reply = ("memory", None)  # a failure at the ceiling: memory, whatever it said
        conn.send(reply + (peak_bytes(),))


def _function(target: str) -> Callable[..., Any]:
    module, name = target.split(":")
    function: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return function


def _near_ceiling(memory_bytes: int) -> bool:
    """Did this process come close to its memory bound? (On Linux the bound is on the
    address space, which the peak of /proc/self/status shows.)"""
    try:
        with open("/proc/self/status", "rb") as fh:
            for line in fh:
                if line.startswith(b"VmPeak:"):
                    return int(line.split()[1]) * 1024 >= memory_bytes * 0.9
    except (OSError, ValueError, IndexError):
        pass
    return peak_bytes() >= memory_bytes * 0.9


def _limit_memory(memory_bytes: int) -> None:
    if sys.platform.startswith("linux"):
        import resource  # noqa: PLC0415 - POSIX only

        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        return
    threading.Thread(target=_watch, args=(memory_bytes,), daemon=True).start()


def _watch(memory_bytes: int, every: float = 0.05, peak: Callable[[], int] | None = None,
           end: Callable[[int], object] = os._exit) -> None:
    """Where the system does not enforce an address-space limit (macOS, Windows): end the
    process once its peak memory passes the bound."""
    peak = peak or peak_bytes
    while True:
        if peak() > memory_bytes:
            end(MEMORY_EXIT)
            return
        time.sleep(every)


def peak_bytes() -> int:
    """This process's peak resident memory, in bytes."""
    if sys.platform == "win32":
        import ctypes  # noqa: PLC0415 - Windows only
        from ctypes import wintypes  # noqa: PLC0415 - Windows only

        class Counters(ctypes.Structure):
            _fields_ = [("cb", wintypes.DWORD), ("PageFaultCount", wintypes.DWORD)] + [
                (field, ctypes.c_size_t) for field in (
                    "PeakWorkingSetSize", "WorkingSetSize", "QuotaPeakPagedPoolUsage",
                    "QuotaPagedPoolUsage", "QuotaPeakNonPagedPoolUsage",
                    "QuotaNonPagedPoolUsage", "PagefileUsage", "PeakPagefileUsage")]

        counters = Counters()
        counters.cb = ctypes.sizeof(Counters)
        kernel32 = ctypes.WinDLL("kernel32")
        kernel32.GetCurrentProcess.restype = wintypes.HANDLE
        query = kernel32.K32GetProcessMemoryInfo  # psapi's, in kernel32 since Windows 7
        query.argtypes = [wintypes.HANDLE, ctypes.POINTER(Counters), wintypes.DWORD]
        query.restype = wintypes.BOOL
        if not query(kernel32.GetCurrentProcess(), ctypes.byref(counters), counters.cb):
            return 0
        return max(counters.PeakWorkingSetSize, counters.PeakPagefileUsage)
    if sys.platform.startswith("linux"):
        # Not ru_maxrss: Linux carries the parent's high-water mark across the exec that
        # starts a worker, so a worker of a 600 MB window would read 600 MB before its first
        # document (and be retired at once, or refused every document past 900 MB).
        # VmHWM belongs to this process's own memory only.
        try:
            with open("/proc/self/status", "rb") as fh:
                for line in fh:
                    if line.startswith(b"VmHWM:"):
                        return int(line.split()[1]) * 1024
        except (OSError, ValueError, IndexError):
            pass
    import resource  # noqa: PLC0415 - POSIX only

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024
