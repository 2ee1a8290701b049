"""Hostile documents get one sentence, quickly: checks made before any library parses a file.

- Office files and ODF are zip packages. Their sizes are checked from the zip directory
  before anything is inflated, then every member is streamed once through a reader that
  stops at the declared size (package.py): a member that would inflate past what it
  declares is refused, so the libraries' own reads are bounded by the declared sizes.
- No part holding XML, whatever its name or encoding, may carry a DOCTYPE: Office and ODF
  never need one, and entity declarations are how "billion laughs" bombs work. Parts are
  scanned as streams, so entities are never resolved by anyone.
- An encrypted Office file is not a zip but an OLE compound file; ODF marks encryption in
  its manifest.
- Rendering keeps to a character and a time budget (Out), so a pathological file costs
  seconds, not the round.
"""

from __future__ import annotations

import time
import zipfile
from pathlib import Path
from typing import Callable, TypeVar

from app.core.documents import package
from app.core.documents.base import DocumentError, kind_of

T = TypeVar("T")

MAX_FILE_BYTES = 100 * 1024 * 1024        # on disk
MAX_UNPACKED_BYTES = 200 * 1024 * 1024    # all members, as the zip directory declares them
MAX_PART_BYTES = 32 * 1024 * 1024         # one member
MAX_PARTS = package.MAX_PARTS
MAX_RENDER_CHARS = 4_000_000
MAX_RENDER_SECONDS = 15.0     # then worker.py ends it at 20
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
DOCTYPE_SENTENCE = ("'{name}' contains XML with a DOCTYPE or entity declarations, which "
                    "documents never need (it may be an attack), so it was not opened.")


def name_of(path: Path) -> str:
    return Path(path).name


def check_size(path: Path) -> int:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise DocumentError(f"'{name_of(path)}' could not be opened ({exc.strerror or exc}).") from exc
    if size > MAX_FILE_BYTES:
        raise DocumentError(f"'{name_of(path)}' is {size / 1e6:,.0f} MB, more than the "
                            f"{MAX_FILE_BYTES // (1024 * 1024)} MB a document may be to be read.")
    return size


def encrypted_sentence(path: Path) -> str:
    return (f"'{name_of(path)}' is protected with a password, so it cannot be opened; ask the "
            "person to save a copy without the password.")


def corrupt_sentence(path: Path) -> str:
    kind = kind_of(path) or "a document"
    return (f"'{name_of(path)}' could not be opened as {kind}: the file is damaged or is not "
            "really that kind of file.")


def guarded(path: Path, action: Callable[[zipfile.ZipFile], T]) -> T:
    """Run `action(zf)` on a checked package, turning library errors into one sentence."""
    try:
        with open_package(path) as zf:
            return action(zf)
    except DocumentError:
        raise
    except Exception:  # damaged parts surface as any kind of library error
        raise DocumentError(corrupt_sentence(path)) from None


def open_package(path: Path) -> zipfile.ZipFile:
    """The checked zip of an Office or ODF file; DocumentError for anything hostile."""
    check_size(path)
    with open(path, "rb") as fh:
        head = fh.read(8)
    if head == _OLE_MAGIC:
        raise DocumentError(encrypted_sentence(path))
    try:
        package.check_directory(path)
        zf = zipfile.ZipFile(path)
    except package.Refusal as refusal:
        raise DocumentError(refused_sentence(path, refusal)) from None
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, EOFError):
        raise DocumentError(corrupt_sentence(path)) from None
    try:
        check_members(path, zf)
    except BaseException:
        zf.close()
        raise
    return zf


def check_members(path: Path, zf: zipfile.ZipFile) -> None:
    infos = zf.infolist()
    if len(infos) > MAX_PARTS:
        raise DocumentError(refused_sentence(path, package.Refusal("parts", len(infos))))
    total = 0
    for info in infos:
        if info.flag_bits & 0x1:
            raise DocumentError(encrypted_sentence(path))
        total += info.file_size
        if info.file_size > MAX_PART_BYTES or total > MAX_UNPACKED_BYTES:
            raise DocumentError(
                f"'{name_of(path)}' would unpack to more than "
                f"{(MAX_PART_BYTES if info.file_size > MAX_PART_BYTES else MAX_UNPACKED_BYTES) // (1024 * 1024)}"
                " MB (it may be a 'zip bomb'), so it was not opened.")
    try:
        package.verify_members(path, infos)
    except package.Refusal as refusal:
        raise DocumentError(refused_sentence(path, refusal)) from None
    except OSError:
        raise DocumentError(corrupt_sentence(path)) from None


def refused_sentence(path: Path, refusal: package.Refusal) -> str:
    name = name_of(path)
    if refusal.why == "parts":
        return (f"'{name}' holds more than {MAX_PARTS:,} parts, far more than even a very "
                "large document has, so it was not opened.")
    if refusal.why == "bomb":
        return (f"'{name}' unpacks to far more than it says it holds (it may be a 'zip "
                "bomb'), so it was not opened.")
    if refusal.why == "doctype":
        return DOCTYPE_SENTENCE.format(name=name)
    if refusal.why == "encoding":
        return (f"'{name}' contains XML in an unusual text encoding, which documents never "
                "use (it may be an attack), so it was not opened.")
    return corrupt_sentence(path)


class Full(Exception):
    """Raised by Out when the rendering reached its character or time budget."""

    def __init__(self, note: str):
        super().__init__(note)
        self.note = note


class Out:
    """The rendering's lines, within a character and a time budget."""

    def __init__(self, max_chars: int | None = None, seconds: float | None = None):
        self.lines: list[str] = []
        self.chars = 0
        self.max_chars = MAX_RENDER_CHARS if max_chars is None else max_chars
        self.seconds = MAX_RENDER_SECONDS if seconds is None else seconds
        self.deadline = time.monotonic() + self.seconds

    def add(self, line: str = "") -> None:
        self.chars += len(line) + 1
        if self.chars > self.max_chars:
            raise Full(f"[The rendering stops here: it reached {self.max_chars:,} characters; "
                       "the rest of the document is not shown.]")
        self.lines.append(line)
        if len(self.lines) % 64 == 0:
            self.tick()

    def blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.add("")

    def tick(self) -> None:
        if time.monotonic() > self.deadline:
            raise Full(f"[The rendering stops here: reading the document took more than "
                       f"{self.seconds:.0f} seconds; the rest is not shown.]")

    def text(self) -> str:
        while self.lines and self.lines[-1] == "":
            self.lines.pop()
        return "\n".join(self.lines) + "\n" if self.lines else ""
