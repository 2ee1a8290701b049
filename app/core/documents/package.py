"""A zip package checked member by member before any library opens it (guard.open_package).

The zip directory can lie: a member may declare 4,000 bytes and inflate to a gigabyte, and
`ZipFile.read` (which python-docx, openpyxl and python-pptx use) inflates a member whole
before it cuts it at the declared size. So every member is streamed once here, from its
own bytes, through a reader that stops one byte past the size the directory declares:

- a member that inflates to more than it declares, or whose compression ratio no real
  document reaches, is refused as a likely zip bomb; one that inflates to less, or whose
  checksum is wrong, is damaged. After this pass every member is exactly what the
  directory says, so the libraries' own reads are bounded by the declared sizes;
- every member that holds markup (whatever its name, in UTF-8, UTF-16 or UTF-32) is
  searched for a DOCTYPE, which Office and ODF never need (entity declarations are how
  "billion laughs" bombs work). The HTML doctype of a web page kept inside a Word file
  (`<!DOCTYPE html>`, no declarations in it) is the one kind allowed.
- the directory's size is checked before zipfile reads it, so a zip of millions of tiny
  entries is refused without building millions of objects.
"""

from __future__ import annotations

import codecs
import re
import struct
import zipfile
import zlib
from pathlib import Path
from typing import BinaryIO, Iterator

MAX_PARTS = 100_000                        # a 5,000-slide deck has about 25,000
MAX_DIRECTORY_BYTES = 16 * 1024 * 1024     # the zip's table of contents
MAX_RATIO = 250                            # inflated : stored, for members past RATIO_FLOOR
RATIO_FLOOR = 4 * 1024 * 1024
_CHUNK = 1 << 16
_LOCAL = struct.Struct("<4s22xHH")         # signature ... name length, extra length
_ASCII_LIKE = re.compile(r"(utf-?8|us-ascii|ascii|iso[-_]?8859[-_]?\d+|latin[-_]?\d|"
                         r"windows-125\d|cp125\d|iso[-_]?646.*|shift_jis|euc-.*|gb2312|gbk|"
                         r"gb18030|big5|koi8-.*|tis-620)$")
_DECLARED = re.compile(rb"^\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._:-]+)[\"']")
_HTML_DOCTYPE = re.compile(r"\s+html\b[^\[<>]*>")


class Refusal(Exception):
    """Why the package is refused: 'bomb', 'damaged', 'parts', 'doctype' or 'encoding'."""

    def __init__(self, why: str, count: int = 0):
        super().__init__(why)
        self.why, self.count = why, count


