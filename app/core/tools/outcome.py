"""What a tool call comes to (ToolOutcome), and the two ways a tool says no: shared by the
ToolBox (tools.py) and its reading tools (tool_reads.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.core.run.endings import RoundEnding
from app.core.tools.pictures import Picture


@dataclass
class ToolOutcome:
    content: str
    is_error: bool = False
    refused: bool = False
    changed: list[str] = field(default_factory=list)
    pictures: list[Picture] = field(default_factory=list)  # read_file on a picture
    ending: RoundEnding | None = None  # set by complete_task, ask_human and give_up
    held_open: str = ""  # a file another program holds locked, for the person to close

    @property
    def ends_round(self) -> str | None:
        """The round's result_state when this call ended the round, else None."""
        return self.ending.result if self.ending else None


class Refuse(Exception):
    """Raised inside a tool: the call was not carried out because of the rules or its arguments."""


class Fail(Exception):
    """Raised inside a tool: the call was allowed but could not be done (missing file, ...)."""
