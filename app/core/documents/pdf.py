"""A PDF page by page (`## Page N`), with pypdf; capped in pages, text and time. Each page's
text as paragraphs, list items and tables (pdf_text)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.core.documents.base import DocumentError
from app.core.documents.guard import Out, check_size, corrupt_sentence, encrypted_sentence
from app.core.documents.pdf_fonts import fonts_read_once
from app.core.documents.pdf_text import page_lines

if TYPE_CHECKING:
    from pypdf import PageObject

MAX_PAGES = 300


def render(path: Path, out: Out) -> None:
    with fonts_read_once():
        _render(path, out)


def _render(path: Path, out: Out) -> None:
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError

    check_size(path)
    with open(path, "rb") as fh:
        if not fh.read(1024).lstrip().startswith(b"%PDF"):
            raise DocumentError(corrupt_sentence(path))
    try:
        reader = PdfReader(str(path))
        if reader.is_encrypted:
            try:  # many PDFs are "encrypted" with an empty password only to stop printing
                if not reader.decrypt(""):
                    raise DocumentError(encrypted_sentence(path))
            except (FileNotDecryptedError, NotImplementedError, DependencyError):
                raise DocumentError(encrypted_sentence(path)) from None
        count = len(reader.pages)
    except DocumentError:
        raise
    except (PdfReadError, FileNotDecryptedError):
        raise DocumentError(corrupt_sentence(path)) from None
    if count > MAX_PAGES:
        out.add(f"[This PDF has {count:,} pages; only pages 1-{MAX_PAGES} are shown.]")
        out.add("")
    with_text = damaged = 0
    seen: dict[tuple[Any, ...], list[str] | None] = {}
    for number in range(1, min(count, MAX_PAGES) + 1):
        out.tick()
        try:
            page = reader.pages[number - 1]
            key = _drawn_by(page)
            text = seen[key] if key in seen else page_lines(page)
        except FileNotDecryptedError:
            raise DocumentError(encrypted_sentence(path)) from None
        except Exception:
            key, text = None, None
        if key is not None:
            seen[key] = text
        out.blank()
        out.add(f"## Page {number}")
        out.add("")
        if text is None:
            damaged += 1
            out.add("(this page could not be read: it is damaged)")
            continue
        lines = text
        if not any(lines):
            out.add("(no text on this page: it is probably a picture, such as a scan)")
            continue
        with_text += 1
        for line in lines:
            out.add(line)
    if count and not with_text and damaged == min(count, MAX_PAGES):
        raise DocumentError(corrupt_sentence(path))
    if count and not with_text:
        raise DocumentError(f"'{path.name}' has no text layer (it is probably a scanned "
                            "picture), so its text cannot be read.")


def _drawn_by(page: PageObject) -> tuple[Any, ...] | None:
    """What a page's text comes from: its content streams and its resources. Pages that
    share both (300 pages showing one huge stream) have the same text, read once."""
    from pypdf.generic import ArrayObject, IndirectObject

    contents, resources = page.raw_get("/Contents"), page.raw_get("/Resources")
    refs = list(contents) if isinstance(contents, ArrayObject) else [contents]
    if not refs or not all(isinstance(r, IndirectObject) for r in refs):
        return None
    # A direct dictionary is told by its id: the reader holds every page, so ids stay put.
    drawn = (resources.idnum, resources.generation) if isinstance(resources, IndirectObject) \
        else ("direct", id(resources))
    return tuple((r.idnum, r.generation) for r in refs) + (drawn,)
