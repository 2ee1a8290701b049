"""Undo: content-addressed pre-images, a manifest per round written before each change, and restore."""

from __future__ import annotations

import os
import posixpath
import stat
from dataclasses import dataclass, field
from pathlib import Path

from app.core.undo.blobs import BlobStore, DamagedCopy, sha256_bytes, sha256_file  # noqa: F401 (re-exported)
from app.core.errors import HarnessError, UsageError
from app.core.workspace.files import (JsonlAppender, atomic_write_bytes, atomic_write_json, fitted_name,  # noqa: F401
                            name_limit, read_json, remove_stale_temps)
from app.core.undo.flush import BackgroundFlush, Flusher, flushed_first, fsync_path
from app.core.run.outcomes import RoundResult
from app.core.records.records import UndoneRecord, now_iso, read_rounds
from app.core.tools.sandbox import PathRefused, Sandbox
from app.core.undo.journal import append as journal_append
from app.core.undo.journal import has_record, journal_path, read_manifest
from app.core.workspace.spare_files import SparePool, spare_pool
from app.core.workspace.workspace import Workspace

TYPE_CHECKING = False  # not typing's: importing it costs `status` time it has no use for
if TYPE_CHECKING:
    from typing import Any

ABSENT = "absent"


class UndoError(HarnessError):
    """The round cannot be undone at all (no record, or a corrupt one)."""


def write_user_file(path: Path, data: bytes) -> None:
    """Atomic write of a person's file (the atomic writer keeps the file's mode)."""
    atomic_write_bytes(path, data)


def _mode_of(path: Path) -> int | None:
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return None


def _state(path: Path) -> str:
    """"absent", "folder", or the SHA-256 of the file (streamed, never read whole)."""
    if not os.path.lexists(path):
        return ABSENT
    if path.is_dir():
        return "folder"
    return sha256_file(path)


