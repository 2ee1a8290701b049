"""Typography for the exported summary: restyles the QTextDocument Qt builds from the Markdown."""

from __future__ import annotations

from PySide6.QtGui import (QBrush, QColor, QFont, QTextBlockFormat, QTextCharFormat,
                           QTextCursor, QTextDocument, QTextFormat, QTextFrameFormat,
                           QTextLength, QTextTable)

from app.core.run.outcomes import RoundResult
from app.export.summary import CHART_NAME, INTERRUPTED, NOTES_HEADER, OUTCOME_WORDS
from app.export.chart import CHART_SIZE, OUTCOME_COLOURS
from app.export.words import LANGUAGES, both, tr

# Lengths are CSS pixels (1/96 in); Qt scales them to the paint device (the PDF's dpi).
INK = QColor("#1f2933")
MUTED = QColor("#5b6773")
ACCENT = QColor("#1d4f7c")
RULE = QColor("#c3cbd3")
HEADER_BG = QColor("#e9eef3")
KEY_BG = QColor("#f3f5f7")
NOTE_BG = QColor("#fff3df")
NOTE_BORDER = QColor("#e3b341")
GOOD = QColor("#0b6e4f")
WAIT = QColor("#9a5b00")

_HEADINGS = {1: (21.0, 0, 4), 2: (14.0, 18, 6), 3: (11.0, 12, 3)}  # pt, space above, below


def heading_margins_pt() -> set[tuple[str, str]]:
    """(top, bottom) margins of heading paragraphs as Qt's ODF writer spells them ("13.5pt"):
    how the ODT polish step finds headings, which Qt writes as plain paragraphs."""
    return {(f"{above * 0.75:g}pt", f"{below * 0.75:g}pt")
            for _, above, below in _HEADINGS.values()}
# Column shares for the tables the summary renders, found by their header row (in each
# language the document may be written in).
_SHARES = {("#", "Task", "State", "Rounds"): (5, 53, 29, 13),
           ("File", "Changed in round"): (70, 30),
           ("Item", "Detail"): (26, 74),
           # The every-run history's Runs table: left to Qt, the short columns got only
           # their widest word and "Rounds" broke in two with another font.
           ("#", "Started", "Engine", "How it ended", "Rounds", "Cost"): (5, 19, 22, 29, 13, 12)}
_COLUMNS = {tuple(tr(lang, h) for h in header): shares
            for header, shares in _SHARES.items() for lang in LANGUAGES}
_KEY_VALUE = {tuple(tr(lang, h) for h in ("Item", "Detail")) for lang in LANGUAGES}
_WORDS_TO_STATE = {tr(lang, v): k for k, v in OUTCOME_WORDS.items() for lang in LANGUAGES}
_STATE = both("State")
_GOOD, _WAITING = both("Done") + both("Decided"), both("Waiting for your decision")


def style_document(doc: QTextDocument, mono: list[str], chart_width: int) -> None:
    _style_blocks(doc, mono, chart_width)
    for table in _tables(doc.rootFrame()):
        _style_table(table)


def _blocks(doc: QTextDocument):
    block = doc.begin()
    while block.isValid():
        yield block
        block = block.next()


def _fragments(block):
    # Collected first: restyling a fragment while iterating would invalidate the iterator.
    out = []
    for it in block:
        frag = it.fragment()
        if frag.isValid():
            out.append((frag.position(), frag.length(), frag.charFormat()))
    return out


def _select(doc: QTextDocument, pos: int, length: int) -> QTextCursor:
    cur = QTextCursor(doc)
    cur.setPosition(pos)
    cur.setPosition(pos + length, QTextCursor.MoveMode.KeepAnchor)
    return cur


def _style_blocks(doc: QTextDocument, mono: list[str], chart_width: int) -> None:
    previous_level = 0
    after_rule = False
    for block in list(_blocks(doc)):
        cur = QTextCursor(block)
        bf = block.blockFormat()
        level = bf.headingLevel()
        if bf.hasProperty(QTextFormat.Property.BlockTrailingHorizontalRulerWidth):
            after_rule = True  # Qt draws the rule itself; a background would be a bar in ODT
            continue
        # PySide 6.12 mis-counts references on None results (currentTable, textList,
        # resource): enough calls crash the interpreter, so only non-None APIs are used here.
        in_table = isinstance(cur.currentFrame(), QTextTable)
        if level in _HEADINGS:
            size, above, below = _HEADINGS[level]
            bf.setTopMargin(0 if level == 1 else above)
            bf.setBottomMargin(below)
            cur.setBlockFormat(bf)
            for pos, length, cf in _fragments(block):
                cf.clearProperty(QTextFormat.Property.FontSizeAdjustment)
                cf.setFontPointSize(size)
                cf.setFontWeight(QFont.Weight.Bold)
                cf.setForeground(QBrush(INK if level != 2 else ACCENT))
                _select(doc, pos, length).setCharFormat(cf)
        elif not in_table:
            bf.setTopMargin(0)
            bf.setBottomMargin(2 if bf.objectIndex() != -1 else 6)  # list items sit close
            if not any(cf.isImageFormat() for _, _, cf in _fragments(block)):
                # Airier lines for text; an image line would grow by a quarter of its height.
                bf.setLineHeight(125, QTextBlockFormat.LineHeightTypes.ProportionalHeight.value)
            cur.setBlockFormat(bf)
            if previous_level == 1 or after_rule:  # the subtitle and the closing line
                _recolour(doc, block, MUTED, 9.0 if after_rule else None)
            else:
                _mark_outcome(doc, block)
        for pos, length, cf in _fragments(block):
            if cf.isImageFormat():
                img = cf.toImageFormat()
                if img.name() == CHART_NAME:
                    img.setWidth(chart_width)
                    img.setHeight(chart_width * CHART_SIZE[1] / CHART_SIZE[0])
                    _select(doc, pos, length).setCharFormat(img)
            elif cf.fontFixedPitch():
                cf.setFontFamilies(mono)
                cf.setFontPointSize(9)
                cf.setBackground(QBrush(KEY_BG))
                _select(doc, pos, length).setCharFormat(cf)
        previous_level = level
        after_rule = False


