"""Paint a QTextDocument into a PDF page by page, with margins, metadata and page numbers."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from typing import Callable

from PySide6.QtCore import (QBuffer, QByteArray, QIODevice, QMarginsF, QPointF, QRectF, QSizeF,
                            Qt, QUrl)
from PySide6.QtGui import (QColor, QFont, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter,
                           QPen, QRawFont, QTextBlockFormat, QTextCursor, QTextDocument,
                           QTextTable)

from app import NAME
from app.export.words import tr

RESOLUTION = 1200  # QPdfWriter's own default: fine positioning of glyphs and rules
MARGINS_MM = (20.0, 18.0, 20.0, 22.0)  # left, top, right, bottom (the footer sits inside it)
FOOTER_GAP_MM = 8.0
KEEP_WITH_NEXT_PT = 60.0  # a heading needs about three lines under it on the same page


def _mm(value: float) -> float:
    return value / 25.4 * RESOLUTION


ChartPainter = Callable[[QPainter, QRectF], None]


def _image_format(doc: QTextDocument, name: str) -> tuple[float, float]:
    block = doc.begin()
    while block.isValid():
        for it in block:  # type: ignore[attr-defined]  # PySide6's stub: __iter__ -> object
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat() and fmt.toImageFormat().name() == name:
                return fmt.toImageFormat().width(), fmt.toImageFormat().height()
        block = block.next()
    return 0.0, 0.0


def _image_rect(doc: QTextDocument, name: str) -> QRectF | None:
    """Where the named image sits, in document coordinates (after layout)."""
    layout = doc.documentLayout()
    block = doc.begin()
    while block.isValid():
        for it in block:  # type: ignore[attr-defined]  # PySide6's stub: __iter__ -> object
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat() and fmt.toImageFormat().name() == name:
                text_layout = block.layout()
                line = text_layout.lineForTextPosition(it.fragment().position() - block.position())
                origin = layout.blockBoundingRect(block).topLeft()
                # PySide6's stub types cursorToX as object; it is (x, position).
                x = origin.x() + line.cursorToX(it.fragment().position() - block.position())[0]  # type: ignore[index]
                return QRectF(x, origin.y() + line.y(), 0, line.height())
        block = block.next()
    return None


def write_pdf(doc: QTextDocument, page_size: QPageSize, title: str, footer: str,
              families: list[str], vector: tuple[str, ChartPainter] | None = None,
              lang: str = "en") -> bytes:
    """The document as PDF bytes; `vector` names an image to paint as vectors instead; the
    page numbers are written in `lang`."""
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buf)
    writer.setResolution(RESOLUTION)
    # Margins are ours to manage (body and footer); the page itself has none.
    writer.setPageLayout(QPageLayout(page_size, QPageLayout.Orientation.Portrait,
                                     QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter))
    writer.setTitle(title)
    writer.setCreator(NAME)

    page = writer.pageLayout().fullRectPixels(RESOLUTION)
    left, top, right, bottom = (_mm(m) for m in MARGINS_MM)
    body = QRectF(left, top, page.width() - left - right, page.height() - top - bottom)

    # Lay the document out on the PDF device so points and pixels scale to its resolution.
    doc.documentLayout().setPaintDevice(writer)
    if vector:
        # Qt stores document images as JPEG in a PDF, which blurs a chart's lines and text.
        # The image keeps its place in the layout, blank, and the chart is painted there as
        # vectors: crisp at any zoom, smaller, and its words can be searched.
        blank = QImage(1, 1, QImage.Format.Format_ARGB32)
        blank.fill(Qt.GlobalColor.transparent)
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(vector[0]), blank)
    doc.setPageSize(QSizeF(body.width(), body.height()))
    _keep_together(doc, body.height(), writer.logicalDpiY())
    doc.markContentsDirty(0, doc.characterCount())
    pages = doc.pageCount()
    chart_at = _image_rect(doc, vector[0]) if vector else None
    if chart_at is not None and vector is not None:
        image = _image_format(doc, vector[0])
        scale = writer.logicalDpiX() / 96.0
        chart_at = QRectF(chart_at.left(), chart_at.bottom() - image[1] * scale,
                          image[0] * scale, image[1] * scale)

    painter = QPainter()
    if not painter.begin(writer):
        buf.close()
        raise OSError("Could not start the PDF.")
    try:
        for index in range(pages):
            if index:
                writer.newPage()
            painter.save()
            painter.translate(body.left(), body.top() - index * body.height())
            page_rect = QRectF(0, index * body.height(), body.width(), body.height())
            doc.drawContents(painter, page_rect)
            if chart_at is not None and vector is not None and page_rect.intersects(chart_at):
                vector[1](painter, chart_at)
            painter.restore()
            _footer(painter, page.width(), page.height(), body, footer,
                    tr(lang, "Page {page} of {pages}", page=index + 1, pages=pages), families)
    finally:
        painter.end()
        buf.close()
    return fix_cjk_text_map(bytes(data.data()), families)


def _footer(painter: QPainter, width: float, height: float, body: QRectF, left_text: str,
            right_text: str, families: list[str]) -> None:
    y = body.bottom() + _mm(FOOTER_GAP_MM)
    painter.save()
    painter.setPen(QPen(QColor("#c3cbd3"), _mm(0.2)))
    painter.drawLine(QPointF(body.left(), y), QPointF(body.right(), y))
    font = QFont()
    font.setFamilies(families)
    font.setPointSizeF(8)
    font.setFeature(QFont.Tag("liga"), 0)  # keeps "fi" as two letters in the PDF's text
    painter.setFont(font)
    painter.setPen(QColor("#5b6773"))
    line = QRectF(body.left(), y + _mm(1.5), body.width(), _mm(6))
    painter.drawText(line, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop, right_text)
    room = QRectF(line.left(), line.top(), line.width() * 0.75, line.height())
    elided = painter.fontMetrics().elidedText(left_text, Qt.TextElideMode.ElideMiddle,
                                              int(room.width()))
    painter.drawText(room, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, elided)
    painter.restore()


def _keep_together(doc: QTextDocument, page_height: float, dpi: float) -> None:
    """Poor man's widow and keep-with-next control, which Qt's layout does not have.

    A heading must share its page with what follows it, and a short paragraph is not split
    over two pages. After each layout the first offender gets a page break before it and we
    look again; a break only pushes content down, so this ends.
    """
    need = KEEP_WITH_NEXT_PT / 72.0 * dpi
    layout = doc.documentLayout()
    root = doc.rootFrame()
    for _ in range(300):
        # A format change relayouts only part of the document (and lazily): redo all of it,
        # or later blocks keep stale positions and are painted off the page.
        doc.markContentsDirty(0, doc.characterCount())
        layout.documentSize()
        offender = None
        block = doc.begin()
        while block.isValid() and offender is None:
            if QTextCursor(block).currentFrame() == root:
                rect = layout.blockBoundingRect(block)
                page, offset = divmod(rect.top(), page_height)
                if offset > 1:  # already at the top of a page: nothing to gain
                    if block.blockFormat().headingLevel():
                        if offset + rect.height() + need > page_height:
                            offender = block
                    elif rect.height() < page_height / 4 and \
                            (rect.bottom() - 1) // page_height != page:
                        offender = block
            block = block.next()
        if offender is None:
            row = _split_row(doc, page_height)
            if row is None:
                return
            for block in row:  # every cell, or Qt still starts the row on this page
                fmt = block.blockFormat()
                fmt.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_AlwaysBefore)
                QTextCursor(block).setBlockFormat(fmt)
            continue
        fmt = offender.blockFormat()
        fmt.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_AlwaysBefore)
        QTextCursor(offender).setBlockFormat(fmt)
        # The heading above a pushed paragraph must go with it.
        prev = offender.previous()
        if prev.isValid() and prev.blockFormat().headingLevel() and \
                QTextCursor(prev).currentFrame() == root:
            fmt.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_Auto)
            QTextCursor(offender).setBlockFormat(fmt)
            pfmt = prev.blockFormat()
            pfmt.setPageBreakPolicy(QTextBlockFormat.PageBreakFlag.PageBreak_AlwaysBefore)
            QTextCursor(prev).setBlockFormat(pfmt)


def _split_row(doc: QTextDocument, page_height: float) -> list | None:
    """The first cell blocks of the first short table row that runs over a page break."""
    layout = doc.documentLayout()
    for table in _tables(doc.rootFrame()):
        for row in range(table.format().headerRowCount(), table.rows()):
            cells = [table.cellAt(row, c) for c in range(table.columns())]
            tops, bottoms = [], []
            for cell in cells:
                first = cell.firstCursorPosition().block()
                last = cell.lastCursorPosition().block()
                tops.append(layout.blockBoundingRect(first).top())
                bottoms.append(layout.blockBoundingRect(last).bottom())
            top, bottom = min(tops), max(bottoms)
            if (bottom - 1) // page_height != top // page_height \
                    and bottom - top < page_height / 4 and top % page_height > 1:
                return [cell.firstCursorPosition().block() for cell in cells]
    return None


def _tables(frame):
    for child in frame.childFrames():
        if isinstance(child, QTextTable):
            yield child
        yield from _tables(child)


# -- making Chinese text copy and search as itself ---------------------------------------
#
# Qt writes each font's ToUnicode map by giving every glyph the LOWEST code point that maps
# to it. CJK fonts share one glyph between a radical (U+2E80-U+2FDF, U+31C0-U+31EF) and the
# ideograph it looks like, so "文" and "页" would come back from the PDF as "⽂" and "⻚":
# right on screen, wrong when copied or searched. The maps are plain text with fixed-width
# <XXXX> codes, so swapping code points in place keeps every byte offset and the xref valid.

_RADICALS = [*range(0x2E80, 0x2FE0), *range(0x31C0, 0x31F0)]
_IDEOGRAPHS = "".join(map(chr, [*range(0x4E00, 0xA000), *range(0x3400, 0x4DC0)]))
_CMAP = re.compile(rb"begincmap(.*?)endcmap", re.S)
_ARRAY_LINE = re.compile(rb"^(<[0-9A-Fa-f]{4}> <[0-9A-Fa-f]{4}> \[)([^\]]*)(\])", re.M)
_SINGLE_LINE = re.compile(rb"^(<([0-9A-Fa-f]{4})> <([0-9A-Fa-f]{4})> |<[0-9A-Fa-f]{4}> )"
                          rb"<([0-9A-Fa-f]{4})>$", re.M)
_CODE = re.compile(rb"<([0-9A-Fa-f]{4})>")


@lru_cache(maxsize=8)
def _radical_map(families: tuple[str, ...]) -> dict[int, int]:
    """Radical code point -> the ideograph drawn with the same glyph, per the installed fonts."""
    found: dict[int, int] = {}
    for family in families:
        raw = QRawFont.fromFont(QFont(family))
        if not raw.isValid():
            continue
        by_glyph: dict[int, int] = {}
        for ch, gid in zip(_IDEOGRAPHS, raw.glyphIndexesForString(_IDEOGRAPHS)):
            if gid:
                by_glyph.setdefault(gid, ord(ch))
        radicals = "".join(map(chr, _RADICALS))
        for ch, gid in zip(radicals, raw.glyphIndexesForString(radicals)):
            if gid in by_glyph:
                found.setdefault(ord(ch), by_glyph[gid])
    for cp in _RADICALS:  # Kangxi radicals also decompose to their ideograph (NFKC)
        norm = unicodedata.normalize("NFKC", chr(cp))
        if cp not in found and len(norm) == 1 and ord(norm) != cp:
            found[cp] = ord(norm)
    return found


def fix_cjk_text_map(pdf: bytes, families: list[str]) -> bytes:
    table = _radical_map(tuple(families))

    def code(m: re.Match) -> bytes:
        cp = int(m.group(1), 16)
        return b"<%04X>" % table[cp] if cp in table else m.group(0)

    def array_line(m: re.Match) -> bytes:
        return m.group(1) + _CODE.sub(code, m.group(2)) + m.group(3)

    def single_line(m: re.Match) -> bytes:
        # A range <a> <b> <c> with a != b maps a run; only one-glyph entries are safe to swap.
        if m.group(2) and m.group(2) != m.group(3):
            return m.group(0)
        return m.group(1) + _CODE.sub(code, b"<" + m.group(4) + b">")

    def cmap(m: re.Match) -> bytes:
        body = _ARRAY_LINE.sub(array_line, m.group(1))
        return b"begincmap" + _SINGLE_LINE.sub(single_line, body) + b"endcmap"

    out = _CMAP.sub(cmap, pdf)
    # Same length or nothing: the cross-reference table points at byte offsets.
    return out if len(out) == len(pdf) else pdf
