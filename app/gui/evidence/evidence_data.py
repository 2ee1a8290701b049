"""What one round did, read off the UI thread: its record, notices, and each changed file's
content before and after, from the pre- and post-image copies in its undo record. No Qt here,
and nothing here writes: only undo (app.core.undo.undo) may change a file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from app.core.undo.blobs import BlobStore
from app.core.records.records import (RoundRecord, RunInfo, UndoneRecord, read_events, read_rounds,
                              read_run, read_undone, undone_rounds)
from app.core.undo.journal import read_manifest
from app.core.workspace.workspace import Workspace
from app.gui.evidence.renderings import Shown, kind, show_file

ABSENT = "absent"
TEXT_LIMIT = 1 << 20  # a file bigger than this shows its sizes, not a diff


@dataclass
class FileVersions:
    """One file of a round: what it held before and after (None: it did not exist)."""

    path: str
    before: bytes | None = None
    after: bytes | None = None
    before_size: int | None = None
    after_size: int | None = None
    missing_copy: bool = False  # a saved copy is gone or damaged: sizes only where known
    is_folder: bool = False
    # A document or a picture, each version as the window shows it (renderings.Shown):
    # a document's rendering, diffed as text; a picture's small copy.
    before_shown: Shown | None = None
    after_shown: Shown | None = None
    # The saved copies themselves (None: that version did not exist), for the change view.
    before_file: Path | None = None
    after_file: Path | None = None

    @property
    def kind(self) -> str:
        """'document', 'picture' or 'file'."""
        return "file" if self.is_folder else kind(self.path)

    @property
    def created(self) -> bool:
        return self.before_size is None and self.after_size is not None

    @property
    def deleted(self) -> bool:
        return self.before_size is not None and self.after_size is None

    @property
    def is_text(self) -> bool:
        return not self.missing_copy and not self.is_folder and all(
            data is None or _looks_like_text(data) for data in (self.before, self.after))


@dataclass
class RoundEvidence:
    run_id: str
    round: int
    record: RoundRecord | None = None
    notice_kinds: list[str] = field(default_factory=list)  # harness notices, in order
    refusals: int = 0  # file actions the harness refused
    files: list[FileVersions] = field(default_factory=list)
    can_undo: bool = False
    run_started: str | None = None   # when the round's run started (to tell two Round 2s apart)
    undone: UndoneRecord | None = None  # the person undid this round already


def _looks_like_text(data: bytes) -> bool:
    if b"\x00" in data[:8192]:
        return False
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def _version(blobs: BlobStore, state: object) -> tuple[bytes | None, int | None, bool]:
    """(content when small enough to show, size, whether the copy is missing)."""
    if state == ABSENT or not isinstance(state, str) or state == "folder":
        return None, None, False
    path = blobs.dir / state
    try:
        size = path.stat().st_size
    except (OSError, ValueError):
        return None, None, True
    if size > TEXT_LIMIT:
        return None, size, False
    try:
        return blobs.get(state), size, False
    except (OSError, ValueError):
        return None, size, True


def _shown(blobs: BlobStore, state: object, rel: str) -> Shown | None:
    """A saved copy of a document or picture as the window shows it (None: it did not exist)."""
    if state == ABSENT or not isinstance(state, str) or state == "folder":
        return None
    return show_file(blobs.dir / state, rel)


def _copy_path(blobs: BlobStore, state: object) -> Path | None:
    if state == ABSENT or not isinstance(state, str) or state == "folder":
        return None
    return blobs.dir / state


def read_evidence(root: Path | str, run_id: str, round_no: int) -> RoundEvidence:
    """The evidence of round `round_no` of run `run_id` (reads only)."""
    ws = Workspace(root)
    files = ws.run_files(run_id)
    evidence = RoundEvidence(run_id, round_no)
    evidence.record = next((r for r in read_rounds(files) if r.round == round_no), None)
    run = read_run(files)
    evidence.run_started = run.started_at if run else None
    evidence.undone = read_undone(files, round_no)
    for event in read_events(files):
        if getattr(event, "round", None) != round_no:
            continue
        if event.type == "notice_sent":
            evidence.notice_kinds.append(event.kind)
        elif event.type == "tool_refused":
            evidence.refusals += 1
    manifest = read_manifest(files.undo(round_no))  # the journal too, after a kill
    entries = manifest.get("files") if isinstance(manifest, dict) else None
    if isinstance(entries, dict):
        blobs = BlobStore(ws.harness_dir)
        for rel, entry in sorted(entries.items()):
            if not isinstance(entry, dict):
                continue
            before, after = entry.get("before"), entry.get("after")
            if before == after:
                continue  # touched but left as it was
            b_data, b_size, b_missing = _version(blobs, before)
            a_data, a_size, a_missing = _version(blobs, after)
            version = FileVersions(rel, b_data, a_data, b_size, a_size, b_missing or a_missing,
                                   "folder" in (before, after))
            if version.kind != "file" and not version.missing_copy:
                version.before_shown = _shown(blobs, before, rel)
                version.after_shown = _shown(blobs, after, rel)
                version.before_file, version.after_file = (
                    _copy_path(blobs, state) for state in (before, after))
            evidence.files.append(version)
        evidence.can_undo = True
    return evidence


def list_runs(root: Path | str) -> list[RunInfo]:
    """The folder's runs with a readable record, newest first."""
    ws = Workspace(root)
    runs = [read_run(ws.run_files(run_id)) for run_id in reversed(ws.run_ids())]
    return [run for run in runs if run is not None]


def rounds_of(root: Path | str, run_id: str
              ) -> tuple[RunInfo | None, list[RoundRecord], set[int]]:
    """A run's record, its rounds, and the numbers of those the person has undone."""
    files = Workspace(root).run_files(run_id)
    return read_run(files), read_rounds(files), undone_rounds(files)
