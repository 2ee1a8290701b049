"""The workspace on disk: where things live under .harness/, the run lock, and `init`."""

from __future__ import annotations

import os
import sys
import time
from collections import namedtuple
from pathlib import Path

from app.core.errors import FolderGone, HarnessError, NotAWorkspace
from app.core.workspace.spare_files import SPARE_FOLDER
from app.core.workspace.files import (UNWRITABLE, atomic_write_text, is_disk_full, is_read_only,
                            no_space_sentence, remove_stale_temps, unwritable_sentence)

TYPE_CHECKING = False  # not typing's: `status` has no use for importing it (5-8 ms)
if TYPE_CHECKING:
    from app.core.workspace.run_lock import RunLock

BOARD_NAME = "TASKS.md"
HARNESS_DIR = ".harness"


class Workspace:
    """A person's folder and the harness's own data inside it."""

    def __init__(self, root: Path | str):
        self.root = Path(root).expanduser()

    # -- paths ---------------------------------------------------------------------------
    @property
    def board_path(self) -> Path:
        return self.root / BOARD_NAME

    @property
    def harness_dir(self) -> Path:
        return self.root / HARNESS_DIR

    @property
    def status_path(self) -> Path:
        return self.harness_dir / "status.json"

    @property
    def lock_path(self) -> Path:
        return self.harness_dir / "lock"

    @property
    def reserve_path(self) -> Path:
        return self.harness_dir / "space-reserve"

    @property
    def runs_dir(self) -> Path:
        return self.harness_dir / "runs"

    def run_dir(self, run_id: str) -> Path:
        return self.runs_dir / run_id

    def run_files(self, run_id: str) -> "RunFiles":
        return RunFiles(self.run_dir(run_id))

    @property
    def plans_dir(self) -> Path:
        """Planning rounds' records (core/plan/records.py): never part of a run's history."""
        return self.harness_dir / "plans"

    @property
    def name(self) -> str:
        return self.root.resolve().name or str(self.root)

    # -- checks --------------------------------------------------------------------------
    def require(self, need_board: bool = True) -> "Workspace":
        """Raise NotAWorkspace with a plain sentence if this folder cannot be used."""
        if not self.root.exists():
            raise NotAWorkspace(f"The folder {self.root} does not exist.")
        if not self.root.is_dir():
            raise NotAWorkspace(f"{self.root} is a file, not a folder.")
        if need_board and self.board_path.is_dir():
            raise NotAWorkspace(
                f"{BOARD_NAME} in {self.root} is a folder, not a file. Rename or remove that "
                f"folder, then run `harness-desk init {self.root}` to create the board.")
        if need_board and not self.board_path.is_file():
            raise NotAWorkspace(
                f"There is no {BOARD_NAME} in {self.root}. "
                f"Run `harness-desk init {self.root}` to create one.")
        return self

    def require_runnable(self) -> "Workspace":
        """require(), and what a run needs beyond it: not the whole disk, a board it may tick."""
        reason = forbidden_folder_reason(self.root)
        if reason:
            raise NotAWorkspace(reason)
        self.require()
        if is_read_only(self.board_path):
            raise NotAWorkspace(
                f"{BOARD_NAME} is read-only, so a run could not tick off finished tasks or add "
                f"questions for you. Make it writable (in its properties or with "
                f"`chmod u+w`), then run again.")
        return self

    def check_harness_dir(self) -> None:
        """Refuse a .harness that is a file, or that is (or holds) a link or junction where a
        record goes: records and new files must stay inside the workspace."""
        harness = self.harness_dir
        if os.path.lexists(harness) and not os.path.islink(harness) and not harness.is_dir():
            raise NotAWorkspace(f"{harness} is a file, but Harness Desk keeps its records in a "
                                "folder of that name. Rename or remove the file.")
        for path in [harness] + [harness / name for name in _RECORD_ENTRIES]:
            if os.path.lexists(path) and not _is_plain_child(path):
                raise NotAWorkspace(
                    f"{path} is a link, and Harness Desk keeps its records only in a real "
                    f"folder inside the workspace, never where a link leads. Remove the link, "
                    f"then run again.")

    def ensure_harness_dir(self) -> None:
        self.check_harness_dir()
        try:
            self.harness_dir.mkdir(parents=True, exist_ok=True)
            (self.harness_dir / "blobs").mkdir(exist_ok=True)
            self.runs_dir.mkdir(exist_ok=True)
            ignore = self.harness_dir / ".gitignore"
            if not ignore.exists():
                ignore.write_text("*\n", encoding="utf-8")
        except OSError as exc:
            if is_disk_full(exc):
                raise HarnessError(no_space_sentence(self.root, starting=True)) from exc
            if exc.errno in UNWRITABLE:
                raise HarnessError(unwritable_sentence(self.root)) from exc
            raise HarnessError(f"Could not create {HARNESS_DIR} in {self.root}: "
                               f"{exc.strerror or exc}.") from exc

    def clean_stale_temps(self) -> int:
        """Remove what a kill mid-save left of our temporary files: in the folder itself, the
        board's folder (when TASKS.md is a link), .harness and its records. Deeper folders
        are not searched (a folder of thousands opens fast); the AI never sees one anyway."""
        folders = [self.root, Path(os.path.realpath(self.board_path)).parent]
        if self.harness_dir.is_dir() and not os.path.islink(self.harness_dir):
            folders += [self.harness_dir, self.harness_dir / "blobs"]
            if self.runs_dir.is_dir() and not os.path.islink(self.runs_dir):
                for run in sorted(self.runs_dir.iterdir()):
                    if run.is_dir() and not run.is_symlink():
                        folders += [run, run / "undo"]
        # The temporary files made ahead for write steps (spare_files.py), whatever their
        # age: the folder's lock is held, so no run of another process is using them.
        removed = remove_stale_temps(self.harness_dir / SPARE_FOLDER, older_than_s=-1.0) \
            if self.harness_dir.is_dir() and not os.path.islink(self.harness_dir) else 0
        seen: set[str] = set()
        for folder in folders:
            key = os.path.normcase(os.path.realpath(folder))
            if key not in seen:
                seen.add(key)
                removed += remove_stale_temps(folder)
        return removed

    # -- runs ----------------------------------------------------------------------------
    def new_run_id(self) -> str:
        """A new id that sorts after every earlier run's (ids are compared by name)."""
        from datetime import datetime, timezone  # noqa: PLC0415 - `status` stays light: it makes no run ids

        latest = self.latest_run_id() or ""
        while True:
            now = datetime.now(timezone.utc)
            stamp = now.strftime("%Y%m%d-%H%M%S-") + f"{now.microsecond // 1000:03d}"
            if stamp > latest[: len(stamp)]:
                import secrets  # noqa: PLC0415 - `status` stays light

                return f"{stamp}-{secrets.token_hex(3)}"
            time.sleep(0.002)  # started in the same millisecond as the last run

    def run_ids(self) -> list[str]:
        """Run ids, oldest first (ids start with a UTC timestamp, so names sort by time)."""
        if not self.runs_dir.is_dir():
            return []
        return sorted(p.name for p in self.runs_dir.iterdir()
                      if p.is_dir() and RunFiles(p).run.exists())

    def latest_run_id(self) -> str | None:
        ids = self.run_ids()
        return ids[-1] if ids else None

    def lock(self) -> "RunLock":
        from app.core.workspace.run_lock import (  # noqa: PLC0415 - `status` stays light
            RunLock, outside_lock_path)

        self.check_harness_dir()
        return RunLock(self.lock_path, outside_lock_path(self.root))


