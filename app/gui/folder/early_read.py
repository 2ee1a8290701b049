"""The first folder's read, begun before the window that shows it is built.

On start-up the first folder is read (off the UI thread) while the window is built, not
after: the read and the building overlap, and if the read is done by the time the window
is, the folder is shown at once, in the same turn of the event loop, so the window's first
complete paint is the usable one (bench/startup.py). A folder named on the command line is
read so (EarlyRead); with none named, the folder is chosen first in the same job (EarlyStart:
a fresh demo copy for --demo, the last folder, or a demo copy on the very first start), so
these starts never show the welcome page on the way to it.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from app.gui.background import run_in_background

if TYPE_CHECKING:
    from app.gui.folder.workspace_info import FolderInfo


def saved_layout() -> object:
    """The window's layout as the settings file keeps it (`ui.window`: window_state.py), read
    as plain JSON, without the settings' model (pydantic, a few hundred milliseconds): the
    window is laid out as the person left it before it is usable, not when the settings load
    after that, which moved the checklist and Run. None when there is none, or it is damaged
    (the settings' load then says so). Call it off the UI thread."""
    import json  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

    from app.core.places import config_dir  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

    try:
        data = json.loads((config_dir() / "settings.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ui = data.get("ui") if isinstance(data, dict) else None
    return ui.get("window") if isinstance(ui, dict) else None


class EarlyLayout:
    """`saved_layout()` begun now, off the UI thread; `state` once it has come (`done`)."""

    def __init__(self) -> None:
        self.done = False
        self.state: object = None

        def read() -> object:
            self.state = saved_layout()
            self.done = True  # after state: the UI thread reads done first
            return self.state

        run_in_background(read, lambda _state: None, lambda _exc: None)


def inspect(path: Path) -> FolderInfo:
    """What the checklist and the run's panel need of `path` (workspace_info.inspect_quickly):
    call it off the UI thread."""
    from app.gui.folder.workspace_info import inspect_quickly  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

    return inspect_quickly(Path(path))


class EarlyRead:
    """`inspect(path)` begun now; its outcome handed to `then`'s callbacks once both have come:
    at once, if the read is already done."""

    def __init__(self, path: Path | None):
        self.path = None if path is None else Path(path)
        self._outcome: tuple[bool, Any] | None = None  # (read, FolderInfo or the exception)
        self._waiting: tuple[Callable[[Any], None], Callable[[BaseException], None]] | None = None
        run_in_background(self._read, lambda _info: self._deliver(), lambda _exc: self._deliver())

    def _read(self) -> FolderInfo | None:
        """On a pool thread: the read, its outcome kept for `then`."""
        if self.path is None:  # no folder to read (EarlyStart chose none)
            self._outcome = (True, None)
            return None
        try:
            info = inspect(self.path)
        except BaseException as exc:
            self._outcome = (False, exc)  # one assignment: seen whole by the UI thread
            raise
        self._outcome = (True, info)
        return info

    @property
    def done(self) -> bool:
        """Whether the read has ended (read, or failed)."""
        return self._outcome is not None

    def then(self, on_done: Callable[[FolderInfo], None],
             on_error: Callable[[BaseException], None]) -> None:
        """Call `on_done(info)` or `on_error(exc)` once (on the UI thread): now, if the read is
        done, else when it is."""
        self._waiting = (on_done, on_error)
        self._deliver()

    def _deliver(self) -> None:
        outcome, waiting = self._outcome, self._waiting
        if outcome is None or waiting is None:
            return
        self._waiting = None
        read, value = outcome
        (waiting[0] if read else waiting[1])(value)


class EarlyStart(EarlyRead):
    """The folder a start with none named opens (first_start.early_folder: a fresh demo copy
    for --demo, the last folder, or a demo copy on the very first start), chosen from main()
    on, off the UI thread, and then read as EarlyRead reads a named folder, in the same job.
    `path` is the folder once `decided` (None: the settings' load chooses, as it did before)."""

    def __init__(self, demo: bool, lang: str):
        self.demo, self.lang = demo, lang
        self.decided = False
        self._decision = threading.Event()
        super().__init__(None)

    @property
    def chosen(self) -> Path | None:
        """The folder chosen, once it is (read on the UI thread: never waits)."""
        return self.path if self.decided else None

    def wait(self) -> Path | None:
        """The folder chosen, once it is: off the UI thread only (it waits for the choice)."""
        self._decision.wait()
        return self.path

    def _read(self) -> FolderInfo | None:
        from app.gui.folder import first_start  # noqa: PLC0415 - the window's first paint (tests/gui/test_startup_path.py)

        try:
            self.path = first_start.early_folder(self.demo, self.lang)
        except Exception:  # the settings' load chooses again, and says what is wrong
            self.path = None
        finally:
            self.decided = True  # after path: the UI thread reads decided first
            self._decision.set()
        return super()._read()
