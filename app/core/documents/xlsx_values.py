"""What a value given to set_cells means, as a person typing it into Excel would expect:
numbers as numbers, "15%" as 0.15 shown as a percentage, "2024-05-01" as a date, "£4.50" as
4.5 in a currency format, TRUE/FALSE as logical values, "=..." as a formula, and anything
else (or text after a leading apostrophe, as in Excel) as text.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass

from app.core.documents.base import DocumentError

ARROW = " → "         # read_file shows a formula with its value: "=B2*1.1 → 3.85"
MAX_TEXT = 32_767      # characters in one cell (Excel's limit)
MAX_FORMULA = 8_192    # characters in one formula (Excel's limit)
_NUMBER = r"(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|\d{1,3}(?:,\d{3})+(?:\.\d+)?"
_PLAIN = re.compile(rf"^[-+]?(?:{_NUMBER})$")
_PERCENT = re.compile(rf"^([-+]?(?:{_NUMBER}))\s?%$")
_CURRENCY = re.compile(rf"^(-?)([£$€¥])\s?(-?)({_NUMBER})$")
_CURRENCY_AFTER = re.compile(rf"^(-?)({_NUMBER})\s?([£$€¥])$")
# read_file's "9.8% (0.09756097561)": a displayed number, then the value the cell stores.
_WITH_STORED = re.compile(rf"^(.+?) \(([-+]?(?:{_NUMBER}))\)$")
_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?$")
_TIME = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?$")
_BAD_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_CURRENCY_FORMATS = {"£": '"£"#,##0.00', "$": '"$"#,##0.00', "€": '#,##0.00\\ "€"',
                     "¥": '"¥"#,##0'}


# Functions newer than Excel 2007 are stored with a prefix (ECMA-376 Part 1, §18.17.7 and
# Excel's "future functions"); without it Excel shows #NAME? until the formula is re-entered.
_FUTURE = ("ACOT ACOTH AGGREGATE ARABIC BASE BETA.DIST BETA.INV BINOM.DIST BINOM.DIST.RANGE "
           "BINOM.INV BITAND BITLSHIFT BITOR BITRSHIFT BITXOR CEILING.MATH CEILING.PRECISE "
           "CHISQ.DIST CHISQ.DIST.RT CHISQ.INV CHISQ.INV.RT CHISQ.TEST COMBINA CONCAT "
           "CONFIDENCE.NORM CONFIDENCE.T COT COTH COVARIANCE.P COVARIANCE.S CSC CSCH DAYS "
           "DECIMAL ERF.PRECISE ERFC.PRECISE EXPON.DIST F.DIST F.DIST.RT F.INV F.INV.RT F.TEST "
           "FLOOR.MATH FLOOR.PRECISE FORECAST.LINEAR FORMULATEXT GAMMA GAMMA.DIST GAMMA.INV "
           "GAMMALN.PRECISE GAUSS HYPGEOM.DIST IFNA IFS IMCOSH IMCOT IMCSC IMCSCH IMSEC IMSECH "
           "IMSINH IMTAN ISFORMULA ISOWEEKNUM LET LAMBDA LOGNORM.DIST LOGNORM.INV MAXIFS MINIFS "
           "MODE.MULT MODE.SNGL MUNIT NEGBINOM.DIST NORM.DIST NORM.INV NORM.S.DIST NORM.S.INV "
           "NUMBERVALUE PDURATION PERCENTILE.EXC PERCENTILE.INC PERCENTRANK.EXC "
           "PERCENTRANK.INC PERMUTATIONA PHI POISSON.DIST QUARTILE.EXC QUARTILE.INC "
           "RANDARRAY RANK.AVG RANK.EQ RRI SEC SECH SEQUENCE SHEET SHEETS SKEW.P SORTBY "
           "STDEV.P STDEV.S SWITCH T.DIST T.DIST.2T T.DIST.RT T.INV T.INV.2T T.TEST TEXTJOIN "
           "UNICHAR UNICODE UNIQUE VAR.P VAR.S WEIBULL.DIST XLOOKUP XMATCH XOR Z.TEST "
           "TEXTBEFORE TEXTAFTER TEXTSPLIT VSTACK HSTACK TOCOL TOROW WRAPROWS WRAPCOLS TAKE "
           "DROP CHOOSECOLS CHOOSEROWS EXPAND").split()
_WORKSHEET_FUNCTIONS = ("FILTER", "SORT")
_CALL = re.compile(r'"(?:[^"]|"")*"|(?<![\w.])([A-Za-z][A-Za-z0-9.]*)(?=\s*\()')


def stored_formula(formula: str) -> str:
    """A formula as Excel stores it: newer functions with their _xlfn. prefix."""
    def prefix(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:
            return match.group(0)
        upper = name.upper()
        if upper in _WORKSHEET_FUNCTIONS:
            return "_xlfn._xlws." + upper
        return "_xlfn." + upper if upper in _FUTURE_SET else name
    return _CALL.sub(prefix, formula)


_FUTURE_SET = frozenset(_FUTURE)


@dataclass
class Value:
    kind: str          # "empty", "number", "bool", "text", "formula"
    data: object = None
    shown: str = ""    # "date", "datetime", "time", "percent", "percent2", "currency" or ""
    currency: str = ""

    def format_code(self) -> str | None:
        return _CURRENCY_FORMATS.get(self.currency) if self.shown == "currency" else None


def _number(text: str) -> float | int:
    text = text.replace(",", "")
    number = float(text)
    if number.is_integer() and re.fullmatch(r"[-+]?\d+", text) and abs(number) < 1e15:
        return int(number)
    return number


def serial(moment: dt.datetime, date1904: bool) -> float | int:
    """The day number Excel stores for a date (1900 system, with its phantom 29 Feb 1900)."""
    epoch = dt.datetime(1904, 1, 1) if date1904 else dt.datetime(1899, 12, 30)
    delta = moment - epoch
    days = delta.days + delta.seconds / 86_400 + delta.microseconds / 86_400e6
    if not date1904 and moment < dt.datetime(1900, 3, 1):
        days -= 1
    return int(days) if float(days).is_integer() else round(days, 10)


def parse(raw: object, date1904: bool = False, as_text: bool = False) -> Value:
    """The Value of what the call gave; `as_text`: the cell is formatted as Text ('@')."""
    if raw is None:
        return Value("empty")
    if isinstance(raw, bool):
        return Value("bool", raw)
    if isinstance(raw, (int, float)):
        if isinstance(raw, float) and not math.isfinite(raw):
            raise DocumentError("A cell cannot hold an infinite number or NaN.")
        return Value("number", raw)
    if not isinstance(raw, str):
        raise DocumentError("Each cell's value must be text, a number, true/false or null.")
    text = raw
    stripped = text.strip()
    if not stripped:
        return Value("empty")
    if as_text:
        return _text(text)
    if stripped.startswith("'"):
        return _text(text.lstrip()[1:])
    if stripped.startswith("=") and len(stripped) > 1:
        formula = stripped[1:].split(ARROW, 1)[0].strip()  # read_file shows "=B2*1.1 → 3.85"
        if len(formula) > MAX_FORMULA:
            raise DocumentError(f"A formula may have at most {MAX_FORMULA:,} characters.")
        return Value("formula", stored_formula(formula))
    if _PLAIN.match(stripped):
        return Value("number", _number(stripped))
    match = _WITH_STORED.match(stripped)
    if match:
        shown = parse(match.group(1), date1904)
        if shown.kind == "number" and shown.shown not in ("date", "datetime", "time"):
            return Value("number", _number(match.group(2)), shown.shown, shown.currency)
    if stripped.startswith("(") and stripped.endswith(")") and "(" not in stripped[1:]:
        inner = parse(stripped[1:-1], date1904)   # (1,234): a negative, as Excel reads it
        if inner.kind == "number" and inner.shown not in ("date", "datetime", "time") \
                and isinstance(inner.data, (int, float)) and inner.data >= 0:  # a number's
            return Value("number", -inner.data, inner.shown, inner.currency)
    match = _PERCENT.match(stripped)
    if match:
        decimals = "." in match.group(1)
        return Value("number", round(float(match.group(1).replace(",", "")) / 100, 12),
                     "percent2" if decimals else "percent")
    match = _CURRENCY.match(stripped)
    if match:
        sign = -1 if (match.group(1) or match.group(3)) else 1
        return Value("number", sign * _number(match.group(4)), "currency", match.group(2))
    match = _CURRENCY_AFTER.match(stripped)
    if match:
        sign = -1 if match.group(1) else 1
        return Value("number", sign * _number(match.group(2)), "currency", match.group(3))
    if stripped.upper() in ("TRUE", "FALSE"):
        return Value("bool", stripped.upper() == "TRUE")
    moment = _moment(stripped)
    if moment is not None:
        value, kind = moment   # a time of day is its fraction of a day already
        return Value("number", serial(value, date1904) if isinstance(value, dt.datetime)
                     else value, kind)
    return _text(text)


def _moment(text: str) -> tuple[dt.datetime | float, str] | None:
    match = _DATE.match(text)
    if match:
        year, month, day, hour, minute, second = match.groups()
        try:
            moment = dt.datetime(int(year), int(month), int(day), int(hour or 0),
                                 int(minute or 0)) + dt.timedelta(seconds=float(second or 0))
        except ValueError:
            return None
        if moment.year < 1900:
            return None
        return moment, ("datetime" if hour is not None else "date")
    match = _TIME.match(text)
    if match:
        hours, minutes, seconds = (int(g or 0) for g in match.groups())
        if hours < 24 and minutes < 60 and seconds < 60:
            return round((hours * 3600 + minutes * 60 + seconds) / 86_400, 12), "time"
    return None


def _text(text: str) -> Value:
    text = _BAD_CHARS.sub("", text)
    if len(text) > MAX_TEXT:
        raise DocumentError(f"A cell holds at most {MAX_TEXT:,} characters; this text has "
                            f"{len(text):,}.")
    return Value("text", text)
