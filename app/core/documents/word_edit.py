"""edit_file on a .docx: replace text within one paragraph wherever read_file shows it (the
body, tables, content controls, text boxes, tracked insertions, headers, footers, footnotes,
endnotes, comments), keeping the formatting of the text around it.

The paragraphs are found by the same walk that renders the document (word.Reader), so text
copied from read_file, marks and all, is found again exactly; text with its marks left
out (or partly out) is found in the paragraph's plain text. Only the characters that differ
are replaced: the text the old and new share at either end stays in its own runs. The
replacement takes the formatting of the run where the changed text begins; runs after it
lose only the characters that were replaced.

In a document that tracks changes, the edit is a tracked change (word_track): the old text
marked deleted, the new inserted, by "Harness Desk".

A text box is stored twice (a drawing and an older copy for other programs): both copies are
changed, and count as one. Only the XML part holding the paragraph is written again; every
other member of the package is copied as it was.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from app.core.documents.base import DocumentError
from app.core.documents.guard import Full, Out
from app.core.documents.guard import guarded
from app.core.documents.word import Reader
from app.core.documents.word_escape import BLANK, UNHOLD, held
from app.core.documents.word_parts import WordPackage, replaced, serialise, w
from app.core.documents.word_text import DELETED, Paragraph
from app.core.documents.word_track import (Revisions, tracked_replace, tracks_changes,
                                           with_breaks)
from app.core.documents.xml_tags import detach, tag_of

if TYPE_CHECKING:
    from lxml.etree import _Element

    from app.core.documents.word import ShownParagraph
    from app.core.documents.word_text import Line, Paragraph, Piece

_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(\*\*\*|\*\*|\*)(?=\S)(.+?)(?<=\S)\1")
_INSERTED = re.compile(r"\[inserted: (.*?)\]")
_DROPPED = re.compile(r"\[deleted: .*?\]|\[\^[0-9ivxlcdm]{1,8}\]|\[comment \d{1,6}\]")
_LINE_MARK = re.compile(
    r"^(?:\[(?:Header|Footer|First-page header|First-page footer|Even-page header|"
    r"Even-page footer|Text box)\] )?(?:\[\^[0-9ivxlcdm]{1,8}\]: |\[comment \d{1,6}\] [^:]{0,80}: "
    r"|#{1,6} |> |\s*[-*+] |\s*\d+(?:\.\d+)*[.)]? |\s*[a-zA-Z][.)] )?")
_ADDRESS = re.compile(r"\]\(([^)\s]*)\)")
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
_INDEX_CHARS = 50_000_000
_INDEX_SECONDS = 60.0


def plain(text: str) -> str:
    """read_file's marks taken off: what Word itself holds as text (tracked insertions as
    text, deletions and note marks left out)."""
    return inline_plain(_LINE_MARK.sub("", text, count=1))


def inline_plain(text: str) -> str:
    """The marks within a line taken off (not those that begin one); a character escaped
    with a backslash is the text's own, never a mark."""
    text = held(text)
    text = _INSERTED.sub(r"\1", text)
    text = _DROPPED.sub("", text)
    text = _LINK.sub(r"\1", text)
    text = _EMPHASIS.sub(r"\2", text)
    return text.replace("<br>", "\n").translate(UNHOLD)   # a line break


def edit_docx(path: Path, old_text: str, new_text: str) -> bytes:
    if "\n" in old_text.strip("\n") or "\n" in new_text.strip("\n"):
        raise DocumentError("edit_file on a Word document changes text within one paragraph; "
                            "make one call per paragraph, without line breaks.")
    old_text, new_text = old_text.strip("\n"), new_text.strip("\n")

    def action(_checked: zipfile.ZipFile) -> bytes:
        raw = path.read_bytes()
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            return _edit(zf, raw, path.name, old_text, new_text)

    return guarded(path, action)


