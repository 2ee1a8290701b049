"""read_file and search_files on documents: Markdown renderings, paged like text."""

from __future__ import annotations

import pytest

from app.core.documents import DocumentError, is_document, render_document
from tests.document_files import brief_docx, prices_xlsx

TASK = "Read the brief"  # the board's one task (conftest.py makes `ws` and `box` for it)


def test_is_document_by_suffix_whatever_the_case():
    assert is_document("a/brief.DOCX") and is_document("p.xlsm") and is_document("x.odp")
    assert not is_document("notes.md") and not is_document("picture.png")


def test_word_document_renders_headings_lists_bold_italic_and_tables(tmp_path):
    text = render_document(brief_docx(tmp_path / "brief.docx"))
    assert text.splitlines()[0] == "# Bakery brief"
    assert "# Goals" in text.splitlines()
    assert "We sell **fresh** bread and *cakes*." in text
    assert "- Open at 7\n  - Close at 18\n1. Order flour" in text
    assert "> The new opening hours start in May." in text
    assert "| Item | Price |\n|---|---|\n| Rye loaf | 4.20 |" in text


def test_workbook_renders_each_sheet_with_addresses_and_formulas(tmp_path):
    text = render_document(prices_xlsx(tmp_path / "prices.xlsx"))
    assert "## Sheet: Prices" in text and "## Sheet: Notes" in text
    assert "\n#|A|B|C\n-|-|-|-\n" in text
    assert "\n2|Bread|3.5|=B2*1.1\n" in text
    assert "\n2||Prices include tax from May.\n" in text


def test_a_formula_shows_the_value_the_file_last_saved(tmp_path):
    import zipfile

    path = prices_xlsx(tmp_path / "prices.xlsx")
    # Put the cached value a spreadsheet program would have saved into the sheet's XML.
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    assert "<f>B2*1.1</f><v></v>" in sheet or "<f>B2*1.1</f><v />" in sheet
    sheet = sheet.replace("<f>B2*1.1</f><v></v>", "<f>B2*1.1</f><v>3.85</v>").replace(
        "<f>B2*1.1</f><v />", "<f>B2*1.1</f><v>3.85</v>")
    parts["xl/worksheets/sheet1.xml"] = sheet.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    assert "\n2|Bread|3.5|=B2*1.1 → 3.85\n" in render_document(path)


def test_read_file_pages_through_a_document_with_offset_and_limit(ws, box):
    brief_docx(ws / "brief.docx")
    first = box.call("read_file", {"path": "brief.docx", "limit": 3})
    assert not first.is_error
    assert first.content.startswith("1\t# Bakery brief\n2\t\n3\t# Goals\n")
    assert "a Word document shown as Markdown" in first.content
    assert "offset=4" in first.content
    rest = box.call("read_file", {"path": "brief.docx", "offset": 4})
    assert "\tWe sell **fresh** bread" in rest.content
    assert "lines in all" in rest.content


def test_read_file_on_a_workbook(ws, box):
    prices_xlsx(ws / "prices.xlsx")
    out = box.call("read_file", {"path": "prices.xlsx"})
    assert not out.is_error and "\t3|Cake|4.5|=B3*1.1\n" in out.content
    assert "a spreadsheet shown as Markdown" in out.content


def test_a_damaged_document_gets_one_sentence(ws, box):
    (ws / "broken.docx").write_bytes(b"PK\x03\x04 this is not really a zip")
    out = box.call("read_file", {"path": "broken.docx"})
    assert out.is_error and not out.refused
    assert out.content == ("'broken.docx' could not be opened as a Word document: the file is "
                           "damaged or is not really that kind of file.")
    with pytest.raises(DocumentError):
        render_document(ws / "broken.docx")


def test_a_zip_that_is_not_a_word_document_gets_the_same_sentence(ws, box):
    import zipfile

    with zipfile.ZipFile(ws / "odd.xlsx", "w") as zf:
        zf.writestr("hello.txt", "not a workbook")
    out = box.call("read_file", {"path": "odd.xlsx"})
    assert out.is_error and "could not be opened as a spreadsheet" in out.content


def test_pdf_renders_page_by_page_from_compressed_streams(tmp_path):
    from tests.document_files import pdf_bytes

    data = pdf_bytes(["Opening hours", "Prices (2026)"])
    assert b"/FlateDecode" in data and b"Opening hours" not in data
    (tmp_path / "menu.pdf").write_bytes(data)
    text = render_document(tmp_path / "menu.pdf")
    assert text == "## Page 1\n\nOpening hours\n\n## Page 2\n\nPrices (2026)\n"


