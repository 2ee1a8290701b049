"""Documents and pictures as the window shows them: a document's Markdown rendering (the text
the AI works with, from app.core.documents) and a picture's small PNG copy. Called off the UI
thread only (the evidence and the file preview read through app.gui.background); no Qt here.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from app.core.documents import (DocumentError, is_document, page_pictures, render_document,
                                show_change as core_show_change)
from app.core.tools.pictures import PICTURE_MAX_PIXELS, is_picture

THUMBNAIL_SIDE = 420           # a picture's longest side in the window
MAX_DOCUMENT_BYTES = 50 << 20  # a saved copy bigger than this shows its sizes only
MAX_PICTURE_BYTES = 40 << 20
MAX_PAGE_PICTURES = 4          # a PDF's pages without text shown as pictures, at most
_NO_TEXT_PAGE = re.compile(r"^## Page (\d+)\n\n\(no text on this page", re.M)


@dataclass(frozen=True)
class PagePicture:
    """A PDF page with no text (a scan), shown as the picture it carries."""

    page: int
    picture: bytes
    size: tuple[int, int]


@dataclass
class Shown:
    """One version of a file as the window shows it: text (a document's rendering), a
    picture (PNG bytes), or why it cannot be shown: `problem` is "too_large", "not_picture"
    or "document" (then `detail` is the core's sentence), for the window to word. A PDF's
    pages that have no text (scans) come as `pages`, pictures of their own."""

    text: str | None = None
    picture: bytes | None = None
    picture_size: tuple[int, int] | None = None
    problem: str = ""
    detail: str = ""
    pages: list[PagePicture] = field(default_factory=list)


def kind(name: str) -> str:
    """'document', 'picture' or 'file'."""
    return "document" if is_document(name) else "picture" if is_picture(name) else "file"


def show_file(path: Path, name: str) -> Shown:
    """The file at `path` (named `name`, whose suffix says what it is) as the window shows it."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        return Shown(problem="document", detail=exc.strerror or str(exc))
    if is_document(name):
        if size > MAX_DOCUMENT_BYTES:
            return Shown(problem="too_large")
        return _rendered(path, name)
    if is_picture(name):
        if size > MAX_PICTURE_BYTES:
            return Shown(problem="too_large")
        return _thumbnail(path)
    return Shown(problem="not_picture")


def show_bytes(data: bytes, name: str) -> Shown:
    """`data` (a version of the file named `name` that is not on disk, such as a change
    waiting for approval) as the window shows it; the bytes go through a temporary file."""
    if len(data) > max(MAX_DOCUMENT_BYTES, MAX_PICTURE_BYTES):
        return Shown(problem="too_large")
    handle, temp_name = tempfile.mkstemp(suffix=Path(name).suffix.lower(), prefix="harness-desk-")
    try:
        with os.fdopen(handle, "wb") as fh:
            fh.write(data)
        return show_file(Path(temp_name), name)
    finally:
        Path(temp_name).unlink(missing_ok=True)


def _rendered(path: Path, name: str) -> Shown:
    """The rendering of a document; a saved copy (no suffix) is copied to a name with the
    document's suffix first, as the renderer tells formats by their suffix."""
    suffix = Path(name).suffix.lower()
    if path.suffix.lower() == suffix:
        source, temp = path, None
    else:
        handle, temp_name = tempfile.mkstemp(suffix=suffix, prefix="harness-desk-")
        os.close(handle)
        temp = Path(temp_name)
        shutil.copyfile(path, temp)
        source = temp
    try:
        text = render_document(source)
    except DocumentError as exc:
        pages = _page_pictures(source, None) if suffix == ".pdf" else []
        if pages:  # a scan: no text layer, but its pages can be looked at
            return Shown(text="", pages=pages)
        return Shown(problem="document",
                     detail=exc.message.replace(f"'{source.name}'", f"'{name}'"))
    else:
        scanned = [int(n) for n in _NO_TEXT_PAGE.findall(text)] if suffix == ".pdf" else []
        return Shown(text=text, pages=_page_pictures(source, scanned) if scanned else [])
    finally:
        if temp is not None:
            temp.unlink(missing_ok=True)


def new_document_text(path: Path, name: str) -> str:
    """A new document (`name`: a .docx or .pdf; `path`: it or its saved copy) as Markdown
    that reads as it looks (headings, lists, tables), to show plainly: nothing to compare."""
    from app.core.documents.render import render  # noqa: PLC0415 - document libraries: only for a new document, on a pool thread

    suffix = Path(name).suffix.lower()
    if path.suffix.lower() == suffix:
        return render(path, looks=suffix == ".docx")
    handle, temp_name = tempfile.mkstemp(suffix=suffix, prefix="harness-desk-")
    os.close(handle)
    temp = Path(temp_name)
    try:
        shutil.copyfile(path, temp)
        return render(temp, looks=suffix == ".docx")
    finally:
        temp.unlink(missing_ok=True)


def _page_pictures(path: Path, pages: list[int] | None) -> list[PagePicture]:
    """The picture each page in `pages` (None: the first pages) carries, its largest one,
    made small (app.core.documents.pdf_pictures, in the bounded document worker). Any
    failure, a worker ended past its bounds included, is simply no picture."""
    try:
        found = page_pictures(path, pages, PICTURE_MAX_PIXELS, THUMBNAIL_SIDE, MAX_PAGE_PICTURES)
    except DocumentError:
        return []
    return [PagePicture(number, png, size) for number, png, size in found]


def _thumbnail(path: Path) -> Shown:
    from PIL import Image  # noqa: PLC0415 - document library

    try:
        with Image.open(path) as img:
            if img.width * img.height > PICTURE_MAX_PIXELS:
                return Shown(problem="too_large")
            size = img.size
            img.draft("RGB", (THUMBNAIL_SIDE, THUMBNAIL_SIDE))
            img.seek(0)
            small = img.convert("RGBA")
            small.thumbnail((THUMBNAIL_SIDE, THUMBNAIL_SIDE))
            out = io.BytesIO()
            small.save(out, "PNG")
    except Exception:  # damaged, not a picture, a bomb Pillow refuses: one sentence
        return Shown(problem="not_picture")
    return Shown(picture=out.getvalue(), picture_size=size)


def show_change(before: Path | bytes | None, after: Path | bytes | None, name: str,
                words: dict, colours: dict) -> dict | None:
    """A change to the document `name` as it looks (app.core.documents.change_view:
    {"html", "note"}), from saved copies (paths) or versions not on disk (bytes); None when
    it cannot be read that way (the window then shows the text as the AI reads it)."""
    suffix = Path(name).suffix.lower()
    temps: list[Path] = []

    def as_file(version):
        if version is None:
            return None
        if isinstance(version, Path) and version.suffix.lower() == suffix:
            return version
        if (isinstance(version, Path) and version.stat().st_size > MAX_DOCUMENT_BYTES) or \
                (isinstance(version, bytes) and len(version) > MAX_DOCUMENT_BYTES):
            raise DocumentError("too large")
        handle, temp_name = tempfile.mkstemp(suffix=suffix, prefix="harness-desk-")
        temps.append(Path(temp_name))
        with os.fdopen(handle, "wb") as fh:
            if isinstance(version, bytes):
                fh.write(version)
            else:
                with open(version, "rb") as src:
                    shutil.copyfileobj(src, fh)
        return Path(temp_name)

    try:
        return core_show_change(as_file(before), as_file(after), name, words, colours)
    except (DocumentError, OSError):
        return None
    finally:
        for temp in temps:
            temp.unlink(missing_ok=True)
