"""write_file over a Word document keeps, in a paragraph it makes again (its bold, italic or
links changed), what points into it: bookmarks, comments' ranges and marks; keeps a list
item added or made again in its list, at its level; and, in a document that tracks changes,
makes its changes tracked ones, as edit_file does. On documents saved by Word (python-docx's
and Apache POI's test files, tests/data/word/NOTICE)."""

from __future__ import annotations

import io
import re
import shutil
import zipfile
from collections import Counter
from pathlib import Path

import pytest
from lxml import etree

from app.core.documents import DocumentError, edit_document
from app.core.documents.render import render, write
from app.core.documents.word_splice import _blocks
from app.core.documents.word_track import AUTHOR

DATA = Path(__file__).resolve().parents[2] / "data" / "word"
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _copy(tmp_path: Path, name: str) -> Path:
    target = tmp_path / Path(name).name
    shutil.copy(DATA / name, target)
    return target


def _body(data: bytes) -> etree._Element:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        body = etree.fromstring(zf.read("word/document.xml")).find(f"{W}body")
    assert body is not None
    return body


def _paragraph(data: bytes, text: str) -> etree._Element:
    found = [p for p in _body(data).iter(f"{W}p")
             if "".join(t.text or "" for t in p.iter(f"{W}t")) == text]
    assert len(found) == 1, (text, len(found))
    return found[0]


def _sequence(p: etree._Element) -> list[str]:
    """The paragraph's text and marks in order: "text:…", "bookmarkStart:_GoBack", …"""
    out: list[str] = []
    for el in p.iter():
        name = etree.QName(el).localname if isinstance(el.tag, str) else ""
        if name == "t" and el.text:
            if out and out[-1].startswith("text:"):
                out[-1] += el.text
            else:
                out.append("text:" + el.text)
        elif name in ("bookmarkStart", "bookmarkEnd", "commentRangeStart", "commentRangeEnd",
                      "commentReference"):
            out.append(f"{name}:{el.get(f'{W}name') or el.get(f'{W}id')}")
    return out


def test_a_rebuilt_paragraph_keeps_its_comment_and_bookmark(tmp_path):
    """comments-rich-para.docx (python-docx, saved by Word): "Other text worthy of note."
    holds comment 2's range and mark, then Word's _GoBack bookmark. A word made bold, and in
    another paragraph the comment's mark moved: each comment still spans its text, its mark
    where the new text has it, the bookmark where it stood."""
    path = _copy(tmp_path, "python-docx/comments-rich-para.docx")
    shown = render(path)
    new = (shown.replace("Other text worthy of note.[comment 2]",
                         "Other **text** worthy of note.[comment 2]")
           .replace("Some text worthy of note.[comment 1]",
                    "Some *text* worthy[comment 1] of note."))
    data = write(path, new, True)
    assert _sequence(_paragraph(data, "Other text worthy of note.")) == [
        "commentRangeStart:1", "text:Other text worthy of note.", "commentRangeEnd:1",
        "commentReference:1", "bookmarkStart:_GoBack", "bookmarkEnd:2"]
    bold = [r for r in _paragraph(data, "Other text worthy of note.").iter(f"{W}r")
            if r.find(f"{W}rPr/{W}b") is not None]
    assert ["".join(t.text or "" for t in r.iter(f"{W}t")) for r in bold] == ["text"]
    assert _sequence(_paragraph(data, "Some text worthy of note.")) == [
        "commentRangeStart:0", "text:Some text worthy", "commentRangeEnd:0",
        "commentReference:0", "text: of note."]   # the range ends at the mark, as before
    path.write_bytes(data)
    assert render(path) == new
    with pytest.raises(DocumentError, match=r"^Replacing it with write_file would drop its "
                                           r"comments"):   # its mark left out: refused
        write(path, new.replace("Paragraph 5[comment 3]", "Paragraph **5**"), True)


def test_a_rebuilt_list_item_and_table_cell_keep_their_bookmarks(tmp_path):
    """Word's _GoBack bookmark after "Carrying on @ 13" (POI's ComplexNumberedLists.docx)
    and after "Center" in a table's cell (POI's TestTableCellAlign.docx)."""
    for name, old, new, text in (
            ("poi/ComplexNumberedLists.docx", "13. Carrying on @ 13", "13. Carrying on @ **13**",
             "Carrying on @ 13"),
            ("poi/TestTableCellAlign.docx", "| Center ||", "| **Center** ||", "Center")):
        path = _copy(tmp_path, name)
        shown = render(path)
        data = write(path, shown.replace(old, new), True)
        p = _paragraph(data, text)
        assert _sequence(p) == [f"text:{text}", "bookmarkStart:_GoBack", "bookmarkEnd:0"], name
        assert p.find(f"{W}r/{W}rPr/{W}b") is not None
        path.write_bytes(data)
        assert render(path) == shown.replace(old, new)


