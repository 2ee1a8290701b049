"""A round's evidence shows a changed document as its rendered text diffed, a picture as a
picture before and after; the file preview (a decision's evidence) opens documents as their
rendering and pictures as pictures, never as bytes. All reading is off the UI thread."""

from __future__ import annotations

import json

from app.core.undo.blobs import BlobStore
from app.core.workspace.workspace import Workspace
from app.gui.evidence.evidence_data import read_evidence
from app.gui.evidence.evidence_dialog import EvidenceDialog
from app.gui.evidence.file_preview import FilePreviewDialog
from app.gui.run.round_cards import RoundView


def word(path, lines: list[str]):
    from docx import Document

    doc = Document()
    doc.add_heading("Opening hours", level=1)
    for line in lines:
        doc.add_paragraph(line)
    doc.save(path)
    return path.read_bytes()


def picture(path, colour: str, size=(900, 600)) -> bytes:
    from PIL import Image

    Image.new("RGB", size, colour).save(path, "PNG")
    return path.read_bytes()


def a_round(tmp_path, files: dict[str, tuple[bytes | None, bytes | None]]) -> Workspace:
    """A workspace whose run r1, round 1 changed `files` (before, after; None: absent)."""
    ws = Workspace(tmp_path)
    blobs = BlobStore(ws.harness_dir)
    entries = {rel: {"before": blobs.put(b) if b is not None else "absent",
                     "after": blobs.put(a) if a is not None else "absent"}
               for rel, (b, a) in files.items()}
    undo = ws.run_files("r1").undo(1)
    undo.parent.mkdir(parents=True)
    undo.write_text(json.dumps({"round": 1, "files": entries}), encoding="utf-8")
    return ws


def open_evidence(qtbot, root) -> EvidenceDialog:
    view = RoundView(1, "Update the hours", "completed", run_id="r1")
    dialog = EvidenceDialog(root, view)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.evidence is not None, timeout=10_000)
    return dialog


def test_a_changed_word_document_shows_its_text_before_and_after(qtbot, tmp_path):
    old = word(tmp_path / "old.docx", ["Tuesday to Friday 7:00–16:00.", "Closed Monday."])
    new = word(tmp_path / "new.docx", ["Tuesday to Saturday 7:00–16:00.", "Closed Monday."])
    a_round(tmp_path, {"drafts/contact.docx": (old, new)})
    dialog = open_evidence(qtbot, tmp_path)
    (f,) = dialog.evidence.files
    assert f.kind == "document" and f.before_shown.text.startswith("# Opening hours")
    dialog.file_list.setCurrentRow(0)
    qtbot.waitUntil(lambda: not dialog.comparing, timeout=10_000)  # compared off the UI thread
    # As it looks (test_change_view_dialogs.py); as the AI reads it, one click away:
    assert not dialog.source_toggle.isHidden() and \
        dialog.source_toggle.text() == "Show as the AI reads it"
    dialog.source_toggle.click()
    qtbot.waitUntil(lambda: not dialog.comparing, timeout=10_000)
    shown = dialog.diff.toPlainText().splitlines()
    assert "− Tuesday to Friday 7:00–16:00." in shown
    assert "+ Tuesday to Saturday 7:00–16:00." in shown
    assert "  Closed Monday." in shown  # unchanged, as context
    assert not any("PK" in line or "word/document.xml" in line for line in shown)  # no bytes


def test_a_new_spreadsheet_shows_its_sheets_as_added_lines_as_the_ai_reads_it(qtbot,
                                                                            tmp_path):
    from openpyxl import Workbook

    wb = Workbook()
    wb.active.title = "Prices"
    wb.active.append(["Cake", "Price"])
    wb.active.append(["Carrot cake", 30])
    wb.save(tmp_path / "p.xlsx")
    a_round(tmp_path, {"prices.xlsx": (None, (tmp_path / "p.xlsx").read_bytes())})
    dialog = open_evidence(qtbot, tmp_path)
    dialog.file_list.setCurrentRow(0)
    qtbot.waitUntil(lambda: not dialog.comparing, timeout=10_000)  # compared off the UI thread
    grid = dialog.diff.toPlainText()  # as it looks: a grid of new cells
    assert "Sheet: Prices (new)" in grid and "Carrot cake" in grid and "|" not in grid
    dialog.source_toggle.click()
    qtbot.waitUntil(lambda: not dialog.comparing, timeout=10_000)
    shown = dialog.diff.toPlainText()
    assert "+ ## Sheet: Prices" in shown and "\n+ 2|Carrot cake|30" in shown


