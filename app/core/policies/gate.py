"""The gate every file change passes through: the policies, the person's answer, the records.

`ToolBox._commit` hands each change to `ChangeGate.review` before anything is written. The
gate asks the policies (rules.py); when one asks, it shows the person the exact bytes the
change would write (computed on a copy, never on the person's file) through the approver
port and waits, keeping the time it waited so the round's clock does not run meanwhile.
With no answer, the change is kept under .harness/pending and its question put on the
board; a later run applies it there only if the person allowed it (`apply_answered`).
"""

from __future__ import annotations

import os
import shutil
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, NoReturn

from app.core.undo.blobs import sha256_bytes, sha256_file
from app.core.board.board import Board, BoardError, Task, update_board
from app.core.run.endings import Asked
from app.core.records.events import (ChangeAnswered, ChangeAsked, ChangeRefused, ChangeWaiting, Event,
                             FileChanged)
from app.core.workspace.folder_settings import FolderSettings, folder_settings_path, load_folder_settings
from app.core.policies import pending
from app.core.policies.approver import ApprovalRequest, Approver, NoOneToAsk
from app.core.policies.rules import Action, Situation, Touch, Verdict, decide, protected_paths
from app.core.records.records import Approval
from app.core.undo.undo import RoundChanges, write_user_file
from app.core.web.types import WebActivity

Write = Callable[[Path], None]
_ANSWER_WORDS = {"allow": "allowed", "allow_task": "allowed_for_task", "edit": "edited",
                 "deny": "not_allowed"}


