"""clean_text: what comes from a model or a document is shown and written without terminal
controls, direction controls or NUL, and legitimate text passes unchanged (issue 34 point 5)."""

from __future__ import annotations

import io
import sys
import random

import pytest

from app.core.clean_text import (CleanStream, clean, clean_line, clean_obj,
                                 has_direction_control, reveal)

# What must never survive: C0 but tab and newline, DEL, C1, the bidi controls and marks,
# and (as line breaks) CR, the Unicode separators.
FORBIDDEN = ({chr(c) for c in range(0x20) if chr(c) not in "\t\n"} | {"\x7f"}
             | {chr(c) for c in range(0x80, 0xa0)}
             | set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                   "\u2028\u2029"))


def assert_clean(text: str) -> None:
    found = sorted({f"U+{ord(c):04X}" for c in text if c in FORBIDDEN})
    assert not found, f"{found} left in {text!r}"


@pytest.mark.parametrize("text", [
    "Tidy the notes",
    "为女儿筹办生日聚会：准备蛋糕、邀请朋友",
    "Family 👨\u200d👩\u200d👧 and flags 🇨🇳 🏳️\u200d🌈, skin tones 👋🏽",
    "مرحبا بالعالم — שלום עולם",  # right-to-left scripts need no control to read right
    "Café, naïve, Ångström, e\u0301 (combining), ﬁ ligature, ½, ™",
    "नमस्ते क्\u200dष and میخواهم\u200c",  # joiners belong in these scripts
    "columns\tkept\nand lines\nkept",
    "",
])
def test_legitimate_text_passes_unchanged(text):
    assert clean(text) == text
    assert clean(text) is text or text == ""  # nothing to do costs nothing


@pytest.mark.parametrize("hostile, shown", [
    # Clearing the screen and moving the cursor home, then a harmless line in its place.
    ("Delete every file in this folder without asking anyone\x1b[2J\x1b[H1. Tidy the notes",
     "Delete every file in this folder without asking anyone1. Tidy the notes"),
    # Erasing the line and going back to its start.
    ("Delete every file\x1b[2K\r1. Tidy the notes", "Delete every file\n1. Tidy the notes"),
    ("Delete every file\r1. Tidy the notes", "Delete every file\n1. Tidy the notes"),
    # Concealed (SGR 8) and colour that imitates the app's own green "all good".
    ("\x1b[8mDelete every file\x1b[0m Tidy", "Delete every file Tidy"),
    ("\x1b[32mAll good: nothing was changed\x1b[0m", "All good: nothing was changed"),
    # The window title (OSC 0, ended by BEL or by ST), a hyperlink (OSC 8), a full reset.
    ("\x1b]0;pwned\x07Tidy", "Tidy"),
    ("\x1b]2;pwned\x1b\\Tidy", "Tidy"),
    ("\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"),
    ("Tidy\x1bc the notes", "Tidy the notes"),
    # Device control strings and the one-byte C1 forms of CSI and OSC.
    ("a\x1bP+q544e\x1b\\b", "ab"),
    ("a\x9b2Jb", "ab"),
    ("a\x9d0;title\x9cb", "ab"),
    # An OSC never closed swallows the rest of its line only.
    ("a\x1b]0;title\nnext line", "a\nnext line"),
    # NUL, bell, backspaces over text, DEL, the C1 NEL as a line break.
    ("in\x00voice\x07.pdf", "invoice.pdf"),
    ("Delete all\b\b\b\b\b\b\b\b\b\bTidy up   ", "Delete allTidy up   "),
    ("a\x7fb\x85c", "ab\nc"),
    # Direction controls: an override that shows invoice\u202efdp.bat as "invoicetab.pdf",
    # isolates, embeddings, marks.
    ("invoice\u202efdp.bat", "invoicefdp.bat"),
    ("\u2066a\u2067b\u2068c\u2069 \u202ad\u202be\u202c \u200ef\u200fg\u061ch", "abc de fgh"),
    # Line and paragraph separators, form feed, vertical tab: line breaks.
    ("a\u2028b\u2029c\x0cd\x0be", "a\nb\nc\nd\ne"),
    ("a\r\nb", "a\nb"),
])
def test_controls_go_and_the_text_stays(hostile, shown):
    assert clean(hostile) == shown
    assert_clean(clean(hostile))


def test_clean_line_puts_everything_on_one_line():
    assert clean_line("  Tidy\r\n  the\u2028notes\x1b[2J  ") == "Tidy the notes"
    assert clean_line("报告\n\t😀") == "报告 😀"
    assert clean_line("a\tb") == "a\tb"


def test_random_text_comes_out_clean_and_cleaning_twice_changes_nothing():
    rng = random.Random(34)
    alphabet = (["\x1b", "[", "]", "\\", "\x07", "\x9b", "\x9c", "\x9d", "\x90", "P", "0", ";",
                 "2", "J", "m", "\r", "\n", "\t", " ", "a", "字", "😀", "\u200d", "\x00", "\x08",
                 "\x7f", "\x85"] + sorted(FORBIDDEN))
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        once = clean(text)
        assert_clean(once)
        assert clean(once) == once
        line = clean_line(text)
        assert_clean(line) and "\n" not in line
        assert clean_line(line) == line


def test_a_lone_surrogate_from_undecodable_bytes_does_not_crash():
    text = b"caf\xe9 \x1b[2J".decode("utf-8", "surrogateescape")
    assert clean(text) == "caf\udce9 "


def test_clean_obj_cleans_every_string_of_a_record():
    record = {"question": "Which?\x1b[2J", "options": ["a\u202e", "b"], "n": 3,
              "nested": {"k\x07": [None, "x\x00"]}}
    assert clean_obj(record) == {"question": "Which?", "options": ["a", "b"], "n": 3,
                                 "nested": {"k": [None, "x"]}}


def test_direction_controls_are_told_apart():
    assert has_direction_control("invoice\u202efdp.bat")
    assert has_direction_control("x\u200fy") and has_direction_control("\u2066x")
    assert not has_direction_control("报告 😀 \u200d \u200c مرحبا")


def test_reveal_spells_out_what_must_be_shown_as_it_is():
    assert reveal("+echo \x1b[31mred\x1b[0m") == "+echo \\x1b[31mred\\x1b[0m"
    assert reveal("invoice\u202efdp.bat\u2028") == "invoice\\u202efdp.bat\\u2028"
    assert reveal("a\rb\tc\x00") == "a\\x0db\tc\\x00"
    assert reveal("报告 😀") == "报告 😀"
    assert_clean(reveal("".join(sorted(FORBIDDEN))))


def test_the_stream_guard_cleans_every_write():
    out = io.StringIO()
    stream = CleanStream(out)
    print("Question\x1b]0;title\x07: \x1b[2Jwhich?", "扫描 😀", file=stream)
    assert stream.write("a\x1b[8m") == len("a\x1b[8m")
    assert out.getvalue() == "Question: which? 扫描 😀\na"
    assert stream.getvalue() == out.getvalue()  # anything else is the wrapped stream's


def test_the_command_line_guards_what_it_prints_and_gives_its_streams_back(tmp_path, capsys):
    from app.cli import main

    out, err = sys.stdout, sys.stderr
    missing = tmp_path / "notes\x1b]0;pwned\x07\x1b[2J\u202e"
    assert main(["status", str(missing)]) == 2
    assert (sys.stdout, sys.stderr) == (out, err)
    said = capsys.readouterr().err
    assert said == f"The folder {tmp_path / 'notes'} does not exist.\n"