def test_a_changed_picture_shows_both_pictures(qtbot, tmp_path):
    a_round(tmp_path, {"logo.png": (picture(tmp_path / "a.png", "red"),
                                    picture(tmp_path / "b.png", "blue", (1200, 400)))})
    dialog = open_evidence(qtbot, tmp_path)
    (f,) = dialog.evidence.files
    assert f.kind == "picture" and f.after_shown.picture_size == (1200, 400)
    dialog.file_list.setCurrentRow(0)
    qtbot.waitUntil(lambda: not dialog.comparing, timeout=10_000)  # compared off the UI thread
    html = dialog.diff.toHtml()
    assert html.count("<img") == 2
    text = dialog.diff.toPlainText()
    assert "Before (900 × 600 pixels)" in text and "After (1200 × 400 pixels)" in text


def test_a_damaged_document_gets_one_sentence(qtbot, tmp_path):
    a_round(tmp_path, {"brief.docx": (b"PK\x03\x04 not a real zip", b"also broken")})
    dialog = open_evidence(qtbot, tmp_path)
    dialog.file_list.setCurrentRow(0)
    qtbot.waitUntil(lambda: not dialog.comparing, timeout=10_000)  # compared off the UI thread
    words = dialog.diff.toPlainText()
    assert words.startswith("This document cannot be shown: ") and "Traceback" not in words


def test_the_preview_opens_a_document_as_its_rendering(qtbot, tmp_path):
    word(tmp_path / "brief.docx", ["Tuesday to Friday 7:00–16:00."])
    dialog = FilePreviewDialog(tmp_path, "brief.docx")
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.text.toPlainText() != "", timeout=10_000)
    assert dialog.text.toPlainText().startswith("# Opening hours\n")
    assert "the way the AI reads it" in dialog.note.text()


def test_the_preview_shows_a_picture_as_a_picture(qtbot, tmp_path):
    from PySide6.QtWidgets import QLabel

    picture(tmp_path / "shop.png", "green", (2000, 1000))
    dialog = FilePreviewDialog(tmp_path, "shop.png")
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: "2000 × 1000" in dialog.note.text(), timeout=10_000)
    shown = [w for w in dialog.findChildren(QLabel) if w.pixmap() is not None
             and not w.pixmap().isNull()]
    assert shown and max(shown[0].pixmap().width(), shown[0].pixmap().height()) == 420
    assert shown[0].accessibleName() == "Picture shop.png, 2000 × 1000 pixels"


def test_evidence_data_renders_documents_off_the_ui_thread_without_qt(tmp_path):
    old = word(tmp_path / "o.docx", ["A"])
    a_round(tmp_path, {"d.docx": (old, None)})
    (f,) = read_evidence(tmp_path, "r1", 1).files
    assert f.deleted and f.before_shown.text.startswith("# Opening hours") and f.after_shown is None


# -- Markdown as the person reads it (issue 18, point 15) ------------------------------------

TABLE_MD = ("# Two directions\n\n| | Speed | Trust |\n|---|---|---|\n| For | Fast | Warm |\n\n"
            "<script>alert('x')</script>\n\n![logo](https://example.com/logo.png)\n")


def _rendered_text(dialog) -> str:
    return dialog.rendered.document().toPlainText()


