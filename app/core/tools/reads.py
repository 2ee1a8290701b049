"""The ToolBox's reading tools: list_files, read_file (text, documents as Markdown, pictures)
and search_files, bounded and through the sandbox. A mixin of ToolBox (tools.py), which
dispatches the calls; nothing here changes a file."""

from __future__ import annotations

import io
import os
import threading
import time
from pathlib import Path
from typing import Iterator

from app.core.tools.document_cache import RENDERINGS
from app.core.documents.word_escape import unescaped
from app.core.documents import (SECTION_HEADINGS, DocumentError, is_document, kind_of,
                                render_document)
from app.core.workspace.files import bounded_lines
from app.core.tools.pictures import PictureError, is_picture, read_picture, unshown_sentence
from app.core.tools.sandbox import MAX_PATH_CHARS, PathRefused, Sandbox
from app.core.tools.outcome import Fail as _Fail
from app.core.tools.outcome import Refuse as _Refuse
from app.core.tools.outcome import ToolOutcome
from app.core.tools.specs import (BINARY_SNIFF, MAX_LIST_ENTRIES, MAX_MATCH_CHARS, MAX_READ_CHARS,
                                 MAX_READ_LINES, MAX_SEARCH_FILE_BYTES, MAX_SEARCH_FILES,
                                 MAX_SEARCH_MATCHES, MAX_SEARCH_SECONDS)


