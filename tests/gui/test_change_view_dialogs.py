"""The evidence and the approval show a document's change as the person sees it in Office
(issue 33, point 4): a workbook Excel saved as a grid with the changed cell marked and its
dollars shown, a Word document Word saved formatted with track-change marks, and a change
no text shows named in words, never "no visible change"."""

from __future__ import annotations

from pathlib import Path

from app.core.documents import edit_document, set_cells
from app.gui.careful.approval_dialog import ApprovalDialog
from tests.gui.test_careful_window import request
from tests.gui.test_document_evidence import a_round, open_evidence

DATA = Path(__file__).parents[1] / "data"
BUDGET = DATA / "excel" / "simple-monthly-budget.xlsx"
CV = DATA / "word" / "poi" / "60316.docx"


def fragments(browser) -> list[tuple[str, object, object]]:
    """(text, its character format, its block format) of every run the browser shows."""
    from PySide6.QtGui import QTextDocument

    document: QTextDocument = browser.document()
    out = []
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            piece = it.fragment()
            out.append((piece.text(), piece.charFormat(), block.blockFormat()))
            it += 1
        block = block.next()
    return out


def test_the_evidence_shows_a_workbook_change_as_a_grid_with_the_cell_marked(qtbot, tmp_path):
    after, _, _ = set_cells(BUDGET, {"C6": 1234.5})
    a_round(tmp_path, {"budget.xlsx": (BUDGET.read_bytes(), after)})
    dialog = open_evidence(qtbot, tmp_path)
    dialog.file_list.setCurrentRow(0)
    qtbot.waitUntil(lambda: not dialog.comparing, timeout=20_000)
    text = dialog.diff.toPlainText()
    assert "Sheet: Simple Monthly Budget" in text and "Income 2" in text
    assert "| 6 |" not in text and "=TotalMonthly" not in text  # no Markdown, no formulas
    runs = fragments(dialog.diff)
    (old,) = [f for t, f, _ in runs if t == "$1,000.00" and f.fontStrikeOut()]
    (new,) = [f for t, f, _ in runs if t == "$1,234.50"]
    assert new.fontWeight() >= 700 and "Before: $1,000.00" in new.toolTip()
    assert "After: $1,234.50" in old.toolTip()
    assert [t for t, f, _ in runs if f.fontStrikeOut()] == ["$1,000.00"]  # only that cell
    assert "changed cells shaded" in dialog.legend.text()
    assert dialog.source_toggle.text() == "Show as the AI reads it"


def test_the_approval_shows_a_word_change_formatted_with_track_change_marks(qtbot, tmp_path):
    after = edit_document(CV, "Getting the perfect job might be challenging",
                          "Getting the ideal job can be hard")
    dialog = ApprovalDialog(request(path="cv.docx", before=CV.read_bytes(), after=after))
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: not dialog.rendering, timeout=20_000)
    runs = fragments(dialog.diff)
    struck = [t for t, f, _ in runs if f.fontStrikeOut()]
    underlined = [t for t, f, _ in runs if f.fontUnderline()]
    assert struck == ["perfect ", "might ", "challenging, "]
    assert underlined == ["ideal ", "can ", "hard, "]
    heading = [b for t, _, b in runs if t == "Objective"]
    assert heading and heading[0].headingLevel() == 1
    assert "#" not in dialog.diff.toPlainText()
    assert "as Word shows tracked changes" in dialog.legend.text()
    assert not dialog.as_text.isHidden()


def test_an_approval_of_a_change_no_text_shows_names_what_changes(qtbot, tmp_path):
    from tests.core.documents.test_change_view import _with_run_look

    big = _with_run_look(CV, tmp_path / "big.docx", "Getting the perfect",   # a size: the
                         '<w:sz w:val="40"/>')                                # view draws none
    dialog = ApprovalDialog(request(path="cv.docx", before=CV.read_bytes(),
                                    after=big.read_bytes()))
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: not dialog.rendering, timeout=20_000)
    text = dialog.diff.toPlainText()
    assert "what changes is its formatting or layout." in text
    assert "no visible change" not in text and "line endings" not in text


