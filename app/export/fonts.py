"""Fonts for documents and the window, with a bundled Chinese face for machines that have none."""

from __future__ import annotations

from app.core.resources import resource_path

# Latin first, then CJK fallbacks; the first installed of each list is used. Listing a CJK
# family explicitly makes Qt embed real glyphs (with a text map) in the PDF, not boxes.
# A CJK face is never the Latin one: Qt's PDF text map loses its digits (they still show).
SANS = ["Noto Sans", "Segoe UI", "Helvetica Neue", "Helvetica", "Arial", "Liberation Sans",
        "DejaVu Sans"]
CJK = ["Noto Sans CJK SC", "Source Han Sans SC", "Microsoft YaHei", "PingFang SC",
       "Hiragino Sans GB", "WenQuanYi Micro Hei", "Noto Sans SC", "Noto Sans CJK JP"]
MONO = ["Noto Sans Mono", "Consolas", "Menlo", "DejaVu Sans Mono", "Liberation Mono",
        "Noto Sans Mono CJK SC"]

# Noto Sans CJK SC cut to common Simplified Chinese (scripts/make_cjk_font.py, OFL beside it).
BUNDLED_CJK = ("fonts", "NotoSansCJKsc-Regular-Subset.otf")

_bundled: list[str] | None = None  # the families the bundled file added, once loaded


def ensure_fonts(lang: str = "en") -> list[str]:
    """Make Chinese text drawable, then return the sans families to draw with (Latin first;
    for Chinese, the CJK face first).

    Needs a QGuiApplication; the window calls it at startup, export before each document.
    """
    return font_families("sans", lang)


def font_families(kind: str = "sans", lang: str = "en") -> list[str]:
    """Installed (or bundled) families: one Latin face, then CJK faces as fallbacks. For a
    Chinese text (`lang` "zh_CN") the CJK face comes first: full-width punctuation such as
    “ ” and … is in the Latin faces too, and drawn from them it is narrow and sits wrong
    among Chinese characters."""
    from PySide6.QtGui import QFontDatabase  # noqa: PLC0415 - Qt, only when export draws

    _register_bundled_cjk()
    have = set(QFontDatabase.families())
    wanted = MONO if kind == "mono" else SANS
    first = next((f for f in wanted if f in have), None)
    chosen = [first] if first else []
    chosen += [f for f in CJK if f in have and f not in chosen]
    if lang == "zh_CN" and kind != "mono":
        chosen.sort(key=lambda f: f not in CJK)  # the CJK faces first, in their order
    return chosen


def bundled_families() -> list[str]:
    """The families registered from the bundled file: empty when the system's were enough."""
    return list(_bundled or [])


def _register_bundled_cjk() -> None:
    # Once per process, and only when none of the CJK families above is installed, so a
    # PDF or the window never silently loses Chinese text and a real system face wins.
    global _bundled
    from PySide6.QtGui import QFontDatabase  # noqa: PLC0415 - Qt, only when export draws

    if _bundled is not None:
        return
    if any(f in CJK for f in QFontDatabase.families()):
        _bundled = []
        return
    font_id = QFontDatabase.addApplicationFont(str(resource_path(*BUNDLED_CJK)))
    _bundled = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
