"""Real documents made with the libraries themselves, for the tests and the benchmark."""

from __future__ import annotations

import zlib
from pathlib import Path


def brief_docx(path: Path) -> Path:
    import docx

    doc = docx.Document()
    doc.add_heading("Bakery brief", 0)
    doc.add_heading("Goals", 1)
    p = doc.add_paragraph("We sell ")
    p.add_run("fresh").bold = True
    p.add_run(" bread and ")
    p.add_run("cakes").italic = True
    p.add_run(".")
    doc.add_paragraph("Open at 7", style="List Bullet")
    doc.add_paragraph("Close at 18", style="List Bullet 2")
    doc.add_paragraph("Order flour", style="List Number")
    # Word often splits one sentence over several runs of the same formatting.
    p = doc.add_paragraph(style="Quote")
    for piece in ("The ", "new opening ", "hours start ", "in May."):
        p.add_run(piece)
    table = doc.add_table(rows=2, cols=2)
    for (r, c), text in {(0, 0): "Item", (0, 1): "Price", (1, 0): "Rye loaf",
                         (1, 1): "4.20"}.items():
        table.cell(r, c).text = text
    doc.save(path)
    return path


def prices_xlsx(path: Path, rows: int = 3) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Prices"
    ws.append(["Item", "Price", "With tax"])
    names = ["Bread", "Cake", "Scone"]
    for n in range(rows):
        ws.append([names[n % 3] if n < 3 else f"Item {n + 1}", 3.5 + n, f"=B{n + 2}*1.1"])
    notes = wb.create_sheet("Notes")
    notes["B2"] = "Prices include tax from May."
    wb.save(path)
    return path


def long_docx(path: Path, pages: int = 50) -> Path:
    """About `pages` pages: a heading and ten paragraphs of ~60 words each per page."""
    import docx

    doc = docx.Document()
    words = ("the bakery sells fresh bread every morning and cakes on weekends for the "
             "village market ").split()
    for page in range(1, pages + 1):
        doc.add_heading(f"Chapter {page}", 1)
        for n in range(10):
            p = doc.add_paragraph(" ".join(words[(n + i) % len(words)] for i in range(40)) + " ")
            p.add_run(f"point {page}.{n}").bold = True
            p.add_run(" " + " ".join(words[:20]) + ".")
    doc.save(path)
    return path


def pdf_bytes(pages: list[str], compress: bool = True, raw: dict[int, bytes] | None = None
              ) -> bytes:
    """A small valid PDF, a page per text (its lines one under another), with Flate-compressed
    content streams as real PDFs have (or no text at all for a page given as '')."""
    objects: list[bytes] = []
    kids = []
    font_no = 3
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(b"")  # the page tree, filled in below
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for text in pages:
        shown = " T* ".join("(" + line.replace("\\", "\\\\").replace("(", "\\(")
                            .replace(")", "\\)") + ") Tj" for line in text.split("\n"))
        content = (f"BT /F1 10 Tf 12 TL 72 750 Td {shown} ET".encode("latin-1") if text
                   else b"")
        if raw and len(objects) - 3 in {2 * k for k in raw}:
            data = raw[(len(objects) - 3) // 2]  # a ready-made Flate stream for this page
            stream = (f"<< /Length {len(data)} /Filter /FlateDecode >>\nstream\n".encode()
                      + data + b"\nendstream")
        elif compress:
            data = zlib.compress(content)
            stream = (f"<< /Length {len(data)} /Filter /FlateDecode >>\nstream\n".encode()
                      + data + b"\nendstream")
        else:
            stream = f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream"
        objects.append(stream)
        content_no = len(objects)
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources "
                       f"<< /Font << /F1 {font_no} 0 R >> >> /Contents {content_no} 0 R >>"
                       .encode())
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>".encode()
    return pdf_from_objects(objects)


def pdf_from_objects(objects: list[bytes]) -> bytes:
    """A PDF of these objects (1 0 obj is the catalog), with a correct cross-reference table."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
            .encode())
    return bytes(out)


def deck_pptx(path: Path) -> Path:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Spring menu"
    body = slide.placeholders[1].text_frame
    body.text = "Rye loaf"
    p = body.add_paragraph()
    p.text = "Seeded"
    p.level = 1
    slide.notes_slide.notes_text_frame.text = "Mention the oven."
    second = deck.slides.add_slide(deck.slide_layouts[5])
    second.shapes.title.text = "Prices"
    table = second.shapes.add_table(2, 2, Inches(1), Inches(2), Inches(4), Inches(1)).table
    for (r, c), text in {(0, 0): "Item", (0, 1): "Price", (1, 0): "Scone", (1, 1): "2.10"}.items():
        table.cell(r, c).text = text
    deck.save(path)
    return path


_ODF_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
           'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
           'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
           'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
           'xmlns:xlink="http://www.w3.org/1999/xlink"')
_ODF_TYPES = {".odt": "text", ".ods": "spreadsheet", ".odp": "presentation"}


def odf_file(path: Path, body: str, manifest_extra: str = "") -> Path:
    """An OpenDocument package as LibreOffice writes one: mimetype first and stored."""
    import zipfile

    kind = _ODF_TYPES[path.suffix]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), f"application/vnd.oasis.opendocument.{kind}")
        zf.writestr("content.xml", f'<?xml version="1.0" encoding="UTF-8"?>'
                    f'<office:document-content {_ODF_NS}><office:body><office:{kind}>{body}'
                    f'</office:{kind}></office:body></office:document-content>')
        zf.writestr("META-INF/manifest.xml",
                    '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
                    '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry '
                    f'manifest:full-path="content.xml">{manifest_extra}</manifest:file-entry>'
                    '</manifest:manifest>')
    return path
