"""The window's one type family: the platform's UI font, and for Chinese its CJK face first.

With the Latin face first, Qt draws every character that face has from it: the full-width
quotes and ellipsis of a Chinese sentence (“ ” …) then come out narrow and low, in another
face than the words around them. A Chinese window therefore lists its CJK face first and the
platform's face after it (for the odd character the CJK face lacks).
"""

from __future__ import annotations

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

from app.export.fonts import CJK, ensure_fonts

_platform: QFont | None = None  # the application's font before any language changed it


def for_language(lang: str, app: QApplication | None = None) -> QFont | None:
    """Set the application's font for `lang` ("en" or "zh_CN"); returns the font set."""
    global _platform
    found = app or QApplication.instance()
    if not isinstance(found, QApplication):
        return None
    app = found
    if _platform is None:
        _platform = QFont(app.font())
    font = QFont(_platform)
    if lang == "zh_CN":
        cjk = [f for f in ensure_fonts("zh_CN") if f in CJK]
        platform = _platform.families() or [_platform.family()]
        font.setFamilies(cjk + [f for f in platform if f not in cjk])
    if font != app.font() or font.families() != app.font().families():
        app.setFont(font)
    return font
