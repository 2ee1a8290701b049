"""A Word paragraph that begins with blanks (spaces, a tab, Chinese text's full-width indent, a
no-break space) keeps them: read_file shows the first as a character reference (`&#32;`,
`&#9;`), which Markdown reads back as the blank itself, so write_file of the rendering gives
the same text, and edit_file reads the references as the blanks. A line that begins `[^1]:`
(a footnote as read_file shows it, or typed by hand) is a paragraph, never a link's
definition that vanishes."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import docx

from app.core.documents import render_document
from app.core.documents.word_write import markdown_to_docx

TASK = "Notes"  # the board's one task (conftest.py makes `ws` and `box` for it)

# Saved by LibreOffice (python-docx's document opened and saved as .docx by LibreOffice 7).
WORD_DATA = Path(__file__).resolve().parents[2] / "data" / "word"
SAVED = WORD_DATA / "libreoffice" / "blanks.docx"
TEXTS = ["Blanks kept", "  Two spaces first", "\tA tab first", "\u3000\u3000中文的段落缩进两格。",
         "\xa0A no-break space first", "Plain paragraph to change", "[^1]: Ibid.",
         "    Four spaces, not code"]
CELLS = ["  cell with spaces", "plain cell"]


def _texts(path: Path) -> tuple[list[str], list[str]]:
    doc = docx.Document(path)
    return [p.text for p in doc.paragraphs], [c.text for c in doc.tables[0].rows[0].cells]


def test_leading_blanks_are_shown_so_markdown_keeps_them(ws):
    shutil.copy(SAVED, ws / "blanks.docx")
    shown = render_document(ws / "blanks.docx")
    for line in ("&#32; Two spaces first", "&#9;A tab first", "&#12288;\u3000中文的段落缩进两格。",
                 "&#160;A no-break space first", "&#32;   Four spaces, not code",
                 "| &#32; cell with spaces | plain cell |", "\\[^1]: Ibid."):
        assert f"\n{line}\n" in shown, line


def test_write_file_of_the_rendering_gives_back_the_blanks(ws, box):
    shutil.copy(SAVED, ws / "blanks.docx")
    shown = render_document(ws / "blanks.docx")
    out = box.call("write_file", {"path": "copy.docx", "content": shown})
    assert not out.is_error, out.content
    assert _texts(ws / "copy.docx") == (TEXTS, CELLS)
    out = box.call("write_file", {"path": "blanks.docx", "content": shown})
    assert out.content == "'blanks.docx' already has exactly this content; nothing changed."
    assert (ws / "blanks.docx").read_bytes() == SAVED.read_bytes()


def test_edit_file_of_another_paragraph_leaves_the_blanks_alone(ws, box):
    shutil.copy(SAVED, ws / "blanks.docx")
    out = box.call("edit_file", {"path": "blanks.docx", "old_text": "Plain paragraph to change",
                                 "new_text": "Plain paragraph changed"})
    assert not out.is_error, out.content
    texts, cells = _texts(ws / "blanks.docx")
    assert texts == [t.replace("to change", "changed") for t in TEXTS] and cells == CELLS


def test_edit_file_reads_the_references_as_blanks(ws, box):
    shutil.copy(SAVED, ws / "blanks.docx")
    for old, new in (("&#32; Two spaces", "&#32; Two blanks"),   # after the blanks
                     ("&#9;A tab", "A tab"),                     # the tab taken away
                     ("&#12288;\u3000中文", "&#12288;中文"),       # one indent of two
                     ("&#32;   Four", "&#32;&#32;Four"),         # a blank made a reference
                     ("&#160;A no-break", "&#32;A no-break")):   # one reference for another
        out = box.call("edit_file", {"path": "blanks.docx", "old_text": old, "new_text": new})
        assert not out.is_error, out.content
    texts, _cells = _texts(ws / "blanks.docx")
    assert texts[1:5] == ["  Two blanks first", "A tab first", "\u3000中文的段落缩进两格。",
                          " A no-break space first"]
    assert texts[7] == "  Four spaces, not code"


def test_a_footnote_line_is_a_paragraph_not_a_links_definition():
    markdown = ("Text[^1] and more.\n\n[^1]: Ibid.\n\n> [^2]: Quoted \"note\"\n\n"
                "- [^i]: <listed>\n\nA [real link][a].\n\n[a]: http://example.com\n")
    doc = docx.Document(io.BytesIO(markdown_to_docx(markdown)))
    assert [p.text for p in doc.paragraphs] == [
        "Text[^1] and more.", "[^1]: Ibid.", "[^2]: Quoted \"note\"", "[^i]: <listed>",
        "A real link."]


def test_a_word_documents_notes_survive_write_file_to_a_new_document(ws, box):
    """Word saved Bug54849.docx with a one-word footnote and endnote, which read_file shows
    as `[^1]: Footnote_sdt` and `[^i]: Endnote Endnote_sdt`: written to a new document,
    the footnote was lost."""
    shutil.copy(WORD_DATA / "poi" / "Bug54849.docx", ws / "notes.docx")
    shown = render_document(ws / "notes.docx")
    assert "\n[^1]: Footnote_sdt\n" in shown
    out = box.call("write_file", {"path": "copy.docx", "content": shown})
    assert not out.is_error, out.content
    texts = [p.text for p in docx.Document(ws / "copy.docx").paragraphs]
    assert "[^1]: Footnote_sdt" in texts and "[^i]: Endnote Endnote_sdt" in texts
