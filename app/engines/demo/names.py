"""The Demo engine's view of file names: which files a task names (whole, spaces and all),
and which of them exist, known only from list_files results it asked for itself."""

from __future__ import annotations

import re

_EXTS = r"(?:md|txt|csv|html|json|docx|xlsx)"
# A name in quotes or backticks is taken whole, spaces and all ("`guest list.md`").
_QUOTED = re.compile(r"[`\"“'‘]([^`\"“”'‘’\n]{1,200}?\." + _EXTS + r")[`\"”'’]")
# A run of path characters, then the last known extension inside it. Two steps, not one
# pattern: `[\w\-./]+\.(?:md|…)\b` backtracks from every start and took 100 s on a
# 100,000-character task; these are linear.
_PATH_RUN = re.compile(r"[\w\-./]+")
_LAST_EXT = re.compile(r".*\." + _EXTS + r"\b", re.DOTALL)


def named_paths(texts: list[str]) -> list[str]:
    """Every file the texts name, in order, once each (never the board itself)."""
    found: list[str] = []
    for text in texts:
        for match in _QUOTED.finditer(text):
            found.append(match.group(1).strip())
        unquoted = _QUOTED.sub(" ", text)
        for run in _PATH_RUN.finditer(unquoted):
            last = _LAST_EXT.match(run.group(0))
            if last is not None:
                found.append(last.group(0))
    out: list[str] = []
    for path in found:
        path = path.removeprefix("./")
        if path.lower() == "tasks.md" or path.lower().endswith("/tasks.md") or path in out:
            continue
        out.append(path)
    return out


def parent(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else "."


def ancestors(path: str) -> list[str]:
    """The folders above a path, from the top: "a/b/c.md" → [".", "a", "a/b"]."""
    parts = path.split("/")[:-1]
    return ["."] + ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]


def entries(listing: str) -> set[str]:
    """The names in a list_files result: files as they are, folders ending in "/"."""
    names = set()
    for line in listing.splitlines()[1:]:
        if line.startswith("... ") or not line.strip():
            continue
        names.add(line if line.endswith("/") else line.rsplit("  (", 1)[0])
    return names


def known_folder(folder: str, listings: dict[str, set[str]]) -> bool | None:
    """Whether a folder exists: True, False, or None (its parent has not been listed yet)."""
    if folder == ".":
        return True
    above = listings.get(parent(folder))
    if above is None:
        return None
    return folder.rsplit("/", 1)[-1] + "/" in above


def exists(path: str, listings: dict[str, set[str]]) -> bool | None:
    """Whether a file exists, from the listings: True, False, or None (not listed yet)."""
    for folder in ancestors(path):
        known = known_folder(folder, listings)
        if known is not True:
            return known
    here = listings.get(parent(path))
    return None if here is None else path.rsplit("/", 1)[-1] in here


def whole_name(path: str, listings: dict[str, set[str]], texts: list[str]) -> str:
    """A name cut at a space ("list.md" of "guest list.md") made whole again: the longest
    listed file of the same folder that ends with " " + the name and that the texts name."""
    here = listings.get(parent(path))
    if not here:
        return path
    base = path.rsplit("/", 1)[-1]
    prefix = "" if parent(path) == "." else parent(path) + "/"
    joined = "\n".join(texts)
    longer = [prefix + e for e in here if e.endswith(" " + base) and prefix + e in joined]
    return max(longer, key=len) if longer else path
