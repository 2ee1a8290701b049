"""Slides are read straight from the package (slides.py), as python-pptx showed them before:
titles, runs with bold and italic, levels, text boxes, groups, tables and notes; shapes in
their reading order on the slide."""

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
    _ = deck.slides.add_slide(deck.slide_layouts[5]).notes_slide  # made on access: notes with no text
    deck.save(path)
    return path


def test_a_deck_renders_as_python_pptx_showed_it(tmp_path):
    assert render_document(rich_deck(tmp_path / "rich.pptx")) == (
        "## Slide 1: Cover\n\n- Subtitle here\n\n"
        # the table (1 in from the top) above the body (the layout's 1.6 in), then the boxes
        "## Slide 2: Rich\n\n| A\\|b | two lines |  |\n| --- | --- | --- |\n|  |  | x |\n\n"
        "- plain **bold*** and italic*\n      - deep\n- Text box | pipe\n- in group\n\n"
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
    with pytest.raises(DocumentError, match=r"'odd\.pptx' could not be opened as a slide deck"):
        render_document(path)


def test_text_boxes_are_read_by_their_place_on_the_slide_not_the_files_order(tmp_path):
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])      # title only
    slide.shapes.title.text = "How to"
    for text, left, top in (("Step 3", 1, 5), ("Right of step 1", 5, 2.1),
                            ("Step 2", 1, 3.5), ("Step 1", 1, 2)):
        slide.shapes.add_textbox(Inches(left), Inches(top), Inches(3), Inches(1)) \
            .text_frame.text = text
    path = tmp_path / "steps.pptx"
    deck.save(path)
    assert render_document(path) == ("## Slide 1: How to\n\n- Step 1\n- Right of step 1\n"
                                      "- Step 2\n- Step 3\n")


def test_a_placeholder_without_its_own_place_sits_where_its_layout_puts_it(tmp_path):
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])      # title and content
    slide.shapes.add_textbox(Inches(1), Inches(6.5), Inches(3), Inches(1)).text_frame.text = \
        "Footnote box"
    slide.shapes.add_textbox(Inches(1), Inches(0.1), Inches(3), Inches(0.3)).text_frame.text = \
        "Banner"
    slide.placeholders[1].text_frame.text = "Body"            # no position of its own
    # The banner is written last but sits above the body, which the layout puts at 1.6 in.
    path = tmp_path / "body.pptx"
    deck.save(path)
    assert render_document(path) == "## Slide 1\n\n- Banner\n- Body\n- Footnote box\n"
