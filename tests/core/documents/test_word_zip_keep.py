"""edit_file on a Word document keeps every part it does not change stored exactly as Word
stored it (zip_keep: the same compressed bytes and local header), as set_cells does for a
workbook: only the part holding the edited text differs, and the package opens cleanly."""

from __future__ import annotations

import io
import re
import struct
import zipfile
from pathlib import Path

import pytest

from app.core.documents import DocumentError, edit_document, render_bytes, render_document

DATA = Path(__file__).resolve().parents[2] / "data" / "word"
DOCS = sorted(str(p.relative_to(DATA)) for p in DATA.glob("*/*.docx")   # not the one with
              if "password" not in p.name and p.name != "doc-coreprops.docx")   # no text
DESCRIPTOR = 0x08   # sizes after the data: zip_keep writes them into the header instead


def _stored(data: bytes) -> dict[str, tuple[bytes | None, bytes]]:
    """Each entry's local header (None where its sizes were left to a data descriptor) and
    compressed bytes, as they sit in the file."""
    out = {}
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        for info in zf.infolist():
            names, extra = struct.unpack_from("<2H", data, info.header_offset + 26)
            start = info.header_offset + 30 + names + extra
            header = None if info.flag_bits & DESCRIPTOR else data[info.header_offset:start]
            out[info.filename] = header, data[start:start + info.compress_size]
    return out


def _edited(source: Path) -> tuple[bytes, str]:
    """The package after edit_file changed one word shown once in the rendering to capitals."""
    text = render_document(source)
    for word in dict.fromkeys(re.findall(r"\b[^\W\d_]{5,}\b", text)):
        if len(re.findall(rf"\b{word}\b", text)) != 1:
            continue
        try:
            return edit_document(source, word, word.upper()), word.upper()
        except DocumentError:   # in a mark read_file adds, or found twice in the package
            continue
    raise AssertionError("no word could be edited")


@pytest.mark.parametrize("name", DOCS)
def test_edit_file_keeps_every_other_part_stored_as_word_stored_it(tmp_path, name):
    source = tmp_path / Path(name).name
    source.write_bytes((DATA / name).read_bytes())
    data, word = _edited(source)
    before, after = _stored(source.read_bytes()), _stored(data)
    assert list(after) == list(before)
    differ = [n for n in before if before[n][1] != after[n][1]]
    assert len(differ) == 1 and differ[0].startswith("word/") and differ[0].endswith(".xml"), \
        differ
    for n in before:   # headers too, where Word wrote the sizes in them
        assert n in differ or before[n][0] is None or before[n][0] == after[n][0], n
    with zipfile.ZipFile(io.BytesIO(data)) as zf, zipfile.ZipFile(source) as old:
        assert zf.testzip() is None   # every CRC right
        for new, was in zip(zf.infolist(), old.infolist(), strict=True):
            assert (new.compress_type, new.date_time, new.external_attr) == \
                (was.compress_type, was.date_time, was.external_attr)
    shown = render_bytes(data, source.name)
    assert word in shown or f"[inserted: {word[1:]}]" in shown   # Word tracks changes in one


# The Word-saved files write_file may replace: the others hold what Markdown cannot (text
# boxes, comments, headers...) and it refuses them in a sentence.
WRITABLE = ["poi/Bug66988.docx", "poi/ComplexNumberedLists.docx", "poi/documentProperties.docx",
            "python-docx/doc-coreprops.docx"]


@pytest.mark.parametrize("name", WRITABLE)
def test_write_file_over_a_word_document_keeps_the_parts_it_carries_stored_as_they_were(
        tmp_path, name):
    from app.core.documents import write_document

    source = tmp_path / Path(name).name
    source.write_bytes((DATA / name).read_bytes())
    data = write_document(source, "# New\n\nA new text.\n", existing=True)
    before, after = _stored(source.read_bytes()), _stored(data)
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(io.BytesIO(data)) as new:
        assert new.testzip() is None
        carried = [n for n in after if n in before and n != "[Content_Types].xml"
                   and n.startswith(("docProps/", "customXml/")) and new.read(n) == old.read(n)]
        assert carried   # the document's properties at least
        for n in carried:
            assert after[n][1] == before[n][1], n   # the compressed bytes Word stored
            if before[n][0] is not None:
                assert after[n][0] == before[n][0], n
    assert "A new text." in render_bytes(data, source.name)