class RoundChanges:
    """Records what one round changes, BEFORE each change happens: a line appended to the
    round's journal (undo_journal.py) before each change, the whole record at the end."""

    def __init__(self, root: Path | str, blobs: BlobStore, manifest_path: Path | str,
                 round_no: int):
        self.root = Path(os.path.realpath(root))
        self._root_str = str(self.root)
        self.blobs = blobs
        self.manifest_path = Path(manifest_path)
        self._journal = journal_path(self.manifest_path)
        self.round = round_no
        self._files: dict[str, dict[str, Any]] = {}
        self._again: dict[str, str] = {}  # file -> what the round left before changing it again
        # the journal's flush before a replace (before_change, overlap)
        self._flushing: BackgroundFlush | None = None
        self._later = False  # the change under way flushes its file after the replace
        self._flusher: Flusher | None = None  # the round's flushes off the step's path
        self._out: JsonlAppender | None = None  # the journal, kept open while the round writes
        # Temporary files made ahead, on the flusher thread (spare_files.py): made on use
        self._spares: SparePool | None = None
        self._no_spares = False  # they could not be made (the round tries no more)
        self._took = False  # a write of the step asked for one (hand_off makes it again)
        # A second recorder for the same round (a resumed process) keeps the first pre-images.
        old = read_manifest(self.manifest_path)
        if isinstance(old, dict) and isinstance(old.get("files"), dict):
            self._files = {k: dict(v) for k, v in old["files"].items() if isinstance(v, dict)}

    @property
    def touched(self) -> list[str]:
        return sorted(self._files)

    def before_change(self, rel: str, overlap: bool = False) -> None:
        """Keep the pre-image of `rel` the first time this round touches it, and append it to
        the journal before the change: if the process dies right after the change, undo
        still works. The copy of content the person had is flushed with its journal line (a
        power cut must not leave a line naming a copy that never reached the disk); a file the
        round creates has no copy, so its step flushes only the journal and the file.

        Without `overlap` the journal's line is flushed before this returns, and the writer
        flushes the file before replacing it. With `overlap` (a replace of the file's whole
        content, inside `self.flushed_first(path)`) the step waits for at most one flush:

        - a file the round creates: none. The journal's line and then the new file are
          flushed on the round's flusher thread (flush.Flusher) after the replace;
        - a file that held content before the round, changed for the first time: its line
          is flushed beside the temp file's write, and the replace waits for it
          (files.commit_temp_file), so a power cut never keeps the new content and loses
          the line that undoes it; the file itself is flushed on the flusher thread;
        - a file the round changed already: none (its line is on disk, or it names no
          content of the person's), and the file on the flusher thread.

        Crash guarantees. A kill of the process at any moment: the copy is handed to the
        operating system before its line, and the line before the replace, so undo is
        byte-exact. A power cut: the person's content from before the round is never
        replaced before the line that names its copy is on disk; what the round wrote
        since its last flush may be lost (a file the round made may be empty or missing, or
        hold an earlier version of the round's, which undo then keeps beside the restored
        one, never losing either). finish() waits for every flush before the round's record
        is written, so a round the run has recorded is on disk whole."""
        self.journal_flushed()
        self._later = overlap
        if rel in self._files:
            # Changed again: until after_change, what is there is the round's, whatever its
            # content, so a kill in between still undoes it (not flushed: a power cut that
            # loses the line leaves undo keeping both versions, never losing one).
            entry = self._files[rel]
            if entry.get("after") is not None:
                self._again[rel] = entry["after"]
                entry["after"] = None
                self._append([{"op": "after", "file": rel,
                                                     "after": None}], sync=False)
            return
        try:  # one lstat tells a new file (the common case in a round) from the rest
            lmode: int | None = os.lstat(os.path.join(self._root_str, rel)).st_mode
        except OSError:
            lmode = None
        if lmode is not None and (stat.S_ISDIR(lmode)
                                  or (stat.S_ISLNK(lmode) and (self.root / rel).is_dir())):
            raise IsADirectoryError(f"{rel} is a folder")
        entry = {"before": ABSENT, "after": None}
        if lmode is not None:
            path = self.root / rel
            mode = _mode_of(path)
            entry["before"] = self.blobs.put_file(path, mode, sync=False,
                                                  spare=self._spare)
            if mode is not None:
                entry["mode"] = mode  # so undo gives a private file back private
        else:
            # Folders the write is about to create, so undo removes exactly those and no other.
            new_dirs = []
            parent = posixpath.dirname(rel)  # `rel` is the sandbox's: POSIX, normalised
            while parent and not os.path.exists(os.path.join(self._root_str, parent)):
                new_dirs.append(parent)
                parent = posixpath.dirname(parent)
            if new_dirs:
                entry["new_dirs"] = new_dirs
        self._files[rel] = entry
        self._append([{"op": "before", "file": rel, "entry": entry}],
                       sync=not overlap)
        if not overlap:
            if entry["before"] != ABSENT:
                fsync_path(self.blobs.path_of(entry["before"]))
            return
        if entry["before"] == ABSENT:  # nothing of the person's to lose: flushed later
            self._round_flusher().add(self._journal)
        else:
            # The copy of the person's content is flushed beside its journal line: a power
            # cut after the replace must find both, or undo would have a line and no copy.
            self._flushing = BackgroundFlush(self._journal,
                                             self.blobs.path_of(entry["before"]))

    def _append(self, lines: list[dict[str, object]], sync: bool = True) -> None:
        """Append lines to the round's journal (undo_journal.py), kept open meanwhile."""
        if self._out is None:
            self._out = JsonlAppender(self._journal)
        journal_append(self.manifest_path, lines, sync, self._out)

    def _round_flusher(self) -> Flusher:
        if self._flusher is None:
            self._flusher = Flusher()
        return self._flusher

    def _pool(self) -> SparePool:
        if self._spares is None:
            self._spares = spare_pool(self.blobs.dir.parent)
        return self._spares

    def _spare(self) -> tuple[int, Path] | None:
        """A spare temporary file for the step's write (spare_files.py), or None."""
        self._took = True
        return self._pool().take()

    def journal_flushed(self) -> None:
        """Wait for the journal's flush started by before_change(overlap=True), if any."""
        flushing, self._flushing = self._flushing, None
        if flushing is not None:
            flushing.wait()

    def flushed_first(self, path: Path) -> flushed_first:
        """The context a write of `path` that before_change(overlap=True) kept runs in: the
        replace waits for the journal's line when it must, and the file is flushed on the
        round's flusher thread after it."""
        later = self._round_flusher().add if self._later else None
        return flushed_first(path, self.journal_flushed, later, self._spare)

    def flush(self) -> None:
        """Wait until everything the round's changes handed to the flusher is on disk;
        OSError if a flush failed."""
        if self._flusher is not None:
            self._flusher.close()

    def forget(self, rel: str) -> None:
        """Drop what before_change kept for `rel` when the change was then not made (the
        file changed meanwhile, or another program holds it): the round neither counts it as
        changed nor takes the person's own save back on undo."""
        if rel in self._again:  # changed earlier in the round: as it was after that change
            after = self._files[rel]["after"] = self._again.pop(rel)
            self._append([{"op": "after", "file": rel, "after": after}])
        elif self._files.pop(rel, None) is not None:
            self._append([{"op": "forget", "file": rel}])
    def after_change(self, rel: str, written: bytes | None = None) -> None:
        """Record what the round left in `rel` right after each change, so that after a kill
        undo still tells the round's content from an edit the person made later. `written`:
        the bytes a replace just put there, when the caller has them (not read back)."""
        self.journal_flushed()
        entry = self._files.get(rel)
        if entry is None:
            return
        # Neither the copy nor the record is flushed to disk (one fsync less a write): undo
        # reads only the post-image's fingerprint, never its copy, and if a power cut loses
        # the record it says "after: null", which undo reads as a round that never finished,
        # as it was (the pre-image is safe). finish() keeps and flushes both at the round's
        # end. After a replace (overlap) even the copy is made on the flusher thread: only
        # the evidence of a round cut short reads it, and that shows a copy not yet made as
        # missing, as it does one a power cut lost.
        self._again.pop(rel, None)
        path = self.root / rel
        if self._later and self._flusher is not None:
            entry["after"] = _state(path) if written is None else sha256_bytes(written)
            if written is not None:  # the copy is of the bytes in hand, not read back
                self._flusher.add_first(lambda: self.blobs.put(written, _mode_of(path),
                                                               sync=False))
            elif entry["after"] not in (ABSENT, "folder"):
                self._flusher.add_first(lambda: self.blobs.put_file(path, _mode_of(path),
                                                                    sync=False))
        else:
            entry["after"] = self._keep(path, sync=False)
        self._append([{"op": "after", "file": rel, "after": entry["after"]}], sync=False)

    def hand_off(self) -> None:
        """Start the flushes the step's changes noted (on the round's flusher thread): the
        loop calls this once a step, its tools run and its events written, right before it
        asks the model again, so the flushes run while the model answers. Waking the
        flusher inside the step instead cost a write step 2-5 ms on a loaded machine (the
        woken thread takes the GIL between the step's own writes, and the step's thread
        then waits for a core: bench/step_overhead.py, issue 36). finish() hands off what
        is left. The spare files the step's writes took are made again there too."""
        if self._took and not self._no_spares and self._pool().short():
            self._round_flusher().add_first(self._refill)  # before the step's flushes
        self._took = False
        if self._flusher is not None:
            self._flusher.kick()

    def _refill(self) -> None:
        try:
            self._pool().fill()
        except OSError:  # each write makes its temporary file beside the file, as before
            self._no_spares = True

    def finish(self) -> list[str]:
        """Record each touched file's post-image; return the paths whose content changed.
        Waits first for every flush of the round's write steps (before_change): the round's
        record is never on disk ahead of the changes it records."""
        self.journal_flushed()
        try:
            self.flush()
            failed = None
        except OSError as exc:  # the record is still written (flushed here), then it is said
            failed = exc
        changed, lines = [], []
        for rel, entry in sorted(self._files.items()):
            # Post-images are kept too, so the round's evidence can show before and after.
            entry["after"] = self._keep(self.root / rel)
            lines.append({"op": "after", "file": rel, "after": entry["after"]})
            if entry["after"] != entry["before"]:
                changed.append(rel)
        # The journal first (it is applied over the record when read), then the whole record.
        self._append(lines)
        out, self._out = self._out, None
        if out is not None:
            out.close()
        atomic_write_json(self.manifest_path, {"round": self.round, "files": self._files})
        if failed is not None:
            raise failed
        return changed

    def created(self) -> list[str]:
        """Of the paths finish() found changed, those that did not exist before the round:
        the files it made new."""
        return sorted(rel for rel, entry in self._files.items()
                      if entry.get("before") == ABSENT and entry.get("after") not in (None, ABSENT))

    def _keep(self, path: Path, sync: bool = True) -> str:
        """The state of `path`, keeping a copy of its content if it is a file."""
        if not os.path.lexists(path):
            return ABSENT
        if path.is_dir():
            return "folder"
        return self.blobs.put_file(path, _mode_of(path), sync=sync)


