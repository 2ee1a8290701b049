"""Hostile documents: each gets one sentence, quickly, without being inflated or resolved."""

from __future__ import annotations

import time
import zipfile

import pytest

from app.core.documents import DocumentError, render_document
from app.core.documents import guard, sheets
from tests.document_files import brief_docx, odf_file, pdf_bytes, prices_xlsx

BILLION_LAUGHS = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
                  + "".join(f'<!ENTITY lol{n} "{("&lol%s;" % (n - 1 or "")) * 10}">'
                            for n in range(1, 10))
                  + ']><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/'
                  '2006/main"><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body>'
                  '</w:document>')


def _replace_member(path, member, data):
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    parts[member] = data
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, body in parts.items():
            zf.writestr(name, body)


def test_a_password_protected_office_file_says_so(tmp_path):
    # Word and Excel save a password-protected file as an OLE compound file, not a zip.
    path = tmp_path / "secret.docx"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 4096)
    with pytest.raises(DocumentError) as err:
        render_document(path)
    assert err.value.message == ("'secret.docx' is protected with a password, so it cannot be "
                                 "opened; ask the person to save a copy without the password.")


def test_a_password_protected_pdf_says_so(tmp_path):
    from pypdf import PdfReader, PdfWriter

    (tmp_path / "plain.pdf").write_bytes(pdf_bytes(["Salary list"]))
    writer = PdfWriter(clone_from=PdfReader(tmp_path / "plain.pdf"))
    writer.encrypt("secret", algorithm="RC4-128")
    with open(tmp_path / "secret.pdf", "wb") as fh:
        writer.write(fh)
    with pytest.raises(DocumentError, match=r"'secret\.pdf' is protected with a password"):
        render_document(tmp_path / "secret.pdf")


def test_a_pdf_locked_only_against_printing_opens_with_the_empty_password(tmp_path):
    from pypdf import PdfReader, PdfWriter

    (tmp_path / "plain.pdf").write_bytes(pdf_bytes(["Menu of the day"]))
    writer = PdfWriter(clone_from=PdfReader(tmp_path / "plain.pdf"))
    writer.encrypt(user_password="", owner_password="owner", algorithm="RC4-128")
    with open(tmp_path / "locked.pdf", "wb") as fh:
        writer.write(fh)
    assert "Menu of the day" in render_document(tmp_path / "locked.pdf")


def test_an_encrypted_opendocument_says_so(tmp_path):
    path = odf_file(tmp_path / "secret.odt", "<text:p>x</text:p>",
                    manifest_extra="<manifest:encryption-data/>")
    with pytest.raises(DocumentError, match="protected with a password"):
        render_document(path)


def test_a_zip_bomb_is_refused_from_the_directory_before_inflating(tmp_path, monkeypatch):
    path = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        with zf.open("xl/worksheets/sheet1.xml", "w") as fh:
            block = b"\0" * (1 << 20)
            for _ in range(40):  # 40 MB of zeros, about 40 KB on disk
                fh.write(block)
    assert path.stat().st_size < 200_000
    opened = []
    monkeypatch.setattr(zipfile.ZipFile, "open",
                        lambda self, *a, **k: opened.append(a) or pytest.fail("inflated"))
    with pytest.raises(DocumentError) as err:
        render_document(path)
    assert err.value.message == ("'bomb.xlsx' would unpack to more than 32 MB (it may be a "
                                 "'zip bomb'), so it was not opened.")
    assert opened == []


def test_many_members_adding_up_past_the_total_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(guard, "MAX_UNPACKED_BYTES", 1_000_000)
    path = brief_docx(tmp_path / "brief.docx")
    _replace_member(path, "word/media/padding.bin", b"\0" * 1_100_000)
    with pytest.raises(DocumentError, match="would unpack to more than 0 MB"):
        render_document(path)


