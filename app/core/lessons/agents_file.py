"""Adding an accepted lesson's line to AGENTS.md: what is there stays byte for byte (its BOM,
its line endings), the line is added at the end, and never past the cap the AI reads."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from app.core.clean_text import clean_line
from app.core.errors import UsageError
from app.core.workspace.files import atomic_write_bytes
from app.core.run.instructions import MAX_INSTRUCTIONS_CHARS
from app.core.tools.sandbox import INSTRUCTIONS_NAME, PathRefused, Sandbox

BOM = b"\xef\xbb\xbf"


class InstructionsFull(UsageError):
    """The line would take AGENTS.md past the cap; `size` is how long it would be."""

    def __init__(self, message: str, size: int):
        super().__init__(message)
        self.size = size


@dataclass(frozen=True)
class Instructions:
    path: Path
    raw: bytes          # b"" when the file does not exist yet

    @property
    def text(self) -> str:
        return self.raw.removeprefix(BOM).decode("utf-8")


def read_instructions(root: Path | str) -> Instructions:
    """AGENTS.md as it is now. One sentence (UsageError) when it cannot be added to: a link
    out of the folder, a folder or device by that name, or text that is not UTF-8."""
    sandbox = Sandbox(root)
    path = sandbox.root / INSTRUCTIONS_NAME
    if not os.path.lexists(path):
        return Instructions(path, b"")
    try:
        real = sandbox.resolve_read(INSTRUCTIONS_NAME)
        if not stat.S_ISREG(os.stat(real).st_mode):
            raise UsageError("AGENTS.md is not an ordinary file, so nothing was added to it.")
        raw = real.read_bytes()
    except PathRefused as exc:
        raise UsageError(f"{exc.message} Nothing was added to AGENTS.md.") from None
    except OSError as exc:
        raise UsageError(f"AGENTS.md could not be read ({exc.strerror or exc}); nothing was "
                         "added to it.") from None
    try:
        raw.removeprefix(BOM).decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("AGENTS.md is not UTF-8 text, so nothing was added to it; save it as "
                         "UTF-8 first.") from None
    return Instructions(real, raw)


def _line_ending(raw: bytes) -> bytes:
    if b"\r\n" in raw:
        return b"\r\n"
    if b"\r" in raw and b"\n" not in raw:
        return b"\r"
    return b"\n"


def with_line(current: bytes, line: str) -> bytes:
    """`current` with `- line` added as a last line, in the file's own line ending."""
    eol = _line_ending(current)
    head = current
    if head.removeprefix(BOM) and not head.endswith((b"\n", b"\r")):
        head += eol
    return head + b"- " + plain_line(line).encode("utf-8") + eol


def contains_line(current: bytes, line: str) -> bool:
    want = "- " + plain_line(line)
    text = current.removeprefix(BOM).decode("utf-8", errors="replace")
    return any(x.strip() == want for x in text.splitlines())


def plain_line(line: str) -> str:
    """A lesson's line as AGENTS.md gets it, and so as it is shown: one line, single spaces,
    no terminal or direction controls (an AI's rewording, a model's findings quoted)."""
    return " ".join(clean_line(line).split())


def add_line(root: Path | str, line: str) -> bool:
    """Add `line` to AGENTS.md (creating it if needed). False when it is there already.
    Raises InstructionsFull, with the sentence to show, past the cap."""
    ins = read_instructions(root)
    if contains_line(ins.raw, line):
        return False
    new = with_line(ins.raw, line)
    size = len(new.removeprefix(BOM).decode("utf-8"))
    if size > MAX_INSTRUCTIONS_CHARS:
        raise InstructionsFull(
            f"AGENTS.md would be {size:,} characters with this line, past the "
            f"{MAX_INSTRUCTIONS_CHARS:,} the AI reads; shorten AGENTS.md first. Nothing was "
            "added.", size)
    atomic_write_bytes(ins.path, new)
    return True