@dataclass
class UndoReport:
    """What undoing a round did, file by file, for the window and the CLI to word."""

    round: int = 0
    restored: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    # (the file, the saved copy of its version from before the round): both kept because the
    # person changed the file after the round.
    kept_both: list[tuple[str, str]] = field(default_factory=list)
    # Of kept_both, the files whose version kept is not the person's but a later round's:
    # the file -> that round's number in the same run (0: a round of a later run).
    kept_by_round: dict[str, int] = field(default_factory=dict)
    unchanged: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # created by the round, edited by the person since
    messages: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # could not be put back; messages say why
    run_id: str | None = None
    # The task the round completed: it stays checked on the board (undo restores files only).
    task_kept_checked: str | None = None

    @property
    def ok(self) -> bool:
        """True when every file of the round is as the undo meant it to be."""
        return not self.failed

    def summary(self) -> str:
        counts = []
        if self.restored:
            counts.append(f"{len(self.restored)} restored")
        if self.removed:
            counts.append(f"{len(self.removed)} removed")
        if self.kept_both:
            counts.append(f"{len(self.kept_both)} kept in both versions")
        if self.kept:
            counts.append(f"{len(self.kept)} kept as you left it")
        if self.unchanged:
            counts.append(f"{len(self.unchanged)} already as before")
        if self.failed:
            counts.append(f"{len(self.failed)} could not be restored")
        if self.failed and not (self.restored or self.removed or self.kept_both):
            head = (f"Nothing from round {self.round} came back: "
                    f"{_name_list(self.failed)} could not be restored.")
        elif counts:
            head = f"Undid round {self.round}: " + ", ".join(counts) + "."
        else:
            head = f"Round {self.round} had nothing to undo."
        return " ".join([head] + self.messages)


