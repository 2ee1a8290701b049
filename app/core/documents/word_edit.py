"""edit_file on a .docx: replace text within one paragraph, even when Word split it over many
runs, keeping the paragraph's style and the formatting of the text around it.

The replacement takes the formatting of the run where the old text began; runs after it
lose only the characters that were replaced. Everything else in the file is written back
as python-docx read it, and the save is checked (keep.check_kept) before it is used.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from app.core.documents.base import DocumentError
from app.core.documents.keep import check_kept
from app.core.documents.render import guarded

_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(\*\*\*|\*\*|\*)(?=\S)(.+?)(?<=\S)\1")
_LINE_MARK = re.compile(r"^(#{1,6} |> |\s*[-*+] |\s*\d+[.)] )")


def plain(text: str) -> str:
    """read_file's Markdown marks taken off: what Word itself holds as text."""
    text = _LINE_MARK.sub("", text)
    text = _LINK.sub(r"\1", text)
    text = _EMPHASIS.sub(r"\2", text)
    return text.replace("\\|", "|").replace("<br>", "")


def _segments(paragraph_el):
    """The w:t elements of one paragraph (runs inside links included, nested paragraphs of
    text boxes not), in order."""
    from docx.oxml.ns import qn

    p_tag, t_tag = qn("w:p"), qn("w:t")
    found = []
    for t in paragraph_el.iter(t_tag):
        parent = t.getparent()
        while parent is not None and parent.tag != p_tag:
            parent = parent.getparent()
        if parent is paragraph_el:
            found.append(t)
    return found


def edit_docx(path: Path, old_text: str, new_text: str) -> bytes:
    if "\n" in old_text.strip("\n") or "\n" in new_text.strip("\n"):
        raise DocumentError("edit_file on a Word document changes text within one paragraph; "
                            "make one call per paragraph, without line breaks.")
    old_text, new_text = old_text.strip("\n"), new_text.strip("\n")

    def action(_zf):
        from docx import Document
        from docx.oxml.ns import qn

        doc = Document(str(path))
        paragraphs = [(p, _segments(p)) for p in doc.element.body.iter(qn("w:p"))]
        texts = ["".join(t.text or "" for t in segs) for _, segs in paragraphs]
        needle, replacement = old_text, new_text
        count = sum(t.count(needle) for t in texts)
        if count == 0 and plain(old_text) != old_text:
            needle, replacement = plain(old_text), plain(new_text)
            count = sum(t.count(needle) for t in texts) if needle else 0
        if count != 1:
            hint = ("Copy it from read_file, within one paragraph" if count == 0
                    else "Include more of the paragraph so it is unique")
            raise DocumentError(f"old_text was found {count} times in '{path.name}'; it must be "
                                f"found exactly once. {hint}.")
        index = next(n for n, t in enumerate(texts) if needle in t)
        start, length, replacement = _narrowed(texts[index].index(needle), needle, replacement)
        _replace(paragraphs[index][1], start, length, replacement)
        out = io.BytesIO()
        doc.save(out)
        return out.getvalue()

    data = guarded(path, action)
    check_kept(path, data, action="This edit")
    return data


def _narrowed(start: int, old: str, new: str) -> tuple[int, int, str]:
    """Only the part that differs is replaced: the text the two share at either end stays
    in its own runs, with its own formatting ("fresh bread" -> "warm bread" changes "fresh")."""
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return start + head, len(old) - head - tail, new[head:len(new) - tail]


def _replace(segments, start: int, length: int, new_text: str) -> None:
    """Replace characters [start, start + length) of the paragraph's joined text."""
    end, pos, placed = start + length, 0, False
    if length == 0:  # an insertion: it joins the text before it (or begins the paragraph)
        for t in segments:
            text = t.text or ""
            if pos < start <= pos + len(text) or (start == 0 and text):
                t.text = text[:start - pos] + new_text + text[start - pos:]
                t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
                return
            pos += len(text)
        return
    for t in segments:
        text = t.text or ""
        seg_start, seg_end = pos, pos + len(text)
        pos = seg_end
        if seg_end <= start:
            continue
        if seg_start >= end:
            break
        tail = text[end - seg_start:] if end < seg_end else ""
        t.text = (text[:start - seg_start] + new_text + tail) if not placed else tail
        placed = True
        t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