class ReadingTools:
    """Needs `sandbox` (a Sandbox) and `cancel` (the person's Stop, which ends a document
    being read). Documents' renderings are kept for the run (document_cache.RENDERINGS)."""

    sandbox: Sandbox
    cancel: threading.Event | None

    def _list_files(self, path: str = ".") -> ToolOutcome:
        folder = self.sandbox.resolve_read(path or ".")  # "" from a model means the workspace
        rel = self.sandbox.rel(folder)
        if not folder.exists():
            raise _Fail(f"There is no folder '{rel}'. Use list_files with path '.' to see the "
                        "workspace.")
        if not folder.is_dir():
            raise _Fail(f"'{rel}' is a file, not a folder; use read_file to read it.")
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: (e.name.lower(), e.name))
        lines = []
        for entry in entries:
            child = entry.name if rel == "." else f"{rel}/{entry.name}"
            if self.sandbox.is_hidden(child):
                continue
            try:
                if not self.sandbox.plain_entry(entry):
                    self.sandbox.resolve_read(child)  # a link leading outside: shown, not followed
            except PathRefused:
                lines.append(f"{entry.name}  (not usable: a link outside or to nothing, or a "
                             "reserved name)")
                continue
            if entry.is_dir():
                lines.append(entry.name + "/")
            else:
                lines.append(f"{entry.name}  ({entry.stat().st_size:,} bytes)")
        if not lines:
            return ToolOutcome(f"Folder '{rel}' is empty.")
        count = f"{len(lines)} {'entry' if len(lines) == 1 else 'entries'}"
        shown = [f"Folder '{rel}': {count}.", *lines[:MAX_LIST_ENTRIES]]
        if len(lines) > MAX_LIST_ENTRIES:
            shown.append(f"... {len(lines) - MAX_LIST_ENTRIES} more")
        return ToolOutcome("\n".join(shown))

    def _text_file(self, path: str) -> tuple[Path, str]:
        target = self.sandbox.resolve_read(path)
        rel = self.sandbox.rel(target)
        if not target.exists():
            raise _Fail(f"There is no file '{rel}'. Use list_files or search_files to find it.")
        if target.is_dir():
            raise _Fail(f"'{rel}' is a folder; use list_files to see what is in it.")
        return target, rel

    def _read_file(self, path: str, offset: int = 1, limit: int = MAX_READ_LINES) -> ToolOutcome:
        target, rel = self._text_file(path)
        if offset < 1 or limit < 1:
            raise _Refuse("offset and limit must be 1 or more (offset is a 1-based line number).")
        limit = min(limit, MAX_READ_LINES)
        if is_picture(rel):
            return _picture_outcome(target, rel)
        if unshown_sentence(rel):
            raise _Fail(unshown_sentence(rel))
        out: list[str] = []
        chars, total, more, cut = 0, 0, False, ""
        document = is_document(target)
        shown = f"'{rel}' ({kind_of(target)} shown as Markdown)" if document else f"'{rel}'"
        with (io.BytesIO(self._rendering(target).encode("utf-8")) if document
              else open(target, "rb")) as fh:
            if not document and _is_binary(fh.read(BINARY_SNIFF)):
                raise _Fail(_binary_message(rel))
            fh.seek(0)
            # Lines are read with a bound (4 bytes per character shown, at most), so a file
            # that is one endless line is never held in memory.
            for n, (raw, long) in enumerate(bounded_lines(fh, MAX_READ_CHARS * 4 + 2), 1):
                total = n
                if n < offset:
                    continue
                if len(out) >= limit or chars >= MAX_READ_CHARS:
                    more = True
                    break
                try:
                    line = raw.decode("utf-8").rstrip("\r\n")
                except UnicodeDecodeError as exc:
                    if not (long and exc.start >= len(raw) - 3):
                        raise _Fail(_binary_message(rel)) from None
                    line = raw[:exc.start].decode("utf-8")  # cut inside a character
                if n == 1:
                    line = line.lstrip("\ufeff")  # the byte-order mark is not text to edit
                if long or chars + len(line) > MAX_READ_CHARS:
                    if out:
                        more = True
                        break
                    cut = (f" Line {n} is longer than {MAX_READ_CHARS:,} characters; only its "
                           "start is shown.")
                    line = line[:MAX_READ_CHARS]
                out.append(f"{n}\t{line}")
                chars += len(line) + 1
        if total == 0:
            return ToolOutcome(f"'{rel}' is empty (0 bytes).")
        if not out:
            raise _Fail(f"'{rel}' has {total} lines; offset {offset} is past the end.")
        last = offset + len(out) - 1
        note = (f"[Lines {offset}-{last} of {shown}. The file continues: call read_file with "
                f"offset={last + 1} to read more.]" if more
                else f"[Lines {offset}-{last} of {shown} ({last} lines in all).]")
        return ToolOutcome("\n".join(out) + "\n" + note + cut)

    def _rendering(self, target: Path) -> str:
        """A document's Markdown, kept while the file is unchanged, so paging through it
        with offset, or searching it again, does not parse it again."""
        try:
            return RENDERINGS.rendering(target, lambda: render_document(target,
                                                                        cancel=self.cancel))
        except DocumentError as exc:
            raise _Fail(exc.message) from None

    def _search_files(self, query: str, path: str | None = None) -> ToolOutcome:
        if not query.strip():
            raise _Refuse("query must not be empty; give the text to look for.")
        start = self.sandbox.resolve_read(path or ".")
        if not start.exists():
            raise _Fail(f"There is no file or folder '{self.sandbox.rel(start)}' to search.")
        needle = query.casefold()
        hits: list[str] = []
        scanned = 0
        deadline = time.monotonic() + MAX_SEARCH_SECONDS
        for rel in self._walk(start):
            scanned += 1
            if scanned > MAX_SEARCH_FILES:
                hits.append(f"... stopped after {MAX_SEARCH_FILES:,} files; give a path to "
                            "search a smaller folder.")
                break
            if self.cancel is not None and self.cancel.is_set():
                hits.append("... stopped: the run was stopped.")
                break
            if is_document(rel) and time.monotonic() > deadline:
                hits.append(f"... stopped after {MAX_SEARCH_SECONDS} seconds of reading "
                            "documents; give a path to search a smaller folder.")
                break
            for n, line, section in _lines_with(self.sandbox.root / rel, needle, deadline,
                                                self.cancel):
                if len(hits) == MAX_SEARCH_MATCHES:
                    hits.append(f"... more matches not shown (limit {MAX_SEARCH_MATCHES}); "
                                "use a longer query or a path to narrow the search.")
                    return ToolOutcome("\n".join(hits))
                text = line.strip()
                if len(text) > MAX_MATCH_CHARS:
                    text = text[:MAX_MATCH_CHARS] + "..."
                hits.append(f"{rel}:{n}{f' ({section})' if section else ''}: {text}")
        if not hits:
            return ToolOutcome(f"No lines contain {query[:200]!r}.")
        return ToolOutcome("\n".join(hits))

    def _walk(self, start: Path) -> Iterator[str]:
        """Workspace-relative paths of searchable files under `start`, in a stable order."""
        if start.is_file():
            yield self.sandbox.rel(start)
            return
        # Depth first with a stack of our own, not os.walk, which recurses and fails on
        # folders nested deeper than Python's recursion limit. Folder links are not followed;
        # folders whose paths grow past what the sandbox accepts are not entered. A folder
        # reached from `start` through plain entries only is real, so its plain files need no
        # resolving (Sandbox.plain_entry); anything else is resolved, file by file.
        stack = [(self.sandbox.rel(start), True)]
        while stack:
            base, real_folder = stack.pop()
            prefix = "" if base == "." else base + "/"
            try:
                with os.scandir(self.sandbox.root / base) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError:
                continue  # unreadable or gone since it was listed
            folders = []
            for entry in entries:
                rel = prefix + entry.name
                if self.sandbox.is_hidden(rel):
                    continue
                plain = real_folder and self.sandbox.plain_entry(entry)
                if entry.is_dir(follow_symlinks=False):
                    if len(rel) < MAX_PATH_CHARS:
                        folders.append((rel, plain))
                    continue
                if plain:
                    try:
                        small = entry.stat(follow_symlinks=False).st_size <= MAX_SEARCH_FILE_BYTES
                    except OSError:
                        continue  # gone since it was listed
                    if small:
                        yield rel
                    continue
                try:
                    real = self.sandbox.resolve_read(rel)
                except PathRefused:
                    continue  # a link leading outside, or a name the sandbox refuses
                if real.is_file() and real.stat().st_size <= MAX_SEARCH_FILE_BYTES:
                    yield self.sandbox.rel(real)
            stack.extend(reversed(folders))


