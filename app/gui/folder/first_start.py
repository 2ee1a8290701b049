"""Which folder the window opens on: the one asked for, the last one, or a copy of the demo.

A copy of the bundled demo workspace is made in the app's data folder the first time; a copy
the person (or a run) has changed is never wiped: asking for a fresh demo then makes a new
copy beside it. Nothing here imports Qt, so the terminal demo uses the same rules.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from platformdirs import user_data_dir

from app.core.places import CONFIG_ENV, config_dir  # not settings: no pydantic
from app.core.resources import resource_path

if TYPE_CHECKING:
    from app.core.settings import Settings

DEMO_FOLDER = "Demo workspace"
# The same bakery story for each window language: its bundled folder and its copies' name.
DEMO_SOURCES = {"en": "demo-workspace", "zh_CN": "demo-workspace-zh"}
DEMO_FOLDERS = {"en": DEMO_FOLDER, "zh_CN": "演示工作区"}
# The terminal demo's own copy, so a window opened after it still finds "Demo workspace"
# untouched (and does not open "Demo workspace 2").
TERMINAL_DEMO_FOLDER = "Demo workspace (terminal)"
MAX_RECENT = 8


def data_dir() -> Path:
    if os.environ.get(CONFIG_ENV):  # tests and portable installs: one folder for everything
        return config_dir()

    return Path(user_data_dir("harness-desk", appauthor=False))


def bundled_demo(lang: str = "en") -> Path:
    return resource_path(DEMO_SOURCES.get(lang, DEMO_SOURCES["en"]))


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
    return mine is not None and any(mine == _tree(bundled_demo(lang)) for lang in DEMO_SOURCES)


def demo_copies(lang: str = "en") -> list[Path]:
    base = data_dir()
    if not base.is_dir():
        return []
    name = DEMO_FOLDERS.get(lang, DEMO_FOLDER)
    found = [p for p in base.iterdir() if p.is_dir() and p.name.startswith(name)]
    return sorted(found, key=lambda p: (len(p.name), p.name))


def demo_copy(fresh: bool, lang: str = "en", name: str | None = None) -> Path:
    """A copy of the demo workspace, in the window's language ("en" or "zh_CN"). `fresh`: one
    nobody has run or edited (an untouched existing copy is reused, else a new one is made
    beside the others); otherwise the first existing copy, as it was left, or a new one.
    `name`: the copies' own name (the terminal demo keeps apart from the window's)."""
    lang = lang if lang in DEMO_SOURCES else "en"
    own = name is not None
    name = name or DEMO_FOLDERS[lang]
    copies = [p for p in demo_copies(lang)
              if (p.name == name or p.name.startswith(name + " ")) and
              (own or not p.name.startswith(TERMINAL_DEMO_FOLDER))]
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
        target = base / (name if n == 1 else f"{name} {n}")
        if not target.exists():
            break
        n += 1
    shutil.copytree(bundled_demo(lang), target)
    return target


def is_demo_copy(folder: Path) -> bool:
    try:
        return folder.resolve().parent == data_dir().resolve() and \
            any(folder.name.startswith(name) for name in DEMO_FOLDERS.values())
    except OSError:
        return False


def last_workspace(settings: Settings) -> Path | None:
    for text in settings.recent_workspaces:
        path = Path(text)
        if path.is_dir():
            return path
    return None


def start_folder(path: str | None, settings: Settings, *, demo: bool = False,
                 lang: str = "en") -> Path | None:
    """The folder to open at start: the one given; a fresh demo copy when asked; else the last
    workspace; on the very first start a copy of the demo (in the window's language, `lang`);
    None shows the welcome page."""
    if path:
        given = Path(path).expanduser()
        return given.parent if given.is_file() else given
    if demo:
        return demo_copy(fresh=True, lang=lang)
    last = last_workspace(settings)
    if last is not None:
        return last
    if not settings.recent_workspaces:
        return demo_copy(fresh=False, lang=lang)
    return None


def early_folder(demo: bool, lang: str = "en") -> Path | None:
    """`start_folder`'s choice when no folder is named, made without the settings' model
    (pydantic, a few hundred milliseconds), so the window can open it as it opens a named
    one (app.py): a fresh demo copy for --demo, else the last folder still there, or on the
    very first start (no settings file, no recent folders) a demo copy, in `lang`. None
    where the settings' load decides: none of the recent folders is there (the welcome
    page), or a settings file this cannot read. Disk work: call it off the UI thread."""
    if demo:
        return demo_copy(fresh=True, lang=lang)
    try:
        data = json.loads((config_dir() / "settings.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        data = {}
    except (OSError, ValueError):
        return None
    recent = data.get("recent_workspaces", []) if isinstance(data, dict) else None
    if not isinstance(recent, list) or not all(isinstance(text, str) for text in recent):
        return None
    for text in recent:
        if Path(text).is_dir():
            return Path(text)
    return None if recent else demo_copy(fresh=False, lang=lang)


def remembered(settings: Settings, folder: Path) -> Settings:
    """Settings with `folder` first among the recent workspaces (the last one opened)."""
    text = str(folder.resolve())
    recent = [text] + [r for r in settings.recent_workspaces if r != text]
    return settings.model_copy(update={"recent_workspaces": recent[:MAX_RECENT]})


def forgotten(settings: Settings, folder: str) -> Settings:
    recent = [r for r in settings.recent_workspaces if r != folder]
    return settings.model_copy(update={"recent_workspaces": recent})
