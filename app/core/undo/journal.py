"""A round's undo journal: one line appended before each change, never rewritten (flushed
before the change when the change puts away content of the person's; RoundChanges says when).

Beside each round's undo record `undo/<N>.json` (the whole table, written once at the round's
end) the round keeps `undo/<N>.jsonl`, a line per event, in order:

    {"op": "before", "file": REL, "entry": {"before": SHA or "absent", ...}}  before a change
    {"op": "after", "file": REL, "after": SHA or "absent"}                     after it
    {"op": "forget", "file": REL}                                  the change was not made

A write step costs at most one flush of the journal and one of the person's file,
most of them on the round's flusher thread after the step (flush.py): the pre-image's copy is
not flushed on its own. Its durability rides on the journal's: the line
names the copy by its SHA-256, and undo checks every copy against it on the way out
(BlobStore.copy_out), so after a power cut a lost copy is reported, never written back.
After a kill of the process (the OS keeps what was written) nothing is lost at all: the copy
is in place before its line is, and the line before the change.

What a round recorded is the record, if there is one, with the journal's lines applied in
order on top: a torn last line (a kill mid-append) is skipped; the first "before" of a file
wins, as the first pre-image does; the last "after" wins.
"""

from __future__ import annotations

from pathlib import Path

from app.core.workspace.files import JsonlAppender, append_jsonl, read_json, read_jsonl

TYPE_CHECKING = False  # not typing's: importing it costs `status` time (as in undo.py)
if TYPE_CHECKING:
    from typing import Any


def journal_path(manifest_path: Path | str) -> Path:
    """The journal beside a round's undo record: undo/<N>.jsonl for undo/<N>.json."""
    return Path(manifest_path).with_suffix(".jsonl")


def has_record(manifest_path: Path | str) -> bool:
    """True when the round left an undo record or a journal."""
    return Path(manifest_path).exists() or journal_path(manifest_path).exists()


def append(manifest_path: Path | str, lines: list[dict[str, Any]], sync: bool = True,
           out: JsonlAppender | None = None) -> None:
    """Append journal lines, written whole and (with `sync`) flushed before this returns;
    through `out`, the journal kept open by the round's one writer (RoundChanges), if given."""
    if not lines:
        return
    if out is None and len(lines) == 1:
        append_jsonl(journal_path(manifest_path), lines[0], sync=sync)
        return
    if out is None:
        with JsonlAppender(journal_path(manifest_path)) as opened:
            append(manifest_path, lines, sync, opened)
        return
    for i, line in enumerate(lines):
        out.append(line, sync=sync and i == len(lines) - 1)  # one flush for them all


def read_manifest(manifest_path: Path | str) -> dict[str, Any] | None:
    """The round's undo record as {"round": N, "files": {...}}: the record written at the
    round's end with the journal applied on top, or the journal alone when the round never
    ended (a kill). None when there is neither, or the record is damaged and no journal."""
    manifest_path = Path(manifest_path)
    base = read_json(manifest_path)
    journal = journal_path(manifest_path)
    if not journal.exists():
        return base if isinstance(base, dict) else None
    files: dict[str, dict[str, Any]] = {}
    if isinstance(base, dict) and isinstance(base.get("files"), dict):
        files = {k: dict(v) for k, v in base["files"].items() if isinstance(v, dict)}
    for line in read_jsonl(journal):
        apply(files, line)
    number = base.get("round") if isinstance(base, dict) else None
    if not isinstance(number, int) and manifest_path.stem.isdigit():
        number = int(manifest_path.stem)
    return {"round": number, "files": files}


def apply(files: dict[str, dict[str, Any]], line: dict[str, Any]) -> None:
    """Apply one journal line to a round's table of files (a damaged line changes nothing)."""
    op, rel = line.get("op"), line.get("file")
    if not isinstance(rel, str):
        return
    if op == "before":
        entry = line.get("entry")
        if isinstance(entry, dict) and rel not in files:
            files[rel] = dict(entry)
    elif op == "after":
        if rel in files and (isinstance(line.get("after"), str) or line.get("after") is None):
            files[rel]["after"] = line.get("after")
    elif op == "forget":
        files.pop(rel, None)
