"""Formulas filled down a column, as read_file shows them: a cell whose formula is the one of
the cell above copied one row down (Excel's fill down: relative row references one more,
`$` rows and everything else the same) shows the ditto mark `"` and its saved value,
`" 4.95`, instead of its whole formula; a 10,000-row formula column reads in a few tokens a
row. (The ditto mark rather than an arrow: by OpenAI's cl100k tokenizer `|"` and `"` before
a line's end are one token each, `|↓` two, a token a row on a long sheet.)

The same `fill_down` turns the mark back into the formula when read_file's layout is
written, so a sheet read and written back keeps every formula exactly. `↓`, the mark of
earlier versions, is still understood when written.
"""

from __future__ import annotations

import re

FILLED = '"'   # what a filled-down formula cell shows in place of its formula: a ditto mark
LEGEND = (f"({FILLED} marks a formula filled down, as a ditto mark: the formula of the cell "
          "above with its row references one row lower, then the value it last computed.)")
_MARKS = (FILLED, "↓")   # "↓" as earlier versions showed it


def is_mark(text: str) -> bool:
    """Whether a cell's text is the mark of a filled-down formula: the mark alone, or the
    mark, a space and the value it last computed."""
    return any(text == m or text.startswith(m + " ") for m in _MARKS)

# String literals and quoted sheet names are skipped whole; a reference is letters and digits
# not inside a longer name, not a function (LOG10() nor a sheet name (Q1!A1).
_PARTS = re.compile(r'"(?:[^"]|"")*"|\'(?:[^\']|\'\')*\'|'
                    r'(?<![A-Za-z0-9_.$])(\$?[A-Za-z]{1,3})(\$?)(\d{1,7})(?![A-Za-z0-9_(.!])')


def fill_down(formula: str, rows: int = 1) -> str:
    """`formula` (with its `=`) as it reads `rows` rows further down."""
    def shift(match: re.Match[str]) -> str:
        column, dollar, row = match.group(1), match.group(2), match.group(3)
        if column is None or dollar:
            return match.group(0)
        return f"{column}{int(row) + rows}"
    return _PARTS.sub(shift, formula)


def is_filled(above: object, formula: str) -> bool:
    """Whether `formula` is `above` (the cell above's value) filled down one row (both
    formulas with their `=`)."""
    return isinstance(above, str) and above.startswith("=") and fill_down(above) == formula