def test_a_scanned_pdf_without_a_text_layer_says_so(tmp_path):
    from tests.document_files import pdf_bytes

    (tmp_path / "scan.pdf").write_bytes(pdf_bytes(["", ""]))
    with pytest.raises(DocumentError, match=r"no text layer .* scanned picture"):
        render_document(tmp_path / "scan.pdf")
    (tmp_path / "mixed.pdf").write_bytes(pdf_bytes(["Cover text", ""]))
    assert "## Page 2\n\n(no text on this page: it is probably a picture" in render_document(
        tmp_path / "mixed.pdf")


def test_slides_render_one_by_one_with_their_notes_and_tables(tmp_path):
    from tests.document_files import deck_pptx

    text = render_document(deck_pptx(tmp_path / "menu.pptx"))
    assert "## Slide 1: Spring menu\n\n- Rye loaf\n  - Seeded\n\nNotes:\n> Mention the oven." in text
    assert "## Slide 2: Prices" in text and "| Scone | 2.10 |" in text


def test_opendocument_text_sheet_and_presentation(tmp_path):
    from tests.document_files import odf_file

    odt = odf_file(tmp_path / "brief.odt",
                   '<text:h text:outline-level="2">Goals</text:h><text:p>Sell <text:span>fresh'
                   '</text:span><text:s text:c="2"/>bread, see <text:a xlink:href="https://x.org">'
                   'the site</text:a>.</text:p><text:list><text:list-item><text:p>Open at 7'
                   '</text:p></text:list-item></text:list>')
    assert render_document(odt) == ("## Goals\n\nSell fresh  bread, see [the site](https://x.org)."
                                    "\n\n- Open at 7\n")
    ods = odf_file(tmp_path / "prices.ods",
                   '<table:table table:name="Prices"><table:table-row><table:table-cell '
                   'office:value-type="string"><text:p>Bread</text:p></table:table-cell>'
                   '<table:table-cell office:value-type="float" office:value="3.5"><text:p>3.5'
                   '</text:p></table:table-cell><table:table-cell table:formula="of:=[.B1]*1.1" '
                   'office:value-type="float" office:value="3.85"><text:p>3.85</text:p>'
                   '</table:table-cell><table:table-cell table:number-columns-repeated="16000"/>'
                   '</table:table-row><table:table-row table:number-rows-repeated="1048575">'
                   '<table:table-cell table:number-columns-repeated="16384"/></table:table-row>'
                   '</table:table>')
    assert render_document(ods) == ("## Sheet: Prices\n\n#|A|B|C\n-|-|-|-\n"
                                    "1|Bread|3.5|=B1*1.1 → 3.85\n")
    odp = odf_file(tmp_path / "deck.odp",
                   '<draw:page draw:name="page1"><draw:frame><draw:text-box><text:p>Spring menu'
                   '</text:p></draw:text-box></draw:frame><presentation:notes><draw:frame>'
                   '<draw:text-box><text:p>Say hello</text:p></draw:text-box></draw:frame>'
                   '</presentation:notes></draw:page>')
    assert render_document(odp) == "## Slide 1\n\n- Spring menu\n\nNotes:\n> Say hello\n"


def test_search_files_looks_inside_documents_and_names_the_sheet_or_page(ws, box):
    from tests.document_files import pdf_bytes

    brief_docx(ws / "brief.docx")
    prices_xlsx(ws / "prices.xlsx")
    (ws / "menu.pdf").write_bytes(pdf_bytes(["Cover", "Scone of the week"]))
    (ws / "notes.md").write_text("a scone recipe\n")
    out = box.call("search_files", {"query": "SCONE"})
    assert out.content.splitlines() == [
        "menu.pdf:7 (Page 2): Scone of the week",
        "notes.md:1: a scone recipe",
        "prices.xlsx:8 (Sheet: Prices): 4|Scone|5.5|=B4*1.1",
    ]
    word = box.call("search_files", {"query": "opening hours"})
    assert word.content == "brief.docx:11: > The new opening hours start in May."
    # The line number is the rendering's: read_file at that offset shows the same line.
    shown = box.call("read_file", {"path": "brief.docx", "offset": 11, "limit": 1})
    assert shown.content.startswith("11\t> The new opening hours start in May.")


def test_search_passes_over_a_damaged_document(ws, box):
    (ws / "broken.docx").write_bytes(b"PK\x03\x04 scone")
    (ws / "notes.md").write_text("scone\n")
    assert box.call("search_files", {"query": "scone"}).content == "notes.md:1: scone"
