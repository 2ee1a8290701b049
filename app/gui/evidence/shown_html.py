"""A document's or a picture's versions as HTML for a text browser: shared by the evidence
dialog and the approval dialog, so both say the same thing the same way.

The words are translated in the evidence dialog's context (one translation for both).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QImage, QTextDocument

from app.gui.evidence.renderings import Shown


def problem_words(shown: Shown) -> str:
    """Why a version cannot be shown, in one sentence."""
    if shown.problem == "too_large":
        return QCoreApplication.translate("EvidenceDialog", "This file is too large to show here.")
    if shown.problem == "not_picture":
        return QCoreApplication.translate("EvidenceDialog",
                                          "This picture could not be opened; it may be damaged.")
    return QCoreApplication.translate("EvidenceDialog", "This document cannot be shown: %1") \
        .replace("%1", shown.detail)


def document_note() -> str:
    return QCoreApplication.translate(
        "EvidenceDialog", "A document: its text is compared as the AI reads it (headings with #, "
        "tables with |).")


def pictures_html(document: QTextDocument, before: Shown | None, after: Shown | None,
                  prefix: str = "evidence-picture") -> str:
    """Before and after side by side; the pictures are added to `document` as resources."""
    cells = []
    labels = (QCoreApplication.translate("EvidenceDialog", "Before"),
              QCoreApplication.translate("EvidenceDialog", "After"))
    for n, (label, shown) in enumerate(zip(labels, (before, after))):
        if shown is None or shown.picture is None:
            none = QCoreApplication.translate("EvidenceDialog", "(no picture)")
            cells.append(f"<td><b>{label}</b><br>{none}</td>")
            continue
        url = QUrl(f"{prefix}-{n}.png")
        document.addResource(QTextDocument.ResourceType.ImageResource, url,
                             QImage.fromData(shown.picture, "PNG"))
        size = shown.picture_size or (0, 0)
        words = QCoreApplication.translate("EvidenceDialog", "%1 × %2 pixels") \
            .replace("%1", str(size[0])).replace("%2", str(size[1]))
        cells.append(f"<td><b>{label}</b> ({words})<br><img src='{url.toString()}'></td>")
    return "<table cellspacing='12'><tr>" + "".join(cells) + "</tr></table>"


def scan_only(before: Shown | None, after: Shown | None) -> bool:
    """No version has any text, but some have pages to look at: a scan, nothing to compare."""
    versions = [v for v in (before, after) if v is not None]
    return any(v.pages for v in versions) and not any((v.text or "").strip() for v in versions)


def pages_html(document: QTextDocument, before: Shown | None, after: Shown | None,
               prefix: str = "evidence-page") -> str:
    """A PDF's pages without text (scans) as pictures, before and after; "" if none."""
    if not any(v is not None and v.pages for v in (before, after)):
        return ""
    title = QCoreApplication.translate("EvidenceDialog",
                                       "Pages without text (scans), shown as pictures")
    labels = (QCoreApplication.translate("EvidenceDialog", "Before"),
              QCoreApplication.translate("EvidenceDialog", "After"))
    cells = []
    for n, (label, shown) in enumerate(zip(labels, (before, after))):
        if shown is None:
            continue
        parts = [f"<b>{label}</b>"]
        for page in shown.pages:
            url = QUrl(f"{prefix}-{n}-{page.page}.png")
            document.addResource(QTextDocument.ResourceType.ImageResource, url,
                                 QImage.fromData(page.picture, "PNG"))
            words = QCoreApplication.translate("EvidenceDialog", "Page %1 (%2 × %3 pixels)") \
                .replace("%1", str(page.page)).replace("%2", str(page.size[0])) \
                .replace("%3", str(page.size[1]))
            parts.append(f"{words}<br><table border='1' cellspacing='0' cellpadding='0'><tr>"
                         f"<td><img src='{url.toString()}'></td></tr></table>")
        cells.append("<td valign='top'>" + "<br><br>".join(parts) + "</td>")
    return f"<br><b>{title}</b><table cellspacing='12'><tr>{''.join(cells)}</tr></table>"
