"""Office documents and PDFs as Markdown: the one place the tools and the window go through.

Light on purpose: importing this package imports no document library. python-docx, openpyxl,
python-pptx and pypdf are imported only when a document is actually read or written.

    is_document(path_or_name) -> bool       a format read_file renders (by the name's suffix)
    render_document(path) -> str            the Markdown rendering (raises DocumentError)
    writable_kind(name) -> str | None       "docx" / "xlsx" for write_file, else None
    refused_write(name) -> str | None       the sentence for formats that cannot be written
    write_document(path, markdown, existing) -> bytes    the file write_file would save
    edit_document(path, old, new) -> bytes  a .docx with one paragraph's text replaced
    set_cells(path, cells, sheet) -> (bytes, int)        a workbook with cells set
"""

from __future__ import annotations

from pathlib import Path, PurePath

from app.core.errors import HarnessError

# What read_file and search_files render, by suffix (lower case) -> a short name for people.
KINDS = {
    ".docx": "a Word document", ".xlsx": "a spreadsheet", ".xlsm": "a spreadsheet",
    ".pptx": "a slide deck", ".pdf": "a PDF", ".odt": "an OpenDocument text",
    ".ods": "an OpenDocument spreadsheet", ".odp": "an OpenDocument presentation",
}
_WRITABLE = {".docx": "docx", ".xlsx": "xlsx"}
_NOT_WRITABLE = (".pdf", ".pptx", ".xlsm", ".odt", ".ods", ".odp")


class DocumentError(HarnessError):
    """A document could not be read or written; the message is one sentence for a person."""


def _suffix(path_or_name: str | PurePath) -> str:
    return PurePath(str(path_or_name)).suffix.lower()


def is_document(path_or_name: str | PurePath) -> bool:
    return _suffix(path_or_name) in KINDS


def kind_of(path_or_name: str | PurePath) -> str:
    """'a Word document', 'a PDF', ...; '' for anything else."""
    return KINDS.get(_suffix(path_or_name), "")


def render_document(path: Path) -> str:
    """The Markdown rendering of a document, bounded in characters, pages, rows and time."""
    from app.core.documents.render import render
    return render(Path(path))


def writable_kind(path_or_name: str | PurePath) -> str | None:
    return _WRITABLE.get(_suffix(path_or_name))


def refused_write(path_or_name: str | PurePath) -> str | None:
    """The sentence write_file gives for a document format it cannot write, else None."""
    suffix = _suffix(path_or_name)
    if suffix not in _NOT_WRITABLE:
        return None
    name = PurePath(str(path_or_name)).name
    return (f"write_file cannot write {KINDS[suffix]} ('{name}') yet; write a .docx, .xlsx, "
            ".md or .txt file instead.")


def write_document(path: Path, markdown: str, existing: bool) -> bytes:
    """The bytes of a .docx or .xlsx made from Markdown. With `existing`, refuses (with a
    DocumentError) when the file on disk holds parts the new one would not keep."""
    from app.core.documents.render import write
    return write(Path(path), markdown, existing)


def edit_document(path: Path, old_text: str, new_text: str) -> bytes:
    from app.core.documents.word_edit import edit_docx
    return edit_docx(Path(path), old_text, new_text)


def set_cells(path: Path, cells: dict, sheet: str | None = None) -> tuple[bytes, int]:
    from app.core.documents.cells import set_cells as _set
    return _set(Path(path), cells, sheet)


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
