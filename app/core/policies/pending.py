"""Changes waiting for an answer on the board: kept under .harness/pending, never applied
until the person allows them there (`harness-desk decide`, or the window's decision).

One folder per change: proposal.json (the file, the action, what the file held when it was
shown, the question on the board) and `after`, the exact bytes that were shown.
"""

from __future__ import annotations

import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path

from app.core.blobs import sha256_bytes
from app.core.board import Board
from app.core.files import atomic_write_bytes, atomic_write_json, read_json
from app.core.records import now_iso

ALLOW, DENY = "Allow", "Don't allow"
OPTIONS = [ALLOW, DENY]
_YES = {"allow", "yes", "y", "allowed", "ok"}


@dataclass(frozen=True)
class PendingChange:
    id: str
    folder: Path
    path: str
    action: str
    before_sha: str | None        # None: the file did not exist when it was shown
    question: str
    task: str

    @property
    def after(self) -> bytes | None:
        file = self.folder / "after"
        return file.read_bytes() if file.exists() else None


def question_for(path: str, action: str) -> str:
    verb = "delete" if action == "delete" else "change"
    return f"Careful mode: may the AI {verb} your file {path}?"


def keep(pending_dir: Path, *, path: str, action: str, before: bytes | None,
         after: bytes | None, task: str, run_id: str, round_no: int) -> PendingChange:
    """Write the proposal to disk before its question reaches the board."""
    change_id = f"{now_iso().replace(':', '').replace('-', '')[:15]}-{uuid.uuid4().hex[:6]}"
    folder = pending_dir / change_id
    folder.mkdir(parents=True, exist_ok=True)
    if after is not None:
        atomic_write_bytes(folder / "after", after)
    question = question_for(path, action)
    before_sha = sha256_bytes(before) if before is not None else None
    atomic_write_json(folder / "proposal.json", {
        "path": path, "action": action, "before_sha": before_sha, "question": question,
        "task": task, "run_id": run_id, "round": round_no, "kept_at": now_iso()})
    return PendingChange(change_id, folder, path, action, before_sha, question, task)


def waiting(pending_dir: Path) -> list[PendingChange]:
    """Every kept change, oldest first; a damaged proposal is skipped (never applied)."""
    if not pending_dir.is_dir():
        return []
    out = []
    for folder in sorted(p for p in pending_dir.iterdir() if p.is_dir()):
        data = read_json(folder / "proposal.json")
        if not isinstance(data, dict) or not all(isinstance(data.get(k), str)
                                                 for k in ("path", "action", "question")):
            continue
        sha = data.get("before_sha")
        out.append(PendingChange(folder.name, folder, data["path"], data["action"],
                                 sha if isinstance(sha, str) else None, data["question"],
                                 str(data.get("task") or "")))
    return out


def drop(change: PendingChange) -> None:
    shutil.rmtree(change.folder, ignore_errors=True)


def board_answer(board: Board, change: PendingChange) -> tuple[str, str | None]:
    """("open", None) while the question waits; ("allowed" | "not_allowed", the answer);
    ("unanswered", None) when the person took the question off the board, or ticked it,
    without an answer: never read as a yes or a no."""
    task = board.find(f"HUMAN: {change.question}")
    if task is None or not task.is_human:
        return "unanswered", None
    if not task.checked:
        return "open", None
    answer = (task.answer or "").strip()
    if not answer:
        return "unanswered", None
    if answer.casefold().rstrip(".!") in _YES:
        return "allowed", answer
    return "not_allowed", answer
