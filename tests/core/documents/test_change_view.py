"""A change to a document as the person sees it in Office (issue 33, point 4): on workbooks
Excel saved and Word documents Word saved (public test corpora, tests/data), a workbook's
change is a grid of displayed values with exactly the changed cells marked, a Word change the
formatted document with <ins>/<del> marks, and a change that shows nothing says what changed.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest

from app.core.documents import edit_document, set_cells, show_change
from app.core.documents.change_view import COLOURS, change_view, changed_parts
from app.core.documents.word_change import document_html, tokens
from tests.document_files import pdf_bytes

EXCEL = Path(__file__).parents[2] / "data" / "excel"
WORD = Path(__file__).parents[2] / "data" / "word"
MARKED = f'bgcolor="{COLOURS["changed_bg"]}"'


def _cells_marked(html: str) -> list[str]:
    """The marked cells' tags (their title says before and after)."""
    return re.findall(r"<td[^>]*" + re.escape(MARKED) + r"[^>]*>", html)


def _changed(tmp_path: Path, source: Path, data: bytes) -> Path:
    after = tmp_path / ("after" + source.suffix)
    after.write_bytes(data)
    return after


def test_a_cell_changed_in_an_excel_saved_budget_is_one_marked_cell_with_dollars(tmp_path):
    budget = EXCEL / "simple-monthly-budget.xlsx"
    data, _, _ = set_cells(budget, {"C6": 1234.5})
    view = change_view(budget, _changed(tmp_path, budget, data), "budget.xlsx", {}, {})
    html = view["html"]
    (cell,) = _cells_marked(html)  # exactly that cell, nothing else
    assert 'title="Before: $1,000.00\nAfter: $1,234.50"' in cell
    shown = re.sub(r"<[^>]+>", " ", html)
    assert "$1,000.00" in shown and "$1,234.50" in shown and "$2,500.00" in shown  # unchanged
    assert "Income 2" in shown and "Sheet: Simple Monthly Budget" in shown
    assert "C6: $1,000.00 → $1,234.50" in html
    # The formulas depending on it: shown with their value, said to be calculated on opening,
    # their formula on hover, never as the cell's text.
    assert "=TotalMonthlyIncome" not in shown.replace("formula =", "")
    assert re.search(r"calculated afresh when the workbook is next opened \(shown with the "
                     r"value they had\): H4, E9, G9\.", html)
    assert 'title="formula =TotalMonthlyExpenses' in html
    assert view["note"] == ""  # calcPr is the recalculation, said above


def test_merged_cells_stay_merged_and_a_new_column_is_a_column_of_new_cells(tmp_path):
    budget = EXCEL / "simple-monthly-budget.xlsx"
    data, _, _ = set_cells(budget, {"I5": "Paid", "I6": "Due", "I7": "Paid"})
    html = change_view(budget, _changed(tmp_path, budget, data), "b.xlsx", {}, {})["html"]
    marked = _cells_marked(html)
    assert len(marked) == 3 and all("Before: (empty)" in td for td in marked)
    assert "<th" in html and ">I</th>" in html
    assert 'rowspan="2"' in html  # the percentage's merged block, E4:G5 in the file
    # unchanged rows are not shown as removed and added
    assert html.count("line-through") == 0


def test_a_date_workbook_and_escaping(tmp_path):
    source = EXCEL / "DateFormatTests.xlsx"
    data, _, _ = set_cells(source, {"Tests!D2": "<b>Date & time</b>"})
    html = change_view(source, _changed(tmp_path, source, data), "d.xlsx", {}, {})["html"]
    (cell,) = _cells_marked(html)
    assert "&lt;b&gt;Date &amp; time&lt;/b&gt;" in html and "<b>Date" not in html
    assert "Before: Date" in cell and "Sheet: Tests" in html and "Sheet: Flags" not in html


def test_a_value_that_changed_beyond_what_read_file_shows_is_in_the_grid(tmp_path):
    # Careful mode asked "Allow this?" over "(no visible change)" while a far cell changed.
    budget = EXCEL / "simple-monthly-budget.xlsx"
    data, _, _ = set_cells(budget, {"Z900": "Amount due: 100,000 EUR"})
    view = change_view(budget, _changed(tmp_path, budget, data), "b.xlsx", {}, {})
    assert "Amount due: 100,000 EUR" in view["html"] and len(_cells_marked(view["html"])) == 1
    assert ">900</td>" in view["html"] and ">Z</th>" in view["html"]


