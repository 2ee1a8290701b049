"""Make the demo workspaces' Word brief and price list: brief.docx and prices.xlsx, in English
(resources/demo-workspace) and Chinese (resources/demo-workspace-zh).

The same bytes every time: the documents' own dates are fixed, and each file is re-zipped
with its parts in the same order, with a fixed date, so a rebuild changes nothing in git.
Run it after changing the words here:  .venv/bin/python scripts/make_demo_documents.py
(--check only compares, for the tests).
"""

from __future__ import annotations

import datetime as dt
import io
import re
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIXED = dt.datetime(2026, 3, 2, 9, 0, 0)
ZIP_DATE = (2026, 3, 2, 9, 0, 0)
STAMP = FIXED.strftime("%Y-%m-%dT%H:%M:%SZ").encode()

ENGLISH = {
    "folder": "demo-workspace",
    "title": "Brief: the opening hours and contact page",
    "intro": "Rosie's notes for the page that tells people when we are open, how to reach us "
             "and what a celebration cake costs.",
    "must": "What the page must say",
    "items": ["The opening hours.", "The address and the phone number.",
              "What each celebration cake costs, from the price list (prices.xlsx)."],
    "facts": [("Opening hours.", "Tuesday to Friday 7:00–16:00, Saturday 7:00–14:00, closed "
                                 "Sunday and Monday."),
              ("Contact.", "14 Mill Lane, Ashford Green. Phone 01632 960 714. "
                           "hello@rosiesbakery.example"),
              ("Cake orders.", "Please order celebration cakes at least two days ahead.")],
    "tone": "Tone",
    "tone_text": "Warm and short, like a neighbour telling you when to pop in.",
    "author": "Rosie Clarke",
    "sheet": "Prices",
    "header": ["Cake", "Serves", "Price (£)"],
    "rows": [["Victoria sponge", 8, 24.0], ["Chocolate fudge cake", 10, 28.5],
             ["Lemon drizzle", 8, 22.0], ["Carrot cake", 12, 30.0],
             ["Birthday cake, your design", 16, 45.0]],
}
CHINESE = {
    "folder": "demo-workspace-zh",
    "title": "简介：营业时间和联系方式页面",
    "intro": "罗西给这个页面写的说明：告诉大家我们什么时候开门、怎么联系我们，还有庆祝蛋糕的价格。",
    "must": "页面上必须写明",
    "items": ["营业时间。", "地址和电话。", "每款庆祝蛋糕的价格，见价目表（prices.xlsx）。"],
    "facts": [("营业时间。", "周二至周五 7:00–16:00，周六 7:00–14:00，周日、周一休息。"),
              ("联系方式。", "青石镇磨坊路 14 号。电话 0571-5550 0714。hello@rosiesbakery.example"),
              ("蛋糕预订。", "庆祝蛋糕请至少提前两天预订。")],
    "tone": "口吻",
    "tone_text": "亲切、简短，像邻居告诉你什么时候过来坐坐。",
    "author": "罗晓茜",
    "sheet": "价目",
    "header": ["蛋糕", "几人份", "价格（元）"],
    "rows": [["维多利亚海绵蛋糕", 8, 168], ["巧克力软心蛋糕", 10, 198], ["柠檬糖霜蛋糕", 8, 158],
             ["胡萝卜蛋糕", 12, 218], ["定制生日蛋糕", 16, 328]],
}


def brief_docx(words: dict) -> bytes:
    from docx import Document

    doc = Document()
    doc.add_heading(words["title"], level=1)
    doc.add_paragraph(words["intro"])
    doc.add_heading(words["must"], level=2)
    for item in words["items"]:
        doc.add_paragraph(item, style="List Bullet")
    for label, text in words["facts"]:
        paragraph = doc.add_paragraph()
        paragraph.add_run(label).bold = True
        paragraph.add_run(" " + text)
    doc.add_heading(words["tone"], level=2)
    doc.add_paragraph(words["tone_text"])
    props = doc.core_properties
    props.author = props.last_modified_by = words["author"]
    props.title = words["title"]
    props.created = props.modified = FIXED
    props.revision = 1
    out = io.BytesIO()
    doc.save(out)
    return _fixed_zip(out.getvalue())


def prices_xlsx(words: dict) -> bytes:
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook()
    sheet = wb.active
    sheet.title = words["sheet"]
    sheet.append(words["header"])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in words["rows"]:
        sheet.append(row)
    for row in sheet.iter_rows(min_row=2, min_col=3, max_col=3):
        row[0].number_format = "0.00"
    sheet.column_dimensions["A"].width = 30
    wb.properties.creator = wb.properties.lastModifiedBy = words["author"]
    wb.properties.created = wb.properties.modified = FIXED
    out = io.BytesIO()
    wb.save(out)
    return _fixed_zip(out.getvalue())


def _fixed_zip(data: bytes) -> bytes:
    """The same archive with every entry dated ZIP_DATE (zipfile stamps the time of saving)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            entry = zipfile.ZipInfo(info.filename, ZIP_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o600 << 16
            body = src.read(info.filename)
            if info.filename == "docProps/core.xml":  # openpyxl stamps `modified` as it saves
                body = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>" + STAMP, body)
            dst.writestr(entry, body)
    return out.getvalue()


def documents() -> dict[Path, bytes]:
    made = {}
    for words in (ENGLISH, CHINESE):
        folder = REPO / "resources" / words["folder"]
        made[folder / "brief.docx"] = brief_docx(words)
        made[folder / "prices.xlsx"] = prices_xlsx(words)
    return made


def main(argv: list[str]) -> int:
    stale = []
    for path, data in documents().items():
        if "--check" in argv:
            if not path.is_file() or path.read_bytes() != data:
                stale.append(path)
            continue
        path.write_bytes(data)
        print(f"Wrote {path.relative_to(REPO)} ({len(data):,} bytes)")
    for path in stale:
        print(f"Out of date: {path.relative_to(REPO)}; run scripts/make_demo_documents.py")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
