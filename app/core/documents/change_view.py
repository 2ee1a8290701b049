"""A change to a document as the person would see it in Office, for the evidence and the
approval: a workbook as a grid of its changed sheets (sheet_change), a Word document as the
formatted document with track-change marks (word_change), a PDF's text as its paragraphs,
lists and tables (pdf_text) marked the same way. Other documents (PowerPoint, OpenDocument)
keep the window's text diff; for every kind, when no shown text or value
changes but the bytes do, `note` says what changes instead, in plain words (its formatting,
its properties, its pictures...), never "no visible change".

    change_view(before, after, name, words, colours) -> {"html": str, "note": str}

`before`/`after` are files on disk (None: the version does not exist) with the document's
suffix; `words` are the window's translated words, `colours` CSS colours. Runs in the
document worker (worker.TASKS["change_view"]); no Qt here.
"""

from __future__ import annotations

import posixpath
import time
import zipfile
from pathlib import Path

from app.core.documents.base import DocumentError
from app.core.documents.guard import Full, Out, corrupt_sentence, open_package
from app.core.documents.render import render  # also quiets the libraries' warnings
from app.core.documents.sheet_cells import read_cells, unchanged_sheets
from app.core.documents.sheet_change import sheets_html
from app.core.documents.word_change import document_html
from app.core.tools.line_match import TooBig

SECONDS = 12.0  # reading both versions and comparing them, at most

# A package's parts by what a person would call them (the first match wins).
_PART_KINDS = (
    ("docProps/", "properties"), ("customXml/", "properties"), ("/media/", "pictures"),
    ("/charts/", "charts"), ("/drawings/", "pictures"), ("comments", "comments"),
    ("/styles.xml", "formatting"), ("/theme/", "formatting"), ("/numbering.xml", "formatting"),
    ("/fontTable.xml", "formatting"), ("/sharedStrings.xml", "text"),
    ("word/document.xml", "layout"), ("/worksheets/", "layout"), ("/slides/", "layout"),
    ("/header", "layout"), ("/footer", "layout"), ("content.xml", "layout"),
    ("styles.xml", "formatting"), ("meta.xml", "properties"),
    ("/settings.xml", "settings"), ("xl/workbook.xml", "settings"),
    ("/calcChain.xml", ""), ("/presProps.xml", "settings"), ("/viewProps.xml", "settings"),
    ("[Content_Types].xml", ""), ("_rels/", ""),
)
# The words in English; the window passes its translations of each.
WORDS = {
    "sheet": "Sheet: %1", "sheet_added": "Sheet: %1 (new)", "sheet_removed": "Sheet: %1 "
    "(removed)", "sheet_empty": "No cells.", "empty": "(empty)", "formula": "formula %1",
    "before": "Before: %1", "after": "After: %1", "changed_cells": "Changed cells:",
    "more_cells": "and %1 more",
    "recalc": "Calculated afresh when the workbook is next opened",
    "recalc_cells": "↻ These formulas are calculated afresh when the workbook is next "
    "opened (shown with the value they had): %1.",
    "formatting_changed": "(only its formatting changed)",
    "only_bytes": "The text and the values shown are the same; only the way the file is "
    "stored changes.",
    "same_shown": "The text and the values shown are the same; what changes is %1.",
    "also": "Besides what is marked, this also changes %1.",
    "list_sep": ", ", "list_and": " and ",
    "part_layout": "its formatting or layout", "part_formatting": "its styles",
    "part_properties": "its properties (such as title and author)",
    "part_pictures": "its pictures", "part_charts": "its charts",
    "part_comments": "its comments", "part_settings": "its settings",
    "part_text": "its stored text", "part_other": "other parts of the file",
}
COLOURS = {"removed": "#c0392b", "added": "#1e8449", "muted": "#777777",
           "changed_bg": "#fdf2c4"}

KINDS = ("layout", "formatting", "properties", "pictures", "charts", "comments", "settings",
         "text", "other")


def changed_parts(before: Path | None, after: Path | None) -> list[str]:
    """What differs between two packages, as kinds from KINDS in that order; ["other"] when
    the files are not packages (a PDF) or differ only in how the zip stores them."""
    if before is None or after is None:
        return []
    try:
        with zipfile.ZipFile(before) as za, zipfile.ZipFile(after) as zb:
            a = {i.filename: (i.CRC, i.file_size) for i in za.infolist()}
            b = {i.filename: (i.CRC, i.file_size) for i in zb.infolist()}
    except (zipfile.BadZipFile, OSError, ValueError):
        return ["other"]
    found = set()
    for name in a.keys() | b.keys():
        if a.get(name) != b.get(name):
            found.add(_kind_of_part(name))
    found.discard("")
    return [k for k in KINDS if k in found] or ["other"]