def _word_after(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    return _changed(tmp_path, source, edit_document(source, old, new))


def test_a_paragraph_changed_in_a_word_saved_document_is_marked_as_track_changes(tmp_path):
    source = WORD / "poi" / "60316.docx"
    after = _word_after(tmp_path, source, "Getting the perfect job might be challenging",
                        "Getting the ideal job can be hard")
    view = change_view(source, after, "cv.docx", {}, {})
    html = view["html"]
    assert re.search(r"Getting the <del[^>]*><s>perfect </s></del><ins[^>]*><u>ideal </u></ins>"
                     r"job <del[^>]*><s>might </s></del><ins[^>]*><u>can </u></ins>be ", html)
    assert "<h1>Objective</h1>" in html and "<h1>Experience</h1>" in html  # headings stay
    assert "#" not in re.sub(r"<[^>]+>|&#x27;", "", html)  # no Markdown marks
    assert html.count("<del") == 3 and html.count("<ins") == 3


def test_bold_and_tables_survive_around_a_changed_cell(tmp_path):
    source = WORD / "poi" / "bib-chernigovka.netdo.ru_download_docs_17459.docx"
    after = _word_after(tmp_path, source, "90 лет со дня рождения русского детского писателя",
                        "90 лет со дня рождения русского писателя")
    html = change_view(source, after, "k.docx", {}, {})["html"]
    row = re.search(r"<tr>(?:(?!</tr>).)*детского(?:(?!</tr>).)*</tr>", html).group(0)
    assert re.search(r"<del[^>]*><s>детского </s></del>", row)
    assert "<b>Льва Ивановича Давыдычева (1927-1988)</b>" in row
    assert "<b>1</b>" in row and row.count("<td>") == 2
    assert html.startswith("<p") and "<table" in html and "**" not in html


def _with_run_look(source: Path, target: Path, text: str, look: str) -> Path:
    """`source` with `look` (run properties XML) on the first run of the paragraph holding
    `text`, every other part as it was."""
    from lxml import etree

    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w",
                                                          zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item)
            if item.filename == "word/document.xml":
                root = etree.fromstring(data)
                para = next(p for p in root.iter(f"{{{w}}}p")
                            if text in "".join(p.itertext()))
                run = next(para.iter(f"{{{w}}}r"))
                props = run.find(f"{{{w}}}rPr")
                if props is None:
                    props = etree.SubElement(run, f"{{{w}}}rPr")
                    run.insert(0, props)
                props.append(etree.fromstring(f'<w:x xmlns:w="{w}">{look}</w:x>')[0])
                data = etree.tostring(root, xml_declaration=True, encoding="UTF-8",
                                      standalone=True)
            zout.writestr(item, data)
    return target


def test_a_formatting_only_change_says_so(tmp_path):
    source = WORD / "poi" / "60316.docx"
    bolder = _with_run_look(source, tmp_path / "bold.docx", "Getting the perfect", "<w:b/>")
    html = change_view(source, bolder, "cv.docx", {}, {})["html"]
    assert "(only its formatting changed)" in html and "<del" not in html and "<ins" not in html
    assert re.search(r"background-color:[^>]*><b>Getting", html)  # the words whose look changed
    # A change the view does not draw (the size of the letters): named, never "no visible
    # change".
    big = _with_run_look(source, tmp_path / "big.docx", "Getting the perfect",
                         '<w:sz w:val="40"/>')
    view = change_view(source, big, "cv.docx", {}, {})
    assert view["html"] == ""
    assert view["note"] == ("The text and the values shown are the same; what changes is its "
                            "formatting or layout.")


def test_a_property_only_change_names_the_properties(tmp_path):
    import docx

    source = WORD / "python-docx" / "doc-coreprops.docx"
    doc = docx.Document(str(source))
    doc.core_properties.title = "Another title"
    after = tmp_path / "p.docx"
    doc.save(str(after))
    view = change_view(source, after, "p.docx", {}, {})
    assert view["html"] == "" and "its properties (such as title and author)" in view["note"]


