"""The agent's ten tools (docs/architecture.md, "The loop") behind one bounded, sandboxed ToolBox."""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from app.core.board.board import BoardError, update_board
from app.core.clean_text import clean, clean_line
from app.core.engine.conversation import ToolSpec
from app.core.tools.document_cache import RENDERINGS
from app.core.documents import (DocumentError, edit_document, is_document, kind_of,
                                prewarm_documents, set_cells, write_document)
from app.core.run.endings import Asked, Completed, GaveUp, Sampled
from app.core.workspace.files import FileInUse
from app.core.policies.gate import ChangeNotAllowed, ChangeWaits
from app.core.policies.pending import LOOKALIKE, LOOKALIKE_REFUSAL
from app.core.tools.sandbox import PathRefused, Sandbox
from app.core.tools.outcome import Fail as _Fail
from app.core.tools.outcome import Refuse as _Refuse
from app.core.tools.outcome import ToolOutcome as ToolOutcome  # callers import it from here
from app.core.tools.reads import ReadingTools, _binary_message, _is_binary
from app.core.tools.specs import (FILE_CHANGES, MAX_EDIT_BYTES, MAX_TEXT_ARG,
                                 MAX_WRITE_BYTES, TOOL_SPECS as TOOL_SPECS)
from app.core.undo.undo import RoundChanges, write_user_file
from app.core.web.round import unseen_urls
from app.core.workspace.write_guard import ChangedOnDisk, FileStamp, expect_unchanged

if TYPE_CHECKING:
    from app.core.policies.gate import ChangeGate


T = TypeVar("T")

_SPEC_BY_NAME = {s.name: s for s in TOOL_SPECS}
_LINE_REF = re.compile(r":\d+(?:-\d+)?$")
_EXT = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")


def _one_line(text: str) -> str:
    return " ".join(clean_line(text).split())


def looks_like_path(item: str) -> bool:
    """Evidence that names a file: no spaces, and a '/' or a file extension; URLs are facts."""
    return (bool(item) and not any(c.isspace() for c in item) and "://" not in item
            and ("/" in item or "\\" in item or bool(_EXT.search(item))))


