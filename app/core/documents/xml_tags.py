"""Typed ways to read and prune lxml elements, shared by every document module.

lxml gives an element's `tag` as text, bytes or a QName, and a comment's or a processing
instruction's as a function; the parts read here only ever name elements with text
("{namespace}local"). `tag_of` returns that text, or "" for anything that has none, so a
comment never matches a name and never needs a guard of its own. `detach` takes an element
out of its parent (a root, which has none, stays).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lxml.etree import _Element


def tag_of(el: _Element) -> str:
    tag = el.tag
    return tag if isinstance(tag, str) else ""


def detach(el: _Element) -> None:
    parent = el.getparent()
    if parent is not None:
        parent.remove(el)
