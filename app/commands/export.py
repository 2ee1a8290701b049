"""`harness-desk export`: the command-line words around the export service (app/export/service.py)."""

from __future__ import annotations

import re
import sys

from app.core.errors import HarnessError
from app.core.workspace.files import DiskWriteError
from app.core.records.redact import redact
from app.export.service import export_summary


def cmd_export(path: str, fmt: str | None, output: str, run_id: str | None = None) -> int:
    """`harness-desk export`: print "Wrote <file>" and return 0, or one sentence on stderr and 1."""
    try:
        written = export_summary(path, fmt, output, run_id)
    except HarnessError as exc:
        print(exc.message, file=sys.stderr)
        return 1
    except OSError as exc:  # DiskWriteError already carries a sentence
        print(exc.strerror if isinstance(exc, DiskWriteError) else
              f"Could not write {output}: {exc.strerror or exc}.", file=sys.stderr)
        return 1
    except Exception as exc:  # never a traceback on the command line
        detail = re.sub(r"\s+", " ", redact(str(exc))).strip()
        print(f"Could not export the run summary: {detail or type(exc).__name__}.",
              file=sys.stderr)
        return 1
    print(f"Wrote {written}")
    return 0
