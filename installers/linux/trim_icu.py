"""Cut Qt's ICU data library (libicudataNN.so, 32 MB) down to what Harness Desk's Qt uses.

Qt Core calls ICU for only three things (nm -D libQt6Core.so.6): case mapping (code, no
data), collation (QCollator: coll/), codecs (QStringConverter: converters) and time-zone
ids and names (QTimeZone: zone/, region/ and the zoneinfo tables). Everything else, the
display names of every language, currency and unit, break rules, transliterators and
spell-out rules, is data nothing in the bundle reads. What stays: the root locale with
English and Chinese (the languages the app ships) in each kept tree, every table that is
not a locale, the Chinese codecs and the small single-byte ones. A locale left out falls
back to root, as ICU does for any locale it lacks: QCollator still sorts by the Unicode
order, and no call fails. The result is a library with the same name and data symbol.

    python installers/linux/trim_icu.py SOURCE.so OUT.so    (build.spec runs it on Linux)
"""

from __future__ import annotations

import re
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

KEEP_LANGUAGES = ("root", "en", "zh")
KEEP_TREES = {"coll", "zone", "region", "lang"}  # locale trees Qt reads (the rest are dropped)
CHINESE_CODECS = ("gb18030", "ibm-1386_", "ibm-1383_", "ibm-5478_", "ibm-1373_", "windows-950",
                  "ibm-950_")  # GB 18030, GBK, GB 2312, Big5
SMALL_CODEC = 20_000  # bytes: single-byte code pages cost little and cover legacy files
_LOCALE = re.compile(r"^[a-z]{2,3}(_[A-Za-z0-9]+)*\.res$")


def data_symbol(library: Path) -> tuple[str, int, int]:
    """The common-data symbol (icudtNN_dat): its name, file offset and size."""
    symbols = subprocess.run(["readelf", "-sW", str(library)], capture_output=True, text=True,
                             check=True).stdout
    sections = subprocess.run(["readelf", "-SW", str(library)], capture_output=True,
                              text=True, check=True).stdout
    for line in symbols.splitlines():
        fields = line.split()
        if len(fields) >= 8 and re.fullmatch(r"icudt\d+_dat", fields[7]):
            value, size, index = int(fields[1], 16), int(fields[2], 0), int(fields[6])
            break
    else:
        sys.exit(f"{library} has no icudtNN_dat symbol")
    for line in sections.splitlines():
        found = re.match(r"\s*\[\s*(\d+)\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)", line)
        if found and int(found[1]) == index:
            address, offset = int(found[3], 16), int(found[4], 16)
            return fields[7], offset + value - address, size
    sys.exit(f"{library}: section {index} of the data symbol was not found")


def read_package(data: bytes) -> tuple[bytes, list[tuple[str, bytes]]]:
    """ICU common data ("CmnD"): the header, then (name, item) pairs in name order."""
    header_size = struct.unpack_from("<H", data, 0)[0]
    if data[2:4] != b"\xda\x27" or data[12:16] != b"CmnD":
        sys.exit("not an ICU common data package")
    toc = header_size
    count = struct.unpack_from("<I", data, toc)[0]
    entries = [struct.unpack_from("<II", data, toc + 4 + 8 * i) for i in range(count)]
    items = []
    for i, (name_at, data_at) in enumerate(entries):
        name = data[toc + name_at:data.index(b"\0", toc + name_at)].decode("ascii")
        end = toc + entries[i + 1][1] if i + 1 < count else len(data)
        items.append((name, data[toc + data_at:end]))
    return data[:header_size], items


def write_package(header: bytes, items: list[tuple[str, bytes]]) -> bytes:
    names = b"".join(name.encode("ascii") + b"\0" for name, _ in items)
    name_offsets, at = [], 4 + 8 * len(items)
    for name, _ in items:
        name_offsets.append(at)
        at += len(name) + 1
    at = (at + 15) & ~15  # items start 16-byte aligned, as ICU's own packages do
    body, data_offsets = bytearray(), []
    for _, item in items:
        data_offsets.append(at + len(body))
        body += item + b"\0" * (-len(item) % 16)
    toc = struct.pack("<I", len(items)) + b"".join(
        struct.pack("<II", n, d) for n, d in zip(name_offsets, data_offsets))
    padding = b"\0" * (at - len(toc) - len(names))
    return header + toc + names + padding + bytes(body)


def kept(name: str, size: int) -> bool:
    path = name.split("/", 1)[1]  # drop the "icudtNNl/" prefix
    tree, _, leaf = path.rpartition("/")
    if leaf.endswith(".cnv"):
        return leaf.startswith(CHINESE_CODECS) or size < SMALL_CODEC
    if tree and tree not in KEEP_TREES:
        return False
    if _LOCALE.match(leaf) or leaf == "root.res":
        return leaf.split(".")[0].split("_")[0] in KEEP_LANGUAGES
    return True  # tables that are not a locale: pools, indexes, zoneinfo, collation base


def trim(source: Path, out: Path) -> tuple[int, int]:
    symbol, offset, size = data_symbol(source)
    with source.open("rb") as f:
        f.seek(offset)
        data = f.read(size)
    header, items = read_package(data)
    trimmed = write_package(header, [(n, d) for n, d in items if kept(n, len(d))])
    soname = subprocess.run(["readelf", "-dW", str(source)], capture_output=True, text=True,
                            check=True).stdout.split("Library soname: [", 1)[1].split("]")[0]
    with tempfile.TemporaryDirectory() as tmp:
        package = Path(tmp) / "icudt.dat"
        package.write_bytes(trimmed)
        assembly = Path(tmp) / "icudt.S"
        assembly.write_text(
            f'\t.section .rodata\n\t.globl {symbol}\n\t.type {symbol}, @object\n'
            f'\t.balign 16\n{symbol}:\n\t.incbin "{package}"\n'
            f'\t.size {symbol}, .-{symbol}\n\t.section .note.GNU-stack,"",@progbits\n')
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cc", "-shared", "-nostdlib", f"-Wl,-soname,{soname}", "-o", str(out),
                        str(assembly)], check=True)
    return len(data), len(trimmed)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    before, after = trim(Path(argv[0]), Path(argv[1]))
    print(f"ICU data: {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