def _numbering(p: etree._Element) -> tuple[str | None, str | None]:
    num, lvl = p.find(f"{W}pPr/{W}numPr/{W}numId"), p.find(f"{W}pPr/{W}numPr/{W}ilvl")
    return (num.get(f"{W}val") if num is not None else None,
            lvl.get(f"{W}val") if lvl is not None else None)


LISTS = "poi/ComplexNumberedLists.docx"   # 1.-4. with a. b. c. under 2.; 1.-3. restarted


def test_an_added_item_keeps_its_list_and_its_level(tmp_path):
    """An item added under "3. Entry #3" at the second level is lettered ("a."), one at the
    third level under "c. 2-c" is numbered as Word's third level ("i."); neither is flattened
    into the first level's numbers."""
    path = _copy(tmp_path, LISTS)
    shown = render(path)
    new = (shown.replace("3. Entry #3\n", "3. Entry #3\n  a. Child of three\n")
           .replace("  c. 2-c\n", "  c. 2-c\n    i. Deep **child**\n"))
    data = write(path, new, True)
    assert _numbering(_paragraph(data, "Child of three")) == ("1", "1")
    assert _numbering(_paragraph(data, "Deep child")) == ("1", "2")
    assert getattr(data, "summary", "") == "added 2; the rest of the document is unchanged"
    path.write_bytes(data)
    assert render(path) == new


def test_an_item_added_at_the_start_of_a_restarted_list_joins_it(tmp_path):
    """Between "4. Entry #4" and the list that restarts at 1, a paragraph and a new first
    item, the restarted list renumbered after it as Word would: the new item is that list's
    first (1.), and the renumbered items are kept as they were."""
    path = _copy(tmp_path, LISTS)
    before = [etree.tostring(el) for el in _body(path.read_bytes())]
    shown = render(path)
    new = shown.replace("4. Entry #4\n1. Restarted to 1 from 5\n2. Restarted @ 2\n"
                        "3. Restarted @ 3\n",
                        "4. Entry #4\n\nA note.\n\n1. New first\n2. Restarted to 1 from 5\n"
                        "3. Restarted @ 2\n4. Restarted @ 3\n")
    data = write(path, new, True)
    assert _numbering(_paragraph(data, "New first")) == \
        _numbering(_paragraph(data, "Restarted to 1 from 5"))
    after = [etree.tostring(el) for el in _body(data)]
    assert [el for el in after if el in before] == before   # the others untouched
    assert getattr(data, "summary", "") == "added 2; the rest of the document is unchanged"
    path.write_bytes(data)
    assert render(path) == new


def test_a_rebuilt_item_moved_a_level_down_takes_that_levels_numbering(tmp_path):
    path = _copy(tmp_path, LISTS)
    shown = render(path)
    new = shown.replace("  b. 2-b\n  c. 2-c\n", "    i. **2-b**\n  b. 2-c\n")
    data = write(path, new, True)
    assert _numbering(_paragraph(data, "2-b")) == ("1", "2")
    path.write_bytes(data)
    assert render(path) == new


def _accepted(data: bytes) -> list[str]:
    """Each paragraph's text once every tracked change is accepted (a paragraph whose text
    and mark are deleted goes)."""
    out = []
    for p in _body(data).iter(f"{W}p"):
        text = "".join(t.text or "" for t in p.iter(f"{W}t"))
        if text or p.find(f"{W}pPr/{W}rPr/{W}del") is None:
            out.append(text)
    return out


def _marks(p: etree._Element) -> list[tuple[str, str | None]]:
    return [(etree.QName(el).localname, el.get(f"{W}author"))
            for el in p.iter(f"{W}ins", f"{W}del")]


