"""write_file over a Word document that Word saved: its properties (title, author, keywords,
custom properties, a sensitivity label) stay, no other document's thumbnail comes in, and a
refusal names what a person would miss, never a part of the file."""

from __future__ import annotations

import io
import re
import shutil
import zipfile
from datetime import datetime
from pathlib import Path

import docx
import pytest

from app.core.documents import render_document
from app.core.undo.undo import undo_manifest
from tests.core.documents.tool_folder import toolbox

TASK = "Rewrite the brief"  # the board's one task

DATA = Path(__file__).resolve().parents[2] / "data" / "word"
LABEL_ID = "f42aa342-8706-4288-bd11-ebb85995028c"
# What Office writes for a sensitivity label: custom properties, and since 2022 a label part.
CUSTOM = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<Properties xmlns="http://'
    'schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas'
    '.openxmlformats.org/officeDocument/2006/docPropsVTypes"><property fmtid="{D5CDD505-2E9C-'
    '101B-9397-08002B2CF9AE}" pid="2" name="Classification"><vt:lpwstr>CONFIDENTIAL</vt:lpwstr>'
    '</property><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="3" name="MSIP_'
    f'Label_{LABEL_ID}_Enabled"><vt:lpwstr>true</vt:lpwstr></property><property fmtid="{{D5CDD5'
    '05-2E9C-101B-9397-08002B2CF9AE}" pid="4" name="MSIP_Label_'
    f'{LABEL_ID}_Name"><vt:lpwstr>Confidential</vt:lpwstr></property></Properties>').encode()
LABEL_INFO = (
    '<?xml version="1.0" encoding="utf-8" standalone="yes"?><clbl:labelList xmlns:clbl="http://'
    'schemas.microsoft.com/office/2020/mipLabelMetadata"><clbl:label id="{'
    f'{LABEL_ID}}}" enabled="1" method="Privileged" siteId="{{72f988bf-86f1-41af-91ab-2d7cd011db47'
    '}" removed="0" /></clbl:labelList>').encode()


def _box(ws):
    return toolbox(ws, TASK)


def _members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {info.filename: zf.read(info) for info in zf.infolist()}


def _labelled(target: Path) -> Path:
    """python-docx's doc-coreprops.docx (saved by Word: a title, an author, keywords and a
    thumbnail) with the custom properties and the label part Office adds for a label."""
    parts = _members((DATA / "python-docx/doc-coreprops.docx").read_bytes())
    parts["docProps/custom.xml"] = CUSTOM
    parts["docMetadata/LabelInfo.xml"] = LABEL_INFO
    parts["_rels/.rels"] = parts["_rels/.rels"].replace(b"</Relationships>", (
        '<Relationship Id="rId90" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/custom-properties" Target="docProps/custom.xml"/><Relationship Id="rId91"'
        ' Type="http://schemas.microsoft.com/office/2020/02/relationships/classificationlabels"'
        ' Target="docMetadata/LabelInfo.xml"/></Relationships>').encode())
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(b"</Types>", (
        '<Override PartName="/docProps/custom.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.custom-properties+xml"/><Override PartName="/docMetadata/LabelInfo.xml"'
        ' ContentType="application/vnd.ms-office.classificationlabels+xml"/></Types>').encode())
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    return target


def test_write_file_over_a_word_document_keeps_its_properties_and_label(ws):
    path = _labelled(ws / "brief.docx")
    before = path.read_bytes()
    old = _members(before)
    assert "docProps/thumbnail.jpeg" in old  # a preview of the text about to be replaced
    out = _box(ws).call("write_file", {"path": "brief.docx",
                                       "content": "# New brief\n\nOpen at 7.\n"})
    assert not out.is_error, out.content
    new = _members(path.read_bytes())
    for name in ("docProps/core.xml", "docProps/app.xml", "docProps/custom.xml",
                 "docMetadata/LabelInfo.xml"):
        assert new[name] == old[name], name
    assert not any("thumbnail" in name for name in new)
    assert b"thumbnail" not in new["_rels/.rels"] + new["[Content_Types].xml"]
    assert b"classificationlabels" in new["_rels/.rels"]
    props = docx.Document(path).core_properties
    assert (props.title, props.author, props.keywords) == ("Title", "Steve Canny",
                                                           "key; word; keyword")
    assert render_document(path) == "# New brief\n\nOpen at 7.\n"
    undo_manifest(ws, ws / ".harness", ws / ".harness/runs/r/undo/1.json")
    assert path.read_bytes() == before


