"""Whether a TASKS.md is text the checklist can read: a person's own file may be saved as
UTF-16 (Windows Notepad's "Unicode") or in an older encoding (Windows-1252, GBK).

The board is read as UTF-8, keeping any other byte as it is (the core's surrogateescape), so
nothing is lost; but a UTF-16 file then shows no task at all (its letters are each followed
by a zero byte), and a task added to it would go in as UTF-8, mixed into the UTF-16; and in
an older encoding each letter beyond ASCII shows as "�". The window says so in a sentence.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

_LOOK = 4096  # a UTF-16 file has zero bytes from its first letters on
# A list line without a checkbox ("- Fix the total", "1. Fix the total"): a person's own
# to-do list, which the board does not read as tasks (a task is "- [ ] ...").
_PLAIN_ITEM = re.compile(rb"^ {0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+(?!\[[ xX]\])\S", re.M)


def text_problem(data: bytes) -> str:
    """"utf16", "not_utf8", or "" for a board the checklist reads as it is."""
    head = data[:_LOOK]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in head:
        return "utf16"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "not_utf8"
    return ""


def has_plain_list(data: bytes) -> bool:
    """Whether the board has list lines that are not tasks (no "[ ]" after the bullet)."""
    return _PLAIN_ITEM.search(data) is not None


def problem_sentence(problem: str, name: str) -> str:
    """What the person reads about it (its name as they know it), or "" when all is well."""
    # Short: the note above the list shows two lines (look/notice_bar.py).
    if problem == "utf16":
        return QCoreApplication.translate(
            "BoardText", "%1 is saved as UTF-16 (Notepad's \u201cUnicode\u201d), which this "
            "app cannot read. Save it as UTF-8 to see its tasks here.").replace("%1", name)
    if problem == "not_utf8":
        return QCoreApplication.translate(
            "BoardText", "Some letters in %1 show as \u201c\ufffd\u201d: it is not saved as "
            "UTF-8. Save it as UTF-8 to see them.").replace("%1", name)
    return ""
