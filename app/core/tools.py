"""The agent's ten tools (PRODUCT.md §6) behind one bounded, sandboxed ToolBox."""

from __future__ import annotations

import io
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from app.core.board import BoardError, update_board
from app.core.conversation import ToolSpec
from app.core.documents import (DocumentError, edit_document, is_document, kind_of,
                                matching_lines, render_document, set_cells, write_document)
from app.core.endings import Asked, Completed, GaveUp, RoundEnding
from app.core.files import bounded_lines
from app.core.pictures import Picture, PictureError, is_picture, read_picture
from app.core.policies.gate import ChangeNotAllowed, ChangeWaits
from app.core.sandbox import MAX_PATH_CHARS, PathRefused, Sandbox
from app.core.tool_specs import (BINARY_SNIFF, MAX_EDIT_BYTES, MAX_LIST_ENTRIES,
                                 MAX_MATCH_CHARS, MAX_READ_CHARS, MAX_READ_LINES,
                                 MAX_SEARCH_FILE_BYTES, MAX_SEARCH_FILES, MAX_SEARCH_MATCHES,
                                 MAX_SEARCH_SECONDS, MAX_TEXT_ARG, MAX_WRITE_BYTES, TOOL_SPECS,
                                 FILE_CHANGES)
from app.core.undo import RoundChanges, write_user_file

if TYPE_CHECKING:
    from app.core.policies.gate import ChangeGate


@dataclass
class ToolOutcome:
    content: str
    is_error: bool = False
    refused: bool = False
    changed: list[str] = field(default_factory=list)
    pictures: list[Picture] = field(default_factory=list)  # read_file on a picture
    ending: RoundEnding | None = None  # set by complete_task, ask_human and give_up

    @property
    def ends_round(self) -> str | None:
        """The round's result_state when this call ended the round, else None."""
        return self.ending.result if self.ending else None


class _Refuse(Exception):
    """Raised inside a tool: the call was not carried out because of the rules or its arguments."""


class _Fail(Exception):
    """Raised inside a tool: the call was allowed but could not be done (missing file, ...)."""


_SPEC_BY_NAME = {s.name: s for s in TOOL_SPECS}
_LINE_REF = re.compile(r":\d+(?:-\d+)?$")
_EXT = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _is_binary(head: bytes) -> bool:
    return b"\x00" in head[:BINARY_SNIFF]


def looks_like_path(item: str) -> bool:
    """Evidence that names a file: no spaces, and a '/' or a file extension; URLs are facts."""
    return (bool(item) and not any(c.isspace() for c in item) and "://" not in item
            and ("/" in item or "\\" in item or bool(_EXT.search(item))))


