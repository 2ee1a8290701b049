"""The one path chokepoint: every file tool turns the agent's path into a real, confined path here."""

from __future__ import annotations

import os
import re
import stat
import sys
import unicodedata
from functools import lru_cache
from pathlib import Path

from app.core.clean_text import has_direction_control
from app.core.errors import HarnessError
from app.core.workspace.files import is_our_temp, is_read_only_mode, read_only_sentence

BOARD_NAME = "TASKS.md"
INSTRUCTIONS_NAME = "AGENTS.md"
MAX_PATH_CHARS = 1024

# Windows opens a device instead of a file for these names, whatever the extension or
# folder (`docs/NUL.txt` is the NUL device). Refused everywhere so a workspace stays portable.
_DEVICE_NAMES = frozenset(
    ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$", "CLOCK$"]
    + [f"COM{c}" for c in "123456789¹²³"]
    + [f"LPT{c}" for c in "123456789¹²³"]
)
_DRIVE = re.compile(r"^[A-Za-z]:")
# Control characters and line separators: never in a real file name, and they would break
# the one-line messages and event logs that echo the path.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_HIDDEN = ("a file name cannot contain invisible direction or control characters; choose a "
           "plain name")
_EXAMPLE = "use a path relative to the workspace folder, like 'notes/plan.md'"


class PathRefused(HarnessError):
    """The agent asked for a path it may not use. `.message` says why and what is allowed."""


def _visible(name: str) -> str:
    """The name without its invisible format characters (zero-width spaces, joiners, BOMs,
    direction marks: Unicode category Cf). ASCII has none (the first is U+00AD)."""
    if name.isascii():
        return name
    return "".join(ch for ch in name if unicodedata.category(ch) != "Cf")


def _show(rel: object) -> str:
    text = repr(rel) if not isinstance(rel, str) else _CONTROL.sub(
        lambda m: repr(m.group())[1:-1], rel)
    if isinstance(rel, str):  # invisible characters shown, so the sentence is not a riddle
        text = "".join(ch if unicodedata.category(ch) != "Cf" else f"\\u{ord(ch):04x}"
                       for ch in text)
    return text if len(text) <= 120 else text[:117] + "..."


def _is_hidden_name(name: str) -> bool:
    # Case-insensitive: on macOS and Windows `.GIT` *is* `.git`.
    low = name.lower()
    return low in (".harness", ".git") or low.startswith(".env")


# Where keys and passwords live. A person who points the app at their home folder (or a
# project holding a deploy key) never means the agent to read these, so they are off limits
# like .git: never read, written, listed or searched.
_SECRET_FOLDERS = frozenset([".ssh", ".aws", ".gnupg", ".azure", ".kube", ".docker",
                             ".password-store"])
_SECRET_FILES = frozenset([".netrc", "_netrc", ".pgpass", ".git-credentials", ".npmrc",
                           ".pypirc"])
_KEY_FILE_STEMS = ("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519")
_KEY_FILE_SUFFIXES = (".pem", ".key", ".p12", ".pfx", ".ppk", ".jks", ".keystore", ".kdbx")


def _is_secret_name(name: str) -> bool:
    low = name.lower()
    return (low in _SECRET_FOLDERS or low in _SECRET_FILES or low.endswith(_KEY_FILE_SUFFIXES)
            or any(low == s or low.startswith(s + ".") for s in _KEY_FILE_STEMS))


@lru_cache(maxsize=4096)
def _off_limits(name: str) -> bool:
    # Asked for every part of every path listed or searched: the same few names, again.
    # Our own temporary files (a save going on, or one a kill left) are not the person's work.
    return _is_hidden_name(name) or _is_secret_name(name) or is_our_temp(name)


