"""Each font of a PDF is read once, however many times a page names it (issue 34).

pypdf builds a font's character map for every name a page gives it in its resources, so a
page naming one font (with a map of 65,000 codes) 600 times built that map 600 times:
96 seconds and 4.3 GB for a 180 KB file. Within `fonts_read_once()`, the map a font or a
character-map stream yields is built the first time and handed out again after: keyed by
the object itself (pypdf resolves an indirect object once per reader, so the same font is
the same object), held for the block only, which is one document's rendering.

The wrappers are installed once and do nothing outside the block; pypdf versions without
these functions are simply not wrapped (the reading's time and memory bounds still hold).
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import functools
from typing import Any, Callable, Iterator

# {(kind, id(key)): (key, what was built, or the error building it raised)}
_cache: contextvars.ContextVar[dict[tuple[str, int], tuple[Any, Any, Exception | None]] | None] = \
    contextvars.ContextVar("pdf_fonts", default=None)
_installed = False


@contextlib.contextmanager
def fonts_read_once() -> Iterator[None]:
    _install()
    token = _cache.set({})
    try:
        yield
    finally:
        _cache.reset(token)


def _install() -> None:
    global _installed
    if _installed:
        return
    _installed = True
    try:
        from pypdf import _cmap
        from pypdf.generic._font import Font
    except ImportError:
        return
    if hasattr(_cmap, "_parse_to_unicode"):
        _cmap._parse_to_unicode = _once(_cmap._parse_to_unicode, _map_key, "map")
    if isinstance(Font.__dict__.get("from_font_resource"), classmethod):
        plain = Font.__dict__["from_font_resource"].__func__
        wrapped = _once(functools.partial(plain, Font), lambda font: font, "font",
                        copy.copy)  # each name gets its own Font: pypdf sets its space width
        # pypdf's classmethod replaced in place (what _install is for).
        Font.from_font_resource = classmethod(  # type: ignore[method-assign,assignment]
            lambda cls, font: wrapped(font) if cls is Font else plain(cls, font))


def _map_key(font: Any) -> Any:
    """A font's character map comes from its /ToUnicode stream when it has one: fonts that
    share that stream share the map."""
    try:
        return font["/ToUnicode"] if "/ToUnicode" in font else font
    except Exception:
        return font


def _once(build: Callable[..., Any], key_of: Callable[[Any], Any], kind: str,
          handed: Callable[[Any], Any] = lambda value: value) -> Callable[..., Any]:
    @functools.wraps(build)
    def wrapper(obj: Any, *args: Any, **kwargs: Any) -> Any:
        cache = _cache.get()
        if cache is None or args or kwargs:
            return build(obj, *args, **kwargs)
        key = key_of(obj)
        hit = cache.get((kind, id(key)))
        if hit is None or hit[0] is not key:
            try:  # the key is held, so its id is not reused meanwhile
                hit = (key, build(obj), None)
            except Exception as exc:  # a map that fails fails once, not once per name
                hit = (key, None, exc)
            cache[(kind, id(key))] = hit
        if hit[2] is not None:
            raise hit[2]
        return handed(hit[1])
    return wrapper
