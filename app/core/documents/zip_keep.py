"""A package written again with a few parts replaced and every other part stored exactly as
it was: its local header and its compressed bytes are copied, not decompressed and deflated
again (zipfile can only recompress, and Python's deflate differs from Excel's: the file
would change size and every part's stored bytes with it).

    kept_zip(raw, infos, replaced, comment, added) -> bytes | None

`raw` is the package's bytes, `infos` its zipfile entries in their order, `replaced` the new
bytes of the parts that change (None: the part is left out), `added` parts that are new,
written after the others (deflated, dated 1980-01-01 as zipfile dates what it is given). None when the package is one
this does not copy by hand (Zip64, encrypted entries, a method other than stored or deflated,
a header that does not match the directory): the caller then writes it with zipfile.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from zipfile import ZipInfo

_LOCAL = struct.Struct("<4s5H3I2H")     # signature ... name length, extra length
_CENTRAL = struct.Struct("<4s4B4H3I5H2I")
_END = struct.Struct("<4s4H2IH")
_LOCAL_SIG, _CENTRAL_SIG, _END_SIG = b"PK\x03\x04", b"PK\x01\x02", b"PK\x05\x06"
_LIMIT = 0xFFFFFFFF                     # beyond: Zip64, left to zipfile
_DESCRIPTOR = 0x08                      # sizes in a data descriptor after the data
_KEEP_FLAGS = 0x0800                    # the name is UTF-8
STORED, DEFLATED = 0, 8


def _dos_time(date_time: tuple[int, int, int, int, int, int]) -> tuple[int, int]:
    y, mo, d, h, mi, s = date_time
    return (h << 11) | (mi << 5) | (s // 2), ((y - 1980) << 9) | (mo << 5) | d


def _zip64(extra: bytes) -> bool:
    """Does an extra field hold a Zip64 block (sizes kept there, not in the header)?"""
    at = 0
    while at + 4 <= len(extra):
        kind, size = struct.unpack_from("<2H", extra, at)
        if kind == 0x0001:
            return True
        at += 4 + size
    return False


def _copied(raw: bytes, info: ZipInfo) -> tuple[bytes, bytes] | None:
    """(local header, compressed data) of an entry as stored, the header's sizes made
    whole where they were left to a data descriptor (the descriptor is then not needed)."""
    at = info.header_offset
    if at + _LOCAL.size > len(raw):
        return None
    fields = list(_LOCAL.unpack_from(raw, at))
    if fields[0] != _LOCAL_SIG or fields[3] != info.compress_type:
        return None
    start = at + _LOCAL.size + fields[9] + fields[10]
    end = start + info.compress_size
    if end > len(raw) or _zip64(raw[start - fields[10]:start]):
        return None
    fields[2] &= ~_DESCRIPTOR
    fields[6:9] = info.CRC, info.compress_size, info.file_size
    return _LOCAL.pack(*fields) + raw[at + _LOCAL.size:start], raw[start:end]


def _made(info: ZipInfo, data: bytes) -> tuple[bytes, bytes, int, int]:
    """(local header, compressed data, flags, CRC) of a part written afresh."""
    packed = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = packed.compress(data) + packed.flush() if info.compress_type == DEFLATED else data
    crc = zlib.crc32(data)
    flags = info.flag_bits & _KEEP_FLAGS
    name = info.filename.encode("utf-8" if flags else "cp437", errors="strict")
    clock, day = _dos_time(info.date_time)
    header = _LOCAL.pack(_LOCAL_SIG, 20, flags, info.compress_type, clock, day, crc,
                         len(body), len(data), len(name), 0) + name
    return header, body, flags, crc


def kept_zip(raw: bytes, infos: Iterable[ZipInfo], replaced: dict[str, bytes | None],
             comment: bytes = b"", added: dict[str, bytes] | None = None) -> bytes | None:
    new: list[ZipInfo] = []
    for name in added or {}:
        info = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
        info.compress_type = DEFLATED
        info.flag_bits = 0 if name.isascii() else _KEEP_FLAGS
        new.append(info)
    replaced = {**replaced, **(added or {})}
    infos = list(infos) + new
    if len(infos) >= 0xFFFF or len(raw) >= _LIMIT:
        return None
    pieces: list[bytes] = []
    central: list[bytes] = []
    offset = 0
    for info in infos:
        if info.flag_bits & 0x01 or info.compress_type not in (STORED, DEFLATED) or \
                info.file_size >= _LIMIT or info.compress_size >= _LIMIT or \
                _zip64(info.extra):
            return None
        if info.filename in replaced:
            data = replaced[info.filename]
            if data is None:
                continue
            try:
                header, body, flags, crc = _made(info, data)
            except UnicodeEncodeError:
                return None
            size, extract = len(data), 20
        else:
            copied = _copied(raw, info)
            if copied is None:
                return None
            header, body = copied
            flags, crc = info.flag_bits & ~_DESCRIPTOR, info.CRC
            size, extract = info.file_size, info.extract_version
        if offset + len(header) + len(body) >= _LIMIT or size >= _LIMIT:
            return None
        stored_name = header[_LOCAL.size:_LOCAL.size + _LOCAL.unpack_from(header)[9]]
        clock, day = _LOCAL.unpack_from(header)[4:6]
        central.append(_CENTRAL.pack(
            _CENTRAL_SIG, info.create_version, info.create_system, extract, 0, flags,
            info.compress_type, clock, day, crc, len(body), size, len(stored_name), len(info.extra),
            len(info.comment), 0, info.internal_attr, info.external_attr, offset)
            + stored_name + info.extra + info.comment)
        pieces += [header, body]
        offset += len(header) + len(body)
    directory = b"".join(central)
    end = _END.pack(_END_SIG, 0, 0, len(central), len(central), len(directory), offset,
                    len(comment))
    return b"".join(pieces) + directory + end + comment
