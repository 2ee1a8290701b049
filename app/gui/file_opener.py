"""The person's files in their own programs: "Open" a file, "Show in folder".

Both run off the UI thread (a program may be slow to start, a folder on a network drive slow
to answer) and come back with a sentence when they fail; success says nothing, because the
program or the folder showing is the answer. `opener` is the window's one door to other
programs: tests replace its `open_url` and `launch` to record what would have been opened
instead of starting a program.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QCoreApplication, QObject, QUrl
from PySide6.QtGui import QDesktopServices

from app.gui.background import run_for


def _open_url(url: QUrl) -> bool:
    return QDesktopServices.openUrl(url)


def _launch(argv: list[str]) -> None:
    """Start a program and leave it running (never waited on)."""
    subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=sys.platform != "win32")


class Opener:
    def __init__(self) -> None:
        self.open_url: Callable[[QUrl], bool] = _open_url
        self.launch: Callable[[list[str]], None] = _launch
        self.platform = sys.platform


opener = Opener()

# What went wrong, from the background thread to the UI thread (sentences are made there).
MISSING, NO_PROGRAM, FAILED = "missing", "no_program", "failed"


def tr(text: str) -> str:
    return QCoreApplication.translate("", text)  # where lupdate files a module-level tr()


def _opened(path: Path) -> str | None:
    if not path.exists():
        return MISSING
    return None if opener.open_url(QUrl.fromLocalFile(str(path))) else NO_PROGRAM


def _shown(path: Path) -> str | None:
    if not path.exists():
        if not path.parent.is_dir():
            return MISSING
        path = path.parent  # the file has gone since: its folder is the next best thing
        return None if opener.open_url(QUrl.fromLocalFile(str(path))) else FAILED
    if opener.platform == "win32":
        opener.launch(["explorer", f"/select,{path}"])
    elif opener.platform == "darwin":
        opener.launch(["open", "-R", str(path)])
    elif not opener.open_url(QUrl.fromLocalFile(str(path.parent))):
        return FAILED
    return None


def open_file(owner: QObject, path: Path, say: Callable[[str], None]) -> None:
    """Open `path` in the program the computer uses for it; `say(sentence)` if that fails."""
    name = path.name

    def told(problem: str | None) -> None:
        if problem == MISSING:
            say(tr("%1 is no longer in the folder, so it cannot be opened.").replace("%1", name))
        elif problem is not None:
            say(tr("No program opened %1: your computer has no program set for this kind of "
                    "file. Use Show in folder and open it from there.").replace("%1", name))

    run_for(owner, lambda: _opened(path), told, lambda exc: say(_failed_open(name, exc)))


def show_in_folder(owner: QObject, path: Path, say: Callable[[str], None]) -> None:
    """Show `path` selected in the computer's file manager (Explorer, Finder), or its folder
    elsewhere; `say(sentence)` if that fails."""
    name = path.name

    def told(problem: str | None) -> None:
        if problem == MISSING:
            say(tr("%1 and its folder are no longer there, so they cannot be shown.")
                .replace("%1", name))
        elif problem is not None:
            say(_failed_show(name, None))

    run_for(owner, lambda: _shown(path), told, lambda exc: say(_failed_show(name, exc)))


def _reason(exc: BaseException | None) -> str:
    return (getattr(exc, "strerror", None) or str(exc or "")).strip()


def _failed_open(name: str, exc: BaseException) -> str:
    return tr("%1 could not be opened: %2").replace("%1", name).replace("%2", _reason(exc))


def _failed_show(name: str, exc: BaseException | None) -> str:
    reason = _reason(exc)
    if not reason:
        return tr("The folder of %1 could not be shown: your computer has no file manager "
                   "set to show it.").replace("%1", name)
    return tr("The folder of %1 could not be shown: %2").replace("%1", name).replace(
        "%2", reason)


def open_saved(owner: QObject, path: Path, say: Callable[[str], None]) -> None:
    """Open a file the window just saved (the exported summary); a failure is said as "saved,
    but not opened", so the person knows the file itself is fine and where it is."""

    def told(problem: str | None) -> None:
        if problem == MISSING:
            say(tr("The summary was saved, but no program opened it: it is no longer at %1.")
                .replace("%1", str(path)))
        elif problem is not None:
            say(tr("The summary was saved, but no program opened it: your computer has no "
                    "program set for this kind of file. It is at %1.").replace("%1", str(path)))

    def failed(exc: BaseException) -> None:
        say(tr("The summary was saved, but no program opened it: %1. It is at %2.")
            .replace("%1", _reason(exc)).replace("%2", str(path)))

    run_for(owner, lambda: _opened(path), told, failed)