def _kind_of_part(name: str) -> str:
    probe = "/" + name if not name.startswith("/") else name
    for needle, kind in _PART_KINDS:
        if needle in probe or needle == posixpath.basename(name):
            return kind
    return "other"


def parts_listed(kinds: list[str], words: dict[str, str]) -> str:
    """"its formatting, its pictures and its properties" in the window's words."""
    names = [words[f"part_{k}"] for k in kinds]
    return names[0] if len(names) == 1 else \
        words["list_sep"].join(names[:-1]) + words["list_and"] + names[-1]


def parts_sentence(kinds: list[str], words: dict[str, str]) -> str:
    """"The text and the values shown are the same; what changes is its formatting." in the
    window's words (only the file's bytes, when no part can be named)."""
    if not kinds or kinds == ["other"]:
        return words["only_bytes"]
    return words["same_shown"].replace("%1", parts_listed(kinds, words))


def change_view(before: Path | None, after: Path | None, name: str, words: dict[str, str],
                colours: dict[str, str]) -> dict[str, str]:
    words, colours = {**WORDS, **(words or {})}, {**COLOURS, **(colours or {})}
    suffix = Path(name).suffix.lower()
    deadline = time.monotonic() + SECONDS
    try:
        if suffix in (".xlsx", ".xlsm"):
            for path in (before, after):
                _checked(path, name)
            return _workbook(before, after, words, colours, deadline)
        if suffix in (".docx", ".pdf"):
            return _word(before, after, words, colours, deadline, literal=suffix == ".pdf")
    except DocumentError:
        raise
    except Exception:  # the libraries raise many kinds of errors on damaged files
        raise DocumentError(corrupt_sentence(Path(name))) from None
    return {"html": "", "note": parts_sentence(changed_parts(before, after), words)}


def _checked(path: Path | None, name: str) -> None:
    """The checks every reading makes first (render.py: a password, a zip bomb, a DOCTYPE,
    too many parts), said with the document's name, not its saved copy's."""
    if path is None:
        return
    try:
        with open_package(path):
            pass
    except DocumentError as exc:
        said = exc.message.replace(f"'{Path(path).name}'", f"'{Path(name).name}'")
        raise DocumentError(said) from None


def _workbook(before: Path | None, after: Path | None, words: dict[str, str],
              colours: dict[str, str], deadline: float) -> dict[str, str]:
    out = Out(seconds=max(1.0, deadline - time.monotonic()))
    skip = unchanged_sheets(before, after) if before is not None and after is not None \
        else None
    try:
        old = read_cells(before, out, skip) if before is not None else {}
        new = read_cells(after, out, skip) if after is not None else {}
    except Full:  # too big to compare as a grid in time: the window shows the text diff
        return {"html": "", "note": ""}
    html, changed = sheets_html(old, new, words, colours)
    kinds = [k for k in changed_parts(before, after)
             if k not in ("layout", "text", "settings", "other")]
    if changed or set(old) != set(new):
        note = words["also"].replace("%1", parts_listed(kinds, words)) if kinds else ""
        return {"html": html, "note": note if before is not None else ""}
    return {"html": "", "note": parts_sentence(changed_parts(before, after), words)}


def _word(before: Path | None, after: Path | None, words: dict[str, str],
          colours: dict[str, str], deadline: float, literal: bool = False) -> dict[str, str]:
    texts = [_markdown(p, deadline) if p is not None else "" for p in (before, after)]
    try:
        html, changed = document_html(texts[0], texts[1], words, colours, deadline, literal)
    except TooBig:  # too tangled to compare in time: the window shows the text diff
        return {"html": "", "note": ""}
    if changed:
        return {"html": html, "note": ""}
    return {"html": "", "note": parts_sentence(changed_parts(before, after), words)}


def _markdown(path: Path, deadline: float) -> str:
    text = render(path, seconds=max(1.0, deadline - time.monotonic()),
                  looks=path.suffix.lower() == ".docx")
    return "" if text == f"('{path.name}' holds no text.)\n" else text  # names differ