def test_the_preview_shows_markdown_formatted_with_its_source_one_click_away(qtbot, tmp_path):
    (tmp_path / "options.md").write_text(TABLE_MD, encoding="utf-8")
    dialog = FilePreviewDialog(tmp_path, "options.md")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.source_toggle.isVisible(), timeout=10_000)
    document = dialog.rendered.document()
    assert dialog.rendered.isVisible() and not dialog.text.isVisible()
    shown = _rendered_text(dialog)
    assert "|---|" not in shown and "| For |" not in shown and "Two directions" in shown
    tables = [f for f in document.rootFrame().childFrames() if type(f).__name__ == "QTextTable"]
    assert len(tables) == 1 and tables[0].rows() == 2 and tables[0].columns() == 3
    assert "<script>" in shown  # raw HTML is shown as text, never run or laid out
    assert "[logo]" in shown and "<img" not in dialog.rendered.toHtml()  # its words only
    dialog.source_toggle.click()  # the source, marks and all
    assert dialog.text.isVisible() and not dialog.rendered.isVisible()
    assert dialog.text.toPlainText() == TABLE_MD
    assert dialog.source_toggle.text() == "Show formatted"
    dialog.source_toggle.click()
    assert dialog.rendered.isVisible()


def test_the_formatted_view_fetches_no_picture_and_follows_no_link(qtbot, tmp_path):
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QTextDocument

    secret = tmp_path.parent / "secret.png"
    secret.write_bytes(b"not for the preview")
    (tmp_path / "page.md").write_text(f"![a]({secret.as_uri()})\n\n[site](https://example.com)\n",
                                      encoding="utf-8")
    dialog = FilePreviewDialog(tmp_path, "page.md")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.source_toggle.isVisible(), timeout=10_000)
    assert "<img" not in dialog.rendered.toHtml()  # a picture is its words, nothing fetched
    assert dialog.rendered.loadResource(QTextDocument.ResourceType.ImageResource,
                                        QUrl(secret.as_uri())) is None
    assert not dialog.rendered.openLinks() and not dialog.rendered.openExternalLinks()


def test_a_document_preview_is_formatted_too(qtbot, tmp_path):
    word(tmp_path / "brief.docx", ["Tuesday to Friday 7:00–16:00."])
    dialog = FilePreviewDialog(tmp_path, "brief.docx")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.source_toggle.isVisible(), timeout=10_000)
    assert dialog.text.toPlainText().startswith("# Opening hours\n")  # the source
    assert not _rendered_text(dialog).startswith("#")  # the heading, as a heading


def test_a_new_markdown_file_in_a_round_reads_formatted_and_a_changed_one_stays_a_diff(
        qtbot, tmp_path):
    a_round(tmp_path, {"notes/options.md": (None, TABLE_MD.encode("utf-8")),
                       "notes/old.md": (b"| a |\n|---|\n| 1 |\n", b"| a |\n|---|\n| 2 |\n")})
    dialog = open_evidence(qtbot, tmp_path)
    dialog.show()
    row = [f.path for f in dialog.evidence.files].index("notes/options.md")
    with qtbot.waitSignal(dialog.diff_shown, timeout=10_000):
        dialog.file_list.setCurrentRow(row)
    shown = dialog.diff.toPlainText()
    assert "|---|" not in shown and "Two directions" in shown and "<script>" in shown
    assert dialog.source_toggle.isVisible()
    with qtbot.waitSignal(dialog.diff_shown, timeout=10_000):
        dialog.source_toggle.click()  # the lines as written
    assert "|---|---|---|" in dialog.diff.toPlainText()
    with qtbot.waitSignal(dialog.diff_shown, timeout=10_000):
        dialog.file_list.setCurrentRow(1 - row)  # a changed file: its text diff
    assert "|---|" in dialog.diff.toPlainText() and not dialog.source_toggle.isVisible()

def scanned_pdf(path, pages=2, cover: str = "") -> bytes:
    """A PDF like a scanner's: each page one JPEG picture and no text; with `cover`, a first
    page of real text comes before them."""
    import io

    from PIL import Image, ImageDraw
    from pypdf import PdfReader, PdfWriter

    from tests.document_files import pdf_bytes

    scans = []
    for n in range(pages):
        img = Image.new("RGB", (850, 1100), "white")
        ImageDraw.Draw(img).rectangle([100, 100 + 80 * n, 700, 300 + 80 * n], fill="black")
        scans.append(img)
    buf = io.BytesIO()
    scans[0].save(buf, "PDF", save_all=True, append_images=scans[1:])
    writer = PdfWriter()
    sources = ([io.BytesIO(pdf_bytes([cover]))] if cover else []) + [io.BytesIO(buf.getvalue())]
    for source in sources:
        for page in PdfReader(source).pages:
            writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    path.write_bytes(out.getvalue())
    return out.getvalue()


