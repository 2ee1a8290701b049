"""Where the lines of a Word document go as they are read: the rendering itself (Body), or
one table cell, whose lines are joined with <br> (Cell)."""

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
        return "<br>".join(self.lines)


Sink = Body | Cell  # where a block's lines go
