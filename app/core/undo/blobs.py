"""Content-addressed copies of files kept for undo: streamed in and out a chunk at a time,
checked against their SHA-256 on the way out, and as private as the files they copy."""

from __future__ import annotations

import hashlib
import os
import re
import stat
from pathlib import Path

from app.core.workspace.files import atomic_write_bytes, commit_temp_file, make_temp

TYPE_CHECKING = False  # not typing's: `status` has no use for importing it
if TYPE_CHECKING:
    from app.core.undo.flush import Spare

_SHA = re.compile(r"^[0-9a-f]{64}$")
_CHUNK = 1 << 20  # files are copied and hashed a megabyte at a time, whatever their size


class DamagedCopy(OSError):
    """A saved copy no longer matches its fingerprint; nothing was written from it."""

    def __init__(self, sha: str):
        super().__init__(f"the saved copy {sha[:12]} is damaged")


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path | str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _fsync_file(path: Path) -> None:
    """Flush a kept copy to the disk (one written earlier without it). Windows flushes only a
    handle open for writing, which a read-only copy refuses ("permission denied"): there the
    copy is made writable for the moment of the flush."""
    try:
        _fsync_open(path, os.O_RDONLY)
    except OSError:
        if os.name != "nt":
            raise
        mode = os.stat(path).st_mode
        os.chmod(path, stat.S_IREAD | stat.S_IWRITE)
        try:
            _fsync_open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
        finally:
            os.chmod(path, stat.S_IMODE(mode))


def _fsync_open(path: Path, flags: int) -> None:
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _copy_hashing(source: Path, fd: int, sync: bool) -> str:
    """Copy `source` into the open temporary file `fd` (which this closes) a chunk at a time,
    hashing what passes; flushed to the disk when `sync`. Returns the SHA-256 of the copy."""
    digest = hashlib.sha256()
    with os.fdopen(fd, "wb") as out, open(source, "rb") as src:
        while chunk := src.read(_CHUNK):
            digest.update(chunk)
            out.write(chunk)
        out.flush()
        if sync:
            os.fsync(out.fileno())
    return digest.hexdigest()


def _blob_mode(mode: int | None) -> int:
    # A copy is as private as its original; the owner can always read it back for undo.
    return 0o600 if mode is None else (stat.S_IMODE(mode) & 0o777) | 0o400


class BlobStore:
    """Immutable blobs named by their SHA-256, under <harness_dir>/blobs/, each as private
    as the most private file it was copied from."""

    def __init__(self, harness_dir: Path | str):
        self.dir = Path(harness_dir) / "blobs"

    def _path(self, sha: str) -> Path:
        if not _SHA.match(sha or ""):
            raise ValueError(f"not a blob id: {sha!r}")
        return self.dir / sha

    def path_of(self, sha: str) -> Path:
        """Where the copy `sha` is kept (for flushing it; read it through get or copy_out)."""
        return self._path(sha)

    def put(self, data: bytes, mode: int | None = None, sync: bool = True) -> str:
        """Keep `data`; returns its SHA-256. `sync=False` as in put_file."""
        sha = sha256_bytes(data)
        path = self._path(sha)
        # Same name means same content, so an existing blob is never rewritten.
        if path.exists():
            self._tighten(path, mode)
        else:
            atomic_write_bytes(path, data, mode=_blob_mode(mode), sync=sync)
        return sha

    def put_file(self, source: Path, mode: int | None = None, sync: bool = True,
                 spare: Spare | None = None) -> str:
        """Copy a file in while hashing it, a chunk at a time, so a file of any size is kept
        without being held in memory. Returns the copy's SHA-256 (of what was copied).

        A file of up to a chunk is hashed first, and not copied when that content is kept
        already. `sync=False` leaves the copy to the OS's cache (safe from a crash or kill of
        the process, not from a power cut): for the post-images of a round's changes, which
        undo never reads back and the round's end flushes, so a write step does not wait for
        a second flush. `spare`: where a copy of up to a chunk takes its temporary file
        (files.atomic_write_bytes)."""
        self.dir.mkdir(parents=True, exist_ok=True)
        with open(source, "rb") as src:
            data = src.read(_CHUNK + 1)
            if len(data) <= _CHUNK:  # all of it
                sha = sha256_bytes(data)
                path = self._path(sha)
                if path.exists():
                    self._tighten(path, mode)
                    if sync:
                        _fsync_file(path)
                else:
                    atomic_write_bytes(path, data, mode=_blob_mode(mode), sync=sync,
                                       spare=spare)
                return sha
        fd, tmp = make_temp(self.dir)
        try:
            sha = _copy_hashing(source, fd, sync)
            path = self._path(sha)
            if path.exists():
                tmp.unlink()
                self._tighten(path, mode)
                if sync:
                    _fsync_file(path)
            else:
                os.chmod(tmp, _blob_mode(mode))
                os.replace(tmp, path)
            return sha
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    @staticmethod
    def _tighten(path: Path, mode: int | None) -> None:
        # One blob can hold the content of an open file and of a private one: keep the
        # stricter of the two, so sharing a copy never widens who can read it.
        try:
            current = stat.S_IMODE(os.stat(path).st_mode)
            wanted = (current & _blob_mode(mode)) | 0o400
            if wanted != current:
                os.chmod(path, wanted)
        except OSError:
            pass

    def get(self, sha: str) -> bytes:
        data = self._path(sha).read_bytes()
        if sha256_bytes(data) != sha:
            raise DamagedCopy(sha)
        return data

    def copy_out(self, sha: str, target: Path, mode: int | None = None) -> None:
        """Write blob `sha` to `target` atomically, streaming and checking it on the way:
        a damaged copy raises DamagedCopy and leaves `target` as it was."""
        source = self._path(sha)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = make_temp(target.parent)  # short: the target's name may be 255 bytes
        try:
            if _copy_hashing(source, fd, sync=True) != sha:
                raise DamagedCopy(sha)
            # The atomic writer's rules: never over a read-only file, keep (or set) the mode.
            commit_temp_file(tmp, target, mode)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    def has(self, sha: str) -> bool:
        try:
            return self._path(sha).is_file()
        except ValueError:
            return False
