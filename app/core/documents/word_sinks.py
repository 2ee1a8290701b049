"""Where the lines of a Word document go as they are read: the rendering itself (Body), or
one table cell, whose lines are joined with <br> (Cell); and a cell's text cut back into its
paragraphs' lines as it is written (cell_lines)."""

from __future__ import annotations

from app.core.documents.guard import Out
from app.core.documents.word_text import Line


class Body:
    """Lines going to the rendering: a blank line between paragraphs, none within a list
    (or, `packed`, within one note)."""

    in_cell = False

    def __init__(self, out: Out, packed: bool = False):
        self.out, self.packed, self.previous_item = out, packed, False

    def shown(self, line: Line) -> Line:
        return line

    def line(self, text: str, item: bool) -> None:
        if not (self.packed or (item and self.previous_item)):
            self.out.blank()
        self.out.add(text)
        self.previous_item = item

    def gap(self) -> None:
        self.out.blank()
        self.previous_item = False

    def table(self, rows: list[list[str]]) -> None:
        if not rows:
            return
        width = max(len(r) for r in rows)
        self.out.blank()
        for n, row in enumerate(rows):
            self.out.add(_row(row + [""] * (width - len(row))))
            if n == 0:
                self.out.add("|" + "---|" * width)
        self.out.blank()
        self.previous_item = False

    def tick(self) -> None:
        self.out.tick()


def _row(cells: list[str]) -> str:
    """A Markdown table row; an empty cell is `||`, without padding."""
    return "|" + "|".join(f" {c} " if c else "" for c in cells) + "|"


class Cell:
    """The lines of one table cell, joined with <br>; a table inside it flattened."""

    in_cell = True

    def __init__(self, outer: Sink):
        self.outer = outer
        self.lines: list[str] = []

    def shown(self, line: Line) -> Line:
        """'|' would end the cell in Markdown: it is shown as '\\|'."""
        out = Line()
        for char, pos in zip(line.chars, line.pos):
            if char == "|":
                out.add("\\")
            out.chars.append(char)
            out.pos.append(pos)
        return out

    def line(self, text: str, item: bool) -> None:
        self.lines.append(text)

    def gap(self) -> None:
        pass

    def table(self, rows: list[list[str]]) -> None:
        self.lines.extend(c for row in rows for c in row if c)

    def tick(self) -> None:
        self.outer.tick()

    def text(self) -> str:
        """The lines joined with <br>; the empty ones that end the cell left out (those
        within it keep their place)."""
        lines = self.lines
        while lines and not lines[-1]:
            lines = lines[:-1]
        return "<br>".join(lines)


Sink = Body | Cell  # where a block's lines go


def cell_lines(new: str, old: list[str]) -> list[str]:
    """A cell's shown text (its lines joined with <br>) as the lines of its paragraphs, an
    empty line an empty paragraph. Over the cell's `old` shown paragraphs: cut where they
    were cut when it has as many <br> as they had (a paragraph's own line breaks stay in it),
    else at every <br>; the empty paragraphs that end the cell (read_file leaves them out)
    stay. A new cell, or one cut anew, loses the empty lines that end it."""
    kept = len(old)
    while kept and not old[kept - 1].strip():
        kept -= 1
    if old and kept <= 1:
        return [new] + [""] * (len(old) - max(kept, 1))
    parts = new.split("<br>")
    counts = [text.count("<br>") + 1 for text in old[:kept]]
    if old and sum(counts) == len(parts):
        lines, at = [], 0
        for count in counts:
            lines.append("<br>".join(parts[at:at + count]))
            at += count
        return lines + [""] * (len(old) - kept)
    while parts and not parts[-1].strip():
        parts.pop()
    if len(parts) < len(old) and not any(text.strip() for text in old[len(parts):]):
        parts += [""] * (len(old) - len(parts))
    return parts
