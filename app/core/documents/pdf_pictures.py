"""The pictures of a PDF's pages that have no text (scans), small, for the window's
evidence view. pypdf cannot draw a page; a page without text is almost always one scanned
picture, so that picture is the page. Run in the document worker (worker.py) like every
other reading of a document, so a hostile PDF costs the window nothing.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image
    from pypdf import PageObject


def page_pictures(path: Path, pages: list[int] | None, max_pixels: int, side: int,
                  most: int) -> list[tuple[int, bytes, tuple[int, int]]]:
    """(page number, PNG bytes, the picture's own size) for the largest picture of each
    page in `pages` (None: the first pages), at most `most` of them, none past
    `max_pixels` decoded. Any failure is simply no more pictures."""
    from pypdf import PdfReader

    out: list[tuple[int, bytes, tuple[int, int]]] = []
    try:
        reader = PdfReader(str(path))
        if reader.is_encrypted and not reader.decrypt(""):
            return []
        numbers = pages if pages is not None else range(1, len(reader.pages) + 1)
        for number in list(numbers)[:most]:
            page = reader.pages[number - 1]
            best = _largest_picture(page, max_pixels)
            if best is not None:
                # None (a picture pypdf cannot decode) fails in there and ends the reading
                # below, as any damaged picture does.
                out.append((number, *_small_png(page.images[best].image, side)))  # type: ignore[arg-type]
    except Exception:  # a damaged page or picture: show what could be shown
        return out
    return out


def _largest_picture(page: PageObject, max_pixels: int) -> str | None:
    """The name of the page's biggest picture within the pixel cap, read from its size
    fields before anything is decoded."""
    best, most = None, 0
    xobjects = page.get("/Resources", {}).get_object().get("/XObject", {}).get_object()
    for name, ref in xobjects.items():
        obj = ref.get_object()
        if obj.get("/Subtype") != "/Image":
            continue
        pixels = int(obj.get("/Width", 0)) * int(obj.get("/Height", 0))
        if most < pixels <= max_pixels:
            best, most = name, pixels
    return best


def _small_png(img: Image.Image, side: int) -> tuple[bytes, tuple[int, int]]:
    size = img.size
    img.draft("RGB", (side, side))
    small = img.convert("RGBA")
    small.thumbnail((side, side))
    out = io.BytesIO()
    small.save(out, "PNG")
    return out.getvalue(), size
