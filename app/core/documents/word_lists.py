"""Word's styles and numbered lists as a person sees them: "Heading 2", and "3." or "b)"
before a list item, counted the way Word counts (each list's levels, its start values, a
restart where the document asks for one).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from app.core.documents.word_parts import w

if TYPE_CHECKING:
    from lxml.etree import _Element

_LIST_STYLE = re.compile(r"^list (bullet|number)(?: (\d))?$", re.I)
_LEVEL = re.compile(r"%([1-9])")


class Styles:
    def __init__(self, tree: _Element | None):
        self.names: dict[str, str] = {}
        self.based: dict[str, str] = {}
        self.numbering: dict[str, tuple[str | None, int | None]] = {}
        self.outline: dict[str, int] = {}
        if tree is None:
            return
        for style in tree.iter(w("style")):
            sid = style.get(w("styleId")) or ""
            name = style.find(w("name"))
            self.names[sid] = (name.get(w("val")) if name is not None else "") or ""
            based = style.find(w("basedOn"))
            if based is not None:
                self.based[sid] = based.get(w("val")) or ""
            outline = style.find(f"{w('pPr')}/{w('outlineLvl')}")
            outline_level = outline.get(w("val")) if outline is not None else None
            if outline_level is not None and outline_level.isdigit():
                self.outline[sid] = int(outline_level)
            num = style.find(f"{w('pPr')}/{w('numPr')}")
            if num is not None:
                self.numbering[sid] = _num_pr(num)

    def name(self, sid: str | None) -> str:
        return self.names.get(sid or "", "")

    def heading(self, sid: str | None) -> int | None:
        """1-6 for a heading style (or one based on it, or with an outline level)."""
        seen = set()
        while sid and sid not in seen:
            seen.add(sid)
            name = self.names.get(sid, "").lower()
            if name.startswith("heading ") and name[8:].isdigit():
                return min(max(int(name[8:]), 1), 6)
            if sid in self.outline and self.outline[sid] < 9:
                return min(self.outline[sid] + 1, 6)
            sid = self.based.get(sid)
        return None

    def num_pr(self, sid: str | None) -> tuple[str | None, int | None]:
        seen = set()
        while sid and sid not in seen:
            seen.add(sid)
            if sid in self.numbering:
                return self.numbering[sid]
            sid = self.based.get(sid)
        return None, None


def _num_pr(el: _Element) -> tuple[str | None, int | None]:
    num, lvl = el.find(w("numId")), el.find(w("ilvl"))
    level = lvl.get(w("val")) if lvl is not None else None
    return (num.get(w("val")) if num is not None else None,
            int(level) if level is not None and level.isdigit() else None)


class Lists:
    """The numbering part: which list a paragraph belongs to, and its counters."""

    def __init__(self, tree: _Element | None, styles: Styles):
        self.styles = styles
        self.abstract: dict[str, dict[int, tuple[str, str, int]]] = {}
        self.links: dict[str, str] = {}
        self.nums: dict[str, tuple[str, dict[int, int]]] = {}
        self.counters: dict[str, list[int | None]] = {}
        if tree is None:
            return
        for ab in tree.iter(w("abstractNum")):
            levels = {}
            for lvl in ab.iter(w("lvl")):
                levels[_int(lvl.get(w("ilvl")))] = (_val(lvl, "numFmt") or "decimal",
                                                    _val(lvl, "lvlText") or "",
                                                    _int(_val(lvl, "start"), 1))
            aid = ab.get(w("abstractNumId")) or ""
            self.abstract[aid] = levels
            link = ab.find(w("numStyleLink"))
            if link is not None:
                self.links[aid] = link.get(w("val")) or ""
        for num in tree.iter(w("num")):
            overrides = {}
            for over in num.iter(w("lvlOverride")):
                start = over.find(w("startOverride"))
                if start is not None:
                    overrides[_int(over.get(w("ilvl")))] = _int(start.get(w("val")), 1)
            self.nums[num.get(w("numId")) or ""] = (_val(num, "abstractNumId") or "", overrides)

    def mark(self, ppr: _Element | None, style_id: str | None) -> tuple[int, str] | None:
        """(level, the mark Word shows such as "2." or "-") for a list paragraph, else None."""
        num_id, level = None, None
        num_pr = ppr.find(w("numPr")) if ppr is not None else None
        if num_pr is not None:
            num_id, level = _num_pr(num_pr)
        style_num, style_level = self.styles.num_pr(style_id)
        num_id = num_id if num_id is not None else style_num
        level = level if level is not None else (style_level or 0)
        named = _LIST_STYLE.match(self.styles.name(style_id))
        if num_id == "0" or (num_id is None and not named):
            return None
        found = self._count(num_id, level) if num_id is not None else None
        if named and named.group(2):  # "List Bullet 2": Word indents it as the second level
            level = int(named.group(2)) - 1
        if found is None:
            return min(level, 8), ("1." if named and named.group(1).lower() == "number" else "-")
        return min(level, 8), found

    def _count(self, num_id: str, level: int) -> str | None:
        if num_id not in self.nums:
            return None
        aid, overrides = self.nums[num_id]
        levels = self._levels(aid)
        if not levels:
            return None
        key = num_id if overrides else aid
        counters = self.counters.setdefault(key, [None] * 10)
        level = max(0, min(level, 9))
        start = overrides.get(level, levels.get(level, ("decimal", "", 1))[2])
        current = counters[level]
        counters[level] = start if current is None else current + 1
        for deeper in range(level + 1, 10):
            counters[deeper] = None
        fmt, text, _start = levels.get(level, ("decimal", f"%{level + 1}.", 1))
        if fmt == "bullet":
            return "-"
        if fmt == "none" or not text:
            return ""

        def number(match: re.Match[str]) -> str:
            k = int(match.group(1)) - 1
            k_fmt, _t, k_start = levels.get(k, ("decimal", "", 1))
            counted = counters[k]
            value = counted if counted is not None else overrides.get(k, k_start)
            return _format(value, fmt if k == level else k_fmt)

        return _LEVEL.sub(number, text).strip()

    def _levels(self, aid: str, depth: int = 0) -> dict[int, tuple[str, str, int]]:
        levels = self.abstract.get(aid, {})
        if not levels and aid in self.links and depth < 3:
            num_id, _lvl = self.styles.num_pr(self._style_id(self.links[aid]))
            if num_id in self.nums:
                return self._levels(self.nums[num_id][0], depth + 1)
        return levels

    def _style_id(self, name_or_id: str) -> str:
        if name_or_id in self.styles.names:
            return name_or_id
        return next((sid for sid, n in self.styles.names.items() if n == name_or_id), "")


def _val(el: _Element, tag: str) -> str | None:
    found = el.find(w(tag))
    return found.get(w("val")) if found is not None else None


def _int(text: str | None, default: int = 0) -> int:
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default


def _format(n: int, fmt: str) -> str:
    if fmt in ("lowerLetter", "upperLetter"):
        letters = ""
        while n > 0:
            n, rest = divmod(n - 1, 26)
            letters = chr(97 + rest) + letters
        return letters.upper() if fmt == "upperLetter" else letters
    if fmt in ("lowerRoman", "upperRoman"):
        roman = _roman(n)
        return roman.upper() if fmt == "upperRoman" else roman
    if fmt == "decimalZero":
        return f"{n:02d}"
    return str(n)


def _roman(n: int) -> str:
    if n <= 0 or n >= 4000:
        return str(n)
    out = ""
    for value, letters in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"),
                           (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"),
                           (4, "iv"), (1, "i")):
        while n >= value:
            out += letters
            n -= value
    return out


roman = _roman
