"""A write computed from what a file held goes ahead only if the file still holds it.

A tool reads a person's file, computes its change (seconds, for a big workbook), and writes.
Meanwhile the person may have saved the file in Excel or their editor. FileStamp is what the
file held when the tool read it; inside `expect_unchanged(stamp)`, files.commit_temp_file,
which every replace of a file passes through, checks right before the replace that the file
still holds it, and otherwise raises ChangedOnDisk: nothing is written, and the sentence
says so. Light: no imports beyond the standard library's, and those lazily."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from contextvars import ContextVar, Token


class ChangedOnDisk(Exception):
    """The file is no longer what the writer read (someone saved it meanwhile): nothing was
    written. Not an OSError: nothing failed, the write was withheld on purpose."""

    def __init__(self, shown: str):
        super().__init__(changed_sentence(shown))
        self.shown = shown


def changed_sentence(shown: str) -> str:
    return (f"{shown} was changed by someone else while this edit was being made, so nothing "
            "was written; read it again and redo the change.")


class FileStamp:
    """What a file held when a writer read it: size, modification time and a SHA-256 of its
    bytes (all None: there was no file). Taken before the writer reads, so any save after it
    shows."""

    __slots__ = ("mtime_ns", "path", "sha256", "size")

    def __init__(self, path: Path | str, size: int | None, mtime_ns: int | None,
                 sha256: str | None):
        self.path = path if isinstance(path, Path) else Path(path)
        self.size, self.mtime_ns, self.sha256 = size, mtime_ns, sha256

    @classmethod
    def of(cls, path: Path | str) -> "FileStamp":
        """The file's stamp now; read again if it changed while being read."""
        path = path if isinstance(path, Path) else Path(path)
        for _ in range(3):
            try:
                before = os.stat(path)
                try:
                    digest = _sha256_of(path)
                except PermissionError:  # a file we may write but not read: its times tell
                    digest = ""
                after = os.stat(path)
            except FileNotFoundError:
                return cls(path, None, None, None)
            if (before.st_size, before.st_mtime_ns) == (after.st_size, after.st_mtime_ns):
                break
        return cls(path, after.st_size, after.st_mtime_ns, digest)

    def holds(self) -> bool:
        """True while the file is still what was stamped: same size and time, and (as a
        time may not move for a quick save) the same bytes."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return self.size is None
        if self.size is None or (st.st_size, st.st_mtime_ns) != (self.size, self.mtime_ns):
            return False
        if not self.sha256:
            return True
        try:
            return _sha256_of(self.path) == self.sha256
        except OSError:
            return False


def _sha256_of(path: Path) -> str:
    import hashlib  # noqa: PLC0415 - `status` stays light: it never writes

    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _key(path: Path | str) -> str:
    return os.path.normcase(os.path.realpath(path))


def _plain_key(path: Path | str) -> str:
    """_key of a path that is real already (no link in it): no walk of its folders."""
    return os.path.normcase(os.path.abspath(path))


# {key: (stamp, shown name)} in a ContextVar, made on first use
_EXPECTED: ContextVar[dict[str, tuple[FileStamp, str]]] | None = None


def _expected_var() -> ContextVar[dict[str, tuple[FileStamp, str]]]:
    global _EXPECTED
    if _EXPECTED is None:
        import contextvars  # noqa: PLC0415 - `status` stays light

        # Never mutated: each set() makes a new dict.
        _EXPECTED = contextvars.ContextVar("hd_expected_files", default={})  # noqa: B039
    return _EXPECTED


class expect_unchanged:
    """While inside, a replace of the stamped file goes ahead only if the file is still what
    the stamp says (checked in commit_temp_file, right before the replace); otherwise
    ChangedOnDisk and nothing is written. `shown` names the file in the sentences.
    `resolved`: the stamp's path is a real path already (the sandbox resolved it), so its
    key needs no walk of its folders (a write step's hot path)."""

    def __init__(self, stamp: FileStamp | None, shown: str | None = None,
                 resolved: bool = False):
        self.stamp, self.shown, self.resolved = stamp, shown, resolved
        self._token: Token[dict[str, tuple[FileStamp, str]]] | None = None

    def __enter__(self) -> "expect_unchanged":
        if self.stamp is not None:
            var = _expected_var()
            shown = self.shown or self.stamp.path.name
            key = (_plain_key if self.resolved else _key)(self.stamp.path)
            self._token = var.set({**var.get(), key: (self.stamp, shown)})
        return self

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _expected_var().reset(self._token)


def expected_for(path: Path) -> tuple[FileStamp | None, str | None]:
    if _EXPECTED is None:
        return None, None
    expected = _EXPECTED.get()
    if not expected:  # every write of our own records: no path to resolve, so none is paid for
        return None, None
    # Keys are real paths: a path that is one is found without resolving it, which is slow.
    found = expected.get(_plain_key(path)) or expected.get(_key(path))
    if found is None:
        return None, None
    return found


def check_expected(path: Path) -> None:
    stamp, shown = expected_for(path)
    if stamp is not None and not stamp.holds():
        raise ChangedOnDisk(shown or path.name)
