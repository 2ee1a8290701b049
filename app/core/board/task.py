"""A task as the board states it, how a list names one (TaskRef), and the line helpers."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from app.core.clean_text import clean_line

# Unindented bullet, whitespace, checkbox; the text must be separated by whitespace (CommonMark).
# Which matching lines are tasks is board_md's call (not in a comment, fence, ...).
TASK_LINE = re.compile(r"([-*+])[ \t]+\[([ xX])\](?=[ \t]|$)")
_DETAIL_BULLET = re.compile(r"([-*+])(?:[ \t]+|$)")
KEYED_DETAIL = re.compile(
    r"(done[ \t]+when|option|evidence|answer|recommendation|web)[ \t]*:[ \t]*(.*)", re.I)
# "Web: yes" / "Web: no" under a task: whether it may look things up on the web.
WEB_KEY = "Web"
WEB_YES, WEB_NO = "yes", "no"
_WEB_WORDS = {"yes": True, "on": True, "true": True, "allowed": True, "是": True,
              "no": False, "off": False, "false": False, "not allowed": False, "否": False}
HUMAN_PREFIX = re.compile(r"HUMAN[ \t]*:", re.I)


class BoardError(ValueError):
    """Something about the board the person needs to hear, in one plain sentence."""


class StaleTask(BoardError):
    """A TaskRef whose position and text no longer match the board: it was edited meanwhile."""

    def __init__(self, name: str = "TASKS.md"):
        super().__init__(f"That task changed in {name} since you opened it; "
                         "the list has been refreshed.")


@dataclass(frozen=True)
class TaskRef:
    """A task as a list widget shows it: position among the tasks (0-based) and Task.text.

    Both must still match when the ref is used, so two identical task lines are never
    confused and a task the person retyped in their editor is never changed blindly.
    """
    index: int
    text: str


def one_line(value: str) -> str:
    """A value as one board line: line breaks (any an editor might honour, and the spaces
    around them) collapse to a space, and terminal and direction controls go (clean_text):
    every new task, detail and answer passes here, so the board gets what is shown."""
    return clean_line(str(value))


def norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def encode(text: str) -> bytes:
    try:
        return text.encode("utf-8", "surrogateescape")  # undecodable input bytes come back exactly
    except UnicodeEncodeError:  # a lone surrogate handed in as str; keep it rather than crash
        return text.encode("utf-8", "surrogatepass")


def detail_split(body: str) -> tuple[str, str]:
    """An indented line as (indent + bullet, content): "\t* Answer: x" -> ("\t* ", "Answer: x")."""
    content = body.lstrip(" \t")
    m = _DETAIL_BULLET.match(content)
    cut = len(body) - len(content) + (m.end() if m else 0)
    return body[:cut], body[cut:].strip()


def split_eol(line: str) -> tuple[str, str]:
    if line.endswith("\r\n"):
        return line[:-2], "\r\n"
    if line.endswith("\n"):
        return line[:-1], "\n"
    return line, ""


@dataclass
class Task:
    """One task: position among the tasks, line, text ("HUMAN:" included), checkbox, details."""

    index: int
    line_no: int
    text: str
    checked: bool
    details: list[str] = field(default_factory=list)
    bullet: str = "-"

    def _values(self, key: str) -> list[str]:
        return [m.group(2).strip() for d in self.details
                if (m := KEYED_DETAIL.match(d)) and " ".join(m.group(1).lower().split()) == key]

    @property
    def ref(self) -> TaskRef:
        return TaskRef(self.index, self.text)

    @property
    def is_human(self) -> bool:
        return bool(HUMAN_PREFIX.match(self.text))

    @property
    def question(self) -> str:
        m = HUMAN_PREFIX.match(self.text)
        return self.text[m.end():].strip() if m else self.text

    @property
    def task_id(self) -> str:
        # Same text, same id: survives reordering and edits elsewhere on the board.
        return hashlib.sha1(encode(norm(self.text))).hexdigest()[:10]

    @property
    def done_when(self) -> list[str]:
        return self._values("done when")

    @property
    def options(self) -> list[str]:
        return self._values("option")

    @property
    def evidence(self) -> list[str]:
        return self._values("evidence")

    @property
    def answer(self) -> str | None:
        return next(iter(self._values("answer")), None)

    @property
    def recommendation(self) -> str | None:
        return next(iter(self._values("recommendation")), None)

    @property
    def web(self) -> bool | None:
        """What the task's "Web:" line says: True (may look things up), False (may not), or
        None when it has none, or none that reads as yes or no (the folder's default then
        decides). The last line that reads wins, as a person editing by hand expects."""
        said = None
        for value in self._values("web"):
            word = _WEB_WORDS.get(" ".join(value.rstrip(".!").split()).casefold())
            if word is not None:
                said = word
        return said

    def may_look_up(self, folder_default: bool) -> bool:
        """Whether this task may use web tools: its own "Web:" line, else the folder's default."""
        web = self.web
        return folder_default if web is None else web
