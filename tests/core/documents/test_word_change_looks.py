"""The Word change view draws a run's underline and its text colour, as Word shows them;
what the model reads (read_file) stays without them."""

from __future__ import annotations

import re
from pathlib import Path

import docx
from docx.shared import RGBColor

from app.core.documents import render_document
from app.core.documents.change_view import change_view
from tests.core.documents.test_change_view import WORD, _with_run_look


def _notice(path: Path, ending: str) -> Path:
    doc = docx.Document()
    para = doc.add_paragraph("Prices are ")
    run = para.add_run("due on the first")
    run.underline = True
    run.font.color.rgb = RGBColor(0xC0, 0x00, 0x00)
    para.add_run(f" of each month for all {ending}.")
    doc.save(path)
    return path


def test_underlined_coloured_words_are_drawn_around_a_change(tmp_path):
    before = _notice(tmp_path / "a.docx", "cakes")
    after = _notice(tmp_path / "b.docx", "breads")
    html = change_view(before, after, "notice.docx", {}, {})["html"]
    assert re.search(r'<span style="color:#C00000;"><u>due on the first </u></span>', html)
    assert re.search(r"<del[^>]*><s>cakes\.</s></del><ins[^>]*><u>breads\.</u></ins>", html)
    # read_file shows the words alone: no marks the model would have to read past
    assert render_document(before) == "Prices are due on the first of each month for all cakes.\n"


def test_a_colour_or_underline_only_change_is_shown_as_a_formatting_change(tmp_path):
    source = WORD / "poi" / "60316.docx"
    red = _with_run_look(source, tmp_path / "red.docx", "Getting the perfect",
                         '<w:color w:val="C00000"/>')
    html = change_view(source, red, "cv.docx", {}, {})["html"]
    assert "(only its formatting changed)" in html and "<del" not in html
    assert re.search(r'background-color:[^>]*><span style="color:#C00000;">Getting', html)
    under = _with_run_look(source, tmp_path / "u.docx", "Getting the perfect",
                           '<w:u w:val="single"/>')
    html = change_view(source, under, "cv.docx", {}, {})["html"]
    assert "(only its formatting changed)" in html and re.search(
        r"background-color:[^>]*><u>Getting", html)
