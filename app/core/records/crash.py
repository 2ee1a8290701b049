"""Crash reports: the details go to a file (redacted), the person gets one sentence."""

from __future__ import annotations

import traceback
from datetime import datetime, timezone
from pathlib import Path

from app import __version__
from app.core.workspace.files import atomic_write_text
from app.core.records.redact import redact
from app.core.settings import config_dir

CRASH_DIR_NAME = "crash-reports"


def crash_dir() -> Path:
    """The crash log: one redacted file per report, in the config dir."""
    return config_dir() / CRASH_DIR_NAME


def save_crash_report(exc: BaseException, context: str = "") -> Path:
    """Write the traceback, redacted, to the crash log; return the file. `context` says in a
    line what was going on (a listener that failed while the run went on, say)."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-%f")
    head = f"Harness Desk {__version__}\n{stamp}\n" + (f"{redact(context)}\n" if context else "")
    body = f"{head}\n{crash_details(exc)}"
    try:
        path = crash_dir() / f"crash-{stamp}.txt"
        atomic_write_text(path, body)
        return path
    except OSError:
        return Path("(could not save the details)")


def crash_details(exc: BaseException) -> str:
    """The redacted text behind a "Copy details" button."""
    return redact("".join(traceback.format_exception(exc)))
