"""A workbook edited in place keeps every part it does not change stored exactly as Excel
stored it: the same local header and the same compressed bytes, so the file keeps its size
(issue 33, point 1: "every other part byte for byte"), and the package opens cleanly with
its CRCs right. Packages zip_keep does not copy by hand (Zip64) are written by zipfile."""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

import pytest

from app.core.documents import set_cells
from app.core.documents.xlsx_package import Package
from app.core.documents.zip_keep import kept_zip
from tests.excel_checks import choose_cells

DATA = Path(__file__).resolve().parents[2] / "data" / "excel"
BOOKS = sorted(p.name for p in DATA.iterdir() if p.suffix in (".xlsx", ".xlsm"))
# The parts an edit of cells may have to touch (the sheet; the workbook's calculation
# settings, its chain and styles for a new number format).
TOUCHED = ("xl/worksheets/", "xl/workbook.xml", "xl/calcChain.xml", "xl/styles.xml")


def _stored(data: bytes) -> dict[str, bytes]:
    """Each entry's local header and compressed bytes, as they sit in the file."""
    out = {}
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        for info in zf.infolist():
            names, extra = struct.unpack_from("<2H", data, info.header_offset + 26)
            start = info.header_offset + 30 + names + extra
            out[info.filename] = data[info.header_offset:start + info.compress_size]
    return out


@pytest.mark.parametrize("name", BOOKS)
def test_set_cells_keeps_every_other_part_stored_as_excel_stored_it(tmp_path, name):
    source = tmp_path / name
    source.write_bytes((DATA / name).read_bytes())
    sheet, cells, _ = choose_cells(source)
    data, _, _ = set_cells(source, cells, sheet)
    before, after = _stored(source.read_bytes()), _stored(data)
    assert list(after) == list(before) and next(iter(after)) == "[Content_Types].xml"
    differ = [n for n in before if before[n] != after[n]]
    assert differ and all(n.startswith(TOUCHED) for n in differ), differ
    with zipfile.ZipFile(io.BytesIO(data)) as zf, zipfile.ZipFile(source) as old:
        assert zf.testzip() is None  # every CRC right
        for new, was in zip(zf.infolist(), old.infolist()):
            assert (new.compress_type, new.create_version, new.external_attr) == \
                (was.compress_type, was.create_version, was.external_attr)
    # the file's size changes by what the touched parts' new bytes take, nothing else
    assert len(data) - source.stat().st_size == sum(len(after[n]) - len(before[n])
                                                    for n in differ)


def test_the_excel_saved_budget_keeps_its_size():
    budget = DATA / "simple-monthly-budget.xlsx"
    data, _, _ = set_cells(budget, {"C6": 1234.5})
    assert budget.stat().st_size == 18700 and 18_000 < len(data) < 18_700  # was 15,299


def _zip(path: Path, entries: dict[str, bytes], **kw) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            with zf.open(name, "w", **kw) as fh:
                fh.write(data)
    return path


def test_parts_after_a_data_descriptor_a_utf8_name_and_a_removed_part_read_back(tmp_path):
    # zipfile writing to a stream it cannot seek puts each entry's sizes after its data
    stream = io.BytesIO()

    class Unseekable(io.RawIOBase):
        def writable(self):
            return True

        def write(self, b):
            return stream.write(b)

    with zipfile.ZipFile(Unseekable(), "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("keep.xml", b"<a>" + b"x" * 5000 + b"</a>")
        zf.writestr("Preis\u00fcbersicht.xml", b"<b>caf\xc3\xa9</b>")
        zf.writestr("gone.xml", b"<c/>")
        zf.writestr("change.xml", b"<d>old</d>")
    raw = stream.getvalue()
    with zipfile.ZipFile(io.BytesIO(raw)) as zf:
        infos = zf.infolist()
        assert all(i.flag_bits & 0x08 for i in infos)  # the case under test
    out = kept_zip(raw, infos, {"change.xml": b"<d>new</d>", "gone.xml": None}, b"note")
    with zipfile.ZipFile(io.BytesIO(out)) as zf:
        assert zf.testzip() is None and zf.comment == b"note"
        assert zf.namelist() == ["keep.xml", "Preis\u00fcbersicht.xml", "change.xml"]
        assert zf.read("change.xml") == b"<d>new</d>"
        assert zf.read("Preis\u00fcbersicht.xml") == b"<b>caf\xc3\xa9</b>"
        assert not any(i.flag_bits & 0x08 for i in zf.infolist())
    assert _stored(out)["keep.xml"][30:] == _stored(raw)["keep.xml"][30:]  # data as it was


def test_a_zip64_package_is_left_to_zipfile_and_still_edited(tmp_path):
    path = _zip(tmp_path / "big.zip", {"[Content_Types].xml": b"<Types/>", "a.xml": b"<a/>"},
                force_zip64=True)
    with zipfile.ZipFile(path) as zf:
        assert kept_zip(path.read_bytes(), zf.infolist(), {"a.xml": b"<b/>"}) is None
    package = Package.__new__(Package)  # only the writing half, on a plain zip
    with zipfile.ZipFile(path) as zf:
        package.raw, package.infos, package.comment = path.read_bytes(), zf.infolist(), b""
        package.parts = {i.filename: zf.read(i) for i in package.infos}
    package.changed, package._trees, package._dirty = {"a.xml": b"<b/>"}, {}, set()
    with zipfile.ZipFile(io.BytesIO(package.to_bytes())) as zf:
        assert zf.read("a.xml") == b"<b/>" and zf.read("[Content_Types].xml") == b"<Types/>"


def test_a_header_that_does_not_match_its_directory_is_not_copied(tmp_path):
    path = _zip(tmp_path / "p.zip", {"a.xml": b"<a/>", "b.xml": b"<b/>"})
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as zf:
        infos = zf.infolist()
    raw[infos[1].header_offset:infos[1].header_offset + 4] = b"XXXX"
    assert kept_zip(bytes(raw), infos, {"a.xml": b"<c/>"}) is None