def test_a_deleted_scanned_pdf_shows_its_pages_as_pictures(qtbot, tmp_path):
    # Before: "This document cannot be shown: … has no text layer" and nothing to look at.
    a_round(tmp_path, {"receipts.pdf": (scanned_pdf(tmp_path / "s.pdf", pages=2), None)})
    dialog = open_evidence(qtbot, tmp_path)
    (f,) = dialog.evidence.files
    assert [(p.page, p.size) for p in f.before_shown.pages] == [(1, (850, 1100)),
                                                               (2, (850, 1100))]
    dialog.file_list.setCurrentRow(0)
    qtbot.waitUntil(lambda: not dialog.comparing, timeout=10_000)
    text = dialog.diff.toPlainText()
    assert "Pages without text (scans), shown as pictures" in text
    assert "Page 1 (850 × 1100 pixels)" in text and "Page 2 (850 × 1100 pixels)" in text
    assert dialog.diff.toHtml().count("<img") == 2
    assert "cannot be shown" not in text and "The text is the same" not in text
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QTextDocument

    image = dialog.diff.document().resource(QTextDocument.ResourceType.ImageResource,
                                            QUrl("evidence-page-0-1.png"))
    assert image is not None and not image.isNull() and max(image.width(), image.height()) == 420


def test_the_preview_of_a_scan_shows_its_first_page(qtbot, tmp_path):
    from PySide6.QtWidgets import QLabel

    scanned_pdf(tmp_path / "scan.pdf", pages=3)
    dialog = FilePreviewDialog(tmp_path, "scan.pdf")
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: "page 1" in dialog.note.text(), timeout=10_000)
    assert "scanned PDF" in dialog.note.text()
    shown = [w for w in dialog.findChildren(QLabel) if w.pixmap() is not None
             and not w.pixmap().isNull()]
    assert shown and shown[0].pixmap().height() == 420


def test_only_pages_without_text_become_pictures_and_a_bomb_is_not_decoded(tmp_path,
                                                                          monkeypatch):
    from app.gui.evidence import renderings
    from tests.document_files import pdf_bytes

    mixed = renderings.show_bytes(scanned_pdf(tmp_path / "m.pdf", pages=1, cover="Cover"),
                                  "mixed.pdf")
    assert mixed.text.startswith("## Page 1\n\nCover") and [p.page for p in mixed.pages] == [2]
    assert renderings.show_bytes(pdf_bytes(["Only text"]), "text.pdf").pages == []
    # A picture past the pixel cap is never decoded: no page picture, and no crash.
    monkeypatch.setattr(renderings, "PICTURE_MAX_PIXELS", 1000)
    shown = renderings.show_bytes(scanned_pdf(tmp_path / "s.pdf", pages=1), "scan.pdf")
    assert shown.pages == [] and shown.problem == "document" and "no text layer" in shown.detail


def test_a_new_markdown_file_shown_formatted_has_no_legend_of_green_and_red_lines(qtbot,
                                                                                 tmp_path):
    """A new Markdown file is shown formatted, with no lines marked: the legend above it said
    green lines were added and red ones removed, of a view with neither."""
    a_round(tmp_path, {"notes/options.md": (None, TABLE_MD.encode("utf-8")),
                       "notes/old.md": (b"alpha\n", b"beta\n")})
    dialog = open_evidence(qtbot, tmp_path)
    dialog.show()
    row = [f.path for f in dialog.evidence.files].index("notes/options.md")
    with qtbot.waitSignal(dialog.diff_shown, timeout=10_000):
        dialog.file_list.setCurrentRow(row)
    assert "Green lines" not in dialog.legend.text()
    assert dialog.legend.text() == "Nothing to compare: the file is new."
    with qtbot.waitSignal(dialog.diff_shown, timeout=10_000):
        dialog.source_toggle.click()  # its lines as written: every one marked added
    assert "Green lines" in dialog.legend.text()
    with qtbot.waitSignal(dialog.diff_shown, timeout=10_000):
        dialog.file_list.setCurrentRow(1 - row)  # a changed file: lines added and removed
    assert "Green lines" in dialog.legend.text()
