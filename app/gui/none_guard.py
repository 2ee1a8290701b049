"""Guards against PySide6 6.12 on Python 3.11 dropping a reference to None on every void call."""

from __future__ import annotations

import sys

_done = False


def keep_none_alive() -> None:
    """Make None effectively immortal in this process, as Python 3.12+ does by design.

    PySide6/shiboken6 6.12.0 returns None from every void method (setText, setFormat, ...)
    without taking a reference. On Python 3.11, None's count then runs down with each call
    and the interpreter aborts ("none_dealloc: deallocating None") after a few thousand
    calls — mid-export, or at exit. A huge head start keeps the count from reaching zero.
    """
    global _done
    if _done or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    import ctypes

    ctypes.c_ssize_t.from_address(id(None)).value += 1 << 40
    _done = True


keep_none_alive()