def _edit(zf: zipfile.ZipFile, raw: bytes, name: str, old_text: str, new_text: str) -> bytes:
    pkg = WordPackage(zf)
    shown: list[ShownParagraph] = []
    reader = Reader(pkg, collect=shown)
    try:
        reader.render(Out(max_chars=_INDEX_CHARS, seconds=_INDEX_SECONDS))
    except Full:
        raise DocumentError(f"'{name}' is too large to be edited in place; write the result "
                            "to a new file instead.") from None
    part, para, twin, (at, length, replacement, after) = _find(shown, name, old_text, new_text)
    if not any(seg.kind == "t" for seg in para.segments()):
        deleted = any(piece.kind == "del" for piece in para.pieces)
        raise DocumentError(
            "All of that paragraph's text is marked as deleted (a tracked change), so there is "
            "no text there to change; change the text next to it instead." if deleted else
            "That paragraph holds no text of its own (only marks such as check boxes), so "
            "there is nothing there to change; change the text next to it instead.")
    if tracks_changes(pkg):  # as a tracked change, as Word would make it
        revisions = Revisions(pkg.trees.values())

        def change(segments: list[Piece]) -> list[_Element]:
            return tracked_replace(segments, at, length, replacement, revisions, after)
    else:
        def change(segments: list[Piece]) -> list[_Element]:
            return _replace(segments, at, length, replacement, after)
    before = para.plain()
    touched = change(para.segments())
    if twin is not None:
        copy = Paragraph(twin, reader)
        if copy.plain() == before:
            touched += change(copy.segments())
    _no_longer_placeholders(touched)
    return replaced(zf, {part: serialise(pkg.tree(part), zf.read(part))}, raw=raw)


def _find(shown: list[ShownParagraph], name: str, old_text: str, new_text: str
          ) -> tuple[str, Paragraph, _Element | None, tuple[int, int, str, bool]]:
    """(part, paragraph, twin, (start, length, replacement, after) in the paragraph's plain
    text) for the one place old_text stands; DocumentError when it stands nowhere or in
    several places. Text copied from read_file is found as shown, marks and all; the two
    texts are compared as shown, so only what differs between them is replaced. `after`:
    text only inserted joins the text after it, not the text before (see _as_shown)."""
    hits = [(entry, i) for entry in shown for i in _all(entry[2].text, old_text)]
    if len(hits) == 1:
        (part, para, line, twin), i = hits[0]
        return part, para, twin, _as_shown(line, i, old_text, new_text, para.plain())
    if not hits:
        for needle in dict.fromkeys((old_text, plain(old_text))):
            if not needle:
                continue
            hits = [(entry, i) for entry in shown   # a break found as a space too
                    for i in _all(entry[1].plain().replace("\n", " "), needle)]
            if hits:
                break
        if len(hits) == 1:
            (part, para, _line, twin), i = hits[0]
            new = new_text if needle == old_text else plain(new_text)
            at, length, middle = _narrowed(i, needle, new)
            return part, para, twin, (at, length, middle, at == i)
    count = len(hits)
    hint = ("Copy it from read_file, within one paragraph" if count == 0
            else "Include more of the paragraph so it is unique")
    raise DocumentError(f"old_text was found {count} times in '{name}'; it must be found "
                        f"exactly once. {hint}.")


def _as_shown(line: Line, i: int, old: str, new: str, text: str
              ) -> tuple[int, int, str, bool]:
    """What to replace in the plain text when `old` stands at `i` of the shown line: the
    part that differs from `new` ("**fresh** bread" -> "**warm** bread": "fresh"); and
    whether text only inserted joins the text after it: when it goes at the start of `old`
    or right after a mark ("[comment 1]new", "[new link text](…)", "**bold**new"), not
    into the run before the mark."""
    head, length, middle = _narrowed(0, old, new, whole=BLANK)
    at = i + head
    mapped = [line.pos[j] for j in range(at, at + length) if line.pos[j] >= 0]
    replacement = inline_plain(middle)
    first, last = (min(mapped), max(mapped) + 1) if mapped else (0, 0)
    if mapped and text[first:last] != replacement:
        return first, last - first, replacement, False
    before = line.pos[at - 1] if at > 0 else None
    after = line.pos[at] if at < len(line.pos) else None
    if mapped or length or not replacement or before == after == DELETED or \
            _in_address(line, at):
        raise DocumentError("That change is in text shown as deleted or in a mark read_file "
                            "adds (such as [^1], [comment 1] or [inserted: …]), not in the "
                            "document's text, so nothing was changed.")
    following = next((p for p in line.pos[at:] if p >= 0), None)
    if following is None:
        following = next((p + 1 for p in reversed(line.pos[:at]) if p >= 0), len(text))
    return following, 0, replacement, head == 0 or (before is not None and before < 0)