def test_a_new_word_document_has_no_thumbnail_of_another_document(ws):
    out = _box(ws).call("write_file", {"path": "new.docx", "content": "# Hello\n"})
    assert not out.is_error, out.content
    new = _members((ws / "new.docx").read_bytes())
    assert not any("thumbnail" in name for name in new)
    assert b"thumbnail" not in new["_rels/.rels"]
    created = docx.Document(ws / "new.docx").core_properties.created
    assert created.year >= datetime.now().year - 1  # not the template's 2013


def test_write_file_keeps_the_headers_and_footers_it_does_not_show_changed(ws):
    """The body is replaced; the headers and footers (their parts, and the section
    properties that point at them) stay as Word saved them."""
    shutil.copyfile(DATA / "python-docx/hdr-header-footer.docx", ws / "report.docx")
    before = _members((ws / "report.docx").read_bytes())
    out = _box(ws).call("write_file", {"path": "report.docx", "content": "# Report\n"})
    assert not out.is_error, out.content
    after = _members((ws / "report.docx").read_bytes())
    for name in before:
        if "header" in name or "footer" in name:
            assert after[name] == before[name], name
    shown = render_document(ws / "report.docx")
    assert "[Header] Header for section-1" in shown and "[Footer] Footer for section 1" in shown
    assert "\n# Report\n" in shown


def test_write_file_over_a_password_protected_document_says_so(ws):
    shutil.copyfile(DATA / "poi/bug53475-password-is-pass.docx", ws / "secret.docx")
    out = _box(ws).call("write_file", {"path": "secret.docx", "content": "# New\n"})
    assert out.refused and out.content == (
        "'secret.docx' is protected with a password, so it cannot be opened; ask the person "
        "to save a copy without the password.")


def test_libreoffice_opens_the_document_written_over_a_labelled_one(ws, tmp_path):
    import subprocess

    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if not soffice:
        pytest.skip("LibreOffice (soffice) is not installed")
    _labelled(ws / "brief.docx")
    out = _box(ws).call("write_file", {"path": "brief.docx",
                                       "content": "# New brief\n\n- Open at 7.\n"})
    assert not out.is_error, out.content
    subprocess.run([soffice, f"-env:UserInstallation=file://{tmp_path / 'profile'}",
                    "--headless", "--convert-to", "txt:Text", "--outdir", str(tmp_path / "txt"),
                    str(ws / "brief.docx")], check=True, capture_output=True, timeout=180)
    text = (tmp_path / "txt" / "brief.txt").read_text(encoding="utf-8-sig")
    assert "New brief" in text and "Open at 7." in text


@pytest.mark.parametrize("name", sorted(str(p.relative_to(DATA))
                                        for p in DATA.rglob("*.docx")
                                        if "password" not in p.name))
def test_write_file_over_any_word_saved_document_speaks_plainly(ws, name):
    shutil.copyfile(DATA / name, ws / "doc.docx")
    out = _box(ws).call("write_file", {"path": "doc.docx", "content": "# Short\n\nText.\n"})
    if out.is_error:
        assert out.refused and out.content.startswith("Replacing it with write_file would drop")
        for word in (".xml", "element", "w:", "<", "word/", "docProps"):
            assert word not in out.content, out.content
    else:   # the body replaced; headers, footers and notes (shown in [brackets]) kept
        shown = render_document(ws / "doc.docx")
        if b"trackRevisions" in _members((DATA / name).read_bytes()).get("word/settings.xml",
                                                                          b""):
            # delins.docx tracks changes: the old text stays, marked deleted (word_tracked)
            shown = re.sub(r"\[inserted: ([^\]]*)\]", r"\1", shown)
            shown = "\n".join(line for line in shown.split("\n")
                              if not re.match(r"^(- )?\[deleted: ", line))
        body = [line for line in shown.split("\n\n") if not line.startswith("[")]
        assert "\n\n".join(body).strip() + "\n" == "# Short\n\nText.\n"


