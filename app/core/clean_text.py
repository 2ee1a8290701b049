"""Text from the model or a document made safe to show and to write: no terminal controls, no
hidden changes of writing direction.

A model's words, a document's part names, an engine's error can carry escape sequences that
a terminal obeys (clear the screen, set the title, hide or recolour text, move the cursor
back over a line) and Unicode direction controls that reorder what is displayed
("invoice\\u202efdp.bat" reads as "invoicetab.pdf"). The same function, clean(), runs
before a text is shown and before it is written (the board, AGENTS.md, the records), so what
the person reads is byte for byte what is kept.

What goes:
- ESC sequences whole (CSI, OSC and the other string commands up to their terminator or the
  end of the line, two-character escapes), and their one-byte C1 forms;
- every other C0 control but tab and newline, DEL, and every C1 control; NUL among them;
- the bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) and the
  direction marks U+200E, U+200F and U+061C. The marks reorder no letter, but they do move
  digits and punctuation around them (a file's extension, an amount), and text written here
  reads correctly without them, so they go too.
Carriage returns, vertical tabs, form feeds, NEL and the Unicode line and paragraph
separators become newlines (a lone CR would let a later text overwrite an earlier one).
Everything else stays as it is: Chinese, Arabic, emoji and their joiners (U+200D) pass
unchanged.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, TextIO

# Not `typing`: `status` imports this module, and typing costs it 5-8 ms (status_view.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# The patterns, compiled on first use: `status` imports this module, and compiling them
# costs more than its text ever will (ASCII text is looked at without them).
_SOURCES = {
    # Any character clean() changes. Text without one (nearly all) is returned as it is.
    "any": "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
           "\u2028\u2029]",
    "sequence": (
        # CSI: parameters, intermediates, a final byte (cut short at the end of the text).
        "(?:\x1b\\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
        # OSC, DCS, SOS, PM, APC: their payload up to BEL or ST, never past the end of a line.
        "|(?:\x1b[\\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\\\|\x9c)?"
        # Any other escape: intermediates and a final byte.
        "|\x1b[\x20-\x2f]*[\x30-\x7e]?"),
    "breaks": "\r\n|[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]",
    "strip": "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]",
    "line_break": r"\s*\n\s*",
}
_compiled: dict[str, re.Pattern[str]] = {}


def _re(name: str) -> re.Pattern[str]:
    pattern = _compiled.get(name)
    if pattern is None:
        pattern = _compiled[name] = re.compile(_SOURCES[name])
    return pattern


# The ASCII characters clean() changes, for the quick look at ASCII text (nearly all): deleting bytes
# is ten times faster than a regular expression's search.
_ASCII_CONTROLS = bytes(c for c in range(0x20) if c not in (0x09, 0x0a)) + b"\x7f"
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean(text: str) -> str:
    """`text` without terminal controls, direction controls or NUL; tabs and line breaks
    stay (every line break as a newline). clean(clean(x)) == clean(x)."""
    if not _needs_cleaning(text):
        return text
    text = _re("sequence").sub("", text)
    text = _re("breaks").sub("\n", text)
    return _re("strip").sub("", text)


def _needs_cleaning(text: str) -> bool:
    if text.isascii():
        data = text.encode("ascii")
        return len(data.translate(None, _ASCII_CONTROLS)) != len(data)
    return _re("any").search(text) is not None


def clean_line(text: str) -> str:
    """clean(text) on one line: line breaks, and the spaces around them, become one space;
    no space at either end."""
    return _re("line_break").sub(" ", clean(text)).strip()


def clean_obj(obj: Any) -> Any:
    """clean() every string inside a JSON-like structure (dict keys too)."""
    if isinstance(obj, str):
        return clean(obj)
    if isinstance(obj, dict):
        return {clean(k) if isinstance(k, str) else k: clean_obj(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean_obj(v) for v in obj]
    return obj


def has_direction_control(text: str) -> bool:
    """True when `text` holds a bidi embedding, override, isolate or direction mark."""
    return not _BIDI.isdisjoint(text)


def reveal(text: str) -> str:
    """`text` with each character clean() would remove or change (but tab and newline)
    spelled out, like \\x1b or \\u202e: for what must be shown as it is, such as a file's
    content waiting for approval, where cleaning would show something else than is written."""
    if not _needs_cleaning(text):
        return text
    return _re("strip").sub(_spelled, text.replace("\r\n", "\n")).translate(_SEPARATORS)


def _spelled(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


_SEPARATORS = {0x2028: "\\u2028", 0x2029: "\\u2029"}


class CleanStream:
    """A text stream whose writes pass through clean(): the command line's last guard, so
    nothing printed can drive the terminal. Everything else is the wrapped stream's."""

    def __init__(self, stream: TextIO) -> None:
        self.wrapped = stream

    def write(self, text: str) -> int:
        self.wrapped.write(clean(text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)
