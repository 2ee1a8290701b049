"""Render resources/icons/harness-desk.svg to PNG, .ico (Windows) and .icns (macOS) icons.

Qt draws the SVG offscreen; the .ico and .icns are written here (both are plain containers
of PNG images), so no image library is needed. Run from the repository root:

    python scripts/make_icons.py
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "resources" / "icons"
SVG = ICONS / "harness-desk.svg"
PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512]
ICO_SIZES = [16, 24, 32, 48, 64, 128, 256]
# macOS icon types that hold a PNG, and the pixel size of each (the @2x ones are doubled).
ICNS_TYPES = [(b"icp4", 16), (b"icp5", 32), (b"ic11", 32), (b"icp6", 64), (b"ic12", 64),
              (b"ic07", 128), (b"ic08", 256), (b"ic13", 256), (b"ic09", 512),
              (b"ic14", 512), (b"ic10", 1024)]


def render_png(size: int) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        sys.exit(f"{SVG} is not a drawable SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data)


def ico(pngs: dict[int, bytes]) -> bytes:
    """An ICONDIR of PNG entries (Windows Vista and later read PNG icons at any size)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(header) + 16 * len(pngs)
    entries, images = b"", b""
    for size, png in sorted(pngs.items()):
        side = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset)
        images += png
        offset += len(png)
    return header + entries + images


def icns(pngs: dict[int, bytes]) -> bytes:
    body = b"".join(kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size]
                    for kind, size in ICNS_TYPES)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 (fonts, painting)
    sizes = sorted({*PNG_SIZES, *ICO_SIZES, *(s for _, s in ICNS_TYPES)})
    pngs = {size: render_png(size) for size in sizes}
    for size in PNG_SIZES:
        (ICONS / f"harness-desk-{size}.png").write_bytes(pngs[size])
    (ICONS / "harness-desk.ico").write_bytes(ico({s: pngs[s] for s in ICO_SIZES}))
    (ICONS / "harness-desk.icns").write_bytes(icns(pngs))
    for path in sorted(ICONS.iterdir()):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
