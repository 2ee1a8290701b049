"""Make the bundled Simplified Chinese fallback font: Noto Sans CJK SC cut to common hanzi.

The app ships this subset so a Chinese board's PDF and window keep their text on a machine
without CJK fonts. It covers the 6,500 characters of levels 1 and 2 of the 通用规范汉字表
(2013, Unihan's kTGH), all of GB 2312 (hanzi and symbols), CJK and general punctuation,
full-width forms, Latin-1 and everyday symbols (€ ℃ → ① ■). The sources are Debian's
`fonts-noto-cjk` and `unicode-data` packages: installed ones are used, otherwise both are
fetched with `apt-get download` (nothing is installed). From the repository root:

    python scripts/make_cjk_font.py    # writes resources/fonts/NotoSansCJKsc-Regular-Subset.otf
"""

from __future__ import annotations

import argparse
import bz2
import subprocess
import sys
import tempfile
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "resources" / "fonts" / "NotoSansCJKsc-Regular-Subset.otf"
FAMILY = "Noto Sans CJK SC"
SYSTEM_FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
SYSTEM_UNIHAN = Path("/usr/share/unicode/Unihan_OtherMappings.txt.bz2")
TGH_LEVELS_1_2 = 6500  # positions 1-3500 are level 1, 3501-6500 level 2

# Horizontal text only (Qt lays out no vertical CJK); 'locl' would pull in the Japanese,
# Korean and Traditional forms, which this Simplified face never shows.
FEATURES = ["ccmp", "kern", "mark", "mkmk", "calt", "clig", "rlig", "liga"]
NAME_IDS = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keeps the copyright and licence fields


def gb2312(first_row: int, last_row: int) -> set[int]:
    """Code points of GB 2312 rows first..last (0xA1-0xA9 symbols, 0xB0-0xF7 hanzi)."""
    out = set()
    for row in range(first_row, last_row + 1):
        for cell in range(0xA1, 0xFF):
            try:
                out.add(ord(bytes([row, cell]).decode("gb2312")))
            except UnicodeDecodeError:
                pass
    return out


def tongyong_guifan(unihan: Path, up_to: int) -> set[int]:
    """Characters of the 通用规范汉字表 whose position is at most up_to (kTGH "2013:N")."""
    out = set()
    opener = bz2.open if unihan.suffix == ".bz2" else open
    with opener(unihan, "rt", encoding="utf-8") as lines:
        for line in lines:
            if "\tkTGH\t" not in line:
                continue
            cp, _, value = line.rstrip("\n").split("\t")
            if any(int(v.split(":")[1]) <= up_to for v in value.split()):
                out.add(int(cp[2:], 16))
    if len(out) < up_to:
        sys.exit(f"{unihan} has only {len(out)} of the {up_to} characters expected")
    return out


def wanted_code_points(unihan: Path) -> set[int]:
    latin = {*range(0x20, 0x7F), *range(0xA0, 0x100)}
    punctuation = {*range(0x2000, 0x2070), *range(0x3000, 0x3040), *range(0xFF00, 0xFFF0)}
    # Currency (€), letterlike (℃ №), arrows, circled numbers (①) and shapes (■ ●).
    symbols = {*range(0x20A0, 0x20D0), *range(0x2100, 0x2200), *range(0x2460, 0x2500),
               *range(0x25A0, 0x2600)}
    return (latin | punctuation | symbols | gb2312(0xA1, 0xA9) | gb2312(0xB0, 0xF7)
            | tongyong_guifan(unihan, TGH_LEVELS_1_2))


def source_face(path: Path) -> TTFont:
    """The SC face out of Debian's collection (or a single-face file given directly)."""
    if path.suffix.lower() in (".ttc", ".otc"):
        for face in TTCollection(path).fonts:
            if face["name"].getDebugName(1) == FAMILY:
                return face
        sys.exit(f"{path} holds no {FAMILY!r} face")
    return TTFont(path)


def fetch_sources(into: Path) -> tuple[Path, Path]:
    """Debian's font and Unicode data packages, downloaded and unpacked (not installed)."""
    subprocess.run(["apt-get", "download", "fonts-noto-cjk", "unicode-data"], cwd=into,
                   check=True)
    for deb in into.glob("*.deb"):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(into / "root")], check=True)
    return into / "root" / SYSTEM_FONT.relative_to("/"), \
        into / "root" / SYSTEM_UNIHAN.relative_to("/")


def make(font_path: Path, unihan: Path, out: Path) -> int:
    font = source_face(font_path)
    options = subset.Options()
    options.layout_features = FEATURES
    options.name_IDs = NAME_IDS
    options.drop_tables += ["vhea", "vmtx", "VORG"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=wanted_code_points(unihan))
    subsetter.subset(font)
    font.recalcTimestamp = False  # the same sources give the same bytes
    out.parent.mkdir(parents=True, exist_ok=True)
    font.save(out)
    return out.stat().st_size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--font", type=Path, help=f"default: {SYSTEM_FONT} or apt-get download")
    parser.add_argument("--unihan", type=Path, help=f"default: {SYSTEM_UNIHAN} or apt-get download")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        font, unihan = args.font or SYSTEM_FONT, args.unihan or SYSTEM_UNIHAN
        if not (font.exists() and unihan.exists()):
            fetched_font, fetched_unihan = fetch_sources(Path(tmp))
            font = font if font.exists() else fetched_font
            unihan = unihan if unihan.exists() else fetched_unihan
        size = make(font, unihan, args.out)
    print(f"{args.out}: {size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
