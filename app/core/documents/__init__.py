"""Office documents and PDFs as Markdown: the one place the tools and the window go through.

Light on purpose: importing this package imports no document library. python-docx, openpyxl,
python-pptx and pypdf are imported only when a document is actually read or written, and
then in a worker process bounded in time and memory (worker.py); `cancel` (the person's
Stop) ends that work at once.

    is_document(path_or_name) -> bool       a format read_file renders (by the name's suffix)
    render_document(path, seconds, cancel) -> str    the Markdown rendering (DocumentError)
    render_bytes(data, name) -> str         the same for a version not on disk (a proposed change)
    writable_kind(name) -> str | None       "docx" / "xlsx" for write_file, else None
    refused_write(name) -> str | None       the sentence for formats that cannot be written
    write_document(path, markdown, existing, cancel) -> bytes   the file write_file would save
    edit_document(path, old, new, cancel) -> bytes  a .docx with one paragraph's text replaced
    set_cells(path, cells, sheet, formats, cancel) -> (bytes, int, str)
                                            a workbook with cells set, and which formulas
                                            are calculated afresh when it is opened
    show_change(before, after, name, words, colours) -> {"html", "note"}
                                            a change as the person sees it in Office
                                            (change_view.py)
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from app.core.documents.base import (KINDS as KINDS, DocumentError as DocumentError,
                                     is_document as is_document, kind_of as kind_of,
                                     refused_write as refused_write,
                                     writable_kind as writable_kind)


# What a rendering keeps of its time for the worker to start and to hand the text back:
# the rendering stops by itself this long before the worker would be killed.
READ_GRACE = 5.0


def render_document(path: Path, seconds: float | None = None,
                    cancel: threading.Event | None = None) -> str:
    """The Markdown rendering of a document, bounded in characters, pages, rows, time
    (`seconds`, at most worker.READ_SECONDS) and memory."""
    from app.core.documents import worker

    path = Path(path)
    hard = worker.READ_SECONDS if seconds is None else min(seconds, worker.READ_SECONDS)
    soft = None if seconds is None else max(hard - READ_GRACE, min(hard, 1.0))
    text: str = worker.run("render", (path, soft), path.name, writing=False, seconds=hard,
                           cancel=cancel)
    return text


def render_bytes(data: bytes, name: str) -> str:
    """The rendering of `data`, a version of the document `name` that is not on disk (a
    change waiting for approval); the formats are told by the name's suffix."""
    import os
    import tempfile

    handle, temp = tempfile.mkstemp(suffix=Path(name).suffix.lower(), prefix="harness-desk-")
    try:
        with os.fdopen(handle, "wb") as fh:
            fh.write(data)
        try:
            return render_document(Path(temp))
        except DocumentError as exc:
            raise DocumentError(exc.message.replace(f"'{Path(temp).name}'", f"'{name}'")) \
                from None
    finally:
        Path(temp).unlink(missing_ok=True)


def write_document(path: Path, markdown: str, existing: bool,
                   cancel: threading.Event | None = None) -> bytes:
    """The bytes of a .docx or .xlsx made from Markdown. With `existing`, refuses (with a
    DocumentError) when the file on disk holds parts the new one would not keep."""
    from app.core.documents import worker

    path = Path(path)
    data: bytes = worker.run("write", (path, markdown, existing), path.name, writing=True,
                             cancel=cancel)
    return data


def edit_document(path: Path, old_text: str, new_text: str,
                  cancel: threading.Event | None = None) -> bytes:
    from app.core.documents import worker

    path = Path(path)
    data: bytes = worker.run("edit", (path, old_text, new_text), path.name, writing=True,
                             cancel=cancel)
    return data


def set_cells(path: Path, cells: dict[str, Any], sheet: str | None = None,
              formats: dict[str, Any] | None = None,
              cancel: threading.Event | None = None) -> tuple[bytes, int, str]:
    from app.core.documents import worker

    path = Path(path)
    done: tuple[bytes, int, str] = worker.run("set_cells", (path, cells, sheet, formats),
                                              path.name, writing=True, cancel=cancel)
    return done


def page_pictures(path: Path, pages: list[int] | None, max_pixels: int, side: int,
                  most: int) -> list[tuple[int, bytes, tuple[int, int]]]:
    """The pictures of a PDF's pages without text (pdf_pictures.py), read in the worker."""
    from app.core.documents import worker

    path = Path(path)
    found: list[tuple[int, bytes, tuple[int, int]]] = worker.run(
        "page_pictures", (path, pages, max_pixels, side, most), path.name, writing=False)
    return found


def show_change(before: Path | None, after: Path | None, name: str, words: dict[str, str],
                colours: dict[str, str]) -> dict[str, str]:
    """A change from the file `before` to `after` (None: that version does not exist; both
    named with the document's suffix) as change_view.py shows it, read in the worker."""
    from app.core.documents import worker

    shown: dict[str, str] = worker.run("change_view", (before, after, name, words, colours),
                                       name, writing=False)
    return shown


def prewarm_documents() -> None:
    """Start the document worker in the background (worker.prewarm)."""
    from app.core.documents import worker
    worker.prewarm()


SECTION_HEADINGS = ("## Page ", "## Sheet: ", "## Slide ", "## Chart sheet: ")
