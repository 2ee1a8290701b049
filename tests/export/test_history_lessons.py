"""The export of the whole history carries the lessons: what was proposed, what was accepted
when, and how often the cause came back since."""

from __future__ import annotations

from app.core.lessons.actions import accept_lesson
from app.core.run.loop import Harness
from app.export.history import build_history, render_history_markdown
from tests.scripted import ScriptedEngine, board_workspace, call, fast_limits

BOARD = "# Shop\n\n- [ ] Write {name}\n"


def refused_then_done(ws, name):
    ws.board_path.write_text(BOARD.format(name=name), encoding="utf-8")
    script = [call("read_file", path="../secret.txt"), call("write_file", path=name, content="x"),
              call("complete_task", summary="done", evidence=[name])]
    Harness(ws, ScriptedEngine(script), fast_limits()).run()


def test_history_lists_lessons_with_their_acceptance_and_effect(tmp_path):
    ws = board_workspace(tmp_path, BOARD.format(name="a.md"))
    refused_then_done(ws, "a.md")
    text = render_history_markdown(build_history(ws.root))
    assert "## Lessons\n\nNo lessons were found in these runs." in text
    refused_then_done(ws, "b.md")
    text = render_history_markdown(build_history(ws.root))
    assert "### Lesson 1: The harness refused ../secret.txt 2 times" in text
    assert "- **Seen in:** run 1 round 1, run 2 round 1" in text
    assert "- **Proposed line (not accepted):** Do not use ../secret.txt" in text
    assert not (ws.root / ".harness" / "lessons.json").exists()  # exporting numbers nothing
    accept_lesson(ws.root, 1)
    refused_then_done(ws, "c.md")
    text = render_history_markdown(build_history(ws.root))
    assert "- **Accepted:** " in text and "in AGENTS.md: Do not use ../secret.txt" in text
    assert "- **Effect:** since accepted: 1 of 1 runs" in text


def _header_room(markdown: str) -> dict[str, float]:
    """How much of its column each header word of the document's tables needs (1.0: all of
    it, over 1: it wraps), laid out as the PDF lays it out (A4, its resolution and margins)."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QSizeF
    from PySide6.QtGui import QFontMetricsF, QPageLayout, QPageSize, QPdfWriter

    from app.export import pdf
    from app.export.doc_style import _cell_text, _tables
    from app.export.render import ensure_app, markdown_document

    ensure_app()
    doc = markdown_document(markdown, "History")
    buf = QBuffer(QByteArray())
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buf)
    writer.setResolution(pdf.RESOLUTION)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                     QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0),
                                     QPageLayout.Unit.Millimeter))
    page = writer.pageLayout().fullRectPixels(pdf.RESOLUTION)
    left, top, right, bottom = (pdf._mm(m) for m in pdf.MARGINS_MM)
    doc.documentLayout().setPaintDevice(writer)
    doc.setPageSize(QSizeF(page.width() - left - right, page.height() - top - bottom))
    doc.pageCount()  # lays it out
    room = {}
    for table in _tables(doc.rootFrame()):
        for col in range(table.columns()):
            cursor = table.cellAt(0, col).firstCursorPosition()
            text = _cell_text(table, 0, col)
            cursor.movePosition(cursor.MoveOperation.NextCharacter)
            font = cursor.charFormat().font()
            needed = QFontMetricsF(font, writer).horizontalAdvance(text)
            width = doc.documentLayout().blockBoundingRect(cursor.block()).width()
            room[text] = needed / width
    return room


def test_the_runs_table_keeps_each_header_word_whole_in_the_pdf():
    """The every-run PDF wrapped its Runs header as "Round / s" when a run's ending was long."""
    from app.export.markdown import table

    ending = ("Stopped after the time limit of 30 minutes while working on the third task; "
              "the next run can continue where this one stopped, nothing was lost.")
    engine = "OpenAI — gpt-4.1-mini-2025-04-14 (through a proxy at api.example.com)"
    markdown = "\n".join(["# History", "", "## Runs", ""] + table(
        ["#", "Started", "Engine", "How it ended", "Rounds", "Cost"],
        [[str(i), "2026-12-01 09:30 UTC", engine, ending, "12", "$0.0412"]
         for i in (1, 2)]))
    room = _header_room(markdown)
    # With room to spare: a wider font (another system's, or Chinese) must not wrap them.
    assert all(share <= 0.8 for share in room.values()), room
