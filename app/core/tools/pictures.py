"""Pictures for the model: read_file on a .png/.jpg/.jpeg/.gif/.webp/.tif/.tiff becomes a
Picture. A HEIC, HEIF or AVIF photo (as phones save them) is named in a sentence instead:
Pillow cannot decode HEIC, and the app's build leaves its AVIF decoder out.

The picture is decoded with Pillow (imported only when a picture is read), scaled so its
longest side is at most PICTURE_MAX_SIDE (the largest any engine takes) and re-encoded as
PNG or JPEG within PICTURE_MAX_BYTES. Each engine then fits it to its own service's limit
with `fitted` (Claude 1568 px, OpenAI 2048 px, local servers 1024 px). An engine that cannot
see pictures sends `unseen_sentence` instead. Picture bytes never reach events or logs: only
`describe` does.
"""

from __future__ import annotations

import base64
import functools
import io
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, Sequence

from app.core.records.model import Record

if TYPE_CHECKING:
    from PIL import Image

PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".tif", ".tiff")
# Pictures in formats that cannot be shown, by suffix -> the format's name.
UNSHOWN_PICTURES = {".heic": "HEIC", ".heif": "HEIF", ".avif": "AVIF"}
PICTURE_MAX_SIDE = 2048            # OpenAI's high detail fits a picture into 2048 x 2048
PICTURE_MAX_BYTES = 3_000_000      # under Claude's 5 MB per picture once base64 adds a third
PICTURE_MAX_FILE_BYTES = 40_000_000
PICTURE_MAX_PIXELS = 60_000_000    # a decompression bomb is refused before it is decoded
PICTURES_PER_REQUEST = 8           # older pictures go as their sentence: bodies stay bounded
_FORMATS = {"PNG": "PNG", "JPEG": "JPEG", "GIF": "GIF", "WEBP": "WebP", "MPO": "JPEG",
            "TIFF": "TIFF"}


class PictureError(Exception):
    """A picture that cannot be shown; the message is one sentence for the model."""


class Picture(Record):
    """A picture a tool shows the model: PNG or JPEG bytes (base64) already scaled to
    PICTURE_MAX_SIDE, with the file's own format and size for the sentences about it."""

    path: str
    kind: str            # the file's format as people call it: PNG, JPEG, GIF, WebP
    width: int           # the file's own size in pixels
    height: int
    media_type: str      # of `data`: image/png or image/jpeg
    data: str            # base64
    shown_width: int
    shown_height: int

    def describe(self) -> str:
        return f"'{self.path}' is a picture ({self.kind}, {self.width}×{self.height} pixels)"

    def seen_sentence(self) -> str:
        return f"{self.describe()}; it is shown to you here as a picture."

    def dropped_sentence(self) -> str:
        return (f"{self.describe()}; it was shown earlier and is no longer sent, to keep the "
                "conversation small. Read it again to see it.")

    def unseen_sentence(self) -> str:
        return (f"{self.describe()}, and this engine cannot see pictures, so what it shows "
                "cannot be read. Work from the text files, or ask the person to describe it.")


def is_picture(name: str | Path) -> bool:
    return str(name).lower().endswith(PICTURE_SUFFIXES)


def unshown_sentence(name: str | Path) -> str | None:
    """The sentence for a picture in a format that cannot be shown (HEIC...), else None."""
    kind = UNSHOWN_PICTURES.get(Path(str(name)).suffix.lower())
    if kind is None:
        return None
    return (f"'{name}' is a photo in the {kind} format, which cannot be shown to the AI; ask "
            "the person to save it as a JPEG or PNG picture.")


def read_picture(path: Path, rel: str) -> Picture:
    """The picture at `path`, scaled and re-encoded; PictureError with one sentence if not."""
    size = path.stat().st_size
    if size == 0:
        raise PictureError(f"'{rel}' is empty (0 bytes), so there is no picture to show.")
    if size > PICTURE_MAX_FILE_BYTES:
        raise PictureError(f"'{rel}' is {size:,} bytes; pictures of at most "
                           f"{PICTURE_MAX_FILE_BYTES // 1_000_000} MB can be shown.")
    from PIL import Image, UnidentifiedImageError  # noqa: PLC0415 - document library

    try:
        with Image.open(path) as img:
            kind = _FORMATS.get(img.format or "")
            if kind is None:
                raise PictureError(f"'{rel}' is not a PNG, JPEG, GIF, WebP or TIFF picture, "
                                   "so it cannot be shown.")
            width, height = img.size
            if width * height > PICTURE_MAX_PIXELS:
                raise PictureError(_too_many(rel))
            img.draft("RGB", _target(width, height, PICTURE_MAX_SIDE))  # JPEG: decode smaller
            img.seek(0)  # an animated GIF or WebP shows its first frame
            data, media, shown = _encode(img.copy(), PICTURE_MAX_SIDE, photo=kind == "JPEG")
    except PictureError:
        raise
    except Image.DecompressionBombError:
        raise PictureError(_too_many(rel)) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        raise PictureError(f"'{rel}' could not be opened as a picture; it may be damaged or "
                           "not really a picture.") from None
    return Picture(path=rel, kind=kind, width=width, height=height, media_type=media,
                   data=base64.b64encode(data).decode("ascii"),
                   shown_width=shown[0], shown_height=shown[1])