class ToolBox:
    """Runs the agent's tool calls for one round. Never raises for anything the model sends."""

    def __init__(self, root: Path, board_path: Path, task_text: str, changes: RoundChanges,
                 gate: "ChangeGate | None" = None):
        self.sandbox = Sandbox(root)
        self.board_path = Path(board_path)
        self.task_text = task_text
        self.changes = changes
        self.gate = gate      # the safety policies and the person's approval (core/policies)
        self._call: tuple[str, dict] = ("", {})
        self._note = ""
        self._rendered: tuple[tuple | None, str] = (None, "")

    def call(self, name: str, arguments: dict) -> ToolOutcome:
        spec = _SPEC_BY_NAME.get(name) if isinstance(name, str) else None
        if spec is None:
            return ToolOutcome(f"There is no tool called {str(name)[:80]!r}. The tools are: "
                               f"{', '.join(_SPEC_BY_NAME)}.", is_error=True, refused=True)
        try:
            args = _check_args(spec, arguments)
            self._call, self._note = (name, args), ""
            outcome = getattr(self, "_" + name)(**args)
            if self._note:
                outcome.content += self._note
            return outcome
        except ChangeNotAllowed as exc:
            return ToolOutcome(exc.message, is_error=True, refused=True)
        except ChangeWaits as exc:
            return ToolOutcome(exc.message, ending=exc.ending)
        except PathRefused as exc:
            return ToolOutcome(exc.message, is_error=True, refused=True)
        except _Refuse as exc:
            return ToolOutcome(str(exc), is_error=True, refused=True)
        except _Fail as exc:
            return ToolOutcome(str(exc), is_error=True)
        except (OSError, BoardError, ValueError) as exc:
            text = (getattr(exc, "strerror", None) or str(exc) or type(exc).__name__).rstrip(".")
            return ToolOutcome(f"{name} failed: {text}.", is_error=True)
        except Exception as exc:  # a bug here must cost one tool call, not the whole round
            return ToolOutcome(f"{name} failed unexpectedly ({type(exc).__name__}); nothing more "
                               "was done.", is_error=True)

    # -- reading -------------------------------------------------------------------------
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
        shown = [f"Folder '{rel}': {len(lines)} {'entry' if len(lines) == 1 else 'entries'}."] + lines[:MAX_LIST_ENTRIES]
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
        with offset does not parse it again."""
        try:
            st = target.stat()
            key = (str(target), st.st_size, st.st_mtime_ns)
            if self._rendered[0] != key:
                self._rendered = (key, render_document(target))
            return self._rendered[1]
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
            if is_document(rel) and time.monotonic() > deadline:
                hits.append(f"... stopped after {MAX_SEARCH_SECONDS} seconds of reading "
                            "documents; give a path to search a smaller folder.")
                break
            for n, line, section in _lines_with(self.sandbox.root / rel, needle):
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

    def _walk(self, start: Path):
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

    # -- changing files ------------------------------------------------------------------
    def _prepare_write(self, path: str) -> str:
        target = self.sandbox.resolve_write(path)
        if target.is_dir():
            raise _Fail(f"'{self.sandbox.rel(target)}' is a folder; write_file, edit_file and "
                        "delete_file work on files only.")
        return self.sandbox.rel(target)

    def _commit(self, path: str, rel: str, write: Callable[[Path], None]) -> None:
        """Every change to a file goes through here: the tool's declaration (FILE_CHANGES)
        and the safety policies first, then the pre-image, then the path is checked again
        right before the change itself."""
        name, args = self._call
        declared = FILE_CHANGES.get(name)
        if declared is None:  # a tool that changes files must say so (tool_specs.FILE_CHANGES)
            raise _Fail(f"{name} cannot change files; nothing was changed.")
        named = args.get(declared.path_argument)
        if not isinstance(named, str) or \
                self.sandbox.rel(self.sandbox.resolve_write(named)) != rel:
            raise _Refuse(f"{name} may only change the file it names; nothing was changed.")
        if self.gate is not None:
            review = self.gate.review(rel, declared.action, self.sandbox.root / rel, write)
            write, self._note = review.write, review.note
        self.changes.before_change(rel)
        target = self.sandbox.resolve_write(path)
        if self.sandbox.rel(target) != rel:
            raise _Refuse(f"'{rel}' changed on disk while being written; nothing was changed.")
        write(target)
        self.changes.after_change(rel)

    def _write_file(self, path: str, content: str) -> ToolOutcome:
        data = _encode(content)
        if len(data) > MAX_WRITE_BYTES:
            raise _Refuse(f"The content is {len(data):,} bytes; write_file takes at most 1 MB. "
                          "Split it into several files.")
        rel = self._prepare_write(path)
        target = self.sandbox.root / rel
        existed = target.is_file()
        if is_document(rel):
            data = self._document_call(rel, write_document, target, content, existed)
        if existed and target.stat().st_size == len(data) and target.read_bytes() == data:
            return ToolOutcome(f"'{rel}' already has exactly this content; nothing changed.")
        self._commit(path, rel, lambda t: write_user_file(t, data))
        return ToolOutcome(f"{'Replaced' if existed else 'Created'} '{rel}' ({len(data):,} bytes).",
                           changed=[rel])

    def _edit_file(self, path: str, old_text: str, new_text: str) -> ToolOutcome:
        if not old_text:
            raise _Refuse("old_text must not be empty; copy the exact text to replace from the "
                          "file, or use write_file to replace the whole file.")
        if old_text == new_text:
            raise _Refuse("old_text and new_text are the same, so there is nothing to change.")
        rel = self._prepare_write(path)
        target = self.sandbox.root / rel
        if not target.exists():
            raise _Fail(f"There is no file '{rel}'. Use write_file to create it.")
        if is_document(rel):
            return self._edit_document(path, rel, target, old_text, new_text)
        if target.stat().st_size > MAX_EDIT_BYTES:  # checked before reading: it may be huge
            raise _Fail(f"'{rel}' is too large or not a text file, so it cannot be edited.")
        raw = target.read_bytes()
        if len(raw) > MAX_EDIT_BYTES or _is_binary(raw):
            raise _Fail(f"'{rel}' is too large or not a text file, so it cannot be edited.")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise _Fail(_binary_message(rel)) from None
        count = text.count(old_text)
        if count == 0 and "\r\n" in text and "\n" in old_text and "\r\n" not in old_text:
            # read_file shows lines without their CRLF endings; match the file's own endings.
            old_text, new_text = old_text.replace("\n", "\r\n"), new_text.replace("\n", "\r\n")
            count = text.count(old_text)
        if count != 1:
            hint = ("Check spaces, indentation and line breaks against read_file"
                    if count == 0 else "Include more surrounding text so it is unique")
            raise _Fail(f"old_text was found {count} times in '{rel}'; it must be found exactly "
                        f"once. {hint}.")
        data = _encode(text.replace(old_text, new_text, 1))
        if len(data) > MAX_WRITE_BYTES:
            raise _Refuse(f"The edited file would be {len(data):,} bytes; files may be at most 1 MB.")
        self._commit(path, rel, lambda t: write_user_file(t, data))
        return ToolOutcome(f"Edited '{rel}': replaced 1 occurrence.", changed=[rel])

    def _edit_document(self, path: str, rel: str, target: Path, old_text: str,
                       new_text: str) -> ToolOutcome:
        if target.suffix.lower() != ".docx":
            hint = (" Use set_cells to change cells." if target.suffix.lower() in (".xlsx", ".xlsm")
                    else "")
            raise _Refuse(f"edit_file changes Word documents (.docx) and text files; "
                          f"'{rel}' is {kind_of(rel)}.{hint}")
        data = self._document_call(rel, edit_document, target, old_text, new_text)
        self._commit(path, rel, lambda t: write_user_file(t, data))
        return ToolOutcome(f"Edited '{rel}': replaced 1 occurrence; the rest of the document is "
                           "as it was.", changed=[rel])

    def _set_cells(self, path: str, cells: dict, sheet: str | None = None) -> ToolOutcome:
        rel = self._prepare_write(path)
        target = self.sandbox.root / rel
        if not target.is_file():
            raise _Fail(f"There is no workbook '{rel}'. Use write_file to create a .xlsx from "
                        "Markdown tables.")
        data, count = self._document_call(rel, set_cells, target, cells, sheet)
        self._commit(path, rel, lambda t: write_user_file(t, data))
        return ToolOutcome(f"Set {count} {'cell' if count == 1 else 'cells'} in '{rel}'; the "
                           "rest of the workbook is as it was.", changed=[rel])

    def _document_call(self, rel: str, action: Callable, *args):
        """The one way the changing tools reach app.core.documents: a refusal in a sentence."""
        try:
            return action(*args)
        except DocumentError as exc:
            raise _Refuse(exc.message) from None

    def _delete_file(self, path: str) -> ToolOutcome:
        rel = self._prepare_write(path)
        if not (self.sandbox.root / rel).exists():
            raise _Fail(f"There is no file '{rel}' to delete.")
        self._commit(path, rel, os.remove)
        return ToolOutcome(f"Deleted '{rel}'. The person can undo this round to get it back.",
                           changed=[rel])

    # -- ending the round ----------------------------------------------------------------
    def _check_evidence(self, items: list[str]) -> list[str]:
        clean = [_one_line(x)[:MAX_TEXT_ARG] for x in items]
        clean = [x for x in clean if x]
        missing = []
        for item in clean:
            name = _LINE_REF.sub("", item.strip("`'\"()[]<>,;"))
            if not looks_like_path(name):
                continue
            try:
                if not self.sandbox.resolve_read(name).exists():
                    missing.append(item)
            except PathRefused:
                missing.append(item)
        if missing:
            raise _Refuse("Evidence names files that do not exist in the workspace: "
                          + ", ".join(repr(m) for m in missing[:10])
                          + ". Name existing files, or state facts in words.")
        return clean

    def _complete_task(self, summary: str, evidence: list[str]) -> ToolOutcome:
        summary = summary.strip()
        if not summary:
            raise _Refuse("summary must not be empty; say in a sentence what was done.")
        if not any(e.strip() for e in evidence):
            raise _Refuse("complete_task needs evidence: at least one existing file or verified "
                          "fact that shows the task is done.")
        items = self._check_evidence(evidence)
        try:
            update_board(self.board_path, lambda b: b.set_checked(self.task_text, True))
        except BoardError as exc:
            raise _Fail(f"{exc} Call give_up with your findings so the next round starts from "
                        "the current board.") from None
        return ToolOutcome(f"Task checked off: {self.task_text}. The round is over.",
                           ending=Completed(summary, items))

    def _ask_human(self, question: str, options: list[str], evidence: list[str],
                   recommendation: str | None = None) -> ToolOutcome:
        question = re.sub(r"^HUMAN\s*:\s*", "", _one_line(question), flags=re.I)[:MAX_TEXT_ARG]
        if not question:
            raise _Refuse("question must not be empty; ask one clear question.")
        opts = [_one_line(o)[:MAX_TEXT_ARG] for o in options]
        opts = [o for o in opts if o]
        if not 2 <= len(opts) <= 4 or len({o.casefold() for o in opts}) != len(opts):
            raise _Refuse(f"options must be 2 to 4 different, non-empty answers; got {len(opts)}.")
        items = self._check_evidence(evidence)
        rec = _one_line(recommendation)[:MAX_TEXT_ARG] if recommendation else None
        update_board(self.board_path, lambda b: b.insert_human_before(
            self.task_text, question, opts, items, rec or None))
        return ToolOutcome(f"Asked the person: {question} The round is over; the run will "
                           "continue after they answer.",
                           ending=Asked(question, opts, items, rec or None))

    def _give_up(self, reason: str, findings: str) -> ToolOutcome:
        reason = reason.strip()
        if not reason:
            raise _Refuse("reason must not be empty; say why the task cannot be done now.")
        return ToolOutcome("The round is over. Your reason and findings are recorded for the next "
                           "attempt.", ending=GaveUp(reason, findings.strip()))


def _encode(text: str) -> bytes:
    """UTF-8 for the person's file. Text that came from undecodable bytes (an old Latin-1
    board) carries them as surrogates: they go back as the very bytes they were."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        try:
            return text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            return text.encode("utf-8", "replace")