def test_write_file_keeps_sharepoint_properties(ws):
    """SharePoint keeps a library's columns (here a 'Client' column) in the document as
    custom XML: the document's package stays its own, so they stay byte for byte."""
    parts = _members((DATA / "poi/Bug66988.docx").read_bytes())
    parts["customXml/item1.xml"] = (
        b'<?xml version="1.0" encoding="UTF-8"?><p:properties xmlns:p="http://schemas.micro'
        b'soft.com/office/2006/metadata/properties"><documentManagement><Client xmlns="3f6c">'
        b'Northwind Bakery</Client></documentManagement></p:properties>')
    with zipfile.ZipFile(ws / "contract.docx", "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    out = _box(ws).call("write_file", {"path": "contract.docx", "content": "# Contract\n"})
    assert not out.is_error, out.content
    after = _members((ws / "contract.docx").read_bytes())
    assert after["customXml/item1.xml"] == parts["customXml/item1.xml"]


def test_a_lettered_list_below_a_numbered_one_stays_items_of_its_own(ws):
    """Word saved ComplexNumberedLists.docx with a. b. c. below "2. Entry #2": read_file shows
    them as "  a. 2-a", which CommonMark joins to the item above; write_file of the rendering
    made "Entry #2, with children a. 2-a b. 2-b c. 2-c" of four paragraphs."""
    shutil.copy(DATA / "poi" / "ComplexNumberedLists.docx", ws / "lists.docx")
    shown = render_document(ws / "lists.docx")
    assert "2. Entry #2, with children\n  a. 2-a\n  b. 2-b\n" in shown
    looks = [(p.style.name, p.text) for p in docx.Document(ws / "lists.docx").paragraphs]
    out = toolbox(ws, TASK).call("write_file", {"path": "lists.docx", "content": shown.replace(
        "numbered lists", "numbered items")})
    assert not out.is_error, out.content
    found = [(p.style.name, p.text) for p in docx.Document(ws / "lists.docx").paragraphs]
    assert found[1:] == looks[1:]   # each item its own paragraph, in its own list style
    assert [text for _style, text in found[2:6]] == ["Entry #2, with children", "2-a", "2-b",
                                                     "2-c"]
    # A line of a list item's text that only begins like a mark stays its text.
    out = toolbox(ws, TASK).call("write_file", {"path": "new.docx", "content": (
        "1. Call Ann about\n   the plan. Then ring Bob.\n2. Pay\n   i. rent\n   (b) tax\n\n"
        "A paragraph\na. not in a list\n")})
    assert not out.is_error, out.content
    assert [p.text for p in docx.Document(ws / "new.docx").paragraphs] == [
        "Call Ann about the plan. Then ring Bob.", "Pay", "rent", "tax",
        "A paragraph a. not in a list"]


def test_a_tables_cells_keep_their_paragraphs_and_their_look(ws):
    """Word saved both. read_file joins a cell's paragraphs with <br>: write_file of the
    rendering made each cell one paragraph holding the text "<br>". A first row Word shows
    plain came back bold (a table's first row is Markdown's header row)."""
    for name in ("IllustrativeCases.docx", "TestTableCellAlign.docx"):
        shutil.copy(DATA / "poi" / name, ws / name)
        shown = render_document(ws / name)
        changed = shown.replace("Bottom", "Below").replace("Patrick", "Pádraig")
        out = toolbox(ws, TASK).call("write_file", {"path": name, "content": changed})
        assert not out.is_error, out.content
        assert render_document(ws / name) == changed
    cell = docx.Document(ws / "IllustrativeCases.docx").tables[0].cell(1, 2)
    assert [p.text for p in cell.paragraphs][:3] == ["€", "17,542", "34,000"]
    assert not any(run.bold for cell in docx.Document(ws / "TestTableCellAlign.docx").tables[0]
                   .rows[0].cells for run in cell.paragraphs[0].runs)
    # A new document's header row is bold, as Markdown shows it; <br> breaks a line.
    out = toolbox(ws, TASK).call("write_file", {"path": "new.docx", "content": (
        "Two<br>lines\n\n| Name | Age |\n|---|---|\n| Ann | 30 |\n")})
    assert not out.is_error, out.content
    new = docx.Document(ws / "new.docx")
    assert new.paragraphs[0].text == "Two\nlines"
    assert all(run.bold for run in new.tables[0].cell(0, 0).paragraphs[0].runs)


def test_a_line_break_within_a_paragraph_is_kept(ws):
    """Word saved IllustrativeCases.docx with a cell's figures one per line, line breaks in
    one paragraph: read_file showed them as spaces, so write_file put them on one line. Now
    <br>: edit_file keeps the breaks; write_file, in a table cell, makes each line a
    paragraph (read_file joins a cell's paragraphs with <br> too), shown the same."""
    shutil.copy(DATA / "poi" / "IllustrativeCases.docx", ws / "cases.docx")
    shown = render_document(ws / "cases.docx")
    assert "| €<br>17,542<br>32,000<br>3,508<br>" in shown
    box = toolbox(ws, TASK)
    out = box.call("edit_file", {"path": "cases.docx", "old_text": "17,542<br>32,000<br>3,508",
                                 "new_text": "17,542<br>32,500<br>3,508"})
    assert not out.is_error, out.content
    cell = docx.Document(ws / "cases.docx").tables[0].cell(1, 1)
    assert [p.text for p in cell.paragraphs][1].startswith("17,542\n32,500\n3,508\n")
    out = box.call("write_file", {"path": "cases.docx", "content": shown.replace(
        "32,000<br>3,508", "32,000<br>3,600")})
    assert not out.is_error, out.content
    cell = docx.Document(ws / "cases.docx").tables[0].cell(1, 1)   # in a cell, <br> and text
    assert "\n".join(p.text for p in cell.paragraphs).startswith(  # after it: a paragraph
        "€\n17,542\n32,000\n3,600\n")
    assert render_document(ws / "cases.docx") == shown.replace("32,000<br>3,508",
                                                               "32,000<br>3,600")
    # In a paragraph of the body: a line break stays one; "<br>" typed stays text.
    doc = docx.Document()
    run = doc.add_paragraph().add_run("Line one")
    run.add_break()
    run.add_text("line two, <br> typed")
    doc.save(ws / "breaks.docx")
    shown = render_document(ws / "breaks.docx")
    assert shown == "Line one<br>line two, \\<br> typed\n"
    out = box.call("write_file", {"path": "copy.docx", "content": shown})
    assert not out.is_error, out.content
    assert [p.text for p in docx.Document(ws / "copy.docx").paragraphs] == [
        "Line one\nline two, <br> typed"]


def test_edit_file_takes_a_line_break_away_and_puts_one_in(ws):
    """A break taken away by edit_file was refused as "a mark read_file adds"; one put in
    became a space."""
    shutil.copy(DATA / "poi" / "IllustrativeCases.docx", ws / "cases.docx")   # saved by Word
    box = toolbox(ws, TASK)
    for old, new in (("17,542<br>32,000<br>3,508", "17,542 32,000<br>3,508"),
                     ("3,508<br>3,120", "3,508<br><br>3,120<br>(new)")):
        out = box.call("edit_file", {"path": "cases.docx", "old_text": old, "new_text": new})
        assert not out.is_error, out.content
    cell = docx.Document(ws / "cases.docx").tables[0].cell(1, 1)
    assert cell.paragraphs[1].text.startswith("17,542 32,000\n3,508\n\n3,120\n(new)\n388\n")
    assert "| €<br>17,542 32,000<br>3,508<br><br>3,120<br>(new)<br>388<br>" in \
        render_document(ws / "cases.docx")
    shutil.copy(DATA / "poi" / "delins.docx", ws / "tracked.docx")   # saved by Word; tracked
    out = box.call("edit_file", {"path": "tracked.docx", "old_text": "A Nepalese name",
                                 "new_text": "A Nepalese<br>name"})
    assert not out.is_error, out.content
    assert "- A Nepalese[deleted:  ][inserted: <br>]name for" in render_document(
        ws / "tracked.docx")