def _recolour(doc: QTextDocument, block, colour: QColor, size: float | None) -> None:
    for pos, length, cf in _fragments(block):
        cf.setForeground(QBrush(colour))
        if size:
            cf.setFontPointSize(size)
        _select(doc, pos, length).setCharFormat(cf)


def _mark_outcome(doc: QTextDocument, block) -> None:
    """A round's outcome line gets a square in the chart's colour for that outcome."""
    frags = _fragments(block)
    if not frags or frags[0][2].fontWeight() < QFont.Weight.Bold.value:
        return
    words = _before_undone(block.text()[: frags[0][1]])
    state = _WORDS_TO_STATE.get(words) or (RoundResult.CANCELLED
                                           if words.startswith(both(INTERRUPTED)) else None)
    if state is None:
        return
    square = QTextCharFormat()
    square.setForeground(QBrush(QColor(OUTCOME_COLOURS[state])))
    cur = QTextCursor(block)
    cur.insertText("\u25a0 ", square)


def _before_undone(words: str) -> str:
    """"Shown as a sample, not done, then undone" → its outcome, which has a colour."""
    for lang in LANGUAGES:
        before, _, after = tr(lang, "{outcome}, then undone").partition("{outcome}")
        if words.startswith(before) and words.endswith(after) and len(words) > len(after):
            return words[len(before):len(words) - len(after)]
    return words


def _tables(frame):
    for child in frame.childFrames():
        if isinstance(child, QTextTable):
            yield child
        yield from _tables(child)


def _cell_text(table: QTextTable, row: int, col: int) -> str:
    cell = table.cellAt(row, col)
    cur = cell.firstCursorPosition()
    cur.setPosition(cell.lastCursorPosition().position(), QTextCursor.MoveMode.KeepAnchor)
    return cur.selectedText().strip()


def _style_table(table: QTextTable) -> None:
    header = tuple(_cell_text(table, 0, c) for c in range(table.columns()))
    key_value = header in _KEY_VALUE
    note = len(header) == 1 and header[0] in both(NOTES_HEADER)
    if key_value and table.rows() > 1:
        table.removeRows(0, 1)  # a fact box reads better without "Item | Detail" on top
    fmt = table.format()
    fmt.setBorder(1)  # Qt draws nothing for a collapsed border under 1 px
    fmt.setBorderBrush(QBrush(NOTE_BORDER if note else RULE))
    fmt.setBorderStyle(QTextFrameFormat.BorderStyle.BorderStyle_Solid)
    fmt.setBorderCollapse(True)
    fmt.setCellSpacing(0)
    fmt.setCellPadding(5)
    fmt.setTopMargin(2)
    fmt.setBottomMargin(8)
    fmt.setWidth(QTextLength(QTextLength.Type.PercentageLength, 100))
    fmt.setHeaderRowCount(0 if key_value or note else 1)  # repeated on each new page
    shares = _COLUMNS.get(header)
    if shares:
        fmt.setColumnWidthConstraints(
            [QTextLength(QTextLength.Type.PercentageLength, s) for s in shares])
    table.setFormat(fmt)

    state_col = next((header.index(w) for w in _STATE if w in header), -1)
    for row in range(table.rows()):
        for col in range(table.columns()):
            cell = table.cellAt(row, col)
            cf = cell.format().toTableCellFormat()
            colour = None
            if note:
                cf.setBackground(QBrush(NOTE_BG))
                colour = WAIT if row == 0 else None
            elif key_value and col == 0:
                cf.setBackground(QBrush(KEY_BG))
                colour = MUTED
            elif row == 0 and not key_value:
                cf.setBackground(QBrush(HEADER_BG))
            elif col == state_col:
                text = _cell_text(table, row, col)
                colour = GOOD if text.startswith(_GOOD) else (
                    WAIT if text.startswith(_WAITING) else None)
            cell.setFormat(cf)
            if colour is not None:
                cur = cell.firstCursorPosition()
                cur.setPosition(cell.lastCursorPosition().position(),
                                QTextCursor.MoveMode.KeepAnchor)
                ch = QTextCharFormat()
                ch.setForeground(QBrush(colour))
                cur.mergeCharFormat(ch)
