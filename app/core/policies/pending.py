"""Changes waiting for an answer: kept under .harness/pending, never applied until the person
allows that very change (`harness-desk approve`, `decide` after the change was shown, or the
window's approval dialog).

One folder per change, named by its id: proposal.json (the file, the action, what the file
held when the change was proposed, the question on the board, where the change was shown,
the person's answer) and `after`, the exact bytes that were proposed.

An answer belongs to exactly one change. The id is a digest of the path, the action, the
file's bytes before and the proposed bytes, with a random part so two proposals never share
one; the board's question carries it at its end ("… (change 3f9a2b7e1c)"), the records and
events carry it too. Words are never matched: an answer counts only on the question that
carries the change's id, and an Allow counts only when this record says the change was
shown and allowed through the harness (board text alone can refuse, never allow).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.core.undo.blobs import sha256_bytes
from app.core.board.board import Board, Task
from app.core.workspace.files import atomic_write_bytes, atomic_write_json, read_json
from app.core.policies.rules import Action

if TYPE_CHECKING:
    from app.core.policies.approver import ApprovalRequest

ALLOW, DENY = "Allow", "Don't allow"
OPTIONS = [ALLOW, DENY]
_YES = {"allow", "yes", "y", "allowed", "ok"}
ID_LENGTH = 10
MARK = re.compile(r"\(change ([0-9a-f]{%d})\)\s*$" % ID_LENGTH)
# What only the harness may put on the board: a question about a kept change.
LOOKALIKE = re.compile(r"\s*careful[ \t]*mode\s*[:：]|.*\(\s*change\s+[0-9a-f]{4}", re.I)
LOOKALIKE_REFUSAL = ("questions that start with 'Careful mode:' or name a change id are the "
                     "harness's own, about a file change it kept; ask in your own words.")


def now_iso() -> str:
    """As records.now_iso, without loading the records' models (`decide` stays light)."""
    from datetime import datetime, timezone  # noqa: PLC0415 - `decide` stays light

    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def is_yes(answer: str) -> bool:
    return answer.strip().casefold().rstrip(".!") in _YES


def change_digest(path: str, action: str, before_sha: str | None, after: bytes | None) -> str:
    """The change itself: which file, what it held, what it would hold (None: deleted)."""
    after_sha = sha256_bytes(after) if after is not None else "-"
    return hashlib.sha256(f"{path}\0{action}\0{before_sha or '-'}\0{after_sha}"
                          .encode("utf-8", "surrogatepass")).hexdigest()


def change_id(digest: str, nonce: str) -> str:
    return hashlib.sha256(f"{digest}\0{nonce}".encode()).hexdigest()[:ID_LENGTH]


def new_nonce() -> str:
    return secrets.token_hex(8)


def marker_of(question: str) -> str | None:
    """The change id a board question carries at its end, or None."""
    m = MARK.search(question or "")
    return m.group(1) if m else None


def question_for(path: str, action: str, cid: str, policies: list[str],
                 many: int = 10) -> str:
    verb = "delete" if action == "delete" else "change"
    if "existing_files_need_approval" in policies:
        asked = f"Careful mode: may the AI {verb} your file {path}?"
    else:  # careful mode is off: only the many-changes limit asked
        asked = (f"The AI is changing more than {many} of your files in one round: may it "
                 f"{verb} your file {path}?")
    return f"{asked} (change {cid})"


@dataclass(frozen=True)
class PendingChange:
    id: str
    folder: Path
    path: str
    action: Action
    before_sha: str | None        # None: the file did not exist when it was proposed
    question: str
    task: str
    digest: str
    nonce: str
    policies: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()
    shown: tuple[str, ...] = ()   # where its diff was shown: terminal, window, approve
    answer: str | None = None     # "allowed" | "not_allowed", given through the harness
    answer_text: str = ""
    run_id: str = ""              # the run that proposed it ("" in a damaged record)

    @property
    def after(self) -> bytes | None:
        file = self.folder / "after"
        return file.read_bytes() if file.exists() else None

    def intact(self) -> bool:
        """The kept bytes are still the change the id names (nothing swapped or lost)."""
        after = self.after
        if (after is None) != (self.action == "delete"):
            return False
        digest = change_digest(self.path, self.action, self.before_sha, after)
        return digest == self.digest and change_id(digest, self.nonce) == self.id


def keep(pending_dir: Path, *, path: str, action: str, before: bytes | None,
         after: bytes | None, task: str, run_id: str, round_no: int, nonce: str,
         policies: list[str], reasons: list[str], shown: list[str],
         many: int = 10) -> PendingChange:
    """Write the proposal to disk before its question reaches the board."""
    before_sha = sha256_bytes(before) if before is not None else None
    digest = change_digest(path, action, before_sha, after)
    cid = change_id(digest, nonce)
    folder = pending_dir / cid
    folder.mkdir(parents=True, exist_ok=True)
    if after is not None:
        atomic_write_bytes(folder / "after", after)
    question = question_for(path, action, cid, policies, many)
    atomic_write_json(folder / "proposal.json", {
        "id": cid, "digest": digest, "nonce": nonce, "path": path, "action": action,
        "before_sha": before_sha, "question": question, "task": task, "run_id": run_id,
        "round": round_no, "kept_at": now_iso(), "policies": list(policies),
        "reasons": list(reasons), "shown": [{"where": w, "at": now_iso()} for w in shown],
        "answer": None})
    return _read(folder)  # type: ignore[return-value]


