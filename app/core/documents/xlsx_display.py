"""A cell's value as the sheet displays it, through its number format: £4.62, 74%, 9.8%,
1,234.50, 1.23E+04. Dates and times are shown in ISO form (2024-05-01, 14:30:00), which
reads the same whatever the format's layout and which set_cells reads back as a date.

The rule for the stored value: a displayed number that set_cells / write_file would read
back as the same number (to within Excel's rounding) is shown alone; one whose format hides
precision is shown with the stored value after it, `9.8% (0.09756097561)`, so writing
read_file's rendering back never changes a cell; a format this module cannot show in a form
that reads back (fractions, conditions, text around the number it does not know) leaves the
number plain. A formula's result is shown only as displayed: its formula is the exact value.
"""

from __future__ import annotations

import math
import re

_SECTIONS = re.compile(r'"[^"]*"|\\.|;|[^";\\]+')
_TOKEN = re.compile(r'"([^"]*)"|\\(.)|_.|\*.|\[\$([^\]-]*)(?:-[^\]]*)?\]|\[[^\]]*\]|'
                    r'([0#?,.]+(?:[eE][-+][0#]+)?)|(%)|(.)')
_DATE_CHARS = re.compile(r"[dDmMyYhHsS]")


def general(number: float | int) -> str:
    """A number as Excel's General format shows it: at most 10 significant digits."""
    if isinstance(number, bool):
        return "TRUE" if number else "FALSE"
    if isinstance(number, int) or (float(number).is_integer() and abs(number) < 1e15):
        return str(int(number))
    text = format(number, ".10g")
    if "e" in text:
        mantissa, exp = text.split("e")
        text = f"{mantissa}E{int(exp):+03d}"
    return text


def _section(code: str, number: float) -> tuple[str, bool] | None:
    """The section of `code` that shows `number`, and whether a minus sign goes before it."""
    parts, current = [], ""
    for piece in _SECTIONS.findall(code):
        if piece == ";":
            parts.append(current)
            current = ""
        else:
            current += piece
    parts.append(current)
    if any(re.search(r"\[[<>=]", p) for p in parts):
        return None   # conditional sections
    if number < 0 and len(parts) >= 2 and parts[1].strip():
        return parts[1], False
    if number == 0 and len(parts) >= 3 and parts[2].strip():
        return parts[2], False
    return parts[0], number < 0


def formatted(number: float | int, code: str) -> str | None:
    """`number` through the number format `code`, or None when it is not one this shows."""
    if not code or code == "General":
        return general(number)
    chosen = _section(code, number)
    if chosen is None:
        return None
    section, minus = chosen
    if section.strip() == "@" or "?/" in section or ("/" in section and "#" in section):
        return None
    before: list[str] = []
    after: list[str] = []
    pattern: str | None = None
    percent = 0
    for quoted, escaped, currency, digits, pct, other in (
            m.groups() for m in _TOKEN.finditer(section)):
        literal = quoted if quoted is not None else escaped if escaped is not None else \
            currency if currency is not None else other
        if pct:
            percent += 1
            literal = "%"
        if digits is not None and pattern is None and re.search(r"[0#?]", digits):
            pattern = digits
            continue
        if literal is None:
            continue
        if other is not None and _DATE_CHARS.match(other) and other not in "Ee":
            return None   # a date or time part on a number openpyxl left as a number
        (after if pattern is not None else before).append(literal)
    if pattern is None:
        text = "".join(before).strip()
        return text or None
    value = abs(number) * 100 ** percent
    digits_shown = _digits(value, pattern)
    if digits_shown is None:
        return None
    shown = ("".join(before) + digits_shown + "".join(after)).strip()
    return ("-" + shown) if minus and any(ch in "123456789" for ch in digits_shown) else shown


def _digits(value: float, pattern: str) -> str | None:
    exponent = re.search(r"[eE][-+]", pattern)
    if exponent:
        mantissa = pattern[:exponent.start()]
        places = len(mantissa.split(".", 1)[1]) if "." in mantissa else 0
        text = f"{value:.{places}E}"
        body, exp = text.split("E")
        return f"{body}E{int(exp):+03d}"
    integer, _, fraction = pattern.partition(".")
    while integer.endswith(","):
        value /= 1000   # a trailing comma scales by a thousand
        integer = integer[:-1]
    grouped = "," in integer
    fixed = fraction.count("0")
    places = len(re.sub(r"[^0#?]", "", fraction))
    text = f"{value:,.{places}f}" if grouped else f"{value:.{places}f}"
    if places > fixed:
        whole, _, tail = text.partition(".")
        tail = tail[:fixed] + tail[fixed:].rstrip("0")
        text = whole + ("." + tail if tail else "")
    if not math.isfinite(value):
        return None
    return text


def displayed(number: float | int, code: str, formula: bool = False) -> str:
    """A number as read_file shows it (see the module's rule)."""
    if not code or code == "General":
        return general(number)   # 10 significant digits always read back as the number
    from app.core.documents.xlsx_values import parse

    shown = formatted(number, code)
    if shown is None:
        return general(number)
    if formula:
        return shown
    try:
        back = parse(shown)
    except Exception:   # noqa: BLE001 - anything unreadable is shown plain
        return general(number)
    if back.kind != "number" or back.shown in ("date", "datetime", "time"):
        return general(number)
    # A number's data is a number (kind "number"); the parser types it as any value.
    if abs(float(back.data) - number) <= 1e-9 * max(1, abs(number)):  # type: ignore[arg-type]
        return shown
    return f"{shown} ({general(number)})"
