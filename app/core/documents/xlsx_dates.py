"""A date or time as the sheet shows it through its number format, for the change view's
grid: `dd-mm-yy` gives 01-02-03, `dddd-mmmm-yyyy h:mm AM/PM` Saturday-February-2003 4:05 AM.
(read_file keeps ISO dates, which read back as dates; this is for the eyes only.)

Excel's rules: `m`/`mm` are minutes right after an hour or right before seconds, months
otherwise; `y`/`yy` a two-digit year, three or more digits the whole year; `AM/PM` (always
upper case) and `a/p` (in the case written) make the clock twelve-hour; `.0`, `.00`, `.000`
after seconds are its fractions. A format this does not know (elapsed `[h]`, era, Buddhist
years) gives None, and the cell is shown as read_file shows it.
"""

from __future__ import annotations

import datetime as dt
import re

_TOKEN = re.compile(r'"([^"]*)"|\\(.)|_.|\*.|(\[[^\]]*\])|(am/pm|a/p)|'
                    r'(y+|m+|d+|h+|s+)(\.0+)?|([eEgGbB])|(.)', re.I)
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def date_text(moment: dt.datetime | dt.date | dt.time, code: str) -> str | None:
    """`moment` (a datetime, date or time) through the format `code`, or None."""
    if not code or code.lower() == "general":
        return None
    section = re.split(r';(?=(?:[^"]*"[^"]*")*[^"]*$)', code)[0]
    parts: list[tuple[str, str]] = []  # (kind, text): "lit", or a field and its letters
    for quoted, escaped, bracket, ampm, field, fraction, unknown, other in (
            m.groups() for m in _TOKEN.finditer(section)):
        if quoted is not None or escaped is not None:
            parts.append(("lit", quoted if quoted is not None else escaped))
        elif bracket is not None:
            if re.match(r"\[(h+|m+|s+)\]$", bracket, re.I):
                return None  # elapsed time
        elif ampm:
            parts.append(("ampm", ampm))
        elif field:
            parts.append((field[0].lower(), field))
            if fraction:
                parts.append(("frac", fraction))
        elif unknown:
            return None
        elif other is not None:
            parts.append(("lit", other))
    if not any(kind in "ymdhs" for kind, _ in parts):
        return None
    return _format(_as_datetime(moment), parts)


def _as_datetime(moment: dt.datetime | dt.date | dt.time) -> dt.datetime:
    if isinstance(moment, dt.datetime):
        return moment
    if isinstance(moment, dt.date):
        return dt.datetime(moment.year, moment.month, moment.day)
    return dt.datetime(1899, 12, 30, moment.hour, moment.minute, moment.second,
                       moment.microsecond)


def _format(moment: dt.datetime, parts: list[tuple[str, str]]) -> str:
    fields = [i for i, (kind, _) in enumerate(parts) if kind in "ymdhs"]
    twelve = any(kind == "ampm" for kind, _ in parts)
    out = []
    for i, (kind, text) in enumerate(parts):
        n = len(text)
        if kind == "lit":
            out.append(text)
        elif kind == "y":
            out.append(f"{moment.year % 100:02d}" if n <= 2 else f"{moment.year:04d}")
        elif kind == "m" and _minutes(i, fields, parts):
            out.append(f"{moment.minute:02d}" if n >= 2 else str(moment.minute))
        elif kind == "m":
            month = moment.month
            out.append(str(month) if n == 1 else f"{month:02d}" if n == 2 else
                       _MONTHS[month - 1][:3] if n == 3 else
                       _MONTHS[month - 1][0] if n == 5 else _MONTHS[month - 1])
        elif kind == "d":
            out.append(str(moment.day) if n == 1 else f"{moment.day:02d}" if n == 2 else
                       _DAYS[moment.weekday()][:3] if n == 3 else _DAYS[moment.weekday()])
        elif kind == "h":
            hour = moment.hour % 12 or 12 if twelve else moment.hour
            out.append(f"{hour:02d}" if n >= 2 else str(hour))
        elif kind == "s":
            out.append(f"{moment.second:02d}" if n >= 2 else str(moment.second))
        elif kind == "frac":
            places = len(text) - 1
            value = round(moment.microsecond / 1_000_000, places)
            out.append("." + f"{value:.{places}f}".split(".")[1])
        elif kind == "ampm":
            pm = moment.hour >= 12
            if text.lower() == "am/pm":
                out.append("PM" if pm else "AM")
            else:
                letter = text[2] if pm else text[0]
                out.append(letter)
    return "".join(out)


def _minutes(i: int, fields: list[int], parts: list[tuple[str, str]]) -> bool:
    """Is the `m` at parts[i] minutes: right after an hour, or right before seconds?"""
    at = fields.index(i)
    before = parts[fields[at - 1]][0] if at > 0 else ""
    after = parts[fields[at + 1]][0] if at + 1 < len(fields) else ""
    return before == "h" or after == "s"
