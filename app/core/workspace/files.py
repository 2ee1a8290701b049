"""The one way to write state to disk: atomic replace, JSONL appends, tolerant JSONL reads."""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import sys
import time
from pathlib import Path

from app.core.undo.flush import first_for
from app.core.workspace.write_guard import ChangedOnDisk, check_expected, expected_for  # noqa: F401

TYPE_CHECKING = False  # not typing's: `status` has no use for importing it (5-8 ms)
if TYPE_CHECKING:
    from typing import Any, BinaryIO, Callable, Iterator

    from app.core.undo.flush import Spare

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
        return str(self.args[1])


class ReadOnlyFile(PermissionError):
    """The file has no write permission: the person asked for it to be left alone."""

    def __init__(self, path: Path):
        sentence = read_only_sentence(path.name)
        super().__init__(errno.EACCES, sentence)
        self.path = path

    def __str__(self) -> str:
        return self.strerror or ""


class FileInUse(DiskWriteError):
    """Another program holds the file open and locked (Word or Excel on Windows: a sharing
    violation on replace); the file is untouched. Its sentence asks the person to close it."""

    def __init__(self, path: Path, cause: OSError, shown: str | None = None):
        OSError.__init__(self, cause.errno, in_use_sentence(shown or path.name))
        self.path = path
        self.cause = cause


def in_use_sentence(shown: str) -> str:
    return (f"{shown} is open in another program; close it there and the AI will try again "
            "next round.")


# Windows' "being used by another process" and "another process has locked a portion".
_SHARING_VIOLATIONS = (32, 33)


def is_sharing_violation(exc: BaseException) -> bool:
    return isinstance(exc, PermissionError) and \
        getattr(exc, "winerror", None) in _SHARING_VIOLATIONS


def read_only_sentence(shown: str) -> str:
    """What a person (and the agent) is told about a file without write permission."""
    return f"'{shown}' is read-only, so it was left alone."


