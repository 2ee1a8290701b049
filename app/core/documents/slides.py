"""A slide deck (.pptx) slide by slide: title, the text of each shape, tables, and notes."""

from __future__ import annotations

from pathlib import Path

from app.core.documents.guard import Out


def render(path: Path, out: Out) -> None:
    from pptx import Presentation

    deck = Presentation(str(path))
    for number, slide in enumerate(deck.slides, 1):
        out.tick()
        out.blank()
        title_shape = slide.shapes.title
        title = title_shape.text_frame.text.strip() if title_shape is not None else ""
        out.add(f"## Slide {number}" + (f": {title}" if title else ""))
        out.add("")
        for shape in slide.shapes:
            if title_shape is not None and shape.shape_id == title_shape.shape_id:
                continue
            _shape(shape, out)
        if slide.has_notes_slide:
            notes = slide.notes_slide.notes_text_frame
            text = notes.text.strip() if notes is not None else ""
            if text:
                out.blank()
                out.add("Notes:")
                for line in text.splitlines():
                    out.add("> " + line if line.strip() else ">")


def _shape(shape, out: Out) -> None:
    if getattr(shape, "has_table", False) and shape.has_table:
        out.blank()
        for n, row in enumerate(shape.table.rows):
            cells = [c.text.replace("\n", " ").replace("|", "\\|").strip() for c in row.cells]
            out.add("| " + " | ".join(cells) + " |")
            if n == 0:
                out.add("|" + " --- |" * len(cells))
        out.blank()
        return
    if getattr(shape, "shape_type", None) is not None and hasattr(shape, "shapes"):
        for inner in shape.shapes:  # a group
            _shape(inner, out)
        return
    if not getattr(shape, "has_text_frame", False) or not shape.has_text_frame:
        return
    for paragraph in shape.text_frame.paragraphs:
        text = "".join(_run(r) for r in paragraph.runs).strip() or paragraph.text.strip()
        if text:
            out.add("  " * min(paragraph.level, 8) + "- " + text)


def _run(run) -> str:
    text = run.text
    if not text.strip():
        return text
    bold, italic = bool(run.font.bold), bool(run.font.italic)
    mark = "***" if bold and italic else "**" if bold else "*" if italic else ""
    return f"{mark}{text}{mark}" if mark else text
