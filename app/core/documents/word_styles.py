"""A heading style added to a Word document that has none, when write_file adds a heading:
Word's own "heading N", as python-docx's default template defines it, so Word, LibreOffice
and read_file see a real heading (its outline level, its look) and not bold body text.
Nothing is added to a document that already has the style, or no styles part at all.
"""

from __future__ import annotations

import copy
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.documents.word_parts import parse, w

if TYPE_CHECKING:
    from lxml.etree import _Element

    from app.core.documents.word_lists import Styles


class HeadingStyles:
    def __init__(self, tree: _Element | None, styles: Styles):
        self.tree, self.styles = tree, styles
        self.changed = False

    def style_id(self, level: int) -> str | None:
        """The id of a style for a heading of `level`: the document's own, else Word's
        "heading N" added to it; None where the document has no styles part."""
        sid = next((s for s in self.styles.names if self.styles.heading(s) == level), None)
        if sid is not None or self.tree is None:
            return sid
        sid = f"Heading{level}"
        if sid in self.styles.names:
            return None   # the id is taken by a style that is not a heading
        model = _template_style(sid)
        if model is None:
            return None
        for tag in ("link", "rsid"):   # what names parts of the template, not of this file
            for el in model.findall(w(tag)):
                model.remove(el)
        based = model.find(w("basedOn"))
        if based is not None and based.get(w("val")) not in self.styles.names:
            model.remove(based)
        self.tree.append(model)
        self.styles.names[sid] = f"heading {level}"
        self.changed = True
        return sid


def _template_style(sid: str) -> _Element | None:
    import docx  # noqa: PLC0415 - document library

    template = Path(docx.__file__).parent / "templates" / "default.docx"
    with zipfile.ZipFile(template) as zf:
        root = parse(zf.read("word/styles.xml"))
    for style in root.iter(w("style")):
        if style.get(w("styleId")) == sid:
            return copy.deepcopy(style)
    return None