class Sandbox:
    """Confines paths to one workspace folder. Decisions use only the path and the file
    system's own idea of where it leads, never what any file says."""

    def __init__(self, root: Path | str):
        # Resolved once, so a later swap of the root for a link cannot move the sandbox.
        self.root = Path(os.path.realpath(root))
        self._root_str = str(self.root)
        self._last_lexical: tuple[object, object, tuple[str, ...]] = ("", None, ())  # none yet

    # -- public --------------------------------------------------------------------------
    def resolve_read(self, rel: str) -> Path:
        """Real path of `rel` for reading or listing; the workspace root itself is allowed."""
        return self._resolve(rel, writing=False)

    def resolve_write(self, rel: str) -> Path:
        """Real path of `rel` for creating, replacing or deleting a file."""
        return self._resolve(rel, writing=True)

    def rel(self, path: Path | str) -> str:
        """Workspace-relative POSIX path ('.' for the root). ValueError if outside."""
        p = Path(path)
        if not p.is_absolute():
            p = self.root / p
        rel = p.relative_to(self.root)
        return rel.as_posix() if rel.parts else "."

    def rel_of_real(self, real: Path) -> str:
        """rel() of a path resolve_read or resolve_write returned, by its text (a write
        step's hot path: no path arithmetic)."""
        return self._real_rel(real)

    def _real_rel(self, real: Path) -> str:
        """self.rel of a path _walk made, by its text when it begins with the root's."""
        text, root = str(real), self._root_str
        if text == root:
            return "."
        prefix = root if root.endswith(os.sep) else root + os.sep
        if text.startswith(prefix):
            return text[len(prefix):].replace(os.sep, "/")
        return self.rel(real)

    def plain_entry(self, entry: os.DirEntry[str]) -> bool:
        """True if `entry`, listed in a real folder inside the workspace, can be used as it is,
        without resolving its path: an ordinary file or folder, not a link (nor, on Windows,
        a junction or other reparse point), with a name the rules allow. It is then inside
        the workspace by construction. False says only "resolve it": resolve_read decides.
        Listing and searching a folder of thousands of files rests on this."""
        try:
            if entry.is_symlink() or not (entry.is_file(follow_symlinks=False)
                                          or entry.is_dir(follow_symlinks=False)):
                return False
            if sys.platform == "win32" and (entry.stat(follow_symlinks=False).st_file_attributes
                                            & stat.FILE_ATTRIBUTE_REPARSE_POINT):
                return False
            self._check_names(entry.name, [entry.name], writing=False)
        except (OSError, PathRefused):
            return False
        return True

    def is_hidden(self, rel: str) -> bool:
        """True for anything inside .harness, .git, a .env* name or a place keys live (.ssh,
        key files...): never listed or searched."""
        parts = str(rel).replace("\\", "/").split("/")
        return any(_off_limits(p) for p in parts if p)

    # -- the checks ----------------------------------------------------------------------
    def _resolve(self, rel: str, writing: bool) -> Path:
        # The checks on the text alone are the same for the same text: a change resolves
        # its path twice (before and right after its pre-image), a read or list once.
        if self._last_lexical[:2] == (rel, writing):
            parts = list(self._last_lexical[2])
        else:
            parts = self._lexical(rel, writing)
            self._last_lexical = (rel, writing, tuple(parts))
        real = self._walk(rel, parts)
        # Re-check the *real* location: a link (or a Windows short name like GIT~1) may
        # lead somewhere the lexical path did not name.
        real_rel = self._real_rel(real)
        real_parts = [] if real_rel == "." else real_rel.split("/")
        if real_parts != parts:  # the same names passed _lexical's check already
            self._check_names(rel, real_parts, writing)
        try:  # one stat of the real path serves each check below (a write step's hot path)
            st: os.stat_result | None = os.stat(real)
        except OSError:
            st = None  # does not exist (yet)
        self._refuse_special_file(rel, st)
        if writing:
            if not real_parts:
                raise PathRefused(f"Refused '{_show(rel)}': that is the workspace folder itself; "
                                  f"{_EXAMPLE}.")
            self._refuse_board_alias(st)
            if st is not None and is_read_only_mode(st.st_mode):
                raise PathRefused(read_only_sentence("/".join(real_parts)))
        return real

    @staticmethod
    def _refuse_special_file(rel: str, st: os.stat_result | None) -> None:
        # Opening a named pipe blocks for ever and a device is not a document: only ordinary
        # files and folders are the person's work.
        if st is None:
            return  # does not exist (yet): creating an ordinary file is fine
        mode = st.st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            raise PathRefused(f"Refused '{_show(rel)}': it is a special file (a pipe, socket or "
                              "device), not an ordinary file; only ordinary files and folders "
                              "can be read or changed.")

    def _lexical(self, rel: str, writing: bool) -> list[str]:
        """Checks on the text of the path alone; returns its normalised components."""
        if not isinstance(rel, str):
            raise PathRefused(f"Refused {_show(rel)}: a path must be text; {_EXAMPLE}.")
        if "\x00" in rel:
            raise PathRefused(f"Refused a path containing a NUL character: {_HIDDEN}.")
        if not rel.strip():
            raise PathRefused(f"Refused an empty path; {_EXAMPLE}.")
        if len(rel) > MAX_PATH_CHARS:
            raise PathRefused(f"Refused a path of {len(rel)} characters; paths may be at most "
                              f"{MAX_PATH_CHARS} characters.")
        if rel.startswith(("\\\\", "//")):
            raise PathRefused(f"Refused '{_show(rel)}': network (UNC) and device paths are not "
                              f"allowed; {_EXAMPLE}.")
        if rel.startswith(("/", "\\")) or _DRIVE.match(rel):
            raise PathRefused(f"Refused '{_show(rel)}': absolute paths are not allowed; "
                              f"{_EXAMPLE}.")
        if _CONTROL.search(rel) or has_direction_control(rel):
            # A direction control shows `invoice\u202efdp.bat` as "invoicetab.pdf": the
            # person would see another name, and another kind of file, than is there.
            raise PathRefused(f"Refused '{_show(rel)}': {_HIDDEN}.")
        raw = rel.replace("\\", "/").split("/")
        if raw[0] == "~":
            raise PathRefused(f"Refused '{_show(rel)}': '~' (the home folder) is outside the "
                              f"workspace; {_EXAMPLE}.")
        parts: list[str] = []
        for comp in raw:
            if comp in ("", "."):
                continue
            if comp == "..":
                # Resolved on the text, before any link is followed, so `link/..` cannot mean
                # "the folder above the link's target".
                if not parts:
                    raise PathRefused(f"Refused '{_show(rel)}': it leads outside the workspace; "
                                      f"{_EXAMPLE}.")
                parts.pop()
                continue
            parts.append(comp)
        self._check_names(rel, parts, writing)
        return parts

    def _check_names(self, rel: str, parts: list[str], writing: bool) -> None:
        self._refuse_look_alikes(rel, parts, writing)
        for comp in parts:
            if ":" in comp:
                raise PathRefused(f"Refused '{_show(rel)}': ':' is not allowed in file names "
                                  f"(it names a Windows drive or data stream); {_EXAMPLE}.")
            # Windows drops trailing dots and spaces, so `TASKS.md.` would be TASKS.md and
            # `CON .txt` the console.
            if comp != comp.rstrip(". "):
                raise PathRefused(f"Refused '{_show(rel)}': file and folder names may not end "
                                  f"with a dot or a space; {_EXAMPLE}.")
            stem = comp.split(".", 1)[0].rstrip(" ").upper()
            if stem in _DEVICE_NAMES:
                raise PathRefused(f"Refused '{_show(rel)}': '{comp}' is a reserved Windows "
                                  f"device name; choose another name.")
            if _is_hidden_name(comp):
                raise PathRefused(f"Refused '{_show(rel)}': .harness, .git and .env files are "
                                  f"off limits; work with the other files in the workspace.")
            if _is_secret_name(comp):
                raise PathRefused(f"Refused '{_show(rel)}': it looks like a place for keys or "
                                  "passwords (.ssh, .aws, .gnupg, key files), which is off "
                                  "limits; work with the other files in the workspace.")
        if writing and len(parts) == 1 and parts[0].lower() == BOARD_NAME.lower():
            raise PathRefused(_BOARD_ONLY)
        if writing and len(parts) == 1 and parts[0].lower() == INSTRUCTIONS_NAME.lower():
            raise PathRefused(_INSTRUCTIONS_ONLY)

    def _refuse_look_alikes(self, rel: str, parts: list[str], writing: bool) -> None:
        """A name that is a protected one plus invisible (format, Unicode Cf) characters, like
        a decoy `TASKS.md` with a zero-width space, would pass for the real file."""
        for i, comp in enumerate(parts):
            visible = _visible(comp)
            if visible == comp or not visible:
                continue
            try:
                self._check_names(rel, parts[:i] + [visible] + parts[i + 1:], writing)
            except PathRefused:
                raise PathRefused(
                    f"Refused '{_show(rel)}': it differs from a protected name ({visible}) only "
                    "by invisible characters, so it would pass for that file; choose a plain "
                    "name.") from None

    def _walk(self, rel: str, parts: list[str]) -> Path:
        """Follow the path one component at a time from the real root, resolving each link."""
        if os.name == "posix":
            # One lstat a component: an entry that is no link, in a real folder, is its own
            # real path there (POSIX's realpath only follows links), so only a link needs
            # the full walk from where it is. Windows's realpath also spells out short names
            # (GIT~1) and case, so it is asked of every component there.
            cur_str = self._root_str
            for i, comp in enumerate(parts):
                nxt = os.path.join(cur_str, comp)
                try:
                    mode = os.lstat(nxt).st_mode
                except (OSError, ValueError):
                    return Path(cur_str).joinpath(*parts[i:])  # new: cur_str is real
                if stat.S_ISLNK(mode):
                    return self._walk_from(rel, parts, i, Path(cur_str))
                cur_str = nxt
            return Path(cur_str)
        return self._walk_from(rel, parts, 0, self.root)

    def _walk_from(self, rel: str, parts: list[str], start: int, cur: Path) -> Path:
        """_walk from parts[start], `cur` the real folder it is in."""
        for i in range(start, len(parts)):
            comp = parts[i]
            nxt = cur / comp
            if not os.path.lexists(nxt):
                # New file or folder: the deepest existing ancestor is `cur`, already real.
                return cur.joinpath(*parts[i:])
            if not os.path.exists(nxt):
                # lexists but not exists: a dangling link or junction.
                raise PathRefused(f"Refused '{_show(rel)}': '{comp}' is a link to something that "
                                  f"does not exist; {_EXAMPLE}.")
            real = Path(os.path.realpath(nxt))
            if not self._inside(real):
                raise PathRefused(f"Refused '{_show(rel)}': it is a link that leads outside the "
                                  f"workspace; only files inside the workspace can be used.")
            cur = real
        return cur

    def _inside(self, real: Path) -> bool:
        try:
            return os.path.commonpath([self._root_str, str(real)]) == self._root_str
        except ValueError:  # different drives on Windows
            return False

    def _refuse_board_alias(self, st: os.stat_result | None) -> None:
        # A hard link or a case-insensitive spelling would reach the board, or the person's
        # standing instructions, under another name. `st`: os.stat of the real path (None if
        # nothing is there); compared as os.path.samefile does.
        if st is None:
            return
        for name, message in ((BOARD_NAME, _BOARD_ONLY), (INSTRUCTIONS_NAME, _INSTRUCTIONS_ONLY)):
            try:
                same = os.path.samestat(st, os.stat(os.path.join(self._root_str, name)))
            except OSError:
                same = False
            if same:
                raise PathRefused(message)


_BOARD_ONLY = "TASKS.md can only be changed with complete_task or ask_human."
# The agent writing AGENTS.md would give its own words the person's authority in every later
# round and run, so only the person changes it.
_INSTRUCTIONS_ONLY = ("AGENTS.md holds the person's standing instructions; only the person can "
                      "change it.")
