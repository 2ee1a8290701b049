"""Hostile documents built on the spot (issue 34): no network, no stored samples.

Also run by hand to measure a file with `/usr/bin/time -v`:

    python -m tests.hostile_documents font-names out.pdf 200
"""

from __future__ import annotations

import struct
import sys
import zipfile
import zlib
from pathlib import Path

from tests.document_files import pdf_from_objects


def flate(data: bytes) -> bytes:
    packed = zlib.compress(data, 9)
    return f"<< /Length {len(packed)} /Filter /FlateDecode >>\nstream\n".encode() + packed + \
        b"\nendstream"


def font_names_pdf(path: Path, names: int, entries: int = 10_000, distinct: bool = False
                   ) -> Path:
    """One page whose font resources name the same font `names` times (or, `distinct`,
    as many fonts that share one character map); the map has `entries` codes, and pypdf
    built it once per name."""
    lines = [b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
             b"1 begincodespacerange <0000> <FFFF> endcodespacerange"]
    for start in range(0, entries, 100):
        block = range(start, min(start + 100, entries))
        lines.append(b"%d beginbfchar" % len(block))
        lines += [b"<%04X> <%04X>" % (code, 0x4E00 + code % 20000) for code in block]
        lines.append(b"endbfchar")
    lines.append(b"endcmap CMapName currentdict /CMap defineresource pop end end")
    fonts = " ".join(f"/F{n} {8 + n if distinct else 4} 0 R" for n in range(names))
    content = b"BT /F0 12 Tf 72 700 Td <00410042> Tj ET"
    font = (b"<< /Type /Font /Subtype /Type0 /BaseFont /Hostile /Encoding /Identity-H "
            b"/DescendantFonts [7 0 R] /ToUnicode 6 0 R >>")
    path.write_bytes(pdf_from_objects([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << "
        f"{fonts} >> >> /Contents 5 0 R >>".encode(),
        font,
        flate(content),
        flate(b"\n".join(lines)),
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Hostile /CIDSystemInfo << "
        b"/Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 1000 >>",
    ] + [font] * (names if distinct else 0)))
    return path


def shared_stream_pdf(path: Path, pages: int, operations: int) -> Path:
    """`pages` pages that all show one content stream of `operations` text operations."""
    body = b"BT /F1 10 Tf 72 700 Td " + b"(Clause) Tj 0 -1 Td " * operations + b"ET"
    kids = " ".join(f"{6 + n} 0 R" for n in range(pages))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode(),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
               flate(body),
               b"<< /Font << /F1 3 0 R >> >>"]
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources 5 0 R "
                b"/Contents 4 0 R >>"] * pages
    path.write_bytes(pdf_from_objects(objects))
    return path


def lying_docx(path: Path, inflated: int = 1 << 30, declared: int = 4000) -> Path:
    """A Word document whose styles part says it holds `declared` bytes and inflates to
    `inflated` (spaces after the real styles: XML that would parse)."""
    from tests.document_files import brief_docx

    brief_docx(path)
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    styles = parts.pop("word/styles.xml")
    block = b" " * (1 << 20)
    packed = [squeeze.compress(styles)]
    for _ in range((inflated - len(styles)) // len(block)):
        packed.append(squeeze.compress(block))
    packed.append(squeeze.flush())
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    return _append_raw(path, "word/styles.xml", b"".join(packed), declared,
                       zlib.crc32(styles[:declared]))


def _append_raw(path: Path, name: str, packed: bytes, size: int, crc: int) -> Path:
    """Add a deflated member with the sizes and checksum given, true or not."""
    data = path.read_bytes()
    end = data.rindex(b"PK\x05\x06")
    entries, dir_size, dir_offset = struct.unpack("<HII", data[end + 10:end + 20])
    directory = data[dir_offset:dir_offset + dir_size]
    raw_name = name.encode()
    local = struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0, 8, 0, 0x21, crc, len(packed),
                        size, len(raw_name), 0) + raw_name
    central = struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 20, 0, 8, 0, 0x21, crc,
                          len(packed), size, len(raw_name), 0, 0, 0, 0, 0, dir_offset) + raw_name
    body = data[:dir_offset] + local + packed
    new_directory = directory + central
    tail = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, entries + 1, entries + 1,
                       len(new_directory), len(body), 0)
    path.write_bytes(body + new_directory + tail)
    return path


def many_entries_zip(path: Path, entries: int) -> Path:
    """A package whose directory lists `entries` empty members (all one stored record),
    written straight as zip records: 1.9 million of them make about 98 MB."""
    local = struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, 0, 0, 0, 0x21, 0, 0, 0, 1, 0) + b"a"
    central = bytearray()
    for n in range(entries):
        name = f"{n:x}".encode()
        central += struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 20, 0, 0, 0, 0x21,
                               0, 0, 0, len(name), 0, 0, 0, 0, 0, 0) + name
    count = min(entries, 0xFFFF)
    tail = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, count, count, len(central),
                       len(local), 0)
    path.write_bytes(local + bytes(central) + tail)
    return path