def test_an_xml_entity_bomb_is_refused_without_resolving_it(tmp_path):
    path = brief_docx(tmp_path / "laughs.docx")
    _replace_member(path, "word/document.xml", BILLION_LAUGHS.encode())
    started = time.monotonic()
    with pytest.raises(DocumentError) as err:
        render_document(path)
    assert time.monotonic() - started < 5
    assert err.value.message == ("'laughs.docx' contains XML with a DOCTYPE or entity "
                                 "declarations, which documents never need (it may be an "
                                 "attack), so it was not opened.")


def test_an_entity_bomb_in_opendocument_content_is_refused(tmp_path):
    path = odf_file(tmp_path / "laughs.odt", "<text:p>x</text:p>")
    _replace_member(path, "content.xml", BILLION_LAUGHS.replace("w:document", "x").encode())
    with pytest.raises(DocumentError, match="DOCTYPE or entity declarations"):
        render_document(path)


def test_the_odf_parser_itself_refuses_a_doctype(tmp_path):
    from app.core.documents import odf

    path = tmp_path / "x.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("content.xml", BILLION_LAUGHS)
    with zipfile.ZipFile(path) as zf, pytest.raises(odf._Refused):
        odf.safe_parse(zf, "content.xml")


def test_a_pdf_stream_that_inflates_without_end_is_cut_by_pypdf_and_said(tmp_path):
    import zlib

    squeeze = zlib.compressobj(9)
    block = b"0 0 m " * 100_000
    bomb = b"".join(squeeze.compress(block) for _ in range(200)) + squeeze.flush()  # 120 MB
    assert len(bomb) < 1_000_000
    (tmp_path / "bomb.pdf").write_bytes(pdf_bytes(["x"], raw={0: bomb}))
    with pytest.raises(DocumentError) as err:
        render_document(tmp_path / "bomb.pdf")
    assert err.value.message == ("'bomb.pdf' could not be opened as a PDF: the file is damaged "
                                 "or is not really that kind of file.")


def test_a_huge_sheet_is_cut_at_the_row_cap_with_a_sentence(tmp_path, monkeypatch):
    monkeypatch.setattr(sheets, "MAX_ROWS", 40)
    text = render_document(prices_xlsx(tmp_path / "big.xlsx", rows=100))
    assert "\n40|Item 39|" in text and "\n41|" not in text
    assert "[Only the first 40 rows of this sheet are shown; the sheet has more." in text


def test_a_thousand_page_pdf_shows_its_first_pages_and_says_so(tmp_path):
    (tmp_path / "long.pdf").write_bytes(pdf_bytes([f"Line of page {n}" for n in range(1, 1001)]))
    text = render_document(tmp_path / "long.pdf")
    assert text.startswith("[This PDF has 1,000 pages; only pages 1-300 are shown.]")
    assert "## Page 300\n\nLine of page 300" in text and "## Page 301" not in text


def test_rendering_stops_at_its_time_budget_with_a_note(tmp_path, monkeypatch):
    monkeypatch.setattr(guard, "MAX_RENDER_SECONDS", 0.0)
    (tmp_path / "long.pdf").write_bytes(pdf_bytes(["a", "b", "c"]))
    text = render_document(tmp_path / "long.pdf")
    assert "## Page 2" not in text
    assert text.rstrip().endswith("reading the document took more than 0 seconds; the rest "
                                  "is not shown.]")


def test_rendering_stops_at_its_character_budget_with_a_note(tmp_path, monkeypatch):
    monkeypatch.setattr(guard, "MAX_RENDER_CHARS", 200)
    text = render_document(prices_xlsx(tmp_path / "p.xlsx", rows=50))
    assert len(text) < 400 and "it reached 200 characters" in text


@pytest.mark.parametrize("name, data", [
    ("truncated.pdf", pdf_bytes(["hello"])[:200]),
    ("not.pdf", b"just some text"),
    ("empty.xlsx", b""),
    ("text.pptx", b"hello, I am not a deck"),
    ("zip.odt", b"PK\x05\x06" + b"\0" * 18),
])
def test_damaged_files_get_one_sentence(tmp_path, name, data):
    (tmp_path / name).write_bytes(data)
    with pytest.raises(DocumentError) as err:
        render_document(tmp_path / name)
    assert err.value.message.startswith(f"'{name}' could not be opened as ")