def fitted(picture: Picture, max_side: int) -> Picture:
    """The picture with its longest side at most `max_side` (itself when it already fits).
    The same picture is fitted once: every later request of the round sends the same bytes."""
    if max(picture.shown_width, picture.shown_height) <= max_side:
        return picture
    data, media, width, height = _fit(picture.data, picture.media_type, max_side)
    return picture.model_copy(update={"data": data, "media_type": media,
                                      "shown_width": width, "shown_height": height})


@functools.lru_cache(maxsize=16)
def _fit(data: str, media_type: str, max_side: int) -> tuple[str, str, int, int]:
    from PIL import Image  # noqa: PLC0415 - document library

    with Image.open(io.BytesIO(base64.b64decode(data))) as img:
        raw, media, shown = _encode(img.copy(), max_side, photo=media_type == "image/jpeg")
    return base64.b64encode(raw).decode("ascii"), media, shown[0], shown[1]


class WithPictures(Protocol):
    """A tool result as far as its pictures go (conversation.ToolResult, which imports this
    module)."""

    @property
    def content(self) -> str: ...
    @property
    def pictures(self) -> list[Picture]: ...


def shown_pictures(results: Sequence[WithPictures]) -> set[tuple[int, int]]:
    """The pictures of a request's tool results to send as pictures, as (id of the result,
    index of the picture): the PICTURES_PER_REQUEST latest."""
    flat = [(id(r), k) for r in results for k in range(len(r.pictures))]
    return set(flat[-PICTURES_PER_REQUEST:])


def parts_for(result: WithPictures, sees: bool, shown: set[tuple[int, int]]) -> tuple[str, list[Picture]]:
    """A tool result's text and the pictures to send with it, for an engine that `sees` or
    not: one that cannot gets each picture's unseen sentence instead; a picture left out to
    keep the request small is said to be so."""
    pictures = result.pictures
    if not pictures:
        return result.content, []
    if not sees:
        return " ".join(p.unseen_sentence() for p in pictures), []
    if all((id(result), k) in shown for k in range(len(pictures))):
        return result.content, list(pictures)
    return " ".join(p.dropped_sentence() for p in pictures), []


def _too_many(rel: str) -> str:
    return (f"'{rel}' is too large a picture to open safely (more than "
            f"{PICTURE_MAX_PIXELS // 1_000_000} million pixels).")


def _target(width: int, height: int, max_side: int) -> tuple[int, int]:
    longest = max(width, height)
    if longest <= max_side:
        return width, height
    scale = max_side / longest
    return max(1, round(width * scale)), max(1, round(height * scale))


def _encode(img: Image.Image, max_side: int, photo: bool = False) -> tuple[bytes, str, tuple[int, int]]:
    """PNG for drawings and transparency, JPEG for photos (and for a PNG too large to send);
    always within PICTURE_MAX_BYTES."""
    from PIL import Image  # noqa: PLC0415 - document library

    if img.mode not in ("RGB", "RGBA", "L", "LA"):
        img = img.convert("RGBA" if "transparency" in img.info or img.mode in ("P", "PA")
                          else "RGB")
    if max(img.size) > max_side:
        img = img.resize(_target(*img.size, max_side), Image.Resampling.LANCZOS)
    if not photo:
        out = io.BytesIO()
        img.save(out, "PNG")
        if out.tell() <= PICTURE_MAX_BYTES:
            return out.getvalue(), "image/png", img.size
    if img.mode in ("RGBA", "LA"):  # JPEG has no transparency: flatten on white
        flat = Image.new("RGB", img.size, "white")
        flat.paste(img, mask=img.getchannel("A"))
        img = flat
    img = img.convert("RGB")
    for quality in (85, 70, 50):
        out = io.BytesIO()
        img.save(out, "JPEG", quality=quality)
        if out.tell() <= PICTURE_MAX_BYTES:
            break
    while out.tell() > PICTURE_MAX_BYTES:  # a huge noisy picture: smaller until it fits
        img = img.resize((max(1, img.width * 3 // 4), max(1, img.height * 3 // 4)))
        out = io.BytesIO()
        img.save(out, "JPEG", quality=50)
    return out.getvalue(), "image/jpeg", img.size
