"""Export a run summary to a file: the one service both `harness-desk export` and the window call."""

from __future__ import annotations

from pathlib import Path

from app.core.workspace.files import atomic_write_bytes
from app.export.history import ALL_RUNS, build_history, render_history
from app.export.render import FORMATS, ExportError, render
from app.export.summary import build_summary

# File endings people use for the formats, beyond the format names themselves.
_SUFFIX_FORMATS = {"markdown": "md", "htm": "html"}


def format_for(output: Path | str) -> str:
    """The format a file name asks for ("summary.htm" -> "html"), or "" when it names none."""
    suffix = Path(output).suffix.lstrip(".").lower()
    suffix = _SUFFIX_FORMATS.get(suffix, suffix)
    return suffix if suffix in FORMATS else ""


def export_summary(root: Path | str, fmt: str | None, output: Path | str,
                   run_id: str | None = None, *, locale=None, lang: str = "en") -> Path:
    """Write the summary of a run (the latest by default; "all" for the folder's whole
    history, every run in order) to `output` as `fmt` (md, html, pdf or odt; taken from the
    file name when not given) and return the file written.

    Written atomically: a failed export never leaves half a file behind. Raises
    HarnessError (ExportError, NotAWorkspace, NoRunToExport) or DiskWriteError, each with
    one sentence for the person. `locale` picks the PDF's paper (Letter or A4); `lang`
    ("en" or "zh_CN") the language of every word the document adds to the person's own.
    """
    fmt = (fmt or "").lower().lstrip(".") or format_for(output)
    if not fmt:
        raise ExportError("Say which format to write: md, html, pdf or odt.")
    if fmt not in FORMATS:
        raise ExportError(f"Unknown format \"{fmt}\"; choose one of {', '.join(FORMATS)}.")
    output = Path(output).expanduser()
    if output.is_dir():
        raise ExportError(f"{output} is a folder; give a file name such as summary.{fmt}.")
    if run_id == ALL_RUNS:
        data = render_history(build_history(root, lang), fmt, locale)
    else:
        data = render(build_summary(root, run_id, lang=lang), fmt, locale)
    atomic_write_bytes(output, data)
    return output
