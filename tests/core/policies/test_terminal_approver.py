"""Careful mode at a terminal: the proposed change is shown as a person reads it, documents
as their text (headings with #, tables with |), never as a count of bytes alone."""

from __future__ import annotations

import io
import threading

from app.commands.approve import TerminalApprover, short_diff
from app.core.policies.approver import ApprovalRequest


def request(path, before, after, action="change"):
    return ApprovalRequest(round=1, task="Update the hours", path=path, action=action,
                           before=before, after=after, reasons=["It was there before."],
                           policies=["existing_files_need_approval"])


def word(lines):
    from docx import Document

    doc = Document()
    doc.add_heading("Opening hours", level=1)
    for line in lines:
        doc.add_paragraph(line)
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def test_a_word_document_is_shown_as_its_text_changed_line_by_line():
    # Before: "brief.docx is not plain text: 36,000 bytes before, 36,010 bytes after."
    lines = short_diff(request("brief.docx", word(["Open Tuesday to Friday.", "Closed Monday."]),
                               word(["Open Tuesday to Saturday.", "Closed Monday."])))
    assert "-Open Tuesday to Friday." in lines and "+Open Tuesday to Saturday." in lines
    assert not any("bytes" in line for line in lines)


def test_a_new_workbook_shows_its_sheet_as_added_lines():
    from openpyxl import Workbook

    book = Workbook()
    book.active.title = "Prices"
    book.active.append(["Item", "Price"])
    book.active.append(["Bread", 3.5])
    out = io.BytesIO()
    book.save(out)
    lines = short_diff(request("prices.xlsx", None, out.getvalue()))
    assert "+## Sheet: Prices" in lines and any(ln.startswith("+2|Bread|3.5") for ln in lines)


def test_a_damaged_document_is_one_sentence_naming_it():
    lines = short_diff(request("brief.docx", b"PK\x03\x04 broken", b"PK\x03\x04 broken too"))
    assert len(lines) == 1 and "'brief.docx'" in lines[0] and "harness-desk-" not in lines[0]


def test_the_terminal_prints_the_documents_text_and_takes_the_answer():
    out = io.StringIO()
    approver = TerminalApprover(stdin=io.StringIO("y\n"), out=out)
    answer = approver.ask(request("brief.docx", word(["Closed Monday."]),
                                  word(["Closed Sunday and Monday."])), threading.Event())
    assert answer is not None and answer.kind == "allow"
    shown = out.getvalue()
    assert "The AI wants to change brief.docx." in shown
    assert "+Closed Sunday and Monday." in shown
