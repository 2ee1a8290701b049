"""An AI SDK imported on a thread of its own while a run gets ready (Engine.start_loading).

`import openai` builds some 700 pydantic models: about half a second, more than the rest
of a command-line run's start-up. The OpenAI and Claude engines cannot send a request
without their SDK, but nothing before their first request needs it, and the run's own start
waits on the disk and the network meanwhile (the board read twice to see it hold still, the
key read from the keychain), so the import goes on a thread at the run's start. (The Local
engine sends its first request without the SDK instead: local/engine.py, _first_turn.)

Python's import lock is per module: the run's thread importing the SDK (or a module the
SDK imports) while this thread is at it waits for that module to be complete, and then
uses the same module object. `ready()` waits for the whole package, for code that reaches
into a submodule (a submodule can be complete while its package still is not). An import
that fails here is left alone: the run's own import then fails as it would have without
this thread, with the same error, where it is reported.
"""

from __future__ import annotations

import importlib
import sys
import threading

_started: dict[str, threading.Thread] = {}
_lock = threading.Lock()


def start(package: str) -> None:
    """Begin importing `package` on a daemon thread, once per process (not when imported)."""
    with _lock:
        if package in _started or package in sys.modules:
            return
        thread = threading.Thread(target=_load, args=(package,), daemon=True,
                                  name=f"import {package}")
        _started[package] = thread
        thread.start()


def imported(package: str) -> bool:
    """Whether `package` is imported whole (not missing, nor still being imported)."""
    module = sys.modules.get(package)
    return module is not None and not getattr(getattr(module, "__spec__", None),
                                              "_initializing", False)


def ready(package: str) -> None:
    """Wait until a background import of `package` (if one was started) has ended."""
    thread = _started.get(package)
    if thread is not None and thread is not threading.current_thread():
        thread.join()


def _load(package: str) -> None:
    try:
        importlib.import_module(package)
    except BaseException:  # noqa: BLE001 - never a traceback from this thread; the run's own
        pass  # import of the package fails the same way, where it is reported (module note)
