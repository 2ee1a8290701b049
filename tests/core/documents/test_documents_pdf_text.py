"""A PDF page reads as paragraphs, list items and tables (pdf_text), not as runs of words,
a DEL on a line of its own for each bullet, and a table flattened to one value per line.
Real PDFs come from LibreOffice, printing a Word file of Apache POI's test data and one
made here; small ones from tests/document_files."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from app.core.documents import render_document
from app.core.documents.pdf_text import markdown_lines
from tests.document_files import pdf_bytes

WORD = Path(__file__).resolve().parents[2] / "data" / "word"


def test_bullets_on_lines_of_their_own_become_list_items(tmp_path):
    (tmp_path / "list.pdf").write_bytes(pdf_bytes(["Shopping\n\x7f\nFlour\n\x7f\nSugar\n"
                                                   "\x95 Eggs"]))
    assert render_document(tmp_path / "list.pdf") == \
        "## Page 1\n\nShopping\n- Flour\n- Sugar\n- Eggs\n"


def test_the_lines_of_a_paragraph_are_joined_and_a_table_stays_a_table():
    full = "The bakery opens at seven every weekday and at eight on Satur-"
    text = "\n".join([
        "Opening hours", full, "days, and the first loaves come out at half past six,",
        "warm.", "", "Item        Price       Stock", "Bread       4.62        12",
        "Scone       2.10        40", "", "1.   First", "2.   Second"])
    assert markdown_lines(text) == [
        "Opening hours",
        "The bakery opens at seven every weekday and at eight on Saturdays, and the first "
        "loaves come out at half past six, warm.",
        "", "| Item | Price | Stock |", "| --- | --- | --- |", "| Bread | 4.62 | 12 |",
        "| Scone | 2.10 | 40 |", "", "1. First", "2. Second"]


def _soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def _to_pdf(source: Path, tmp_path: Path) -> Path:
    subprocess.run([_soffice(), "--headless", f"-env:UserInstallation=file://{tmp_path}/lo",
                    "--convert-to", "pdf", "--outdir", str(tmp_path), str(source)],
                   check=True, capture_output=True, timeout=180)
    return tmp_path / (source.stem + ".pdf")


@pytest.mark.skipif(_soffice() is None, reason="LibreOffice (soffice) is not installed")
def test_a_pdf_libreoffice_printed_reads_as_paragraphs_lists_and_a_table(tmp_path):
    import docx

    doc = docx.Document()
    doc.add_paragraph("The bakery opens at seven every weekday and at eight on Saturdays. "
                      "Bread is baked fresh each morning, and the first loaves come out of "
                      "the oven at half past six, so early customers can buy them warm.")
    for item in ("Flour", "Sugar", "Eggs"):
        doc.add_paragraph(item, style="List Bullet")
    table = doc.add_table(rows=3, cols=3)
    for r, row in enumerate([["Item", "Price", "Stock"], ["Bread", "4.62", "12"],
                             ["Scone", "2.10", "40"]]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    doc.save(tmp_path / "shop.docx")
    shown = render_document(_to_pdf(tmp_path / "shop.docx", tmp_path))
    assert ("The bakery opens at seven every weekday and at eight on Saturdays. Bread is baked "
            "fresh each morning, and the first loaves come out of the oven at half past six, "
            "so early customers can buy them warm.\n") in shown
    assert "- Flour\n- Sugar\n- Eggs\n" in shown
    assert "| Item | Price | Stock |\n| --- | --- | --- |\n| Bread | 4.62 | 12 |\n" in shown
    assert "\x7f" not in shown and "\uf0b7" not in shown


@pytest.mark.skipif(_soffice() is None, reason="LibreOffice (soffice) is not installed")
def test_a_numbered_list_from_a_word_file_stays_a_list_not_a_table(tmp_path):
    shutil.copyfile(WORD / "poi" / "ComplexNumberedLists.docx", tmp_path / "lists.docx")
    shown = render_document(_to_pdf(tmp_path / "lists.docx", tmp_path))
    assert "2. Entry #2, with children\na. 2-a\nb. 2-b\nc. 2-c\n3. Entry #3\n" in shown
    assert "|" not in shown