def test_other_documents_keep_the_text_diff_but_name_what_changed(tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    a.write_bytes(pdf_bytes(["Soup of the day"], compress=True))
    b.write_bytes(pdf_bytes(["Soup of the day"], compress=False))
    view = change_view(a, b, "a.pdf", {}, {})
    assert view == {"html": "", "note": "The text and the values shown are the same; only "
                                        "the way the file is stored changes."}
    # a package with only a picture replaced
    one, two = tmp_path / "one.pptx", tmp_path / "two.pptx"
    for path, picture in ((one, b"\x89PNG one"), (two, b"\x89PNG two")):
        with zipfile.ZipFile(path, "w") as zf:
            zf.writestr("ppt/slides/slide1.xml", "<same/>")
            zf.writestr("ppt/media/image1.png", picture)
    assert changed_parts(one, two) == ["pictures"]
    words = {"same_shown": "同 %1", "part_pictures": "图片"}
    assert change_view(one, two, "s.pptx", words, {})["note"] == "同 图片"


def test_the_markdown_of_a_paragraph_reads_as_words_with_their_look():
    found = tokens("A **bold move** and *this* [link](https://x.test) 5 * 3 [deleted: gone]")
    looks = {w.strip(): look for w, look in found if w.strip()}
    assert looks["bold"][0] and looks["move"][0] and not looks["and"][0]
    assert looks["this"][1] and looks["link"][2] and looks["gone"][3] == ("deleted",)
    assert looks["*"] == (False, False, False, (), "")  # a plain star stays a star


def test_the_worker_shows_the_change_and_a_broken_file_gets_one_sentence(tmp_path):
    from app.core.documents import DocumentError

    budget = EXCEL / "simple-monthly-budget.xlsx"
    data, _, _ = set_cells(budget, {"C7": 300})
    view = show_change(budget, _changed(tmp_path, budget, data), "budget.xlsx", {}, {})
    assert "$250.00" in view["html"] and "$300.00" in view["html"]
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(DocumentError) as caught:
        show_change(budget, broken, "budget.xlsx", {}, {})
    assert "budget.xlsx" in caught.value.message and "Traceback" not in caught.value.message


def test_only_the_sheets_whose_part_changed_are_read(tmp_path):
    from app.core.documents.sheet_cells import read_cells, unchanged_sheets

    source = EXCEL / "DateFormatTests.xlsx"
    after = _changed(tmp_path, source, set_cells(source, {"Tests!D2": "Dates"})[0])
    skip = unchanged_sheets(source, after)
    sheets = read_cells(after, skip=skip)
    assert sheets["Flags"].same and not sheets["Flags"].cells
    assert not sheets["Tests"].same and sheets["Tests"].cells[(2, 4)].text == "Dates"
    # a new number format changes the styles: then every sheet is read
    restyled = _changed(tmp_path, source, set_cells(source, {"Tests!C2": 5},
                                                    formats={"Tests!C2": "0.000%"})[0])
    assert unchanged_sheets(source, restyled) is None


def test_a_workbook_too_big_to_compare_in_time_falls_back_to_the_text(tmp_path, monkeypatch):
    import app.core.documents.change_view as change_view_module

    budget = EXCEL / "simple-monthly-budget.xlsx"
    after = _changed(tmp_path, budget, set_cells(budget, {"C6": 1})[0])
    monkeypatch.setattr(change_view_module, "SECONDS", 0.0)
    monkeypatch.setattr("app.core.documents.sheet_cells._sheet", _time_is_up)
    assert change_view(budget, after, "b.xlsx", {}, {}) == {"html": "", "note": ""}


def _time_is_up(*_args):
    from app.core.documents.guard import Full

    raise Full("[The rendering stops here]")


def test_dates_are_shown_as_excel_shows_them_through_their_format(tmp_path):
    """DateFormatTests.xlsx holds Excel's own results of TEXT(date, format) for 45 formats
    (column A, as Excel saved it): each is what the grid shows for that date and format."""
    from openpyxl import load_workbook

    from app.core.documents.xlsx_dates import date_text

    book = load_workbook(EXCEL / "DateFormatTests.xlsx", data_only=True)
    rows = [r[:3] for r in book["Tests"].iter_rows(min_row=2, values_only=True) if r[0]]
    assert len(rows) == 45
    assert [(code, date_text(moment, code)) for _, code, moment in rows] == \
        [(code, excel) for excel, code, _ in rows]
    assert date_text(rows[0][2], "[h]:mm") is None and date_text(rows[0][2], "0.00") is None
    source = EXCEL / "DateFormatTests.xlsx"
    after = _changed(tmp_path, source, set_cells(source, {"Tests!D2": "Dates"})[0])
    html = change_view(source, after, "d.xlsx", {}, {})["html"]
    assert ">11-Oct-1952 14:35:27.000</td>" in html and "1952-10-11" not in html


def test_a_fold_never_hides_only_a_row_or_two(tmp_path):
    budget = EXCEL / "simple-monthly-budget.xlsx"
    data, _, _ = set_cells(budget, {"C6": 1234.5, "C12": 135, "C30": 1})
    html = change_view(budget, _changed(tmp_path, budget, data), "b.xlsx", {}, {})["html"]
    rows = [int(n) for n in re.findall(r'<td align="right" style="color:[^"]*;">(\d+)</td>', html)]
    assert rows[:14] == list(range(1, 15))  # rows 2-3 and 9 shown, not folded
    assert html.count("⋯") == 1 and rows[14:] == list(range(28, 33))  # 15-27 folded


def test_a_paragraph_made_a_heading_says_its_formatting_changed():
    from app.core.documents.word_change import document_html

    html, changed = document_html("Intro\n\nOpening hours\n\nClosed Monday.\n",
                                  "Intro\n\n## Opening hours\n\nClosed Monday.\n", {
                                      "formatting_changed": "(only its formatting changed)"},
                                  COLOURS)
    assert changed == 1 and "<h2>" in html and "Opening hours" in html
    assert "(only its formatting changed)" in html and "<del" not in html


def test_a_word_change_too_tangled_to_compare_in_time_falls_back_to_the_text(tmp_path,
                                                                             monkeypatch):
    import app.core.documents.change_view as change_view_module

    source = WORD / "poi" / "60316.docx"
    after = _word_after(tmp_path, source, "Getting the perfect job", "Getting the ideal job")
    monkeypatch.setattr(change_view_module, "SECONDS", -60.0)  # the comparison's time is up
    assert change_view(source, after, "cv.docx", {}, {}) == {"html": "", "note": ""}


def test_a_stored_value_its_format_hides_is_still_a_change_and_shown(tmp_path):
    # 1,000.4 and 1,000.2 both show as $1,000 through a whole-dollar format; the grid marks
    # the cell and shows the stored values, never "the values shown are the same".
    budget = EXCEL / "simple-monthly-budget.xlsx"
    first = _changed(tmp_path, budget, set_cells(budget, {"C6": 1000.4},
                                                 formats={"C6": '"$"#,##0'})[0])
    second = tmp_path / "second.xlsx"
    second.write_bytes(set_cells(first, {"C6": 1000.2})[0])
    view = change_view(first, second, "b.xlsx", {}, {})
    (cell,) = _cells_marked(view["html"])
    assert 'title="Before: $1,000 (1000.4)\nAfter: $1,000 (1000.2)"' in cell
    assert "C6: $1,000 (1000.4) → $1,000 (1000.2)" in view["html"]


_FULL = "The bakery opens at seven every weekday and at eight on Saturdays when"


def _menu_pdf(path: Path, opens: str, price: str) -> Path:
    path.write_bytes(pdf_bytes([
        "Opening hours\n" + _FULL.replace("seven", opens) + "\nthe first loaves come out at "
        "half past six, warm & <fresh> *daily* [see > below].\n\nItem        Price       Stock\n"
        f"Bread       {price}        12\nScone       2.10        40"]))
    return path


def test_a_pdf_change_is_its_paragraphs_and_table_with_the_changed_words_marked(tmp_path):
    before = _menu_pdf(tmp_path / "a.pdf", "seven", "4.62")
    after = _menu_pdf(tmp_path / "b.pdf", "six", "4.80")
    view = change_view(before, after, "menu.pdf", {}, {})
    html = view["html"]
    # the page's two lines are one paragraph, one word in it struck out and one put in
    assert re.search(r"<p>The bakery opens at <del[^>]*><s>seven </s></del><ins[^>]*><u>six "
                     r"</u></ins>every weekday and at eight on Saturdays when the first loaves "
                     r"come out at half past six, warm &amp; &lt;fresh&gt; \*daily\* \[see "
                     r"&gt; below\]\.</p>", html)
    # the table stays a table, only the changed price marked
    assert re.search(r"<tr><td>Bread</td><td><del[^>]*><s>4\.62</s></del><ins[^>]*><u>4\.80"
                     r"</u></ins></td><td>12</td></tr>", html)
    assert "<tr><td>Scone</td><td>2.10</td><td>40</td></tr>" in html
    assert "<b>" not in html and "<i>" not in html  # a PDF's * and [ are text, not marks
    assert not re.search("[\ufdd0-\ufdd2]", html)

    assert "<h2>Page 1</h2>" in html and view["note"] == ""


def test_a_pdf_that_cannot_be_read_is_said_in_a_sentence(tmp_path):
    from app.core.documents.base import DocumentError

    good = _menu_pdf(tmp_path / "a.pdf", "seven", "4.62")
    bad = tmp_path / "b.pdf"
    bad.write_bytes(b"%PDF-1.4 not really")
    with pytest.raises(DocumentError, match="damaged"):
        change_view(good, bad, "menu.pdf", {}, {})


def _soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


@pytest.mark.skipif(_soffice() is None, reason="LibreOffice (soffice) is not installed")
def test_a_pdf_printed_from_a_word_file_others_made_shows_the_edit_in_its_paragraph(tmp_path):
    import subprocess

    # Apache POI's résumé template (Word made it), its tip text edited, printed by LibreOffice
    shutil.copyfile(WORD / "poi" / "60316.docx", tmp_path / "before.docx")
    (tmp_path / "after.docx").write_bytes(edit_document(
        tmp_path / "before.docx", "might be challenging", "might be hard work"))
    for name in ("before.docx", "after.docx"):
        subprocess.run([_soffice(), "--headless", f"-env:UserInstallation=file://{tmp_path}/lo",
                        "--convert-to", "pdf", "--outdir", str(tmp_path), str(tmp_path / name)],
                       check=True, capture_output=True, timeout=180)
    view = show_change(tmp_path / "before.pdf", tmp_path / "after.pdf", "cv.pdf", {}, {})
    html = view["html"]
    assert re.search(r"Getting the perfect job might be <del[^>]*><s>challenging, </s></del>"
                     r"<ins[^>]*><u>hard work, </u></ins>but a great-looking résumé doesn’t "
                     r"have to be! We’ve provided", html)
    assert html.count("<del") <= 3 and "References are available upon request." in html


def test_a_workbook_change_passes_the_checks_every_reading_passes(tmp_path):
    """The grid reads both versions only after the package checks reading makes (render.py):
    a password-protected workbook and one with a DOCTYPE get their own sentences, not a
    library's parse of them."""
    from app.core.documents.base import DocumentError

    budget = EXCEL / "simple-monthly-budget.xlsx"
    locked = tmp_path / "locked.xlsx"  # what Office writes for a password: an OLE file
    locked.write_bytes(bytes.fromhex("D0CF11E0A1B11AE1") + b"\0" * 4088)
    with pytest.raises(DocumentError, match=r"'budget\.xlsx' is protected with a password"):
        change_view(budget, locked, "budget.xlsx", {}, {})
    hostile = tmp_path / "hostile.xlsx"
    with zipfile.ZipFile(budget) as src, zipfile.ZipFile(hostile, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "xl/workbook.xml":
                data = data.replace(b"?>", b'?><!DOCTYPE x [<!ENTITY a "aaaa">]>', 1)
            dst.writestr(info, data)
    with pytest.raises(DocumentError) as refused:
        change_view(budget, hostile, "budget.xlsx", {}, {})
    assert "damaged or is not really" not in str(refused.value)


def test_a_line_break_shows_as_one_and_a_typed_br_as_text():
    before = "Line one<br>line two, \\<br> typed\n\n&#32; Indented\n\n| a<br>b | c |\n|---|---|\n"
    after = before.replace("line two", "line 2").replace("| c |", "| d |")
    html, changed = document_html(before, after, {"formatting_changed": "(formatting)"},
                                  {"added": "#080", "removed": "#800", "changed_bg": "#eee",
                                   "muted": "#777"})
    assert changed == 2
    assert html.count("<br>") == 2 and "&lt;br&gt; typed" in html and "&amp;#32;" not in html
    assert "<td>a<br>b</td>" in html and "Line one<br>line " in html
