"""A document's or a picture's versions as HTML for a text browser: shared by the evidence
dialog and the approval dialog, so both say the same thing the same way.

The words are translated in the evidence dialog's context (one translation for both).
"""

from __future__ import annotations

import html

from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QColor, QImage, QTextDocument

from app.gui.evidence.renderings import Shown
from app.gui.look import look


def problem_words(shown: Shown) -> str:
    """Why a version cannot be shown, in one sentence."""
    if shown.problem == "too_large":
        return QCoreApplication.translate("EvidenceDialog", "This file is too large to show here.")
    if shown.problem == "not_picture":
        return QCoreApplication.translate("EvidenceDialog",
                                          "This picture could not be opened; it may be damaged.")
    return QCoreApplication.translate("EvidenceDialog", "This document cannot be shown: %1") \
        .replace("%1", shown.detail)


def document_note(is_ai: bool = True) -> str:
    """Over a document's text diff; a Demo round's (`is_ai` False) claims no AI read it."""
    if not is_ai:
        return QCoreApplication.translate(
            "EvidenceDialog", "A document: its text is compared as plain text (headings with "
            "#, tables with |).")
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
                             QImage.fromData(shown.picture, "PNG"))  # type: ignore[arg-type]  # stub: bytes; takes str only
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
                                 QImage.fromData(page.picture, "PNG"))  # type: ignore[arg-type]  # stub: bytes; takes str only
            words = QCoreApplication.translate("EvidenceDialog", "Page %1 (%2 × %3 pixels)") \
                .replace("%1", str(page.page)).replace("%2", str(page.size[0])) \
                .replace("%3", str(page.size[1]))
            parts.append(f"{words}<br><table border='1' cellspacing='0' cellpadding='0'><tr>"
                         f"<td><img src='{url.toString()}'></td></tr></table>")
        cells.append("<td valign='top'>" + "<br><br>".join(parts) + "</td>")
    return f"<br><b>{title}</b><table cellspacing='12'><tr>{''.join(cells)}</tr></table>"


# -- a document's change as the person sees it in Office (app.core.documents.change_view) --
def change_words() -> dict:
    """The words of the change view, translated (read on the UI thread, used in the worker)."""
    return {
        "sheet": QCoreApplication.translate("EvidenceDialog", "Sheet: %1"),
        "sheet_added": QCoreApplication.translate("EvidenceDialog", "Sheet: %1 (new)"),
        "sheet_removed": QCoreApplication.translate("EvidenceDialog", "Sheet: %1 (removed)"),
        "sheet_empty": QCoreApplication.translate("EvidenceDialog", "No cells."),
        "empty": QCoreApplication.translate("EvidenceDialog", "(empty)"),
        "formula": QCoreApplication.translate("EvidenceDialog", "formula %1"),
        "before": QCoreApplication.translate("EvidenceDialog", "Before: %1"),
        "after": QCoreApplication.translate("EvidenceDialog", "After: %1"),
        "changed_cells": QCoreApplication.translate("EvidenceDialog", "Changed cells:"),
        "more_cells": QCoreApplication.translate("EvidenceDialog", "and %1 more"),
        "recalc": QCoreApplication.translate(
            "EvidenceDialog", "Calculated afresh when the workbook is next opened"),
        "recalc_cells": QCoreApplication.translate(
            "EvidenceDialog", "↻ These formulas are calculated afresh when the workbook is "
            "next opened (shown with the value they had): %1."),
        "formatting_changed": QCoreApplication.translate(
            "EvidenceDialog", "(only its formatting changed)"),
        "only_bytes": QCoreApplication.translate(
            "EvidenceDialog", "The text and the values shown are the same; only the way the "
            "file is stored changes."),
        "same_shown": QCoreApplication.translate(
            "EvidenceDialog", "The text and the values shown are the same; what changes is %1."),
        "also": QCoreApplication.translate(
            "EvidenceDialog", "Besides what is marked, this also changes %1."),
        "list_sep": QCoreApplication.translate("EvidenceDialog", ", "),
        "list_and": QCoreApplication.translate("EvidenceDialog", " and "),
        "part_layout": QCoreApplication.translate("EvidenceDialog", "its formatting or layout"),
        "part_formatting": QCoreApplication.translate("EvidenceDialog", "its styles"),
        "part_properties": QCoreApplication.translate(
            "EvidenceDialog", "its properties (such as title and author)"),
        "part_pictures": QCoreApplication.translate("EvidenceDialog", "its pictures"),
        "part_charts": QCoreApplication.translate("EvidenceDialog", "its charts"),
        "part_comments": QCoreApplication.translate("EvidenceDialog", "its comments"),
        "part_settings": QCoreApplication.translate("EvidenceDialog", "its settings"),
        "part_text": QCoreApplication.translate("EvidenceDialog", "its stored text"),
        "part_other": QCoreApplication.translate("EvidenceDialog", "other parts of the file"),
    }


def change_colours() -> dict:
    """The change view's colours for the current palette (read on the UI thread)."""
    removed, added = look.removed_colour(), look.ok_colour()
    return {"removed": look.css(removed), "added": look.css(added),
            "muted": look.css(look.muted_colour()), "changed_bg": tint(added)}


def tint(colour) -> str:
    """The colour a quarter strong over the text background: a highlight that reads in light
    and dark palettes alike."""

    base = look.card_colour()
    mix = [round(0.25 * c + 0.75 * b) for c, b in
           zip((colour.red(), colour.green(), colour.blue()), (base.red(), base.green(),
                                                                base.blue()))]
    return QColor(*mix).name()


def change_legend(name: str) -> str:
    """How to read the change view of the document `name`."""
    if name.lower().endswith((".xlsx", ".xlsm")):
        return QCoreApplication.translate(
            "EvidenceDialog", "The sheet as it looks, with the changed cells shaded: the old "
            "value struck through above the new one. Hover over a cell for its formula.")
    if name.lower().endswith(".pdf"):
        return QCoreApplication.translate(
            "EvidenceDialog", "The PDF's text as paragraphs, lists and tables: added words "
            "underlined, removed words struck through.")
    return QCoreApplication.translate(
        "EvidenceDialog", "The document as it looks: added words underlined, removed words "
        "struck through, as Word shows tracked changes.")


def shows_change(name: str) -> bool:
    """Is a change to `name` shown as the document (a grid, a formatted page, a PDF's
    paragraphs)?"""
    return name.lower().endswith((".xlsx", ".xlsm", ".docx", ".pdf"))


def note_html(note: str, colour: str) -> str:
    return f'<p style="color:{colour};">{html.escape(note)}</p>' if note else ""