def test_in_a_document_that_tracks_changes_write_file_tracks_its_changes(tmp_path):
    """POI's delins.docx tracks changes (and holds pavel's): a word changed (as edit_file
    changes it), a paragraph made again with a bold word, one added, one removed: each a
    tracked change by "Harness Desk" on the same date, pavel's kept; accepting them all
    gives the new text, and read_file shows them marked."""
    path = _copy(tmp_path, "poi/delins.docx")
    before = path.read_bytes()
    shown = render(path)
    title = ("- A title in certain Indian monarchies for a [Crown Prince]"
             "(http://en.wikipedia.org/wiki/Crown_Prince)\n")
    new = (shown.replace("A Nepalese name for", "A Nepali name for")
           .replace("A place in [Abkhazia]", "A **place** in [Abkhazia]")
           .replace(title, "")
           .replace("**Tika** can be:\n", "**Tika** can be:\n\nA new *paragraph* here.\n"))
    data = write(path, new, True)
    assert getattr(data, "summary", "") == (
        "changed 2 paragraphs, added 1, removed 1; the rest of the document is unchanged; the "
        "document tracks changes, so each is a tracked change by Harness Desk, to accept or "
        "reject in Word")
    (tmp_path / "e").mkdir()
    edited = _copy(tmp_path / "e", "poi/delins.docx")
    edited.write_bytes(edit_document(edited, "A Nepalese name", "A Nepali name"))
    body = _body(data)
    ours = [el for el in body.iter(f"{W}ins", f"{W}del") if el.get(f"{W}author") == AUTHOR]
    assert len({el.get(f"{W}date") for el in ours}) == 1 and len(ours) >= 6
    ids = [el.get(f"{W}id") for el in body.iter(f"{W}ins", f"{W}del", f"{W}pPrChange")]
    assert len(ids) == len(set(ids))
    added = _paragraph(data, "A new paragraph here.")
    assert _marks(added) == [("ins", AUTHOR)] * 2   # its mark and its text
    removed = [p for p in body.iter(f"{W}p") if "".join(
        t.text or "" for t in p.iter(f"{W}delText")).startswith("A title in certain")]
    assert len(removed) == 1 and "".join(t.text or "" for t in removed[0].iter(f"{W}t")) == ""
    assert removed[0].find(f"{W}pPr/{W}rPr/{W}del").get(f"{W}author") == AUTHOR
    rebuilt = _paragraph(data, "A place in Abkhazia ")
    assert ("ins", "pavel") in _marks(rebuilt) and ("ins", AUTHOR) in _marks(rebuilt)
    assert [r.find(f"{W}t").text for r in rebuilt.iter(f"{W}r")
            if r.find(f"{W}rPr/{W}b") is not None and r.find(f"{W}t") is not None] == ["place"]
    expected = _accepted(before)
    expected[expected.index("Tika can be:") + 1:expected.index("Tika can be:") + 1] = \
        ["A new paragraph here."]
    expected.remove("A title in certain Indian monarchies for a Crown Prince")
    expected[expected.index("A Nepalese name for Tilaka")] = "A Nepali name for Tilaka"
    assert _accepted(data) == expected
    path.write_bytes(data)
    after = render(path)
    assert "- A Nepal[deleted: ese][inserted: i] name for" in after
    assert after.split("\n")[4] == render(edited).split("\n")[2]   # as edit_file marks it
    assert "[inserted: A new *paragraph* here.]" in after
    assert "- [deleted: A title in certain Indian monarchies" in after