def _read(folder: Path) -> PendingChange | None:
    data = read_json(folder / "proposal.json")
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in
                                             ("id", "digest", "nonce", "path", "action",
                                              "question")):
        return None  # damaged, or kept by a version without ids: never applied
    if data["id"] != folder.name or data["action"] not in ("change", "delete"):
        return None
    sha = data.get("before_sha")
    got_shown, got_answer = data.get("shown"), data.get("answer")
    shown = got_shown if isinstance(got_shown, list) else []
    answer = got_answer if isinstance(got_answer, dict) else {}
    return PendingChange(
        folder.name, folder, data["path"], data["action"], sha if isinstance(sha, str) else None,
        data["question"], str(data.get("task") or ""), data["digest"], data["nonce"],
        tuple(str(p) for p in data.get("policies") or ()),
        tuple(str(r) for r in data.get("reasons") or ()),
        tuple(str(s.get("where")) for s in shown if isinstance(s, dict)),
        answer.get("kind") if answer.get("kind") in ("allowed", "not_allowed") else None,
        str(answer.get("text") or ""), str(data.get("run_id") or ""))


def waiting(pending_dir: Path) -> list[PendingChange]:
    """Every kept change, oldest first; a damaged proposal is skipped (never applied)."""
    if not pending_dir.is_dir():
        return []
    found = [c for c in (_read(p) for p in pending_dir.iterdir() if p.is_dir()) if c]
    return sorted(found, key=lambda c: (_kept_at(c), c.id))


def _kept_at(change: PendingChange) -> str:
    data = read_json(change.folder / "proposal.json")
    return str(data.get("kept_at") or "") if isinstance(data, dict) else ""


def find(pending_dir: Path, cid: str | None) -> PendingChange | None:
    if not cid or not re.fullmatch(r"[0-9a-f]{%d}" % ID_LENGTH, cid):
        return None
    return _read(pending_dir / cid) if (pending_dir / cid).is_dir() else None


def _update(change: PendingChange, **fields: Any) -> PendingChange:
    data = read_json(change.folder / "proposal.json")
    if not isinstance(data, dict):
        raise OSError(f"the record of the change to {change.path} is damaged")
    data.update(fields)
    atomic_write_json(change.folder / "proposal.json", data)
    return _read(change.folder) or change


def mark_shown(change: PendingChange, where: str) -> PendingChange:
    """Note that the person was shown this change's diff (`where`: approve, window, …)."""
    data = read_json(change.folder / "proposal.json")
    got = data.get("shown") if isinstance(data, dict) else None
    shown = got if isinstance(got, list) else []
    return _update(change, shown=[*shown, {"where": where, "at": now_iso()}])


def record_answer(change: PendingChange, allowed: bool, text: str, via: str) -> PendingChange:
    """The person's answer to this change, given through the harness. An Allow needs the
    change to have been shown (the caller checks); a refusal stands for good."""
    if change.answer == "not_allowed":
        return change  # a refusal is never turned into a yes
    kind = "allowed" if allowed else "not_allowed"
    return _update(change, answer={"kind": kind, "text": text, "via": via, "at": now_iso()})


def drop(change: PendingChange) -> None:
    shutil.rmtree(change.folder, ignore_errors=True)


def questions_of(board: Board, change: PendingChange) -> list[Task]:
    """The board's decisions that carry this change's id."""
    return [t for t in board.tasks if t.is_human and marker_of(t.question) == change.id]


def board_answer(board: Board, change: PendingChange) -> tuple[str, str | None]:
    """Where this change stands:
    ("open", None) while its question waits; ("not_allowed", answer) when the person refused
    it anywhere (on the board or through the harness); ("allowed", answer) only when the
    harness recorded an Allow for this very change after showing it and the board agrees;
    ("not_shown", answer) when the board says yes but that Allow was never given through the
    harness; ("unanswered", None) when its question was taken off the board, or ticked,
    without an answer. No answer is never read as a yes or a no."""
    tasks = questions_of(board, change)
    if change.answer == "not_allowed":
        return "not_allowed", change.answer_text or DENY
    answers = [(t.answer or "").strip() for t in tasks if t.checked]
    refused = next((a for a in answers if a and not is_yes(a)), None)
    if refused is not None:
        return "not_allowed", refused
    if not tasks or any(not t.checked for t in tasks):
        return ("open", None) if tasks else ("unanswered", None)
    yes = next((a for a in answers if a), None)
    if yes is None:
        return "unanswered", None
    return ("allowed", yes) if change.answer == "allowed" and change.shown else ("not_shown", yes)


def kept_request(root: Path, change: PendingChange) -> ApprovalRequest | None:
    """The kept change as an ApprovalRequest to show the person, or None when the file no
    longer holds what it held when the change was proposed (the change cannot be made)."""
    from app.core.policies.approver import ApprovalRequest  # noqa: PLC0415 - `decide` stays light

    target = Path(root) / change.path
    try:
        before = target.read_bytes() if target.is_file() else None
    except OSError:
        return None
    if (sha256_bytes(before) if before is not None else None) != change.before_sha \
            or not change.intact():
        return None
    return ApprovalRequest(round=0, task=change.task, path=change.path,
                           action=change.action,
                           before=before, after=change.after, reasons=list(change.reasons),
                           policies=list(change.policies), change_id=change.id)


def open_changes(pending_dir: Path, board: Board) -> list[PendingChange]:
    """The kept changes whose question waits on the board, oldest first."""
    return [c for c in waiting(pending_dir) if board_answer(board, c)[0] == "open"]
