"""Text that gives way on a narrow window at a word, never in the middle of one.

`FitLabel` keeps its whole text, shows as many lines of it as it is given (one by default),
and when that is not enough ends the last line at a word boundary with "…"; the whole text is
then its tooltip and what a screen reader reads. Chinese has no spaces: there any point
between two CJK characters is a boundary, as a line break would be.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFontMetrics, QTextLayout, QTextOption
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

ELLIPSIS = "…"


def _is_cjk(ch: str) -> bool:
    code = ord(ch)
    return (0x2E80 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF
            or 0x3000 <= code <= 0x303F)


def is_word_boundary(text: str, index: int) -> bool:
    """Whether cutting `text` before `index` cuts between words (not inside one)."""
    if index <= 0 or index >= len(text):
        return True
    before, after = text[index - 1], text[index]
    if before.isspace() or after.isspace():
        return True
    if _is_cjk(before) or _is_cjk(after):
        return True
    return not (before.isalnum() and after.isalnum())


def _lines(text: str, metrics: QFontMetrics, width: int, font) -> list[tuple[int, int]]:
    """Where Qt's own wrapping breaks `text` in `width` pixels: (start, length) per line."""
    layout = QTextLayout(text.replace("\n", "\u2028"), font)  # a line break, as QLabel draws it
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    layout.beginLayout()
    out = []
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        out.append((line.textStart(), line.textLength()))
    layout.endLayout()
    return out


def elide_words(text: str, font, width: int, lines: int = 1) -> str:
    """`text` as it fits in `lines` lines of `width` pixels: whole, or cut at a word boundary
    and ended with "…"."""
    metrics = QFontMetrics(font)
    width = max(1, width)
    if "\n" in text and lines == 1:
        text = " ".join(text.split())
    laid = _lines(text, metrics, width, font)
    if len(laid) <= lines and all(metrics.horizontalAdvance(text[s:s + n].rstrip()) <= width
                                  for s, n in laid):
        return text
    start = laid[lines - 1][0] if len(laid) >= lines else 0
    room = width - metrics.horizontalAdvance(ELLIPSIS)
    end = min(len(text), laid[lines][0] if len(laid) > lines else len(text))
    while end > start:
        if is_word_boundary(text, end):
            head = text[start:end].rstrip(" ,;:·—–-")
            if metrics.horizontalAdvance(head) <= room:
                return (text[:start] + head).rstrip() + ELLIPSIS
        end -= 1
    return text[:start].rstrip() + ELLIPSIS if start else ELLIPSIS


class FitLabel(QLabel):
    """A label of at most `lines` lines that ends at a word with "…" when its text is longer
    (see the module's words). `setText` and `text` are the whole text; `shown_text`
    is what is drawn."""

    def __init__(self, parent: QWidget | None = None, lines: int = 1, grow: bool = False):
        super().__init__(parent)
        self._full = ""
        self._max_lines = lines
        self._grow = grow  # as tall as the lines it shows (up to `lines`), not always `lines`
        self._own_tip = ""
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(lines > 1)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self._fix_height()

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        self._full = text or ""
        self._fit()

    def full_text(self) -> str:
        return self._full

    def text(self) -> str:  # the whole text, as set: what the label says, whatever its width
        return self._full

    def shown_text(self) -> str:
        """What is drawn: the whole text, or its start up to a word and "…"."""
        return super().text()

    def set_tip(self, tip: str) -> None:
        """A tooltip of its own, shown while the text is whole."""
        self._own_tip = tip
        self._fit()

    def is_elided(self) -> bool:
        return self.shown_text() != self._full

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fix_height()
            self._fit()

    def _fix_height(self, lines: int | None = None) -> None:
        margins = self.contentsMargins()
        self.setFixedHeight(self.fontMetrics().lineSpacing() * (lines or self._max_lines)
                            + margins.top() + margins.bottom() + 1)

    def _fit(self) -> None:
        width = self.contentsRect().width()
        shown = elide_words(self._full, self.font(), width, self._max_lines) if width > 1 \
            else self._full
        if self.shown_text() != shown:
            super().setText(shown)
        if self._grow and width > 1:
            used = len(_lines(shown, self.fontMetrics(), width, self.font())) if shown else 1
            self._fix_height(min(self._max_lines, max(1, used)))
        self.setToolTip(self._full if shown != self._full else self._own_tip)
