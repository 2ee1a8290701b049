"""A Word table cell's lines stay in their places (qa's find): a cell whose first paragraph is
empty (a label column beside a column of values whose first line is the currency) shows that
empty paragraph as an empty line, so the n-th line of the label cell and the n-th line of
the value cell belong together, as Word shows them. Read back, written back and edited, the
cells keep their paragraphs; the change view lines them up the same way."""

from __future__ import annotations

import io
import re
import shutil
import zipfile
from pathlib import Path

from lxml import etree

from app.core.documents.change_view import change_view
from app.core.documents.render import render, write
from app.core.documents.word_edit import edit_docx
from app.core.documents.word_sinks import cell_lines
from tests.core.documents.tool_folder import one_task_folder, toolbox

CASES = Path(__file__).resolve().parents[2] / "data" / "word" / "poi" / "IllustrativeCases.docx"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _columns(shown: str, label: str) -> list[list[str]]:
    """The lines of each cell of the first table row holding `label`."""
    row = next(line for line in shown.splitlines() if line.startswith("|") and label in line)
    return [cell.strip().split("<br>") for cell in row.strip().strip("|").split("|")]


def _pairs(shown: str) -> dict[str, tuple[str, str]]:
    labels, first, second = _columns(shown, "Gross Income")
    assert len(labels) == len(first) == len(second)
    return {label.strip("*"): (a, b) for label, a, b in zip(labels, first, second)}


def _paragraphs(data: bytes) -> list[bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        root = etree.fromstring(zf.read("word/document.xml"))
    return [etree.tostring(p) for p in root.iter(f"{W}p")]


def test_a_label_cell_lines_up_with_its_values_as_word_shows_them():
    pairs = _pairs(render(CASES))
    assert pairs[""] == ("€", "€")   # the label cell's empty first paragraph, by the currency
    assert pairs["Gross Income"] == ("17,542", "17,542")
    assert pairs["Standard Rate Band"] == ("32,000", "34,000")
    assert pairs["Less Tax Credits"] == ("3,120", "3,520")
    assert pairs["Net Cash Income"] == ("16,717", "17,542")
    assert pairs["Deductions as a % of Gross Income"] == ("4.7%", "0%")
    labels, *_values = _columns(render(CASES), "Exemption Limits")
    assert labels[:2] == ["", "**Gross Income**"]


def test_edit_file_of_a_value_changes_that_paragraph_only(tmp_path):
    path = tmp_path / "cases.docx"
    shutil.copy(CASES, path)
    before = path.read_bytes()
    shown = render(path)
    data = edit_docx(path, "16,717", "16,718")
    old, new = _paragraphs(before), _paragraphs(data)
    assert len(old) == len(new)
    changed = [n for n, (a, b) in enumerate(zip(old, new)) if a != b]
    assert len(changed) == 1 and b"16,718" in new[changed[0]]
    path.write_bytes(data)
    assert render(path) == shown.replace("16,717", "16,718")
    assert _pairs(render(path))["Net Cash Income"] == ("16,718", "17,542")


def test_write_file_of_changed_values_changes_their_paragraphs_only(tmp_path):
    """A value in a paragraph of line breaks (the 2006 column) and one in a cell that ends in
    an empty paragraph (2007): each changed where it stands, every other paragraph kept."""
    path = tmp_path / "cases.docx"
    shutil.copy(CASES, path)
    before = path.read_bytes()
    shown = render(path)
    edited = shown.replace("<br>16,717<br>", "<br>16,718<br>", 1).replace(
        "<br>34,000<br>3,508<br>3,520<br>", "<br>35,000<br>3,508<br>3,520<br>", 1)
    assert edited.count("16,718") == 1 and edited.count("35,000") == 1
    data = write(path, edited, True)
    assert getattr(data, "summary", "") == "changed 1 table; the rest of the document is unchanged"
    old, new = _paragraphs(before), _paragraphs(data)
    assert len(old) == len(new)
    changed = [n for n, (a, b) in enumerate(zip(old, new)) if a != b]
    assert len(changed) == 2, changed
    assert b"16,718" in new[changed[0]] and b"35,000" in new[changed[1]]
    path.write_bytes(data)
    assert render(path) == edited
    assert _pairs(edited)["Standard Rate Band"] == ("32,000", "35,000")


def test_write_file_of_a_label_keeps_the_cells_empty_first_paragraph(tmp_path):
    path = tmp_path / "cases.docx"
    shutil.copy(CASES, path)
    shown = render(path)
    edited = shown.replace("**Levies**", "**Health Levies**", 1)
    data = write(path, edited, True)
    path.write_bytes(data)
    assert render(path) == edited
    assert _pairs(render(path))["Health Levies"] == ("0", "0")


def test_a_new_document_written_from_the_rendering_keeps_the_lines_in_their_places(tmp_path):
    path = tmp_path / "copy.docx"
    path.write_bytes(write(path, render(CASES), False))
    assert _pairs(render(path)) == _pairs(render(CASES))


def test_a_cells_text_is_cut_back_into_its_paragraphs():
    # as many <br> as before: where the old paragraphs were cut (one held line breaks)
    assert cell_lines("€<br>1<br>2<br>3", ["€", "17<br>32<br>35"]) == ["€", "1<br>2<br>3"]
    # the empty paragraphs that end the cell (not shown) stay
    assert cell_lines("<br>a<br>b", ["", "a", "b", "", ""]) == ["", "a", "b", "", ""]
    # a line more: cut at every <br>, an empty line within an empty paragraph
    assert cell_lines("a<br><br>b<br>c", ["a", "b"]) == ["a", "", "b", "c"]
    # a cell of one paragraph stays one (its line breaks in it), an empty one takes the text
    assert cell_lines("a<br>b", ["x", ""]) == ["a<br>b", ""]
    assert cell_lines("new", [""]) == ["new"]
    # a new cell: the empty lines that end it go
    assert cell_lines("a<br><br>b<br><br>", []) == ["a", "", "b"]


def test_the_change_view_marks_the_value_on_its_own_line(tmp_path):
    after = tmp_path / "after.docx"
    after.write_bytes(edit_docx(CASES, "16,717", "16,718"))
    html = change_view(CASES, after, "cases.docx", {}, {})["html"]
    row = re.search(r"<tr><td><a name=\"first-change\"></a>(?:(?!</tr>).)*</tr>", html).group(0)
    cells = re.findall(r"<td>(.*?)</td>", row.replace('<td><a name="first-change"></a>', "<td>"))
    labels, values = (cell.split("<br>") for cell in cells[:2])
    assert len(labels) == len(values) == 11
    assert labels[0] == "" and labels[1] == "<b>Gross Income</b>"
    assert re.fullmatch(r"<del[^>]*><s>16,717</s></del><ins[^>]*><u>16,718</u></ins>", values[9])
    assert labels[9] == "<b>Net Cash Income</b>" and values[10] == "4.7%"


def test_search_files_finds_a_label_and_a_value_in_cells(tmp_path):
    ws = one_task_folder(tmp_path, "Budget")
    shutil.copy(CASES, ws / "cases.docx")
    box = toolbox(ws, "Budget")
    for query in ("Standard Rate Band", "16,717"):
        out = box.call("search_files", {"query": query})
        assert not out.is_error and "cases.docx" in out.content, out.content