def _tracking(source: Path, target: Path) -> None:
    """`source` as it is with Review > Track Changes turned on (w:trackRevisions)."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "word/settings.xml":
                at = data.index(b">", data.index(b"<w:settings")) + 1
                data = data[:at] + b"<w:trackRevisions/>" + data[at:]
            zout.writestr(info, data)


def test_a_tables_changes_are_tracked_cell_by_cell_or_whole(tmp_path):
    """POI's TestTableCellAlign.docx with Track Changes on: a word changed and a cell made
    bold are tracked in their cells; a row added makes the table again, the old one marked
    deleted row by row and the new one inserted."""
    path = tmp_path / "cells.docx"
    _tracking(DATA / "poi/TestTableCellAlign.docx", path)
    shown = render(path)
    data = write(path, shown.replace("| Top | Bottom |", "| Top | **Bottom** |")
                 .replace("| Center ||", "| Centre | more |"), True)
    path.write_bytes(data)
    assert render(path).startswith("| Top | [deleted: Bottom][inserted: **Bottom**] |\n|---|---|\n"
                                   "| Cent[deleted: er][inserted: re] | [inserted: more] |\n")
    data = write(path, render(path) + "\n", True)   # as read_file shows it: unchanged
    assert data == path.read_bytes()
    again = tmp_path / "again.docx"
    _tracking(DATA / "poi/TestTableCellAlign.docx", again)
    again.write_bytes(write(again, shown.replace("| Center ||", "| Center ||\n| one | two |"),
                            True))
    tables = _body(again.read_bytes()).findall(f"{W}tbl")
    marks = [[tr.find(f"{W}trPr/{W}{kind}") is not None for tr in tbl.findall(f"{W}tr")]
             for tbl, kind in zip(tables, ("del", "ins"))]
    assert marks == [[True] * 2, [True] * 3]
    assert render(again).count("[deleted: Center]") == 1 and "[inserted: two]" in render(again)


def test_an_item_moved_a_level_keeps_its_runs_and_is_not_indented_with_blanks(tmp_path):
    """Only its level changed: the same paragraph, its w:ilvl changed (not blanks typed into
    its text); tracked, a change of its properties (POI's delins.docx)."""
    path = _copy(tmp_path, LISTS)
    before = _paragraph(path.read_bytes(), "Entry #3")
    shown = render(path)
    new = shown.replace("3. Entry #3\n4. Entry #4", "  d. Entry #3\n3. Entry #4")
    data = write(path, new, True)
    after = _paragraph(data, "Entry #3")
    assert _numbering(after) == ("1", "1")
    after.find(f"{W}pPr/{W}numPr/{W}ilvl").set(f"{W}val", "0")
    assert etree.tostring(after) == etree.tostring(before)
    path.write_bytes(data)
    assert render(path) == new
    tracked = _copy(tmp_path, "poi/delins.docx")
    shown = render(tracked)
    data = write(tracked, shown.replace("- A nickname for", "  - A nickname for"), True)
    p = _paragraph(data, "A nickname for Petrika the Albanian variation of Peter")
    assert _numbering(p) == ("1", "1") and p.find(f"{W}ins") is None
    change = p.find(f"{W}pPr/{W}pPrChange")
    assert change.get(f"{W}author") == AUTHOR and _numbering(change) == ("1", "0")
    tracked.write_bytes(data)
    assert "\n  - A nickname for Petrika" in render(tracked)


def test_a_renumbered_item_whose_text_changed_is_changed_in_place(tmp_path):
    """An item added above renumbers the items after it: one of those whose words changed
    too keeps its runs, only its words changed (as edit_file changes them)."""
    path = _copy(tmp_path, LISTS)
    shown = render(path)
    new = shown.replace("1. Entry #1\n2. Entry #2, with children\n",
                        "1. Zero\n2. Entry #1\n3. Entry #2, with grandchildren\n")
    data = write(path, new, True)
    assert getattr(data, "summary", "") == \
        "changed 1 paragraph, added 1; the rest of the document is unchanged"
    before = _paragraph(path.read_bytes(), "Entry #2, with children")
    after = _paragraph(data, "Entry #2, with grandchildren")
    assert [r.get(f"{W}rsidR") for r in after.iter(f"{W}r")] == \
        [r.get(f"{W}rsidR") for r in before.iter(f"{W}r")]


SAVED = sorted(str(p.relative_to(DATA)) for p in DATA.glob("*/*.docx")
               if "password" not in p.name and p.name != "doc-coreprops.docx")   # no text


@pytest.mark.parametrize("name", SAVED)
def test_the_blocks_that_did_not_change_keep_their_bytes(tmp_path, name):
    """One word changed: word/document.xml is the original's bytes but for the changed
    block's (LibreOffice's `<w:rPr></w:rPr>`, python-docx's line ends and last newline,
    Word's "&#xA;" in a picture's data all stay as they were saved)."""
    path = _copy(tmp_path, name)
    with zipfile.ZipFile(path) as zf:
        original = zf.read("word/document.xml")
    shown = render(path)
    word = next(x for line in shown.splitlines() if not line.startswith(("[", "("))
                for x in re.findall(r"[^\W\d_]{5,}", line) if shown.count(x) == 1)
    data = write(path, shown.replace(word, f"Zebra{word}"), True)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        new = zf.read("word/document.xml")
    old_blocks = [etree.tostring(el) for el in etree.fromstring(original).find(f"{W}body")]
    new_blocks = [etree.tostring(el) for el in _body(data)]
    changed = [n for n, (a, b) in enumerate(zip(old_blocks, new_blocks)) if a != b]
    assert len(changed) == 1 and len(old_blocks) == len(new_blocks)
    spans = _blocks(original)
    assert spans is not None
    starts = spans[1] + [spans[2]]
    head, tail = original[:starts[changed[0]]], original[starts[changed[0] + 1]:]
    assert new.startswith(head) and new.endswith(tail), name


def test_a_paragraph_that_begins_like_a_list_mark_is_not_renumbered_away(tmp_path):
    """Only list items' numbers are Word's: in body text (python-docx's par-alignment.docx)
    "A. Smith" made "B. Smith" and "Note:" made "Hint:" are changes, written."""
    path = _copy(tmp_path, "python-docx/par-alignment.docx")
    for before, after in (("Left aligned.", "A. Smith wrote."),
                          ("A. Smith wrote.", "B. Smith wrote."),
                          ("Center aligned.", "Note: bring food"),
                          ("Note: bring food", "Hint: bring more food")):
        shown = render(path)
        path.write_bytes(write(path, shown.replace(before, after), True))
        assert render(path) == shown.replace(before, after)


def test_a_line_removed_from_a_cell_leaves_the_cells_other_lines_as_they_were(tmp_path):
    """POI's IllustrativeCases.docx: a cell of one paragraph per line. "Standard Rate Band"
    taken out of Patrick's table: only its paragraph goes, the lines after it are the same
    paragraphs (not each made again from the one below it); with Track Changes on, it is
    all that is marked."""
    name = "poi/IllustrativeCases.docx"
    old_row = "| <br>**Gross Income**<br>**Standard Rate Band**<br>**Income Tax liability**"
    new_row = "| <br>**Gross Income**<br>**Income Tax liability**"
    for tracked in (False, True):
        path = tmp_path / f"cases{tracked}.docx"
        if tracked:
            _tracking(DATA / name, path)
        else:
            shutil.copy(DATA / name, path)
        before = path.read_bytes()
        shown = render(path)
        new = shown.replace(old_row, new_row, 1)
        assert new.count("Standard Rate Band") == shown.count("Standard Rate Band") - 1
        data = write(path, new, True)
        old_ps = [etree.tostring(p) for p in _body(before).iter(f"{W}p")]
        new_ps = [etree.tostring(p) for p in _body(data).iter(f"{W}p")]
        if tracked:
            assert len(new_ps) == len(old_ps)
            assert sum(a != b for a, b in zip(old_ps, new_ps)) == 1
            deleted = ["".join(t.text or "" for t in p.iter(f"{W}delText"))
                       for p in _body(data).iter(f"{W}p")
                       if p.find(f"{W}pPr/{W}rPr/{W}del") is not None]
            assert deleted == ["Standard Rate Band"]
        else:
            gone, came = Counter(old_ps) - Counter(new_ps), Counter(new_ps) - Counter(old_ps)
            assert sum(gone.values()) == 1 and not came
            path.write_bytes(data)
            assert render(path) == new


@pytest.mark.parametrize("name", SAVED)
def test_with_track_changes_on_write_file_marks_a_word_as_edit_file_does(tmp_path, name):
    """Each Word-saved document with Track Changes turned on: a word changed by write_file
    reads as the same change made by edit_file, marked as a tracked change."""
    written, edited = tmp_path / "w.docx", tmp_path / "e.docx"
    _tracking(DATA / name, written)
    shutil.copy(written, edited)
    shown = render(written)
    word = next(x for line in shown.splitlines() if not line.startswith(("[", "("))
                for x in re.findall(r"[^\W\d_]{5,}", line) if shown.count(x) == 1)
    written.write_bytes(write(written, shown.replace(word, f"Zebra{word}"), True))
    edited.write_bytes(edit_document(edited, word, f"Zebra{word}"))
    assert render(written) == render(edited) and f"[inserted: Zebra]{word}" in render(written)


def test_a_rebuilt_paragraph_keeps_its_footnote_and_endnote_marks(tmp_path):
    """POI's Bug54849.docx: "Blahdeblah[^1]1" and "Blahdeblah[^i]6" hold a footnote's and an
    endnote's mark; made bold and split, each mark stays where the new text has it."""
    path = _copy(tmp_path, "poi/Bug54849.docx")
    shown = render(path)
    new = shown.replace("Blahdeblah[^1]1", "**Blahdeblah**[^1]1").replace(
        "Blahdeblah[^i]6", "*Blah* deblah[^i]6")
    data = write(path, new, True)
    for text, mark in (("Blahdeblah1", "footnoteReference"), ("Blah deblah6", "endnoteReference")):
        p = _paragraph(data, text)
        runs = list(p.iter(f"{W}r"))
        at = next(n for n, r in enumerate(runs) if r.find(f"{W}{mark}") is not None)
        assert "".join(t.text or "" for r in runs[:at] for t in r.iter(f"{W}t")) == text[:-1]
    path.write_bytes(data)
    assert render(path) == new


def test_an_added_paragraph_does_not_copy_another_reviewers_marks(tmp_path):
    """POI's delins.docx: a paragraph added after one pavel inserted takes its look, not his
    tracked insertion and format change (which would be his, with his ids twice)."""
    path = _copy(tmp_path, "poi/delins.docx")
    shown = render(path)
    new = shown.replace("[inserted: March 2009: Apache Tika Release]\n",
                        "[inserted: March 2009: Apache Tika Release]\n\nAnother release.\n")
    data = write(path, new, True)
    added = _paragraph(data, "Another release.")
    assert _marks(added) == [("ins", AUTHOR)] * 2 and added.find(f".//{W}rPrChange") is None
    ids = [el.get(f"{W}id") for el in _body(data).iter(f"{W}ins", f"{W}del", f"{W}rPrChange",
                                                       f"{W}pPrChange")]
    assert len(ids) == len(set(ids))
    path.write_bytes(data)
    assert render(path) == new.replace("Another release.", "[inserted: Another release.]")


def test_a_paragraph_made_a_list_item_joins_the_list_around_it(tmp_path):
    """POI's ComplexNumberedLists.docx: "Normal text here", between items 11 and 12 of one
    list, written as its item 12: it is that list's item (numbered by Word), not a paragraph
    that begins with the text "12."."""
    path = _copy(tmp_path, LISTS)
    shown = render(path)
    new = shown.replace("11. Now 11\n\nNormal text here\n\n12. Carrying on @ 12\n"
                        "13. Carrying on @ 13",
                        "11. Now 11\n12. Normal **text** here\n13. Carrying on @ 12\n"
                        "14. Carrying on @ 13")
    data = write(path, new, True)
    assert _numbering(_paragraph(data, "Normal text here")) == \
        _numbering(_paragraph(data, "Now 11"))
    path.write_bytes(data)
    assert render(path) == new


def test_with_track_changes_on_a_moved_paragraph_is_deleted_there_and_inserted_here(tmp_path):
    """python-docx's par-alignment.docx with Track Changes on: "Center aligned." moved to the
    end is marked deleted where it was and inserted, centred still, where it went; its
    comment-free copy takes the same look (not that of the body text before it)."""
    path = tmp_path / "moved.docx"
    _tracking(DATA / "python-docx/par-alignment.docx", path)
    shown = render(path)
    data = write(path, shown.replace("Center aligned.\n\n", "").replace(
        "Fully justified.", "Fully justified.\n\nCenter aligned."), True)
    assert getattr(data, "summary", "").startswith(
        "moved 1; the rest of the document is unchanged; the document tracks changes")
    body = _body(data)
    ps = [p for p in body.iter(f"{W}p")
          if "".join(t.text or "" for t in p.iter(f"{W}t", f"{W}delText")) == "Center aligned."]
    assert len(ps) == 2
    was, now = ps
    assert was.find(f"{W}pPr/{W}rPr/{W}del") is not None and was.find(f".//{W}t") is None
    assert now.find(f"{W}pPr/{W}rPr/{W}ins") is not None and now.find(f".//{W}delText") is None
    assert now.find(f"{W}pPr/{W}jc").get(f"{W}val") == "center"
    ids = [el.get(f"{W}id") for el in body.iter(f"{W}ins", f"{W}del")]
    assert len(ids) == len(set(ids))
    path.write_bytes(data)
    assert render(path).endswith("Fully justified.\n\n[inserted: Center aligned.]\n")


def test_with_track_changes_on_what_goes_stands_before_what_comes(tmp_path):
    """POI's delins.docx written over with two new paragraphs: its old text, marked deleted,
    comes first and the new text, inserted, after it, as Word shows a replacement."""
    path = _copy(tmp_path, "poi/delins.docx")
    path.write_bytes(write(path, "# Short\n\nText.\n", True))
    lines = [line for line in render(path).splitlines() if line]
    deleted = [n for n, line in enumerate(lines) if "[deleted: " in line]
    assert len(deleted) > 20 and lines[max(deleted) + 1:] == ["# [inserted: Short]",
                                                              "[inserted: Text.]"]
