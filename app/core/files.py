"""The one way to write state to disk: atomic replace, JSONL appends, tolerant JSONL reads."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

# Antivirus scanners and search indexers on Windows briefly hold files open; os.replace
# then fails with a sharing violation. A short, bounded retry rides over it.
_REPLACE_RETRIES = 10
_REPLACE_DELAY_S = 0.05


class DiskWriteError(OSError):
    """A write failed; the original file is untouched. Carries a sentence for the person."""

    def __init__(self, path: Path, cause: OSError):
        super().__init__(cause.errno, f"Could not save {path.name}: {cause.strerror or cause}. "
                                      "The previous version is unchanged.")
        self.path = path
        self.cause = cause

    def __str__(self) -> str:  # the sentence alone, without OSError's "[Errno N]" prefix
        return self.args[1]


def atomic_write_bytes(path: Path | str, data: bytes) -> None:
    """Write `data` to `path` so that readers see either the old or the new file, never half.

    Temp file in the same folder, flush + fsync, then os.replace. On failure (disk full,
    permissions) the temp file is removed and the original is left as it was.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        _copy_mode(path, tmp)
        _replace_with_retry(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise DiskWriteError(path, exc) from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path | str, text: str) -> None:
    """Atomic write of UTF-8 text, with no newline translation (the caller owns line endings)."""
    atomic_write_bytes(path, to_utf8(text))


def to_utf8(text: str) -> bytes:
    """UTF-8 bytes of any str. Text read from a person's file with undecodable bytes carries
    surrogates; in our own records they become U+FFFD instead of a crash."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        try:
            return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace").encode()
        except UnicodeEncodeError:
            return text.encode("utf-8", "replace")


def atomic_write_json(path: Path | str, obj: Any) -> None:
    """Atomic write of JSON with sorted keys, so files diff cleanly and stay stable."""
    atomic_write_text(path, json.dumps(obj, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def _copy_mode(target: Path, tmp: Path) -> None:
    """mkstemp makes a private (0600) file: give it the replaced file's mode, or the usual
    default for a new file, so a person's files stay as readable as they were."""
    try:
        mode = os.stat(target).st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~_umask()
    try:
        os.chmod(tmp, mode)
    except OSError:
        pass  # the content is what matters; a mode we cannot set is not worth failing over


_UMASK: int | None = None


def _umask() -> int:
    # The umask can only be read by setting it; read once, lazily (importing has no effects).
    global _UMASK
    if _UMASK is None:
        _UMASK = os.umask(0o022)
        os.umask(_UMASK)
    return _UMASK


def _replace_with_retry(src: Path, dst: Path) -> None:
    for attempt in range(_REPLACE_RETRIES):
        try:
            os.replace(src, dst)
            return
        except PermissionError:
            if sys.platform != "win32" or attempt == _REPLACE_RETRIES - 1:
                raise
            time.sleep(_REPLACE_DELAY_S * (attempt + 1))


def append_jsonl(path: Path | str, obj: Any) -> None:
    """Append one JSON object as one line. A crash mid-append leaves at most a torn last line,
    which `read_jsonl` skips."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(obj, ensure_ascii=False, sort_keys=True) + "\n"
    with open(path, "ab") as fh:
        # If an earlier writer died mid-line, start on a fresh line so this record is whole.
        if fh.tell() > 0:
            with open(path, "rb") as check:
                check.seek(-1, os.SEEK_END)
                if check.read(1) != b"\n":
                    fh.write(b"\n")
        fh.write(to_utf8(line))
        fh.flush()
        os.fsync(fh.fileno())


def read_jsonl(path: Path | str) -> Iterator[dict]:
    """Yield each complete JSON object in a JSONL file; skip torn or corrupt lines."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return
    for line in raw.splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            obj = json.loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(obj, dict):
            yield obj


def read_json(path: Path | str) -> Any | None:
    """Read a JSON file; None if it is missing, empty or corrupt (callers decide what to reset)."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
