"""AGENTS.md, the person's standing instructions: read through the sandbox, capped, or skipped
with a reason the progress report gives."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from app.core.tools.sandbox import INSTRUCTIONS_NAME, PathRefused, Sandbox

MAX_INSTRUCTIONS_CHARS = 4000
# UTF-8 takes at most 4 bytes a character: this many bytes always hold the cap, and one more
# tells whether the file goes on.
_READ_BYTES = MAX_INSTRUCTIONS_CHARS * 4 + 1


@dataclass(frozen=True)
class StandingInstructions:
    text: str = ""
    note: str = ""  # why AGENTS.md was skipped or cut; empty when read whole or absent


def read_standing_instructions(root: Path | str) -> StandingInstructions:
    """The text of AGENTS.md at the workspace root, by the same rules as every file the agent
    reads: no link leading outside, no pipe or device, never more than the cap."""
    sandbox = Sandbox(root)
    if not os.path.lexists(sandbox.root / INSTRUCTIONS_NAME):
        return StandingInstructions()
    try:
        path = sandbox.resolve_read(INSTRUCTIONS_NAME)
        raw = _read_head(path)
    except PathRefused as exc:
        return _skipped(exc.message.removeprefix(f"Refused '{INSTRUCTIONS_NAME}': "))
    except OSError as exc:
        return _skipped(f"it could not be opened ({exc.strerror or exc}).")
    if raw is None:
        return _skipped("it is a folder or a special file, not an ordinary file.")
    text = raw.decode("utf-8", errors="replace").lstrip("\ufeff")
    if len(raw) < _READ_BYTES and len(text) <= MAX_INSTRUCTIONS_CHARS:
        return StandingInstructions(text=text)
    return StandingInstructions(
        text=text[:MAX_INSTRUCTIONS_CHARS],
        note=f"AGENTS.md is longer than {MAX_INSTRUCTIONS_CHARS:,} characters; only its first "
             f"{MAX_INSTRUCTIONS_CHARS:,} characters are included.")


def _read_head(path: Path) -> bytes | None:
    """At most _READ_BYTES of an ordinary file; None if it is anything else. Opened without
    blocking and checked on the open handle, so a pipe swapped in after the sandbox looked
    can neither hang the run nor be read."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) \
        | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, left = [], _READ_BYTES
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _skipped(reason: str) -> StandingInstructions:
    return StandingInstructions(note=f"AGENTS.md was not read: {reason}")
