"""The workspace on disk: where things live under .harness/, the run lock, and `init`."""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from app.core.errors import HarnessError, NotAWorkspace, WorkspaceLocked

BOARD_NAME = "TASKS.md"
HARNESS_DIR = ".harness"
ACQUIRE_TIMEOUT_S = 0.5


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
    def runs_dir(self) -> Path:
        return self.harness_dir / "runs"

    def run_dir(self, run_id: str) -> Path:
        return self.runs_dir / run_id

    def run_files(self, run_id: str) -> "RunFiles":
        return RunFiles(self.run_dir(run_id))

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

    def ensure_harness_dir(self) -> None:
        if self.harness_dir.exists() and not self.harness_dir.is_dir():
            raise HarnessError(f"{self.harness_dir} is a file, but Harness Desk keeps its records "
                               f"in a folder of that name. Rename or remove the file.")
        try:
            self.harness_dir.mkdir(parents=True, exist_ok=True)
            (self.harness_dir / "blobs").mkdir(exist_ok=True)
            self.runs_dir.mkdir(exist_ok=True)
            ignore = self.harness_dir / ".gitignore"
            if not ignore.exists():
                ignore.write_text("*\n", encoding="utf-8")
        except OSError as exc:
            raise HarnessError(f"Could not create {HARNESS_DIR} in {self.root}: "
                               f"{exc.strerror or exc}.") from exc

    # -- runs ----------------------------------------------------------------------------
    def new_run_id(self) -> str:
        """A new id that sorts after every earlier run's (ids are compared by name)."""
        latest = self.latest_run_id() or ""
        while True:
            now = datetime.now(timezone.utc)
            stamp = now.strftime("%Y%m%d-%H%M%S-") + f"{now.microsecond // 1000:03d}"
            if stamp > latest[: len(stamp)]:
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
        return RunLock(self.lock_path)


@dataclass(frozen=True)
class RunFiles:
    """Where one run's records live: the only place these file names are spelled."""

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


class RunLock:
    """One run per workspace, held through an OS file lock that dies with the process."""

    def __init__(self, path: Path):
        from filelock import FileLock

        self.path = path
        self._lock = FileLock(str(path), timeout=0)

    def acquire(self) -> None:
        from filelock import Timeout

        try:
            # `status` and `watch` probe the lock by holding it for microseconds; a short
            # patient acquire rides over a probe, while a real run still refuses in ~0.5 s.
            self._lock.acquire(timeout=ACQUIRE_TIMEOUT_S, poll_interval=0.005)
        except Timeout:
            raise WorkspaceLocked(
                "Another run is already working in this folder. "
                "Wait for it to finish or stop it first.") from None
        except OSError as exc:
            raise HarnessError(f"Could not lock the workspace: {exc.strerror or exc}.") from exc

    def release(self) -> None:
        self._lock.release()

    def is_held_elsewhere(self) -> bool:
        """True if some process holds the lock now (used by `status` and `watch`)."""
        from filelock import FileLock, Timeout

        if not self.path.exists():
            return False
        probe = FileLock(str(self.path), timeout=0)
        try:
            probe.acquire(timeout=0)
        except Timeout:
            return True
        except OSError:
            return False
        probe.release()
        return False

    def __enter__(self) -> "RunLock":
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()


def init_workspace(root: Path | str) -> tuple[Workspace, bool]:
    """Create the folder, TASKS.md from the template (if missing) and .harness/.

    Returns the workspace and whether a board was created (an existing board is never touched).
    """
    from app.core.board import TEMPLATE
    from app.core.files import atomic_write_text

    ws = Workspace(root)
    if ws.root.exists() and not ws.root.is_dir():
        raise NotAWorkspace(f"{ws.root} is a file, not a folder.")
    try:
        ws.root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise HarnessError(f"Could not create {ws.root}: {exc.strerror or exc}.") from exc
    created = False
    if ws.board_path.is_dir():
        raise NotAWorkspace(f"{BOARD_NAME} in {ws.root} is a folder, not a file. Rename or "
                            "remove that folder, then run init again.")
    if not ws.board_path.exists():
        atomic_write_text(ws.board_path, TEMPLATE)
        created = True
    ws.ensure_harness_dir()
    return ws, created


def pid_alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True
