"""Text edit_file only inserts goes where the model put it: after a mark read_file shows (a
comment's anchor, a link's opening bracket) or at the start of old_text, it joins the text
after it, not the run before. It went before a comment's anchor, and outside a link."""

from __future__ import annotations

import shutil
from pathlib import Path

import docx

from app.core.documents import render_document
from app.core.documents.word_write import add_link

TASK = "Notes"  # the board's one task (conftest.py makes `ws` and `box` for it)
POI = Path(__file__).resolve().parents[2] / "data" / "word" / "poi"


def test_text_inserted_after_a_comments_anchor_stays_after_it(ws, box):
    shutil.copy(POI / "testComment.docx", ws / "c.docx")   # saved by Word
    out = box.call("edit_file", {"path": "c.docx", "old_text": "[comment 1]paragraph!",
                                 "new_text": "[comment 1]new paragraph!"})
    assert not out.is_error, out.content
    assert render_document(ws / "c.docx").startswith(
        "this is a comment [comment 1]new paragraph!\n")
    out = box.call("edit_file", {"path": "c.docx", "old_text": "comment [comment 1]",
                                 "new_text": "comment, [comment 1]"})   # before it: as before
    assert not out.is_error, out.content
    assert render_document(ws / "c.docx").startswith(
        "this is a comment, [comment 1]new paragraph!\n")


def test_text_inserted_at_the_start_of_a_links_text_is_in_the_link(ws, box):
    shutil.copy(POI / "delins.docx", ws / "d.docx")   # saved by Word; tracks changes
    out = box.call("edit_file", {"path": "d.docx", "old_text": "[Tilaka]",
                                 "new_text": "[Sri Tilaka]"})
    assert not out.is_error, out.content
    link = "(http://en.wikipedia.org/wiki/Tilaka)"   # the insertion is inside the link
    assert f"- A Nepalese name for [inserted: [Sri ]{link}][Tilaka]{link}\n" in \
        render_document(ws / "d.docx")


def test_text_inserted_at_the_start_of_old_text_takes_the_look_of_the_text_after(ws, box):
    doc = docx.Document()
    paragraph = doc.add_paragraph("Plain ")
    paragraph.add_run("bold").bold = True
    paragraph.add_run(" plain again")
    doc.save(ws / "b.docx")
    out = box.call("edit_file", {"path": "b.docx", "old_text": "bold", "new_text": "very bold"})
    assert not out.is_error, out.content
    out = box.call("edit_file", {"path": "b.docx", "old_text": "**very bold**",
                                 "new_text": "**very bold** and"})
    assert not out.is_error, out.content
    assert render_document(ws / "b.docx") == "Plain **very bold** and plain again\n"


def test_text_put_into_a_links_address_is_refused_not_put_after_the_link(ws, box):
    doc = docx.Document()
    doc.add_paragraph("See the notes.")
    doc.save(ws / "l.docx")
    doc = docx.Document(ws / "l.docx")
    add_link(doc.paragraphs[0], "http://example.com/a", "the site", False, False)
    doc.save(ws / "l.docx")
    before = render_document(ws / "l.docx")
    assert before == "See the notes.[the site](http://example.com/a)\n"
    out = box.call("edit_file", {"path": "l.docx", "old_text": "(http://example.com/a)",
                                 "new_text": "(http://example.com/ab)"})
    assert out.is_error and "not in the document's text" in out.content
    assert render_document(ws / "l.docx") == before
