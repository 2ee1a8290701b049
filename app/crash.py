"""Crash reports: the details go to a file (redacted), the person gets one sentence."""

from __future__ import annotations

import traceback
from datetime import datetime, timezone
from pathlib import Path


def save_crash_report(exc: BaseException) -> Path:
    """Write the traceback, redacted, to the config dir's crash folder; return the file."""
    from app import __version__
    from app.core.redact import redact
    from app.core.settings import config_dir

    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-%f")
    folder = config_dir() / "crash-reports"
    text = redact("".join(traceback.format_exception(exc)))
    body = f"Harness Desk {__version__}\n{stamp}\n\n{text}"
    try:
        from app.core.files import atomic_write_text

        path = folder / f"crash-{stamp}.txt"
        atomic_write_text(path, body)
        return path
    except OSError:
        return Path("(could not save the details)")


def crash_details(exc: BaseException) -> str:
    """The redacted text behind a "Copy details" button."""
    from app.core.redact import redact

    return redact("".join(traceback.format_exception(exc)))
