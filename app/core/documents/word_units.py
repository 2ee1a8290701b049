"""The blocks write_file compares in a Word document (word_merge, word_fill): each as read_file
shows it, and how a paragraph's text is changed in place. Their own module, so the modules that
fill the body (word_added, word_items, word_pairs, word_inplace) share them without importing
word_fill, which imports them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from lxml.etree import _Element

# A paragraph's text changed in place (its old shown line, its new one); False: it cannot be.
Edit = Callable[["_Element", str, str], bool]


@dataclass
class Unit:
    text: str
    kind: str                   # "h1".."h6", "list", "quote", "body", "table", "code",
    el: _Element | None = None  # "box", "other", "outside"; the body element (old units)
    lead: str = ""              # the old paragraph's heading, list or quote mark
