"""Which folder the window opens on: the one asked for, the last one, or a copy of the demo.

A copy of the bundled demo workspace is made in the app's data folder the first time; a copy
the person (or a run) has changed is never wiped: asking for a fresh demo then makes a new
copy beside it. Nothing here imports Qt, so the terminal demo uses the same rules.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from typing import TYPE_CHECKING

from app.core.resources import resource_path

if TYPE_CHECKING:
    from app.core.settings import Settings

DEMO_FOLDER = "Demo workspace"
MAX_RECENT = 8


def data_dir() -> Path:
    from app.core.settings import CONFIG_ENV, config_dir

    if os.environ.get(CONFIG_ENV):  # tests and portable installs: one folder for everything
        return config_dir()
    from platformdirs import user_data_dir

    return Path(user_data_dir("harness-desk", appauthor=False))


def bundled_demo() -> Path:
    return resource_path("demo-workspace")


def _tree(root: Path) -> dict[str, bytes] | None:
    """Every file under root by relative path, or None if it cannot be read."""
    out: dict[str, bytes] = {}
    try:
        for path in sorted(root.rglob("*")):
            if path.is_file() or path.is_symlink():
                out[path.relative_to(root).as_posix()] = path.read_bytes()
    except OSError:
        return None
    return out


def is_pristine_demo(folder: Path) -> bool:
    """True when the folder is exactly the bundled demo: never run, never edited."""
    if not folder.is_dir() or (folder / ".harness").exists():
        return False
    mine = _tree(folder)
    return mine is not None and mine == _tree(bundled_demo())


def demo_copies() -> list[Path]:
    base = data_dir()
    if not base.is_dir():
        return []
    found = [p for p in base.iterdir() if p.is_dir() and p.name.startswith(DEMO_FOLDER)]
    return sorted(found, key=lambda p: (len(p.name), p.name))


def demo_copy(fresh: bool) -> Path:
    """A copy of the demo workspace. `fresh`: one nobody has run or edited (an untouched
    existing copy is reused, else a new one is made beside the others); otherwise the first
    existing copy, as it was left, or a new one."""
    copies = demo_copies()
    if fresh:
        untouched = next((p for p in copies if is_pristine_demo(p)), None)
        if untouched is not None:
            return untouched
    elif copies:
        return copies[0]
    base = data_dir()
    base.mkdir(parents=True, exist_ok=True)
    n = 1
    while True:
        target = base / (DEMO_FOLDER if n == 1 else f"{DEMO_FOLDER} {n}")
        if not target.exists():
            break
        n += 1
    shutil.copytree(bundled_demo(), target)
    return target


def is_demo_copy(folder: Path) -> bool:
    try:
        return folder.resolve().parent == data_dir().resolve() and \
            folder.name.startswith(DEMO_FOLDER)
    except OSError:
        return False


def last_workspace(settings: Settings) -> Path | None:
    for text in settings.recent_workspaces:
        path = Path(text)
        if path.is_dir():
            return path
    return None


def start_folder(path: str | None, settings: Settings, *, demo: bool = False) -> Path | None:
    """The folder to open at start: the one given; a fresh demo copy when asked; else the last
    workspace; on the very first start a copy of the demo; None shows the welcome page."""
    if path:
        given = Path(path).expanduser()
        return given.parent if given.is_file() else given
    if demo:
        return demo_copy(fresh=True)
    last = last_workspace(settings)
    if last is not None:
        return last
    if not settings.recent_workspaces:
        return demo_copy(fresh=False)
    return None


def remembered(settings: Settings, folder: Path) -> Settings:
    """Settings with `folder` first among the recent workspaces (the last one opened)."""
    text = str(folder.resolve())
    recent = [text] + [r for r in settings.recent_workspaces if r != text]
    return settings.model_copy(update={"recent_workspaces": recent[:MAX_RECENT]})


def forgotten(settings: Settings, folder: str) -> Settings:
    recent = [r for r in settings.recent_workspaces if r != folder]
    return settings.model_copy(update={"recent_workspaces": recent})