class RunFiles(namedtuple("RunFiles", "dir")):
    """Where one run's records live: the only place these file names are spelled. (A named
    tuple: a dataclass or typing.NamedTuple would cost every light command their import.)"""

    __slots__ = ()
    dir: Path

    @property
    def run(self) -> Path:
        return self.dir / "run.json"

    @property
    def events(self) -> Path:
        return self.dir / "events.jsonl"

    @property
    def rounds(self) -> Path:
        return self.dir / "rounds.jsonl"

    def undo(self, round_no: int) -> Path:
        """The undo manifest of round `round_no` (written before the round's first change)."""
        return self.dir / "undo" / f"{int(round_no)}.json"

    def undone(self, round_no: int) -> Path:
        """What undoing round `round_no` did, written when the person undid it."""
        return self.dir / "undo" / f"{int(round_no)}.undone.json"


def init_workspace(root: Path | str, *, template: str | None = None,
                   make_folder: bool = True) -> tuple[Workspace, bool]:
    """Create the folder, TASKS.md from the template (if missing) and .harness/.

    `template`: the board's first text (board.template(lang); English when None).
    `make_folder`: False for a folder that should be there already (the window's open
    folder): if it is gone, FolderGone, and nothing is made.
    Returns the workspace and whether a board was created (an existing board is never touched).
    """
    from app.core.board.board import TEMPLATE  # noqa: PLC0415 - `status` stays light

    ws = Workspace(root)
    if ws.root.exists() and not ws.root.is_dir():
        raise NotAWorkspace(f"{ws.root} is a file, not a folder.")
    if not make_folder and not ws.root.is_dir():
        raise FolderGone("This folder is gone: it was moved or deleted.")
    try:
        if make_folder:
            ws.root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise HarnessError(f"Could not create {ws.root}: {exc.strerror or exc}.") from exc
    created = False
    if ws.board_path.is_dir():
        raise NotAWorkspace(f"{BOARD_NAME} in {ws.root} is a folder, not a file. Rename or "
                            "remove that folder, then run init again.")
    from app.core.board.lock import board_lock  # noqa: PLC0415 - `status` stays light

    with board_lock(ws.board_path):  # never over a board another writer of ours just made
        if not ws.board_path.exists():
            atomic_write_text(ws.board_path, TEMPLATE if template is None else template)
            created = True
    ws.ensure_harness_dir()
    return ws, created