def _name_list(names: list[str]) -> str:
    shown = ", ".join(names[:5])
    return shown + (f" and {len(names) - 5} more" if len(names) > 5 else "")


def undo_manifest(root: Path | str, harness_dir: Path | str, manifest_path: Path | str,
                  round_no: int | None = None,
                  later: dict[str, dict[str, int]] | None = None) -> UndoReport:
    """Put back what one round's undo record lists, never overwriting a later edit by the person.
    `round_no` names the round in the report; by default the record's own. `later` says
    what later rounds left in each file (file -> {content's SHA-256 -> round}), so a file a
    later round rewrote is not called the person's edit."""
    manifest = read_manifest(manifest_path)
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise UndoError(f"There is no readable undo record at {manifest_path}.")
    sandbox = Sandbox(root)
    blobs = BlobStore(harness_dir)
    recorded = manifest.get("round")
    n = round_no if round_no is not None else recorded if isinstance(recorded, int) else 0
    report = UndoReport(round=n)
    _remove_dead_temps(sandbox, manifest["files"])
    for rel, entry in sorted(manifest["files"].items()):
        if not isinstance(entry, dict) or not isinstance(entry.get("before"), str):
            report.failed.append(rel)
            report.messages.append(f"Skipped {rel}: its undo record is damaged.")
            continue
        try:
            # The same chokepoint the agent uses: a tampered record cannot reach .git or outside.
            path = sandbox.resolve_write(rel)
        except PathRefused as exc:
            report.failed.append(rel)
            report.messages.append(f"Skipped {rel}: {exc.message}")
            continue
        try:
            _undo_one(sandbox, blobs, rel, path, entry, n, report, (later or {}).get(rel, {}))
        except OSError as exc:
            report.failed.append(rel)
            report.messages.append(f"Could not restore {rel}: "
                                   f"{str(exc.strerror or exc).rstrip('.')}.")
    return report