class ToolBox(ReadingTools):
    """Runs the agent's tool calls for one round. Never raises for anything the model sends.
    The reading tools are in tool_reads.py; the changing and ending tools are here."""

    def __init__(self, root: Path, board_path: Path, task_text: str, changes: RoundChanges,
                 gate: "ChangeGate | None" = None, sample: bool = False,
                 cancel: threading.Event | None = None):
        self.sandbox = Sandbox(root)
        self.sample = sample  # complete_task shows a sample and never ticks (Engine.only_samples)
        self.cancel = cancel  # Stop: ends a document being read or changed
        if cancel is not None and not cancel.is_set() and _has_documents(self.sandbox.root):
            prewarm_documents()  # the worker that reads them starts while the model thinks
        self.board_path = Path(board_path)
        self.task_text = task_text
        self.changes = changes
        self.gate = gate      # the safety policies and the person's approval (core/policies)
        self._call: tuple[str, dict[str, Any]] = ("", {})
        self._note = ""
        self._stamp: FileStamp | None = None  # what the file being changed held when read
        self._prepared: tuple[str, str] | None = None  # (path named, its rel) as just resolved
        # The URLs the round's lookups retrieved: evidence may name only these.
        self.seen_urls: Callable[[], set[str]] = set

    def call(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        spec = _SPEC_BY_NAME.get(name) if isinstance(name, str) else None
        if spec is None:
            return ToolOutcome(f"There is no tool called {str(name)[:80]!r}. The tools are: "
                               f"{', '.join(_SPEC_BY_NAME)}.", is_error=True, refused=True)
        try:
            args = _check_args(spec, arguments)
            self._call, self._note, self._prepared = (name, args), "", None
            outcome: ToolOutcome = getattr(self, "_" + name)(**args)
            if self._note:
                outcome.content += self._note
            return outcome
        except ChangeNotAllowed as exc:
            return ToolOutcome(exc.message, is_error=True, refused=True)
        except ChangeWaits as exc:
            return ToolOutcome(exc.message, ending=exc.ending)
        except ChangedOnDisk as exc:  # the person saved it meanwhile: their save stands
            return ToolOutcome(str(exc), is_error=True)
        except FileInUse as exc:  # locked by Word or Excel: the round goes on without it
            return ToolOutcome(exc.strerror or "", is_error=True, held_open=self._call_path())
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

    def _call_path(self) -> str:
        path = self._call[1].get("path")
        try:
            return self.sandbox.rel(self.sandbox.resolve_write(path)) if isinstance(path, str) \
                else ""
        except PathRefused:
            return ""

    # -- changing files ------------------------------------------------------------------
    def _prepare_write(self, path: str) -> str:
        """The file a changing tool works on, and what it holds now (before the tool reads
        it), so a save by someone else before the change is made withholds the change."""
        target = self.sandbox.resolve_write(path)
        if target.is_dir():
            raise _Fail(f"'{self.sandbox.rel(target)}' is a folder; write_file, edit_file and "
                        "delete_file work on files only.")
        self._stamp = FileStamp.of(target)
        rel = self.sandbox.rel_of_real(target)
        self._prepared = (path, rel)  # _commit need not resolve the same path again
        return rel

    def _commit(self, path: str, rel: str, write: Callable[[Path], None]) -> None:
        """Every change to a file goes through here: the tool's declaration (FILE_CHANGES)
        and the safety policies first, then the pre-image, then the path is checked again
        right before the change itself. The file must still hold what it held when the tool
        read it (_prepare_write's stamp): checked before the person is asked, and again right
        before the replace (files.commit_temp_file), in careful mode and out of it."""
        name, args = self._call
        declared = FILE_CHANGES.get(name)
        if declared is None:  # a tool that changes files must say so (tool_specs.FILE_CHANGES)
            raise _Fail(f"{name} cannot change files; nothing was changed.")
        named = args.get(declared.path_argument)
        prepared, self._prepared = self._prepared, None
        if not isinstance(named, str) or (prepared != (named, rel) and
                                          self.sandbox.rel_of_real(
                                              self.sandbox.resolve_write(named)) != rel):
            raise _Refuse(f"{name} may only change the file it names; nothing was changed.")
        stamp, self._stamp = self._stamp, None
        if stamp is not None and not stamp.holds():  # no use asking about a stale change
            raise ChangedOnDisk(rel)
        full = self.sandbox.root / rel  # (made once: a write step's hot path)
        if self.gate is not None:
            review = self.gate.review(rel, declared.action, full, write)
            write, self._note = review.write, review.note
        # A replace waits for the journal right before it (flush.py): the flushes overlap.
        self.changes.before_change(rel, overlap=getattr(write, "replaces", False))
        target = self.sandbox.resolve_write(path)
        if self.sandbox.rel_of_real(target) != rel:
            raise _Refuse(f"'{rel}' changed on disk while being written; nothing was changed.")
        RENDERINGS.drop(full)  # and again once written, below
        try:
            if stamp is not None and declared.action == "delete" and not stamp.holds():
                raise ChangedOnDisk(rel)  # a delete is no replace: checked here, last
            with expect_unchanged(stamp, rel, resolved=True), \
                    self.changes.flushed_first(target):
                write(target)
        except (ChangedOnDisk, FileInUse):
            # Not changed after all: the round keeps no pre-image of a file it had not
            # touched, and of one it had, what it left there before.
            self.changes.forget(rel)
            raise
        finally:
            RENDERINGS.drop(full)
        # What a replace wrote is known: its fingerprint needs no second read of the file.
        self.changes.after_change(rel, written=getattr(write, "data", None))

    def _write_file(self, path: str, content: str) -> ToolOutcome:
        data = _encode(content)
        if len(data) > MAX_WRITE_BYTES:
            raise _Refuse(f"The content is {len(data):,} bytes; write_file takes at most 1 MB. "
                          "Split it into several files.")
        rel = self._prepare_write(path)
        target = self.sandbox.root / rel
        # The stamp _prepare_write just took (not a folder, and the sandbox refuses special
        # files) says whether there is a file and its size: no second stat of the file.
        # (_commit checks the stamp again before the change.)
        size = self._stamp.size if self._stamp is not None else None
        existed = size is not None
        if is_document(rel):
            if existed and self._shows_as(target, content):
                return ToolOutcome(f"'{rel}' already has exactly this content; nothing changed.")
            data = self._document_call(rel, write_document, target, content, existed)
        if existed and size == len(data) and target.read_bytes() == data:
            return ToolOutcome(f"'{rel}' already has exactly this content; nothing changed.")
        self._commit(path, rel, _replacing(data))
        said = getattr(data, "summary", "")   # a Word document's: what changed in it
        return ToolOutcome(f"{'Replaced' if existed else 'Created'} '{rel}' ({len(data):,} bytes)"
                           f"{': ' + said if said else ''}.", changed=[rel])

    def _shows_as(self, target: Path, content: str) -> bool:
        """Whether read_file shows the document `target` as exactly `content`: writing that
        back must not rebuild the person's document (a Word file would lose what Markdown
        cannot hold)."""
        try:
            shown = self._rendering(target)
        except _Fail:
            return False
        return shown.rstrip("\n") == content.replace("\r\n", "\n").rstrip("\n")

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
        self._commit(path, rel, _replacing(data))
        return ToolOutcome(f"Edited '{rel}': replaced 1 occurrence.", changed=[rel])

    def _edit_document(self, path: str, rel: str, target: Path, old_text: str,
                       new_text: str) -> ToolOutcome:
        if target.suffix.lower() != ".docx":
            hint = (" Use set_cells to change cells." if target.suffix.lower() in (".xlsx", ".xlsm")
                    else "")
            raise _Refuse(f"edit_file changes Word documents (.docx) and text files; "
                          f"'{rel}' is {kind_of(rel)}.{hint}")
        data = self._document_call(rel, edit_document, target, old_text, new_text)
        self._commit(path, rel, _replacing(data))
        return ToolOutcome(f"Edited '{rel}': replaced 1 occurrence; the rest of the document is "
                           "as it was.", changed=[rel])

    def _set_cells(self, path: str, cells: dict[str, Any], sheet: str | None = None,
                   formats: dict[str, str] | None = None) -> ToolOutcome:
        rel = self._prepare_write(path)
        target = self.sandbox.root / rel
        if not target.is_file():
            raise _Fail(f"There is no workbook '{rel}'. Use write_file to create a .xlsx from "
                        "Markdown tables.")
        data, count, note = self._document_call(rel, set_cells, target, cells, sheet, formats)
        if target.stat().st_size == len(data) and target.read_bytes() == data:
            return ToolOutcome(f"The {'cell already holds' if count == 1 else 'cells already hold'}"
                               f" these values in '{rel}'; nothing changed.")
        self._commit(path, rel, _replacing(data))
        return ToolOutcome(f"Set {count} {'cell' if count == 1 else 'cells'} in '{rel}'; the "
                           f"rest of the workbook is as it was.{note}", changed=[rel])

    def _document_call(self, rel: str, action: Callable[..., T], *args: Any) -> T:
        """The one way the changing tools reach app.core.documents: a refusal in a sentence."""
        try:
            return action(*args, cancel=self.cancel)
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
        unseen = unseen_urls(clean, self.seen_urls())
        if unseen:
            raise _Refuse("Evidence names web pages this round never retrieved: "
                          + ", ".join(repr(u) for u in unseen[:10])
                          + ". Name only pages the round looked up, or state facts in words.")
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
        summary = clean(summary).strip()
        if not summary:
            raise _Refuse("summary must not be empty; say in a sentence what was done.")
        if not any(e.strip() for e in evidence):
            raise _Refuse("complete_task needs evidence: at least one existing file or verified "
                          "fact that shows the task is done.")
        items = self._check_evidence(evidence)
        if self.sample:
            return ToolOutcome("Shown as a sample: the task stays open for an engine that does "
                               "the work. The round is over.", ending=Sampled(summary, items))
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
        if LOOKALIKE.match(question):
            raise _Refuse(LOOKALIKE_REFUSAL)
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
        # What the round leaves for the next one, the records, the person and any lesson drawn
        # from it: without terminal or direction controls from the start (clean_text).
        reason = clean(reason).strip()
        if not reason:
            raise _Refuse("reason must not be empty; say why the task cannot be done now.")
        return ToolOutcome("The round is over. Your reason and findings are recorded for the next "
                           "attempt.", ending=GaveUp(reason, clean(findings).strip()))


def _has_documents(root: Path, most: int = 1000) -> bool:
    """Does the workspace's top folder hold a document (a cheap guess that one is read)?"""
    try:
        with os.scandir(root) as it:
            for n, entry in enumerate(it):
                if n >= most:
                    return False
                if is_document(entry.name):
                    return True
    except OSError:
        pass
    return False


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


def _replacing(data: bytes) -> Callable[[Path], None]:
    """write_user_file of `data`: a replace through files.commit_temp_file, which waits for
    the undo journal's flush right before it, so that flush may run beside the file's own
    (RoundChanges.before_change with overlap)."""
    def write(target: Path) -> None:
        write_user_file(target, data)

    write.replaces = True  # type: ignore[attr-defined]
    write.data = data  # type: ignore[attr-defined]
    return write