def many_slides_pptx(path: Path, slides: int) -> Path:
    """A real deck of `slides` slides, each with a title, a point and notes: the first
    slide of a python-pptx deck copied (python-pptx itself slows down with each slide)."""
    import re

    from tests.document_files import deck_pptx

    deck_pptx(path)
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    slide, rels = parts["ppt/slides/slide1.xml"], parts["ppt/slides/_rels/slide1.xml.rels"]
    notes = parts["ppt/notesSlides/notesSlide1.xml"]
    notes_rels = parts["ppt/notesSlides/_rels/notesSlide1.xml.rels"]
    for name in [n for n in parts if re.match(r"ppt/(notesSlides|slides)/(_rels/)?\w+\d", n)]:
        del parts[name]
    types, ids, links = [], [], []
    for n in range(1, slides + 1):
        parts[f"ppt/slides/slide{n}.xml"] = slide.replace(b"Spring menu", b"Slide %d" % n)
        parts[f"ppt/slides/_rels/slide{n}.xml.rels"] = rels.replace(
            b"notesSlide1.xml", b"notesSlide%d.xml" % n)
        parts[f"ppt/notesSlides/notesSlide{n}.xml"] = notes
        parts[f"ppt/notesSlides/_rels/notesSlide{n}.xml.rels"] = notes_rels.replace(
            b"slide1.xml", b"slide%d.xml" % n)
        types.append(f'<Override PartName="/ppt/slides/slide{n}.xml" ContentType="application/'
                     'vnd.openxmlformats-officedocument.presentationml.slide+xml"/><Override '
                     f'PartName="/ppt/notesSlides/notesSlide{n}.xml" ContentType="application/'
                     'vnd.openxmlformats-officedocument.presentationml.notesSlide+xml"/>')
        ids.append(f'<p:sldId id="{255 + n}" r:id="rIdS{n}"/>')
        links.append(f'<Relationship Id="rIdS{n}" Type="http://schemas.openxmlformats.org/'
                     f'officeDocument/2006/relationships/slide" Target="slides/slide{n}.xml"/>')
    ct = re.sub(rb'<Override PartName="/ppt/(slides|notesSlides)/[^>]*/>', b"",
                parts["[Content_Types].xml"])
    parts["[Content_Types].xml"] = ct.replace(b"</Types>", "".join(types).encode() + b"</Types>")
    pres = re.sub(rb"<p:sldIdLst>.*</p:sldIdLst>", b"<p:sldIdLst>" + "".join(ids).encode()
                  + b"</p:sldIdLst>", parts["ppt/presentation.xml"])
    parts["ppt/presentation.xml"] = pres
    prels = re.sub(rb'<Relationship [^>]*relationships/slide" [^>]*/>', b"",
                   parts["ppt/_rels/presentation.xml.rels"])
    parts["ppt/_rels/presentation.xml.rels"] = prels.replace(
        b"</Relationships>", "".join(links).encode() + b"</Relationships>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, body in parts.items():
            zf.writestr(name, body)
    return path


def replace_member(path: Path, member: str, data: bytes) -> Path:
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    parts[member] = data
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, body in parts.items():
            zf.writestr(name, body)
    return path


def big_workbook(path: Path, rows: int, columns: int = 12) -> Path:
    """A plain, legal workbook of `rows` rows of text, numbers and formulas."""
    import openpyxl

    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("Ledger")
    for r in range(1, rows + 1):
        sheet.append([f"Matter {r}", r * 1.5, f"=B{r}*2"] +
                     [f"Clause {r}.{c}" for c in range(columns - 3)])
    book.save(path)
    return path


if __name__ == "__main__":
    kind, out = sys.argv[1], Path(sys.argv[2])
    number = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    made = {"font-names": lambda: font_names_pdf(out, number or 200),
            "shared-stream": lambda: shared_stream_pdf(out, 300, number or 200_000),
            "lying-docx": lambda: lying_docx(out, number or 1 << 30),
            "many-entries": lambda: many_entries_zip(out, number or 1_900_000),
            "slides": lambda: many_slides_pptx(out, number or 5_000),
            "big-workbook": lambda: big_workbook(out, number or 200_000)}[kind]()
    print(made, made.stat().st_size)


def docx_with_a_hostile_part_name(path: Path) -> None:
    """A Word document holding a stray part whose name carries terminal escape codes."""
    import docx

    document = docx.Document()
    document.add_paragraph("Hello")
    document.save(path)
    with zipfile.ZipFile(path, "a") as package:
        package.writestr("word/\x1b[2K\r\x1b[32mAll good: nothing was changed\x1b[0m\n.xml",
                         b"<x/>")
