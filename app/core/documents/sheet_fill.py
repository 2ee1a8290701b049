"""Formulas filled down a column, as read_file shows them: a cell whose formula is the one of
the cell above copied one row down (Excel's fill down: relative row references one more,
`$` rows and everything else the same) shows `↓` and its saved value, `↓ 4.95`, instead of
its whole formula; a 10,000-row formula column reads in a few tokens a row.

The same `fill_down` turns `↓` back into the formula when read_file's layout is written, so
a sheet read and written back keeps every formula exactly.
"""

from __future__ import annotations

import re

FILLED = "↓"   # what a filled-down formula cell shows in place of its formula
LEGEND = (f"({FILLED} marks a formula filled down: the formula of the cell above with its "
          "row references one row lower, then the value it last computed.)")

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
