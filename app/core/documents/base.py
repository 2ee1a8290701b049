"""What is a document, and the error documents raise (shared by every module here)."""

from __future__ import annotations

from pathlib import PurePath

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
    if isinstance(path_or_name, PurePath):
        return path_or_name.suffix.lower()
    return PurePath(path_or_name).suffix.lower()


def is_document(path_or_name: str | PurePath) -> bool:
    return _suffix(path_or_name) in KINDS


def kind_of(path_or_name: str | PurePath) -> str:
    """'a Word document', 'a PDF', ...; '' for anything else."""
    return KINDS.get(_suffix(path_or_name), "")


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