def is_read_only(path: Path | str) -> bool:
    """True for an ordinary file with no write bit for anyone.

    Judged from the mode bits, not from whether a write would succeed: as root (or with the
    folder writable, for a replace or a delete) it would, yet the person said "leave this
    alone". On Windows the read-only attribute shows as no write bits."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return is_read_only_mode(st.st_mode)


def is_read_only_mode(mode: int) -> bool:
    """is_read_only of a file whose os.stat is at hand: its st_mode."""
    return stat.S_ISREG(mode) and not mode & 0o222


def atomic_write_bytes(path: Path | str, data: bytes, mode: int | None = None,
                       sync: bool = True, spare: Spare | None = None) -> None:
    """Write `data` to `path` so that readers see either the old or the new file, never half.

    Temp file in the same folder, flush + fsync, then os.replace. On failure (disk full,
    permissions) the temp file is removed and the original is left as it was. A read-only
    file is never replaced (ReadOnlyFile). `mode` sets the new file's permissions; by default
    it keeps the replaced file's, so a private file stays private. `sync=False` skips the
    fsync: still atomic for every reader and after a crash of the process (the data is in
    the OS's cache), but a power cut may lose the write; for records rewritten often and
    flushed at their own checkpoints (status.json, see recorder.py).

    Inside a round's write step (flush.flushed_first with a flusher, undo.RoundChanges) the
    new file is flushed after the replace, on the round's flusher thread (flush.py), and the
    temporary file is a spare made ahead of time (`spare`, or the step's: spare_files.py),
    renamed into place from the workspace's .harness; a folder on another file system, or
    one whose new files take its group (setgid), gets a temporary file of its own.
    """
    if not isinstance(path, Path):
        path = Path(path)
    if is_read_only(path):
        raise ReadOnlyFile(path)
    wait, later, spare_here = first_for(path)
    if not sync:
        later = None
    if spare is None:
        spare = spare_here
    parent = path.parent
    try:
        folder_mode = os.stat(parent).st_mode
    except FileNotFoundError:
        parent.mkdir(parents=True, exist_ok=True)
        folder_mode = stat.S_IFDIR
    if not stat.S_ISDIR(folder_mode):
        parent.mkdir(parents=True, exist_ok=True)  # raises what a file in the way means
    taken = spare() if spare is not None and not folder_mode & stat.S_ISGID else None
    fd, tmp = taken if taken is not None else make_temp(parent)
    try:
        try:
            _write_all(fd, data, sync and later is None)
        except OSError as exc:
            raise DiskWriteError(path, exc) from exc
        try:
            _commit(tmp, path, mode, wait)
        except DiskWriteError as exc:
            if taken is None or exc.cause.errno != errno.EXDEV:
                raise
            tmp.unlink(missing_ok=True)  # another file system: a temporary file beside it
            atomic_write_bytes(path, data, mode, sync, spare=_none)
            return
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    if later is not None:
        later(path)


def _none() -> None:
    return None


def _write_all(fd: int, data: bytes, sync: bool) -> None:
    """Write `data` to the open file `fd` (which this closes), flushed to the disk when
    `sync`: a file object's buffer, and its three system calls to set it up, are of no use
    for one write."""
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)


# Our temporary files: short, whatever the name they stand in for (a person's file name may
# be as long as the file system allows, 255 bytes on ext4), and recognisable by name.
TEMP_PREFIX = ".hd-"
TEMP_SUFFIX = ".tmp"
_OUR_TEMP = re.compile(r"^\.hd-[a-z0-9_]{8}\.tmp$")
# Older versions named it ".<target name>.<8 random>.tmp"; still ours to clean up.
_OLD_TEMP = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$", re.DOTALL)


_OLD_INCOMING = re.compile(r"^\.incoming-[a-z0-9_]{8}$")  # the blob store's, in older versions
STALE_TEMP_S = 600.0  # a temp file untouched this long belongs to a write that died


def make_temp(folder: Path) -> tuple[int, Path]:
    """A new private temporary file of ours in `folder`: (open descriptor, path)."""
    import tempfile  # noqa: PLC0415 - `status` stays light: reading commands never write

    fd, name = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=folder)
    return fd, Path(name)


def is_our_temp(name: str) -> bool:
    """True for the name of a temporary file this app makes (today's or an older version's)."""
    return bool(_OUR_TEMP.match(name) or _OLD_TEMP.match(name) or _OLD_INCOMING.match(name))


def remove_stale_temps(folder: Path | str, older_than_s: float = STALE_TEMP_S) -> int:
    """Remove the temporary files of ours in `folder` (not below it) that no write has
    touched for `older_than_s`: what a kill mid-save left. Plain files only, never a link
    or a folder; a file in use is fresh (every write moves its mtime). Returns how many."""
    removed = 0
    cutoff = time.time() - older_than_s
    try:
        with os.scandir(folder) as it:
            entries = [e for e in it if is_our_temp(e.name)]
    except OSError:
        return 0
    for entry in entries:
        try:
            if entry.is_file(follow_symlinks=False) and \
                    entry.stat(follow_symlinks=False).st_mtime < cutoff:
                os.remove(entry.path)
                removed += 1
        except OSError:
            continue  # gone already, or not ours to remove after all
    return removed


def name_limit(folder: Path | str) -> int:
    """The longest file name, in bytes, the file system under `folder` accepts."""
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):
        return 255  # ext4, APFS, NTFS (in UTF-16 units, which a byte count never exceeds)


def fitted_name(stem: str, tag: str, suffix: str, limit: int = 255) -> str:
    """`stem + tag + suffix`, with `stem` cut (a whole character at a time, so never inside
    a UTF-8 sequence) until the name fits in `limit` bytes; the tag and the extension stay."""
    while stem and len(os.fsencode(stem + tag + suffix)) > limit:
        stem = stem[:-1]
    while suffix and len(os.fsencode(stem + tag + suffix)) > limit:
        suffix = suffix[:-1]  # an extension longer than the limit itself: nothing else left
    return stem + tag + suffix


def commit_temp_file(tmp: Path, path: Path, mode: int | None = None) -> None:
    """Put a finished, fsynced temp file (in `path`'s folder) in place of `path`, by the same
    rules as atomic_write_bytes. On failure `path` is as it was; the caller removes `tmp`.

    Every replace of a file passes here, so this is where a write that was computed from
    what a file held (expect_unchanged) is withheld when the file changed since: right
    before the replace, ChangedOnDisk. A file another program holds locked is FileInUse."""
    _commit(tmp, path, mode, first_for(path)[0])


def _commit(tmp: Path, path: Path, mode: int | None, wait: Callable[[], None] | None) -> None:
    """commit_temp_file, `wait` what must be on disk before the replace (flush.first_for)."""
    try:
        st: os.stat_result | None = os.stat(path)
    except OSError:
        st = None  # nothing there yet
    if st is not None and is_read_only_mode(st.st_mode):
        raise ReadOnlyFile(path)
    try:
        if mode is None and st is not None:
            mode = st.st_mode & 0o7777  # the replaced file's, from the stat above
        _copy_mode(path, tmp, mode)
        if wait is not None:
            wait()  # the undo journal's line, on disk before the replace is
        check_expected(path)
        _replace_with_retry(tmp, path)
    except OSError as exc:
        if is_sharing_violation(exc):
            raise FileInUse(path, exc, expected_for(path)[1]) from exc
        raise DiskWriteError(path, exc) from exc


def atomic_write_text(path: Path | str, text: str, sync: bool = True) -> None:
    """Atomic write of UTF-8 text, with no newline translation (the caller owns line endings)."""
    atomic_write_bytes(path, to_utf8(text), sync=sync)


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


def atomic_write_json(path: Path | str, obj: Any, sync: bool = True) -> None:
    """Atomic write of JSON with sorted keys, so files diff cleanly and stay stable."""
    atomic_write_text(path, json.dumps(obj, ensure_ascii=False, indent=2, sort_keys=True) + "\n",
                      sync=sync)


def _copy_mode(target: Path, tmp: Path, mode: int | None = None) -> None:
    """mkstemp makes a private (0600) file: give it the mode asked for, else the replaced
    file's, else the usual default for a new file, so a person's files stay as readable (and
    as private) as they were. Set before the rename, so the file is never more open."""
    if mode is None:
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


def read_bytes(path: Path | str) -> bytes:
    """Read a whole file, riding over the moment on Windows when another thread or program is
    replacing it (opening a file mid-replace is refused with "access denied" there)."""
    for attempt in range(_REPLACE_RETRIES):
        try:
            return Path(path).read_bytes()
        except PermissionError:
            if sys.platform != "win32" or attempt == _REPLACE_RETRIES - 1:
                raise
            time.sleep(_REPLACE_DELAY_S * (attempt + 1))
    raise AssertionError("unreachable")  # the loop returns or raises


def is_disk_full(exc: BaseException) -> bool:
    """True if `exc` (or what caused it) says the disk, or the person's quota, is full."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, OSError) and cause.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def no_space_sentence(root: Path | str, starting: bool) -> str:
    """What a person is told when the disk holding their workspace is full."""
    if starting:
        return (f"There is no space left on the disk that holds {root}, so the run could not "
                "start. Free some space, then run again.")
    return (f"The run stopped because there is no space left on the disk that holds {root}. "
            "Free some space, then run again.")


UNWRITABLE = (errno.EROFS, errno.EACCES, errno.EPERM)


def unwritable_sentence(root: Path | str) -> str:
    """What a person is told when their folder (or the disk it is on) refuses every write."""
    return (f"The folder {root} cannot be written to (it is read-only, or on a read-only "
            "disk), so Harness Desk cannot work in it. Copy the folder somewhere you can "
            "write, or change its permissions, then try again.")


class SpaceReserve:
    """A little disk space set aside before a run, given back when the disk fills up, so the
    run can still record how it ended (status.json, run.json, the last event) instead of
    being taken for interrupted."""

    SIZE = 128 * 1024

    def __init__(self, path: Path | str):
        self.path = Path(path)

    def keep(self) -> None:
        """Make sure the reserve exists, written out for real (not a sparse file). OSError
        when the disk has no room even for this."""
        try:
            if self.path.stat().st_size >= self.SIZE:
                return
        except OSError:
            pass
        try:
            with open(self.path, "wb") as fh:
                fh.write(b"\xff" * self.SIZE)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError:
            self.release()  # a part-written reserve would only take the last space there is
            raise

    def release(self) -> bool:
        """Give the space back; True if there was any to give."""
        try:
            os.remove(self.path)
            return True
        except OSError:
            return False


def append_jsonl(path: Path | str, obj: Any, sync: bool = True) -> None:
    """Append one JSON object as one line. A crash mid-append leaves at most a torn last line,
    which `read_jsonl` skips. `sync=False` leaves the flush to disk to the OS (the next synced
    append flushes it too): a crash of the process loses nothing, a power cut may lose it."""
    with JsonlAppender(path) as appender:
        appender.append(obj, sync)


class JsonlAppender:
    """A JSON Lines file kept open by its one writer (a run's events.jsonl, a line every few
    milliseconds): append_jsonl without opening the file for every line (opening,
    checking the last byte and closing cost 30 times the write). Each line is written whole
    and handed to the OS before append returns, as with append_jsonl. If the file is
    deleted meanwhile (its folder removed by hand), the next line goes to a new one, as
    append_jsonl's would; after a failed write the file is opened afresh. close() when done."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self._fh: BinaryIO | None = None

    def append(self, obj: Any, sync: bool = True) -> None:
        line = to_utf8(json.dumps(obj, ensure_ascii=False, sort_keys=True) + "\n")
        fh = self._fh
        try:
            if fh is not None and os.fstat(fh.fileno()).st_nlink == 0:
                self.close()  # deleted under us: this line goes where a reader looks
                fh = None
            if fh is None:
                fh = self._open()
            fh.write(line)
            fh.flush()
            if sync:
                os.fsync(fh.fileno())
        except BaseException:
            self.close()  # a torn write: the next line starts on a fresh one
            raise

    def _open(self) -> BinaryIO:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fh = open(self.path, "a+b")  # appends, whatever the position read from
        try:
            # If an earlier writer died mid-line, start on a fresh line so this record is whole.
            if fh.seek(0, os.SEEK_END) > 0:
                fh.seek(-1, os.SEEK_END)
                if fh.read(1) != b"\n":
                    fh.write(b"\n")
        except BaseException:
            fh.close()
            raise
        self._fh = fh
        return fh

    def close(self) -> None:
        fh, self._fh = self._fh, None
        if fh is not None:
            try:
                fh.close()
            except OSError:
                pass  # what it held was flushed line by line; nothing is waiting in it

    def __enter__(self) -> "JsonlAppender":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def bounded_lines(fh: BinaryIO, keep: int) -> Iterator[tuple[bytes, bool]]:
    """Each line of a binary file as (at most its first `keep` bytes, whether it was cut).

    The rest of a long line is read past a chunk at a time and dropped, and only when the
    caller asks for the next line, so a file that is one endless line costs `keep` bytes of
    memory, not its size, and a caller that stops at a long line does not read past it."""
    while True:
        head = fh.readline(keep)
        if not head:
            return
        if head.endswith(b"\n") or len(head) < keep:
            yield head, False
            continue
        rest = fh.readline(2)  # the line may end right here, exactly at the bound
        if not rest.rstrip(b"\r\n") and (rest.endswith(b"\n") or len(rest) < 2):
            yield head + rest, False
            continue
        yield head, True
        while not rest.endswith(b"\n"):
            rest = fh.readline(_SKIP_CHUNK)
            if not rest:
                return


_SKIP_CHUNK = 1 << 20


def read_jsonl(path: Path | str) -> Iterator[dict[str, Any]]:
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
        except (ValueError, UnicodeDecodeError, RecursionError):  # deep nesting: damaged
            continue
        if isinstance(obj, dict):
            yield obj


def read_json(path: Path | str) -> Any | None:
    """Read a JSON file; None if it is missing, empty or corrupt (callers decide what to reset).
    Nesting too deep for the parser (RecursionError) is damage like any other."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return None