def _picture_outcome(target: Path, rel: str) -> ToolOutcome:
    try:
        picture = read_picture(target, rel)
    except PictureError as exc:
        raise _Fail(str(exc)) from None
    return ToolOutcome(picture.seen_sentence(), pictures=[picture])


def _binary_message(rel: str) -> str:
    return (f"'{rel}' is not a text file (it looks binary), so it cannot be read or edited as "
            "text. Work with text files such as .md, .txt, .html or .csv.")


def _lines_with(path: Path, needle: str):
    """(line number, text, section) of each line of a UTF-8 text file, or of a document's
    rendering, that holds `needle` (casefolded); nothing for binary or unreadable files."""
    if is_document(path):
        yield from matching_lines(path, needle)
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


def _check_args(spec: ToolSpec, arguments: Any) -> dict[str, Any]:
    """Arguments checked against the spec's schema, with one plain sentence when they are wrong."""
    if not isinstance(arguments, dict):
        raise _Refuse(f"{spec.name} takes an object of named arguments.")
    props, required = spec.parameters["properties"], spec.parameters["required"]
    usage = f"{spec.name} takes: " + ", ".join(
        p + ("" if p in required else " (optional)") for p in props) + "."
    missing = [p for p in required if arguments.get(p) is None]
    if missing:
        raise _Refuse(f"Missing argument {', '.join(missing)}. {usage}")
    unknown = sorted(str(k)[:40] for k in arguments if k not in props)
    if unknown:
        raise _Refuse(f"Unknown argument {', '.join(unknown)}. {usage}")
    out: dict[str, Any] = {}
    for key, value in arguments.items():
        kind = props[key]["type"]
        if kind == "integer" and isinstance(value, str) and value.strip().isdigit():
            value = int(value)  # models often quote numbers; the meaning is clear
        if value is not None and not _KINDS[kind][0](value):
            raise _Refuse(f"Argument {key} must be {_KINDS[kind][1]}. {usage}")
        if value is not None:  # an explicit null means "use the default"
            out[key] = value
    return out


_KINDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "string": (lambda v: isinstance(v, str), "text"),
    "integer": (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
    "array": (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
              "a list of text items"),
    "object": (lambda v: isinstance(v, dict), "an object (names to values)"),
}