class ChangeNotAllowed(Exception):
    """The change was refused (a protected path) or the person said no: nothing written."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class ChangeWaits(Exception):
    """No answer: the change is kept and its question is on the board; the round ends."""

    def __init__(self, ending: Asked, message: str):
        super().__init__(message)
        self.ending, self.message = ending, message


@dataclass
class Review:
    write: Write
    note: str = ""           # added to the tool's result: what the model must know


@dataclass
class _Round:
    number: int = 0
    task: Task | None = None
    changed: set[str] = field(default_factory=set)   # the person's files changed this round
    many_allowed: bool = False
    approvals: list[Approval] = field(default_factory=list)
    web: WebActivity | None = None  # what the round looked up so far


class ChangeGate:
    """One per run. `careful` is careful mode; protected paths and the many-changes limit
    are read from the folder's settings at each change, so a change in the window counts
    at once."""

    def __init__(self, root: Path, harness_dir: Path, board_path: Path, emit: Callable[[Event], object],
                 run_id: str, *, careful: bool = False, approver: Approver | None = None,
                 cancel: threading.Event | None = None):
        self.root, self.harness_dir, self.board_path = Path(root), Path(harness_dir), board_path
        self.emit, self.run_id = emit, run_id
        self.careful = careful
        self.approver: Approver = approver or NoOneToAsk()
        self.cancel = cancel or threading.Event()
        self.created: set[str] = set()     # files this run created: free to change
        self.allowed_tasks: set[str] = set()
        self.waited_s = 0.0                # time spent waiting for the person, all rounds
        self.now = _Round()
        self._settings: tuple[tuple[int, int, int] | None, FolderSettings] | None = None

    def _folder_settings(self) -> FolderSettings:
        """The folder's settings as their file is now, read again only when the file changed
        (another file, size or time: the window saves it by replacing it), so a change made
        in the window counts at the next change of a file, and a write step reads no file
        for them otherwise, so a step stays fast."""
        try:
            st = os.stat(folder_settings_path(self.harness_dir))
            key: tuple[int, int, int] | None = (st.st_ino, st.st_size, st.st_mtime_ns)
        except OSError:
            key = None
        if self._settings is None or self._settings[0] != key:
            self._settings = (key, load_folder_settings(self.harness_dir))
        return self._settings[1]

    @property
    def pending_dir(self) -> Path:
        return self.harness_dir / "pending"

    def start_round(self, number: int, task: Task) -> None:
        self.now = _Round(number=number, task=task)

    def approvals(self) -> list[Approval]:
        return list(self.now.approvals)

    # -- one change --------------------------------------------------------------------
    def review(self, rel: str, action: Action, target: Path, write: Write) -> Review:
        """What to write for this change, once the policies and the person agree; raises
        ChangeNotAllowed or ChangeWaits otherwise."""
        existed = os.path.lexists(target)
        touch = Touch(rel, action, existing=existed and rel not in self.created)
        folder = self._folder_settings()
        task = self.now.task
        situation = Situation(
            careful=self.careful, protected=folder.protected, many_changes=folder.many_changes,
            changed_this_round=set(self.now.changed),
            task_allowed=task is not None and task.task_id in self.allowed_tasks,
            round_allowed=self.now.many_allowed)
        outcome, verdicts = decide(touch, situation)
        if outcome == "refuse":
            first = verdicts[0]
            self._note(touch, "refused", first)
            self.emit(ChangeRefused(round=self.now.number, path=rel, action=action,
                                    policy=first.policy, reason=first.reason))
            raise ChangeNotAllowed(first.reason + " Nothing was changed.")
        review = Review(write)
        if outcome == "ask":
            review = self._ask(touch, verdicts, target, write)
        return Review(self._counted(touch, existed, review.write), review.note)

    def _counted(self, touch: Touch, existed: bool, write: Write) -> Write:
        def counted(path: Path) -> None:
            write(path)
            if touch.existing:
                self.now.changed.add(touch.path)
            elif not existed:
                self.created.add(touch.path)
        counted.replaces = getattr(write, "replaces", False)  # type: ignore[attr-defined]
        counted.data = getattr(write, "data", None)  # type: ignore[attr-defined]
        return counted  # (a replace through commit_temp_file stays one: tools._replacing)

    def _ask(self, touch: Touch, verdicts: list[Verdict], target: Path, write: Write) -> Review:
        before = target.read_bytes() if target.is_file() else None
        after = None if touch.action == "delete" else self._staged(target, write)
        task = self.now.task
        nonce = pending.new_nonce()
        before_sha = sha256_bytes(before) if before is not None else None
        cid = pending.change_id(pending.change_digest(touch.path, touch.action, before_sha,
                                                      after), nonce)
        request = ApprovalRequest(round=self.now.number, task=task.text if task else "",
                                  path=touch.path, action=touch.action, before=before,
                                  after=after, reasons=[v.reason for v in verdicts],
                                  policies=[v.policy for v in verdicts], change_id=cid,
                                  web=self.now.web)
        self.emit(ChangeAsked(round=self.now.number, path=touch.path, action=touch.action,
                              policies=request.policies, reasons=request.reasons,
                              change_id=cid))
        started = time.monotonic()
        try:
            answer = self.approver.ask(request, self.cancel)
        finally:
            self.waited_s += time.monotonic() - started
        if answer is None:
            self._keep_waiting(request, verdicts[0], nonce)
        word = _ANSWER_WORDS[answer.kind]
        self._note(touch, word, verdicts[0], cid)
        self.emit(ChangeAnswered(round=self.now.number, path=touch.path, action=touch.action,
                                 answer=word, change_id=cid))
        if answer.kind == "deny":
            raise ChangeNotAllowed(refusal_sentence(touch.path, touch.action))
        if answer.kind == "allow_task" and task is not None:
            self.allowed_tasks.add(task.task_id)
        if "many_changes_at_once" in request.policies:
            self.now.many_allowed = True
        data, note = after, ""
        if answer.kind == "edit":
            data = (answer.text or "").encode("utf-8")
            note = (f" The person edited your change before allowing it: '{touch.path}' now "
                    "holds their version, not yours. Read it again before changing it further.")
        return Review(exactly(before, data), note)

    def _staged(self, target: Path, write: Write) -> bytes:
        """The bytes the change would leave in the file, computed on a copy of it."""
        stage = self.pending_dir / f"staging-{uuid.uuid4().hex[:8]}"
        stage.mkdir(parents=True, exist_ok=True)
        try:
            copy = stage / target.name
            if target.is_file():
                shutil.copy2(target, copy)
            write(copy)
            return copy.read_bytes()
        finally:
            shutil.rmtree(stage, ignore_errors=True)

    def _keep_waiting(self, request: ApprovalRequest, verdict: Verdict, nonce: str) -> NoReturn:
        task = self.now.task
        many = load_folder_settings(self.harness_dir).many_changes
        kept = pending.keep(self.pending_dir, path=request.path, action=request.action,
                            before=request.before, after=request.after,
                            task=task.text if task else "", run_id=self.run_id,
                            round_no=self.now.number, nonce=nonce, policies=request.policies,
                            reasons=request.reasons, shown=request.shown.where, many=many)
        evidence = [request.path, f"The proposed change is kept, unapplied, in "
                    f".harness/pending/{kept.id}"]
        try:
            update_board(self.board_path, lambda b: b.insert_human_before(
                task.text if task else None, kept.question, pending.OPTIONS, evidence))
        except BoardError:
            pending.drop(kept)
            raise
        self._note(Touch(request.path, request.action, True), "waiting", verdict, kept.id)
        self.emit(ChangeWaiting(round=self.now.number, path=request.path,
                                action=request.action, question=kept.question,
                                change_id=kept.id))
        raise ChangeWaits(Asked(kept.question, list(pending.OPTIONS), evidence, kind="approval"),
                          f"The person was not there to answer, so the change to "
                          f"'{request.path}' was kept without being made and the question was "
                          "put on the board. The round is over; the run continues after they "
                          "answer.")

    def _note(self, touch: Touch, answer: str, verdict: Verdict, cid: str = "") -> None:
        self.now.approvals.append(Approval(path=touch.path, action=touch.action, answer=answer,
                                           policy=verdict.policy, reason=verdict.reason,
                                           change_id=cid))

    # -- changes answered on the board ---------------------------------------------------
    def apply_answered(self, changes: RoundChanges, board: Board) -> list[str]:
        """Apply the kept changes the person allowed on the board, drop the others; return
        what the model must be told, one sentence each."""
        told = []
        for kept in pending.waiting(self.pending_dir):
            state, answer = pending.board_answer(board, kept)
            if state == "open":
                continue
            told.append(self._settle(kept, state, answer, changes))
            pending.drop(kept)
        return told

    def _settle(self, kept: pending.PendingChange, state: str, answer: str | None,
                changes: RoundChanges) -> str:
        rel, action, cid = kept.path, kept.action, kept.id
        number = self.now.number
        policy = kept.policies[0] if kept.policies else "existing_files_need_approval"
        if state == "unanswered":
            return (f"Your earlier change to '{rel}' was not made: its question was taken off "
                    "the board without an answer. The file is as it was.")
        if state in ("not_allowed", "not_shown"):
            word = state
            self.emit(ChangeAnswered(round=number, path=rel, action=action,
                                     answer=word, on_board=True, note=answer or "",
                                     change_id=cid))
            self.now.approvals.append(Approval(path=rel, action=action, answer=word,
                                               policy=policy, change_id=cid,
                                               reason=f"answered on the board: {answer}"))
            if state == "not_shown":
                return (f"Your earlier change to '{rel}' was not made: the person answered on "
                        "the board without being shown the change. The file is as it was.")
            return (refusal_sentence(rel, action) + f" (Their answer on the board: “{answer}”.)")
        target = self.root / rel
        now_sha = sha256_file(target) if target.is_file() else None
        folder = load_folder_settings(self.harness_dir)
        blocked = protected_paths(Touch(rel, action, True), Situation(protected=folder.protected))
        if blocked.outcome == "refuse":
            return f"Your earlier change to '{rel}' was allowed but not made: {blocked.reason}"
        if not kept.intact():
            return (f"Your earlier change to '{rel}' was not made: what was kept no longer "
                    "matches the change the person allowed. The file is as it was.")
        if now_sha != kept.before_sha:
            return (f"Your earlier change to '{rel}' was allowed, but the file changed after it "
                    "was shown to the person, so it was not made. Read the file again.")
        changes.before_change(rel)
        after = kept.after
        if action == "delete" or after is None:
            os.remove(target)
        else:
            write_user_file(target, after)
        changes.after_change(rel)
        self.emit(ChangeAnswered(round=number, path=rel, action=action,
                                 answer="allowed", on_board=True, change_id=cid))
        self.emit(FileChanged(round=number, path=rel,
                              change="deleted" if action == "delete" else "wrote"))
        self.now.approvals.append(Approval(path=rel, action=action, answer="allowed",
                                           policy=policy, reason="answered on the board",
                                           change_id=cid))
        done = "deleted" if action == "delete" else "changed exactly as you proposed"
        return (f"The person allowed your earlier change: '{rel}' was {done} before this "
                "round started.")


def exactly(before: bytes | None, data: bytes | None) -> Write:
    """Write `data` (None: delete), but only if the file still holds what was shown."""
    shown = sha256_bytes(before) if before is not None else None

    def write(path: Path) -> None:
        now = sha256_file(path) if path.is_file() else None
        if now != shown:
            raise ChangeNotAllowed(f"'{path.name}' changed while the person was deciding, so "
                                   "nothing was written. Read it again before changing it.")
        if data is None:
            os.remove(path)
        else:
            write_user_file(path, data)
    return write


def refusal_sentence(rel: str, action: str) -> str:
    verb = "delete" if action == "delete" else "change"
    return (f"The person did not allow you to {verb} '{rel}'. Nothing was changed. Do not "
            f"try to {verb} it again in this task; if the task needs different content, "
            "write your version to a new file instead (for example a copy with '-new' in "
            "its name) and say so in your summary.")
