"""The main part of a Word document written back after write_file (word_merge) with every body
block that did not change kept as the very bytes Word saved, not only as equal XML: lxml
writes `<w:rPr></w:rPr>` as `<w:rPr/>`, "&#xA;" as "&#10;" and a line end of "\r\n" between
elements as "\n", so a block read and written again can differ byte for byte while saying
the same. Here only the changed blocks are lxml's; the rest, and what stands around the body,
are the original's bytes. Checked: the result must read as the same XML as lxml's own
writing, else that is used.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from app.core.documents.word_parts import parse, serialise, w

if TYPE_CHECKING:
    from lxml.etree import _Element

# A tag, or something the scan does not step into (a comment, an instruction, CDATA).
_TAG = re.compile(rb"<(/?)([A-Za-z_][\w.:-]*)(?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*"
                  rb"\s*(/?)>|<!--.*?-->|<\?.*?\?>|<!\[CDATA\[.*?\]\]>", re.S)
_BODY = re.compile(rb"<([A-Za-z_][\w.-]*:)?body[\s>/]")


class Before:
    """The body's blocks as they were read (their XML as lxml writes it), to know after the
    merge which are unchanged."""

    def __init__(self, body: _Element):
        from lxml import etree  # noqa: PLC0415 - document library

        self.blocks = [(el, etree.tostring(el)) for el in body]

    def unchanged(self, el: _Element, at: int) -> bool:
        from lxml import etree  # noqa: PLC0415 - document library

        old, xml = self.blocks[at]
        return old is el and etree.tostring(el) == xml


def spliced(tree: _Element, original: bytes, before: Before) -> bytes:
    """The part `tree` written as `original` with only its changed body blocks new."""
    from lxml import etree  # noqa: PLC0415 - document library

    new = serialise(tree, original)
    body = tree.find(w("body"))
    old_spans, new_spans = _blocks(original), _blocks(new)
    if body is None or old_spans is None or new_spans is None or \
            len(old_spans[1]) != len(before.blocks) or len(new_spans[1]) != len(body):
        return new
    at = {id(el): n for n, (el, _xml) in enumerate(before.blocks)}
    (old_open, old_starts, old_close), (_new_open, new_starts, new_close) = old_spans, new_spans
    old_ends, new_ends = old_starts[1:] + [old_close], new_starts[1:] + [new_close]
    pieces = [original[:old_starts[0] if old_starts else old_open]]
    for n, el in enumerate(body):
        k = at.get(id(el))
        if k is not None and before.unchanged(el, k):
            pieces.append(original[old_starts[k]:old_ends[k]])
        else:
            pieces.append(new[new_starts[n]:new_ends[n]])
    pieces.append(original[old_close:])
    out = b"".join(pieces)
    try:
        same = etree.tostring(parse(out)) == etree.tostring(tree)
    except Exception:  # noqa: BLE001 - any fault in the splice: lxml's own writing
        same = False
    return out if same else new


def _blocks(xml: bytes) -> tuple[int, list[int], int] | None:
    """Where the body's content begins, where each of its blocks begins, and where the body
    closes, in `xml`; None where the scan cannot tell (a comment among the blocks)."""
    found = _BODY.search(xml)
    if found is None:
        return None
    starts: list[int] = []
    depth, opened = 0, -1
    for tag in _TAG.finditer(xml, found.start()):
        if tag.group(2) is None:   # a comment, an instruction or CDATA
            if depth == 1:
                return None
            continue
        closing, selfclosing = tag.group(1) == b"/", tag.group(3) == b"/"
        if opened < 0:   # the body's own start tag
            if selfclosing or not tag.group(2).endswith(b"body"):
                return None
            opened, depth = tag.end(), 1
            continue
        if closing:
            depth -= 1
            if depth == 0:
                return opened, starts, tag.start()
        else:
            if depth == 1:
                starts.append(tag.start())
            if not selfclosing:
                depth += 1
    return None