def _in_address(line: Line, at: int) -> bool:
    """Whether `at` of the shown line is inside a link's address: "[text](http://…)"."""
    return any(m.start(1) <= at <= m.end(1) and all(p == -1 for p in line.pos[m.start():m.end()])
               for m in _ADDRESS.finditer(line.text))


def _all(text: str, needle: str) -> list[int]:
    found: list[int] = []
    at = text.find(needle)
    while at >= 0 and needle:
        found.append(at)
        at = text.find(needle, at + len(needle))
    return found


def shared_ends(old: str, new: str) -> tuple[int, int]:
    """How many characters `old` and `new` share at their start and (after that) their end."""
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < min(len(old), len(new)) - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head, tail


def _narrowed(start: int, old: str, new: str, whole: re.Pattern[str] | None = None
              ) -> tuple[int, int, str]:
    """Only the part that differs is replaced: the text the two share at either end stays
    in its own runs, with its own formatting ("fresh bread" -> "warm bread" changes "fresh").
    `whole`: what is changed whole or not at all (a blank shown as `&#32;`, never `2;`)."""
    head, tail = shared_ends(old, new)
    found = [(m, len(text)) for text in (old, new) if whole for m in whole.finditer(text)]
    for m, size in found:
        if m.start() < head < m.end():
            head = m.start()
        if m.start() < size - tail < m.end():
            tail = size - m.end()
    return start + head, len(old) - head - tail, new[head:len(new) - tail]


def _replace(segments: list[Piece], start: int, length: int, new_text: str,
             after: bool = False) -> list[_Element]:
    """Replace characters [start, start + length) of the paragraph's plain text. Tabs and
    breaks inside the range go; the new text goes into the first run of text it touches.
    Text only inserted between two runs joins the one before, or (`after`) the one after.
    Returns the text elements changed."""
    spans: list[tuple[Piece, int, int]] = []
    pos = 0
    for seg in segments:
        spans.append((seg, pos, pos + len(seg.text)))
        pos += len(seg.text)
    end, placed = start + length, not new_text
    touched: list[_Element] = []
    if length:
        for seg, a, b in spans:
            if b <= start or a >= end:
                continue
            if seg.kind == "fixed":
                detach(seg.el)
                continue
            text = seg.el.text or ""
            lo, hi = max(start, a) - a, min(end, b) - a
            seg.el.text = text[:lo] + ("" if placed else new_text) + text[hi:]
            seg.el.set(_XML_SPACE, "preserve")
            touched.extend(with_breaks(seg.el))
            placed = True
    if placed:
        return touched
    # An insertion (or a range of tabs only): join the text before it, else the text after.
    texts = [(seg, a, b) for seg, a, b in spans if seg.kind == "t"]
    target = (next(((s, 0) for s, a, b in texts if a == start), None) if after else None) \
        or next(((s, start - a) for s, a, b in texts if a < start <= b), None) \
        or next(((s, 0) for s, a, b in texts if a >= start), None)
    if target is None:
        raise DocumentError("All of that paragraph's text is marked as deleted (a tracked "
                            "change), so there is no text there to change; change the text "
                            "next to it instead.")
    seg, offset = target
    text = seg.el.text or ""
    seg.el.text = text[:offset] + new_text + text[offset:]
    seg.el.set(_XML_SPACE, "preserve")
    return with_breaks(seg.el)


def _no_longer_placeholders(elements: Iterable[_Element]) -> None:
    """Text typed into a content control that showed its placeholder ("[Telephone]",
    "Click here to enter text.") is the person's text now: Word must not show it grey or
    replace it when the control is clicked."""
    for el in elements:
        node = el.getparent()
        while node is not None:
            if tag_of(node) == w("sdt"):
                flag = node.find(f"{w('sdtPr')}/{w('showingPlcHdr')}")
                if flag is not None:
                    detach(flag)
                    for style in node.iter(w("rStyle")):
                        if style.get(w("val")) == "PlaceholderText":
                            detach(style)
                break
            node = node.getparent()
