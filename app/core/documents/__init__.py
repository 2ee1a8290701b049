"""Office documents and PDFs as Markdown: the one place the tools and the window go through.

Light on purpose: importing this package imports no document library. python-docx, openpyxl,
python-pptx and pypdf are imported only when a document is actually read or written.

    is_document(path_or_name) -> bool       a format read_file renders (by the name's suffix)
    render_document(path) -> str            the Markdown rendering (raises DocumentError)
    render_bytes(data, name) -> str         the same for a version not on disk (a proposed change)
    writable_kind(name) -> str | None       "docx" / "xlsx" for write_file, else None
    refused_write(name) -> str | None       the sentence for formats that cannot be written
    write_document(path, markdown, existing) -> bytes    the file write_file would save
    edit_document(path, old, new) -> bytes  a .docx with one paragraph's text replaced
    set_cells(path, cells, sheet, formats) -> (bytes, int, str)
                                            a workbook with cells set, and which formulas
                                            are calculated afresh when it is opened
"""

from __future__ import annotations

from pathlib import Path

from app.core.documents.base import (KINDS, DocumentError, is_document, kind_of,  # noqa: F401
                                     refused_write, writable_kind)


def render_document(path: Path) -> str:
    """The Markdown rendering of a document, bounded in characters, pages, rows and time."""
    from app.core.documents.render import render
    return render(Path(path))


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


def write_document(path: Path, markdown: str, existing: bool) -> bytes:
    """The bytes of a .docx or .xlsx made from Markdown. With `existing`, refuses (with a
    DocumentError) when the file on disk holds parts the new one would not keep."""
    from app.core.documents.render import write
    return write(Path(path), markdown, existing)


def edit_document(path: Path, old_text: str, new_text: str) -> bytes:
    from app.core.documents.word_edit import edit_docx
    return edit_docx(Path(path), old_text, new_text)


def set_cells(path: Path, cells: dict, sheet: str | None = None,
              formats: dict | None = None) -> tuple[bytes, int, str]:
    from app.core.documents.cells import set_cells as _set
    return _set(Path(path), cells, sheet, formats)


SECTION_HEADINGS = ("## Page ", "## Sheet: ", "## Slide ", "## Chart sheet: ")


def matching_lines(path: Path, needle: str):
    """(line number in the rendering, line, section such as 'Page 3' or 'Sheet: Prices')
    of each line of a document's rendering that holds `needle` (casefolded). Nothing for a
    document that cannot be read: search_files passes over it, as over a binary file."""
    try:
        text = render_document(path)
    except DocumentError:
        return
    if needle not in text.casefold():
        return
    section = ""
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith(SECTION_HEADINGS):
            section = line[3:]
        if needle in line.casefold():
            yield n, line, section