def _undo_one(sandbox: Sandbox, blobs: BlobStore, rel: str, path: Path, entry: dict[str, Any], n: int,
              report: UndoReport, later: dict[str, int]) -> None:
    before, after = entry["before"], entry.get("after")
    mode = entry.get("mode") if isinstance(entry.get("mode"), int) else None
    current = _state(path)
    if current == before:
        if before == ABSENT:
            _remove_new_dirs(sandbox, entry.get("new_dirs"))
        report.unchanged.append(rel)
        return
    # `after` is None when the round was killed before finishing: what is there is the round's.
    if after is None or current == after:
        if before == ABSENT:
            os.remove(path)
            _remove_new_dirs(sandbox, entry.get("new_dirs"))
            report.removed.append(rel)
        else:
            blobs.copy_out(before, path, mode)
            report.restored.append(rel)
        return
    # The person changed the file after the round: keep their version, whatever happens.
    if before == ABSENT:
        report.kept.append(rel)
        report.messages.append(f"Kept {rel}: round {n} created it and it was changed after the "
                               f"round, so it was left as it is.")
        return
    if current == ABSENT:
        blobs.copy_out(before, path, mode)
        report.restored.append(rel)
        report.messages.append(f"{rel} had been deleted after round {n}; its version from before "
                               f"the round was put back.")
        return
    saved = _beside(blobs, path, n, before, mode)
    saved_rel = sandbox.rel(saved)
    report.kept_both.append((rel, saved_rel))
    by = later.get(current)
    if by is None:
        report.messages.append(f"{rel} was changed after round {n}, so your version was kept "
                               f"and the version from before the round was saved as "
                               f"{saved_rel}.")
        return
    report.kept_by_round[rel] = by
    whose = f"round {by}" if by else "a later run"
    report.messages.append(f"{rel} was changed again by {whose} after round {n}, so the version "
                           f"{whose} left was kept and the version from before round {n} was "
                           f"saved as {saved_rel}.")


def _beside(blobs: BlobStore, path: Path, n: int, sha: str, mode: int | None) -> Path:
    """Write blob `sha` next to `path` as '<stem> (before round N)<suffix>', with the
    original's mode, never over another file."""
    limit = name_limit(path.parent)
    for i in range(1, 1000):
        extra = "" if i == 1 else f" {i}"
        # A name near the limit is shortened (the tag and the extension stay) so the copy fits.
        candidate = path.with_name(fitted_name(path.stem, f" (before round {n}{extra})",
                                               path.suffix, limit))
        if not os.path.lexists(candidate):
            blobs.copy_out(sha, candidate, mode)
            return candidate
        if candidate.is_file() and sha256_file(candidate) == sha:
            return candidate  # an earlier undo already saved exactly this
    raise OSError(f"too many saved copies beside {path.name}")


