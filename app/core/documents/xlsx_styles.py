"""A workbook's cell styles (xl/styles.xml): what number format a style shows, and a style
like another with a different number format, found among the existing ones or added once.

styles.xml is changed only when a cell needs a number format no style of the workbook has
(a date typed into a column of plain numbers, a format the call names).
"""

from __future__ import annotations

import copy
import re

from app.core.documents.xlsx_package import Package, ns_of

STYLES = "xl/styles.xml"
# Excel's built-in number formats (ECMA-376 §18.8.30), the ones that matter here.
BUILTIN = {0: "General", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 9: "0%", 10: "0.00%",
           11: "0.00E+00", 12: "# ?/?", 13: "# ??/??", 14: "mm-dd-yy", 15: "d-mmm-yy",
           16: "d-mmm", 17: "mmm-yy", 18: "h:mm AM/PM", 19: "h:mm:ss AM/PM", 20: "h:mm",
           21: "h:mm:ss", 22: "m/d/yy h:mm", 37: "#,##0 ;(#,##0)", 38: "#,##0 ;[Red](#,##0)",
           39: "#,##0.00;(#,##0.00)", 40: "#,##0.00;[Red](#,##0.00)", 45: "mm:ss",
           46: "[h]:mm:ss", 47: "mmss.0", 48: "##0.0E+0", 49: "@"}
_DATE_IDS = set(range(14, 23)) | set(range(27, 37)) | set(range(45, 48)) | set(range(50, 59))
# What a value typed as a date, a time or a percentage gets where its cell shows no such
# format: the formats Excel itself gives when a person types one.
KIND_FORMAT = {"date": 14, "datetime": 22, "time": 21, "percent": 9, "percent2": 10}
_QUOTED = re.compile(r'"[^"]*"|\\.|_.|\*.')
_BRACKETS = re.compile(r"\[(?!h\]|hh\]|m\]|mm\]|s\]|ss\])[^\]]*\]", re.I)


def kind_of_format(code: str, fmt_id: int | None = None) -> str:
    """'date', 'time', 'percent', 'text', 'currency' or 'number' for a number format."""
    if fmt_id is not None and fmt_id in _DATE_IDS:
        return "time" if fmt_id in (18, 19, 20, 21, 45, 46, 47) else "date"
    if code == "@":
        return "text"
    currency = "[$" in code or any(sym in code for sym in "£$€¥")
    bare = _BRACKETS.sub("", _QUOTED.sub("", code.split(";", 1)[0]))
    if "%" in bare:
        return "percent"
    if re.search(r"[dDyY]", bare) or (re.search(r"[mM]", bare) and not re.search(r"[hH]", bare)):
        return "date"
    if re.search(r"[hHsS]", bare) or re.search(r"\[[hms]+\]", code, re.I):
        return "time"
    return "currency" if currency else "number"


class Styles:
    def __init__(self, package: Package):
        self.package = package
        self.root = package.tree(STYLES) if STYLES in package.parts else None
        self.ns = ns_of(self.root) if self.root is not None else ""
        self.xfs = []
        self.codes: dict[int, str] = dict(BUILTIN)
        if self.root is not None:
            cell_xfs = self.root.find(f"{{{self.ns}}}cellXfs")
            self.xfs = list(cell_xfs) if cell_xfs is not None else []
            for fmt in self.root.iter(f"{{{self.ns}}}numFmt"):
                try:
                    self.codes[int(fmt.get("numFmtId") or "")] = fmt.get("formatCode", "")
                except (TypeError, ValueError):
                    continue

    def format_id(self, style: int) -> int:
        if 0 <= style < len(self.xfs):
            try:
                return int(self.xfs[style].get("numFmtId", "0"))
            except ValueError:
                return 0
        return 0

    def code(self, style: int) -> str:
        return self.codes.get(self.format_id(style), "General")

    def kind(self, style: int) -> str:
        return kind_of_format(self.code(style), self.format_id(style))

    def with_format(self, style: int, fmt: int | str) -> int:
        """A style like `style` showing number format `fmt` (an id or a format code): an
        existing one if the workbook has it, else one added to styles.xml."""
        if self.root is None or not self.xfs:
            raise LookupError("no styles")
        fmt_id = fmt if isinstance(fmt, int) else self._format_id_for(fmt)
        if self.format_id(style) == fmt_id:
            return style
        base = self.xfs[style] if 0 <= style < len(self.xfs) else self.xfs[0]
        wanted = dict(base.attrib, numFmtId=str(fmt_id), applyNumberFormat="1")
        from lxml import etree  # noqa: PLC0415 - document library
        children = [etree.tostring(c) for c in base]
        for index, xf in enumerate(self.xfs):
            if dict(xf.attrib, applyNumberFormat="1") == wanted and \
                    [etree.tostring(c) for c in xf] == children:
                return index
        new = copy.deepcopy(base)
        for key, value in wanted.items():
            new.set(key, value)
        parent = base.getparent()
        if parent is None:   # an xf always sits in cellXfs
            raise LookupError("a style outside cellXfs")
        parent.append(new)
        self.xfs.append(new)
        parent.set("count", str(len(self.xfs)))
        self.package.touch(STYLES)
        return len(self.xfs) - 1

    def _format_id_for(self, code: str) -> int:
        for fmt_id, known in self.codes.items():
            if known == code:
                return fmt_id
        from lxml import etree  # noqa: PLC0415 - document library
        assert self.root is not None  # with_format, the one caller, checked it
        fmts = self.root.find(f"{{{self.ns}}}numFmts")
        if fmts is None:
            fmts = etree.Element(f"{{{self.ns}}}numFmts")
            self.root.insert(0, fmts)
        fmt_id = max([163] + [i for i in self.codes if i >= 164]) + 1
        etree.SubElement(fmts, f"{{{self.ns}}}numFmt", numFmtId=str(fmt_id), formatCode=code)
        fmts.set("count", str(len(fmts)))
        self.codes[fmt_id] = code
        self.package.touch(STYLES)
        return fmt_id