def test_hovering_a_changed_cell_in_the_approval_shows_before_after_and_formula(qtbot):
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication, QToolTip

    after, _, _ = set_cells(BUDGET, {"C6": 1234.5})
    dialog = ApprovalDialog(request(path="budget.xlsx", before=BUDGET.read_bytes(),
                                    after=after))
    qtbot.addWidget(dialog)
    dialog.resize(900, 640)
    dialog.show()
    qtbot.waitUntil(lambda: not dialog.rendering, timeout=20_000)

    def hover(text: str) -> str:
        QToolTip.hideText()
        spot = dialog.diff.cursorRect(dialog.diff.document().find(text)).center()
        QApplication.sendEvent(dialog.diff.viewport(), QHelpEvent(
            QEvent.Type.ToolTip, spot, dialog.diff.viewport().mapToGlobal(spot)))
        return QToolTip.text()

    assert hover("$1,234.50") == "Before: $1,000.00\nAfter: $1,234.50"
    assert hover("2336") == "formula =TotalMonthlyExpenses"  # formulas on demand
    assert "Sheet: Simple Monthly Budget" in dialog.diff.toPlainText()


def test_a_pdf_whose_text_stays_says_what_changes_in_the_evidence(qtbot, tmp_path):
    from tests.document_files import pdf_bytes

    a_round(tmp_path, {"menu.pdf": (pdf_bytes(["Soup of the day"], compress=True),
                                    pdf_bytes(["Soup of the day"], compress=False))})
    dialog = open_evidence(qtbot, tmp_path)
    dialog.file_list.setCurrentRow(0)
    qtbot.waitUntil(lambda: not dialog.comparing, timeout=20_000)
    text = dialog.diff.toPlainText()
    assert "only the way the file is stored changes." in text  # the text diff, with words
    assert "line endings" not in text and not dialog.source_toggle.isHidden()


def test_the_evidence_and_the_approval_show_a_pdf_change_as_paragraphs(qtbot, tmp_path):
    from tests.core.documents.test_change_view import _menu_pdf

    before = _menu_pdf(tmp_path / "a.pdf", "seven", "4.62").read_bytes()
    after = _menu_pdf(tmp_path / "b.pdf", "six", "4.80").read_bytes()
    a_round(tmp_path, {"menu.pdf": (before, after)})
    dialog = open_evidence(qtbot, tmp_path)
    dialog.file_list.setCurrentRow(0)
    qtbot.waitUntil(lambda: not dialog.comparing, timeout=20_000)
    runs = fragments(dialog.diff)
    assert [t for t, f, _ in runs if f.fontStrikeOut()] == ["seven ", "4.62"]
    assert [t for t, f, _ in runs if f.fontUnderline()] == ["six ", "4.80"]
    text = dialog.diff.toPlainText()
    assert "every weekday and at eight on Saturdays when the first loaves come out" in text
    assert "##" not in text and "| --- |" not in text
    assert dialog.legend.text() == ("The PDF's text as paragraphs, lists and tables: added "
                                    "words underlined, removed words struck through.")
    dialog.source_toggle.click()  # as the AI reads it, one click away
    qtbot.waitUntil(lambda: not dialog.comparing, timeout=20_000)
    assert "## Page 1" in dialog.diff.toPlainText()

    approval = ApprovalDialog(request(path="menu.pdf", before=before, after=after))
    qtbot.addWidget(approval)
    qtbot.waitUntil(lambda: not approval.rendering, timeout=20_000)
    runs = fragments(approval.diff)
    assert [t for t, f, _ in runs if f.fontStrikeOut()] == ["seven ", "4.62"]
    assert "The PDF's text as paragraphs" in approval.legend.text()
    assert not approval.as_text.isHidden()