def _later_versions(ws: Workspace, runs: list[str], run_id: str,
                    round_no: int) -> dict[str, dict[str, int]]:
    """What every round after `round_no` left in each file it touched: file -> {SHA-256 of
    that content -> the round (0 for a round of a later run)}, from the undo records."""
    out: dict[str, dict[str, int]] = {}
    for rid in runs[runs.index(run_id):]:
        folder = ws.run_files(rid).undo(1).parent
        try:
            names = {p.stem for p in folder.iterdir() if p.suffix in (".json", ".jsonl")}
        except OSError:
            continue
        for n in sorted(int(x) for x in names if x.isdigit()):
            if rid == run_id and n <= round_no:
                continue
            record = read_manifest(folder / f"{n}.json")
            files = record.get("files") if isinstance(record, dict) else None
            for rel, entry in (files.items() if isinstance(files, dict) else ()):
                after = entry.get("after") if isinstance(entry, dict) else None
                if isinstance(after, str) and after not in (ABSENT, "folder"):
                    out.setdefault(rel, {})[after] = n if rid == run_id else 0
    return out


def _remove_dead_temps(sandbox: Sandbox, files: dict[str, dict[str, Any]]) -> None:
    """Remove our temporary files, whatever their age, beside the files a round changed: a
    round killed mid-write leaves one (a folder it created would stay behind for it). Undo
    runs under the workspace lock (undo_round), so no write of ours is under way there."""
    folders = set()
    for rel in files:
        try:
            folders.add(sandbox.resolve_write(rel).parent)
        except (PathRefused, OSError):
            continue
    for folder in folders:
        remove_stale_temps(folder, older_than_s=-1.0)  # any age


def _remove_new_dirs(sandbox: Sandbox, new_dirs: object) -> None:
    if not isinstance(new_dirs, list):
        return
    # Deepest first; only folders the round itself created, and only while they are empty.
    for d in sorted((x for x in new_dirs if isinstance(x, str)), key=len, reverse=True):
        try:
            target = sandbox.resolve_write(d)
            if target.is_dir() and not any(target.iterdir()):
                target.rmdir()
        except (PathRefused, OSError):
            pass


def undo_round(root: Path | str, round_no: int, run_id: str | None = None) -> UndoReport:
    """Undo round `round_no` of run `run_id`, or by default of the newest run that has
    that round (a run that stopped at once, on an open decision, has no rounds and is not
    what the person means). Waits for no run: a folder with a run going is refused.

    Raises UsageError (one sentence) when there is no such run or round, and
    WorkspaceLocked while a run is working in the folder.
    """
    if isinstance(round_no, bool) or not isinstance(round_no, int):
        raise TypeError("undo_round takes a round number; undo_manifest restores a record file")
    ws = Workspace(root).require(need_board=False)
    runs = ws.run_ids()
    if run_id is not None and run_id not in runs:
        raise UsageError(f"There is no run {run_id!r} in this folder.")
    if not runs:
        raise UsageError("There is no run to undo in this folder yet.")
    candidates = [run_id] if run_id is not None else list(reversed(runs))
    found = next((r for r in candidates if has_record(ws.run_files(r).undo(round_no))), None)
    if found is None:
        where = f"run {run_id}" if run_id is not None else "any run in this folder"
        raise UsageError(f"Round {round_no} of {where} changed no files, or there is no "
                         "such round.")
    with ws.lock():  # never restore files while a run is writing them
        report = undo_manifest(ws.root, ws.harness_dir, ws.run_files(found).undo(round_no),
                               round_no, _later_versions(ws, runs, found, round_no))
    report.run_id = found
    _remember_undone(ws.run_files(found).undone(round_no), report)
    record = next((r for r in read_rounds(ws.run_files(found)) if r.round == round_no), None)
    if record is not None and record.result_state == RoundResult.COMPLETED:
        report.task_kept_checked = record.task
    return report


def _remember_undone(path: Path, report: UndoReport) -> None:
    """Keep what the undo did beside the round's record, so the card, the history and the
    export can say the round was undone. A full disk loses only this note, not the undo."""
    if not (report.restored or report.removed or report.kept_both):
        return  # nothing was put back: the round stands as it was
    record = UndoneRecord(round=report.round, undone_at=now_iso(), restored=report.restored,
                          removed=report.removed, kept_both=report.kept_both, kept=report.kept,
                          failed=report.failed)
    try:
        atomic_write_json(path, record.model_dump(mode="json"))
    except OSError:
        pass