# What Harness Desk writes inside .harness; each must be a plain entry, never a link.
_RECORD_ENTRIES = ("blobs", "runs", "plans", ".gitignore", "lock", "status.json",
                   "space-reserve")


def _is_plain_child(path: Path) -> bool:
    """True if `path` is really where it says: not a link or junction (dangling or not),
    and inside a parent that is not one either."""
    real = os.path.normcase(os.path.realpath(path))
    expected = os.path.normcase(os.path.join(os.path.realpath(path.parent), path.name))
    return real == expected


# -- folders a run should not be pointed at --------------------------------------------------

def forbidden_folder_reason(path: Path | str) -> str | None:
    """Why a run may never work on `path` (the whole system disk), or None."""
    real = _real(path)
    system_drive = os.environ.get("SystemDrive", "C:") + "\\" if sys.platform == "win32" else "/"
    if real == _real(system_drive):
        return (f"{real} is the whole disk, so Harness Desk will not work on it. Choose a "
                "folder that holds only the files for your tasks.")
    return None


def risky_folder_reason(path: Path | str) -> str | None:
    """Why pointing the agent at `path` deserves a second thought (a home folder, a folder of
    home folders, a system folder or a whole drive), or None for an ordinary folder.

    The CLI asks before running (`--yes` skips the question); the window shows it in a dialog."""
    real = _real(path)
    home = _real(Path.home())
    if real == home:
        return (f"{real} is your home folder: the AI could read and change everything in it, "
                "your documents and settings included.")
    if real.parent == real:
        return f"{real} is a whole drive: the AI could read and change everything on it."
    if home.is_relative_to(real):
        return (f"{real} holds the home folders of the people on this computer: the AI could "
                "read and change everything in them.")
    if real.is_relative_to(home):
        return None
    trees, tops = _system_folders()
    if real in tops or any(real.is_relative_to(tree) for tree in trees):
        return (f"{real} is a system folder: the AI could read and change files this "
                "computer needs to work.")
    return None


def _real(path: Path | str) -> Path:
    return Path(os.path.realpath(Path(path).expanduser()))


def _system_folders() -> tuple[list[Path], list[Path]]:
    """(folders risky with everything inside, folders risky only themselves). /var, /opt and
    the like hold people's own projects too (/var/www/site), so only their top is flagged."""
    if sys.platform == "win32":
        names = [os.environ.get(v) for v in ("SystemRoot", "ProgramFiles", "ProgramFiles(x86)",
                                             "ProgramW6432")]
        return [_real(n) for n in names if n], [_real(n) for n in
                                                 [os.environ.get("ProgramData")] if n]
    trees = ["/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/proc", "/run",
             "/sbin", "/sys", "/usr", "/System", "/Library", "/Applications", "/cores"]
    tops = ["/var", "/opt", "/srv", "/snap", "/private", "/mnt", "/media", "/Volumes", "/tmp"]
    return [_real(n) for n in trees], [_real(n) for n in tops]


def pid_alive(pid: int | None) -> bool:
    """Whether a process with this id is running (a best guess: ids are reused)."""
    if not pid:
        return False
    if sys.platform == "win32":
        return _windows_pid_alive(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


def _windows_pid_alive(pid: int) -> bool:
    # Never os.kill on Windows: with any signal but CTRL_C/CTRL_BREAK it terminates the process.
    import ctypes  # noqa: PLC0415 - Windows only

    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    handle = kernel32.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
    if not handle:
        # Windows only (mypy checks the code as on Linux): access denied, so it exists.
        return bool(ctypes.get_last_error() == 5)  # type: ignore[attr-defined]
    try:
        code = ctypes.c_ulong()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return True
        return code.value == 259  # STILL_ACTIVE
    finally:
        kernel32.CloseHandle(handle)
