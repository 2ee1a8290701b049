"""Slides are read straight from the package (slides.py), as python-pptx showed them before:
titles, runs with bold and italic, levels, text boxes, groups, tables and notes."""

from __future__ import annotations

from app.core.documents import render_document


def rich_deck(path):
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    cover = deck.slides.add_slide(deck.slide_layouts[0])
    cover.shapes.title.text = "Cover"
    cover.placeholders[1].text = "Subtitle here"
    rich = deck.slides.add_slide(deck.slide_layouts[1])
    rich.shapes.title.text = "Rich"
    frame = rich.placeholders[1].text_frame
    frame.text = "plain "
    run = frame.paragraphs[0].add_run()
    run.text, run.font.bold = "bold", True
    run = frame.paragraphs[0].add_run()
    run.text, run.font.italic = " and italic", True
    deep = frame.add_paragraph()
    deep.text, deep.level = "deep", 3
    frame.add_paragraph().text = "   "
    box = rich.shapes.add_textbox(Inches(1), Inches(5), Inches(3), Inches(1))
    box.text_frame.text = "Text box | pipe"
    group = rich.shapes.add_group_shape()
    group.shapes.add_textbox(Inches(1), Inches(6), Inches(2), Inches(1)).text_frame.text = \
        "in group"
    table = rich.shapes.add_table(2, 3, Inches(1), Inches(1), Inches(4), Inches(1)).table
    table.cell(0, 0).text, table.cell(0, 1).text, table.cell(1, 2).text = "A|b", "two\nlines", "x"
    rich.notes_slide.notes_text_frame.text = "Line one\n\nLine three"
    bare = deck.slides.add_slide(deck.slide_layouts[6])
    bare.shapes.add_textbox(Inches(1), Inches(1), Inches(2), Inches(1)).text_frame.text = \
        "No title here"
    deck.slides.add_slide(deck.slide_layouts[5]).notes_slide  # notes with no text
    deck.save(path)
    return path


def test_a_deck_renders_as_python_pptx_showed_it(tmp_path):
    assert render_document(rich_deck(tmp_path / "rich.pptx")) == (
        "## Slide 1: Cover\n\n- Subtitle here\n\n"
        "## Slide 2: Rich\n\n- plain **bold*** and italic*\n      - deep\n- Text box | pipe\n"
        "- in group\n\n| A\\|b | two lines |  |\n| --- | --- | --- |\n|  |  | x |\n\n"
        "Notes:\n> Line one\n>\n> Line three\n\n"
        "## Slide 3\n\n- No title here\n\n"
        "## Slide 4\n")


def test_a_deck_without_its_presentation_part_is_damaged(tmp_path):
    import zipfile

    import pytest

    from app.core.documents import DocumentError

    path = tmp_path / "odd.pptx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
    with pytest.raises(DocumentError, match="'odd.pptx' could not be opened as a slide deck"):
        render_document(path)