def check_directory(path: Path) -> None:
    """The zip's directory checked from its end record, before zipfile parses it."""
    try:
        with open(path, "rb") as fh:
            # The end record (zip64 aware), read from the tail: zipfile's own reader, which
            # typeshed leaves out as private.
            end = zipfile._EndRecData(fh)  # type: ignore[attr-defined]
    except (OSError, struct.error):
        end = None
    if not end:
        return  # not a zip at all: zipfile says so with its own error
    entries, size = end[zipfile._ECD_ENTRIES_TOTAL], end[zipfile._ECD_SIZE]  # type: ignore[attr-defined]
    if entries > MAX_PARTS or size > MAX_DIRECTORY_BYTES:
        raise Refusal("parts", max(entries, size // 46))


def verify_members(path: Path, infos: list[zipfile.ZipInfo]) -> None:
    """Stream every member through a bounded reader; Refusal for the first that lies."""
    with open(path, "rb") as raw:
        for info in infos:
            if info.file_size > RATIO_FLOOR and \
                    info.file_size > MAX_RATIO * max(info.compress_size, 1):
                raise Refusal("bomb")
            scan = _Markup()
            for piece in _inflated(raw, info):
                scan.feed(piece)
            scan.feed(b"", final=True)


def _inflated(raw: BinaryIO, info: zipfile.ZipInfo) -> Iterator[bytes]:
    """The member's bytes in pieces, never more than declared (+1 to see a lie)."""
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise Refusal("damaged")  # Office and ODF store or deflate; nothing else is real
    raw.seek(info.header_offset)
    head = raw.read(_LOCAL.size)
    if len(head) != _LOCAL.size or _LOCAL.unpack(head)[0] != b"PK\x03\x04":
        raise Refusal("damaged")
    _sig, name_len, extra_len = _LOCAL.unpack(head)
    raw.seek(info.header_offset + _LOCAL.size + name_len + extra_len)
    left, declared, produced, crc = info.compress_size, info.file_size, 0, 0
    inflate = zlib.decompressobj(-15) if info.compress_type == zipfile.ZIP_DEFLATED else None
    while left > 0:
        chunk = raw.read(min(_CHUNK, left))
        if not chunk:
            raise Refusal("damaged")
        left -= len(chunk)
        while chunk:
            if inflate is None:
                piece, chunk = chunk, b""
            else:
                piece = inflate.decompress(chunk, declared - produced + 1)
                chunk = inflate.unconsumed_tail
            produced += len(piece)
            if produced > declared:
                raise Refusal("bomb")
            if piece:
                crc = zlib.crc32(piece, crc)
                yield piece
            elif inflate is not None and chunk:
                raise Refusal("damaged")  # input left but nothing comes out
        if inflate is not None and inflate.eof:
            break
    if inflate is not None and not inflate.eof:
        raise Refusal("damaged")  # the stored bytes end before the member does
    if produced != declared or crc != info.CRC:
        raise Refusal("damaged")


class _Markup:
    """Finds a DOCTYPE in a member that holds markup, whatever its text encoding."""

    def __init__(self) -> None:
        self.head = b""
        self.decoder: codecs.IncrementalDecoder | None = None  # once the encoding is known
        self.markup: bool | None = None
        self.tail = ""

    def feed(self, data: bytes, final: bool = False) -> None:
        if self.markup is None:
            self.head += data
            if len(self.head) < 512 and not final:
                return
            data, self.head = self.head, b""
            self.markup = self._start(data)
        if not self.markup or self.decoder is None:  # markup: the decoder is set
            return
        text = self.decoder.decode(data, final)
        window = self.tail + text.lower()
        at = window.find("<!doctype")
        while at >= 0:
            rest = window[at + 9:at + 9 + 512]
            if len(rest) < 512 and not final:
                break  # decided with the next piece: the tail keeps it
            if not _HTML_DOCTYPE.match(rest):
                raise Refusal("doctype")
            at = window.find("<!doctype", at + 1)
        self.tail = window[at:] if at >= 0 else window[-8:]

    def _start(self, head: bytes) -> bool:
        """Is this markup, and in which encoding? Sets the decoder."""
        if head.startswith(b"\x4c\x6f\xa7\x94"):
            raise Refusal("encoding")  # "<?xm" in EBCDIC
        encoding = _sniffed(head)
        if encoding is None:
            head = head[3:] if head.startswith(codecs.BOM_UTF8) else head
            declared = _DECLARED.match(head)
            name = declared.group(1).decode("ascii").lower() if declared else "utf-8"
            if declared and not _ASCII_LIKE.match(name) and not name.startswith(("utf-16",
                                                                                  "utf-32",
                                                                                  "ucs")):
                raise Refusal("encoding")
            encoding = "latin-1"  # bytes as characters: the markup's ASCII is what matters
        self.decoder = codecs.getincrementaldecoder(encoding)("replace")
        first = codecs.decode(head[:64], encoding, "replace").lstrip("\ufeff \t\r\n")
        return first.startswith("<")


def _sniffed(head: bytes) -> str | None:
    """UTF-16 or UTF-32 from a byte-order mark or the zero bytes around a first '<';
    None for an ASCII-compatible encoding (UTF-8, Latin-1...)."""
    for bom, name in ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
                      (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        if head.startswith(bom):
            return name
    start = head[:4]
    if start in (b"<\0\0\0", b" \0\0\0", b"\n\0\0\0", b"\t\0\0\0", b"\r\0\0\0"):
        return "utf-32-le"
    if start in (b"\0\0\0<", b"\0\0\0 ", b"\0\0\0\n", b"\0\0\0\t", b"\0\0\0\r"):
        return "utf-32-be"
    if len(start) >= 2 and start[1] == 0 and start[0] in b"< \t\r\n":
        return "utf-16-le"
    if len(start) >= 2 and start[0] == 0 and start[1] in b"< \t\r\n":
        return "utf-16-be"
    return None