def _is_binary(head: bytes) -> bool:
    return b"\x00" in head[:BINARY_SNIFF]


def _picture_outcome(target: Path, rel: str) -> ToolOutcome:
    try:
        picture = read_picture(target, rel)
    except PictureError as exc:
        raise _Fail(str(exc)) from None
    return ToolOutcome(picture.seen_sentence(), pictures=[picture])


def _binary_message(rel: str) -> str:
    return (f"'{rel}' is not a text file (it looks binary), so it cannot be read or edited as "
            "text. Work with text files such as .md, .txt, .html or .csv.")


def _lines_with(path: Path, needle: str, deadline: float,
                cancel: threading.Event | None = None) -> Iterator[tuple[int, str, str]]:
    """(line number, text, section) of each line of a UTF-8 text file, or of a document's
    rendering (read within the search's time left), that holds `needle` (casefolded);
    nothing for binary or unreadable files."""
    if is_document(path):
        yield from _document_lines(path, needle, deadline, cancel)
        return
    try:
        raw = path.read_bytes()
        if _is_binary(raw):
            return
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return
    # Case folding maps each character on its own, so a line holds the needle only if the
    # whole text does: most files are ruled out in one pass, without a fold per line.
    if needle not in text.casefold():
        return
    for n, line in enumerate(text.splitlines(), 1):
        if needle in line.casefold():
            yield n, line, ""


def _document_lines(path: Path, needle: str, deadline: float,
                    cancel: threading.Event | None = None) -> Iterator[tuple[int, str, str]]:
    """(line number in the rendering, line, section such as 'Page 3' or 'Sheet: Prices') of
    each line of a document's rendering that holds `needle`, the rendering kept for the run
    (document_cache); nothing for a document that cannot be read: search_files passes over
    it, as over a binary file."""
    seconds = max(deadline - time.monotonic(), 1.0)
    try:
        text = RENDERINGS.rendering(path, lambda: render_document(path, seconds, cancel))
    except DocumentError:
        return
    # A character read_file escapes (`\_`, `\*`: word_escape) is found without its backslash.
    folded = text.casefold() + "\n" + text.casefold().replace("<br>", " ")  # <br>: a space too
    plain_too = "\\" not in needle and "\\" in folded
    if needle not in folded and not (plain_too and needle in unescaped(folded)):
        return
    section = ""
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith(SECTION_HEADINGS):
            section = line[3:]
        folded = line.casefold() + "\n" + line.casefold().replace("<br>", " ")
        if needle in folded or (plain_too and needle in unescaped(folded)):
            yield n, line, section
